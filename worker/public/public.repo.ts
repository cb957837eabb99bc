/** What the public widget API reads from a property's shard: its services, a reservation by its manage token. */
import { and, asc, eq, isNotNull, isNull, or } from "drizzle-orm";
import { reservationHistory, reservations, services } from "../db/shard.schema";
import type { Db, PropertyRow } from "../env";
import { nowIso } from "../lib/time";
import { reservationFields } from "../reservations/guest.repo";
import type { ReservationRow } from "../reservations/reservations.repo";

/**
 * Whether guests may see a property: enabled, and not an expired sandbox (deleted ones are
 * unknown to the directory already). Anything else is "not found", so a key tells nothing.
 */
export function guestVisible(p: PropertyRow): boolean {
  return p.enabled && !(p.sandbox && p.sandboxExpiresAt !== null && p.sandboxExpiresAt < nowIso());
}

/** The guest's details as typed at booking, kept in the "created" history entry. */
export interface TypedGuest {
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
}

export interface ManagedReservation {
  row: ReservationRow;
  serviceName: string | null;
  guest: TypedGuest | undefined;
}

/**
 * The reservation of a manage token within one property (a token of another property is
 * unknown here), with its service's name and the guest as typed, in one round trip.
 */
export async function findByManageToken(
  db: Db,
  propertyId: number,
  tokenHash: string,
): Promise<ManagedReservation | undefined> {
  const owned = and(eq(reservations.propertyId, propertyId), eq(reservations.manageTokenHash, tokenHash));
  const [found, created] = await db.batch([
    db
      .select({ row: reservationFields, serviceName: services.name })
      .from(reservations)
      .leftJoin(services, eq(services.id, reservations.serviceId))
      .where(owned)
      .limit(1),
    db
      .select({ changes: reservationHistory.changes })
      .from(reservationHistory)
      .innerJoin(reservations, eq(reservations.id, reservationHistory.reservationId))
      .where(and(owned, eq(reservationHistory.action, "created")))
      .orderBy(asc(reservationHistory.seq))
      .limit(1),
  ]);
  const hit = found[0];
  if (!hit) return undefined;
  return { row: hit.row, serviceName: hit.serviceName, guest: typedGuest(created[0]?.changes) };
}

/** Services a guest may book online (enabled, online, not deleted, no prepayment taken elsewhere), in id order. */
export async function listOnlineServices(db: Db, propertyId: number) {
  return (
    db
      .select()
      .from(services)
      // A prepayment taken elsewhere is not booked online; a payment through Stripe is (guest.ts, isOnline).
      .where(
        and(
          eq(services.propertyId, propertyId),
          isNull(services.deletedAt),
          eq(services.enabled, true),
          eq(services.online, true),
          or(isNull(services.prepaymentWindow), isNotNull(services.payment)),
        ),
      )
      .orderBy(asc(services.id))
  );
}

export async function serviceName(db: Db, serviceId: number | null): Promise<string | null> {
  if (serviceId === null) return null;
  const rows = await db
    .select({ name: services.name })
    .from(services)
    .where(eq(services.id, serviceId))
    .limit(1);
  return rows[0]?.name ?? null;
}

/** The history records the typed guest as `customer: [null, {first_name, ...}]`, the shape updates use. */
function typedGuest(changes: Record<string, [unknown, unknown]> | undefined): TypedGuest | undefined {
  const after = changes?.customer?.[1] as Partial<TypedGuest> | undefined;
  if (!after || typeof after !== "object") return undefined;
  return {
    first_name: String(after.first_name ?? ""),
    last_name: String(after.last_name ?? ""),
    email: String(after.email ?? ""),
    phone: after.phone ?? null,
  };
}
