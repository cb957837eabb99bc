/**
 * The guest as typed on a reservation is stored only when it differs from its customer's record:
 * `reservations.guest` NULL means "what the customer record says" (about 120 bytes a reservation
 * kept for good; nearly every guest is their own customer). Every read of a reservation goes
 * through `reservationFields`, which puts the guest back; a change of the record first writes the
 * old details into the reservations that lean on it (trigger `customers_keep_guests`, 0022).
 */
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { type Guest, reservations } from "../db/shard.schema";

/** The customer record `c` as a guest, in the key order JSON.stringify gives a Guest; none once erased. */
export const CUSTOMER_AS_GUEST = `CASE WHEN c.erased_at IS NULL THEN json_object('first_name', c.first_name, 'last_name', c.last_name, 'email', c.email, 'phone', c.phone) END`;

/** The reservation's guest: its own, else its customer's details. */
const guestOrCustomer = sql`coalesce(${reservations.guest}, (SELECT ${sql.raw(CUSTOMER_AS_GUEST)} FROM customers c WHERE c.id = ${reservations.customerId}))`;

/** Every column of a reservation, with the guest put back: what every read of one selects. */
export const reservationFields = {
  ...getTableColumns(reservations),
  guest: guestOrCustomer.mapWith(reservations.guest),
};

/**
 * The guest written out on each reservation that leans on its customer's record, before the
 * record changes under it (a merge moves it to another record; an erasure empties it): what the
 * reservation shows stays the same, so the outbox sees no change of it.
 */
export const GUEST_WRITTEN_OUT = guestOrCustomer;

/**
 * The guest as a write stores it: NULL when customer `customerId` says exactly that as the batch
 * writes (the database decides, so a record changed or erased since it was read is never leaned
 * on; a record the batch inserts or updates first is), the guest as typed otherwise.
 */
export function storedGuest(guest: Guest, customerId: number | SQL): SQL {
  const typed = JSON.stringify(guest);
  return sql`CASE WHEN (SELECT ${sql.raw(CUSTOMER_AS_GUEST)} FROM customers c WHERE c.id = ${customerId}) = ${typed} THEN NULL ELSE ${typed} END`;
}

/** A column's phone as digits alone: spaces and punctuation out, then the leading + and zeros (00 39..., 0 trunk). */
const digitsOf = (column: SQL) =>
  sql`ltrim(replace(replace(replace(replace(replace(replace(replace(coalesce(${column}, ''), ' ', ''), '(', ''), ')', ''), '.', ''), '-', ''), '/', ''), '+', ''), '0')`;

/**
 * A search that looks like a phone number (digits and punctuation, six digits or more) matched on
 * digits, whatever the format and country code on either side: "4155550120" and "+14155550120"
 * both find "(415) 555-0120". Undefined when the text is no phone number.
 */
export function phoneMatches(column: SQL, text: string): SQL | undefined {
  if (!/^[\d\s()+\-./]+$/.test(text)) return undefined;
  const digits = text.replace(/\D/g, "").replace(/^0+/, "");
  if (digits.length < 6) return undefined;
  const stored = digitsOf(column);
  // the stored number holds the typed one (typed without its country code), or the typed one ends
  // with the stored number (stored without one)
  return sql`(instr(${stored}, ${digits}) > 0 OR (length(${stored}) >= 6 AND substr(${digits}, -length(${stored})) = ${stored}))`;
}
