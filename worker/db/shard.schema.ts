/**
 * A shard (`SHARD_0` ... `SHARD_<n-1>`): everything a property owns, for the
 * properties the directory (control.schema.ts) places here. Times are ISO strings in UTC unless
 * the column name says "local"; reservation dates and hours are the property's wall-clock time
 * (the API shows no zone). Ids come from this shard's own range (worker/shards/shards.ts), so they are
 * unique across shards and a move keeps them. Each index carries a one-line reason: the lookup
 * it serves; CHECK constraints state the invariants the code relies on.
 */
import { sql } from "drizzle-orm";
import {
  check,
  customType,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import type { TableLayout } from "../../shared/floor";
import type { PaymentAccount, PaymentPolicy, PaymentState } from "../../shared/payment";
import { CHANNELS, RESERVATION_STATUSES } from "../../shared/schemas";
import { ACCOUNT_TEMPLATES, MESSAGE_STATES, MESSAGE_TEMPLATES, OFFER_STATES, WALK_IN_STATES } from "./enums";

/** A guest as typed on one reservation. */
export interface Guest {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
}

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;
const createdAt = () => text("created_at").notNull().default(now);
const oneOf = (values: readonly string[]) => sql.raw(`(${values.map((v) => `'${v}'`).join(", ")})`);

/** Where a property's rows stand in a move between shards (worker/ops/move.ts). */
export const SHARD_STATES = ["live", "leaving", "arriving"] as const;

/**
 * The property itself: the directory's id, the API's fields and its settings. `shard_state` is
 * "leaving" on the shard a move copies from and "arriving" on the one it copies to: triggers
 * refuse every write to the property's rows then, except the move's own (`copying` set within
 * its batch), and business triggers (outbox, holds, versions) stay quiet for copied rows.
 */
export const properties = sqliteTable(
  "properties",
  {
    id: integer("id").primaryKey(),
    publicKey: text("public_key").notNull(),
    ownerClientId: integer("owner_client_id").notNull(),
    name: text("name").notNull(),
    email: text("email"),
    username: text("username"),
    passwordHash: text("password_hash"),
    website: text("website"),
    phone: text("phone"),
    description: text("description"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    sandbox: integer("sandbox", { mode: "boolean" }).notNull().default(true),
    sandboxExpiresAt: text("sandbox_expires_at"),
    searchengineEnabled: integer("searchengine_enabled", { mode: "boolean" }).notNull().default(false),
    /** JSON: {latitude, longitude, country, address, city, zip} or {} */
    position: text("position", { mode: "json" }).notNull().default(sql`'{}'`),
    /** JSON: the settings the caller set; defaults are applied on read */
    settings: text("settings", { mode: "json" }).notNull().default(sql`'{}'`),
    /** bumped by triggers on every write to rooms, tables, group members and services: keys the engine's catalog cache */
    catalogVersion: integer("catalog_version").notNull().default(0),
    /** bumped by triggers on every write to reservation_tables: keys the slot listing's cache of a window's holds */
    holdsVersion: integer("holds_version").notNull().default(0),
    /**
     * JSON: the restaurant's Stripe account as Stripe last told it (worker/payments): {id,
     * charges_enabled, details_submitted, default_currency}; null: none connected
     */
    paymentAccount: text("payment_account", { mode: "json" }).$type<PaymentAccount | null>(),
    shardState: text("shard_state", { enum: SHARD_STATES }).notNull().default("live"),
    /** 1 only inside a move's own batches */
    copying: integer("copying").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    check("properties_shard_state_ck", sql`${t.shardState} IN ${oneOf(SHARD_STATES)}`),
    check("properties_copying_ck", sql`${t.copying} IN (0, 1)`),
  ],
);

export const rooms = sqliteTable(
  "rooms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    name: text("name").notNull(),
    bookable: integer("bookable", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // GET /rooms and the engine's catalog load: a property's rooms
    index("rooms_property_idx").on(t.propertyId, t.id),
  ],
);

export const diningTables = sqliteTable(
  "dining_tables",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    roomId: integer("room_id")
      .notNull()
      .references(() => rooms.id),
    name: text("name").notNull(),
    guestsMin: integer("guests_min").notNull().default(1),
    guestsMax: integer("guests_max").notNull(),
    bookable: integer("bookable", { mode: "boolean" }).notNull().default(true),
    online: integer("online", { mode: "boolean" }).notNull().default(true),
    isGroup: integer("is_group", { mode: "boolean" }).notNull().default(false),
    /**
     * a group whose guests_max was not set explicitly: triggers (migrations/shard/0003) keep it the
     * sum of its members' (never below its guests_min) when they change
     */
    guestsMaxAuto: integer("guests_max_auto", { mode: "boolean" }).notNull().default(false),
    /** JSON {x, y, width, height, shape, rotation}: where the owner placed it on the floor plan; null: not placed */
    layout: text("layout", { mode: "json" }).$type<TableLayout | null>(),
    createdAt: createdAt(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // GET /tables and the engine's catalog load: a property's tables
    index("dining_tables_property_idx").on(t.propertyId, t.id),
    // a room's tables (room responses, room deletion)
    index("dining_tables_room_idx").on(t.roomId),
    check("dining_tables_guests_ck", sql`${t.guestsMin} >= 1 AND ${t.guestsMin} <= ${t.guestsMax}`),
  ],
);

/** Members of a group table (a combination of two or more tables of one room). */
export const tableGroupMembers = sqliteTable(
  "table_group_members",
  {
    groupId: integer("group_id")
      .notNull()
      .references(() => diningTables.id),
    memberId: integer("member_id")
      .notNull()
      .references(() => diningTables.id),
  },
  (t) => [
    // a group's members
    primaryKey({ columns: [t.groupId, t.memberId] }),
    // the groups a table belongs to (deletion guard, availability)
    index("table_group_members_member_idx").on(t.memberId),
  ],
);

export const services = sqliteTable(
  "services",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    name: text("name").notNull(),
    description: text("description"),
    imageUrl: text("image_url"),
    /** JSON array of ISO weekdays, 1 = Monday .. 7 = Sunday */
    weekdays: text("weekdays", { mode: "json" }).notNull().$type<number[]>(),
    startHour: text("start_hour").notNull(),
    endHour: text("end_hour").notNull(),
    slotInterval: integer("slot_interval"),
    averageStay: integer("average_stay"),
    paxMin: integer("pax_min").notNull().default(1),
    paxMax: integer("pax_max"),
    online: integer("online", { mode: "boolean" }).notNull().default(true),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    validFrom: text("valid_from"),
    validTo: text("valid_to"),
    /** minutes a guest has to pay; null: no prepayment (reservations start ACCEPTED, not PREPAY) */
    prepaymentWindow: integer("prepayment_window"),
    /** JSON: what a booking pays through Stripe (shared/payment.ts PaymentPolicy); null: nothing */
    payment: text("payment", { mode: "json" }).$type<PaymentPolicy | null>(),
    /**
     * Pacing: at most so many covers and parties may start in one interval of
     * pacing_interval minutes, counted from start_hour; null: no limit. A trigger (0003) refuses
     * the insert or move that would pass them, so parallel bookings cannot both pass.
     */
    pacingInterval: integer("pacing_interval").notNull().default(15),
    maxCoversPerInterval: integer("max_covers_per_interval"),
    maxPartiesPerInterval: integer("max_parties_per_interval"),
    createdAt: createdAt(),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // GET /services and the engine's catalog load
    index("services_property_idx").on(t.propertyId, t.id),
    // pacing_interval 5..240, limits >= 1: trigger services_pacing_check (0003; a CHECK added to an
    // existing table makes drizzle-kit rebuild it, which would drop its triggers)
    check("services_stay_ck", sql`${t.averageStay} IS NULL OR ${t.averageStay} BETWEEN 5 AND 1440`),
    check("services_interval_ck", sql`${t.slotInterval} IS NULL OR ${t.slotInterval} BETWEEN 5 AND 240`),
    check("services_pax_ck", sql`${t.paxMin} >= 1 AND (${t.paxMax} IS NULL OR ${t.paxMax} >= ${t.paxMin})`),
  ],
);

export const closures = sqliteTable(
  "closures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    startHour: text("start_hour"),
    endHour: text("end_hour"),
    roomIds: text("room_ids", { mode: "json" }).$type<number[] | null>(),
    tableIds: text("table_ids", { mode: "json" }).$type<number[] | null>(),
    serviceIds: text("service_ids", { mode: "json" }).$type<number[] | null>(),
    reason: text("reason"),
    createdAt: createdAt(),
  },
  (t) => [
    // the engine reads the closures that touch the days asked for
    index("closures_property_dates_idx").on(t.propertyId, t.startDate, t.endDate),
  ],
);

export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    firstName: text("first_name"),
    lastName: text("last_name"),
    email: text("email"),
    phone: text("phone"),
    banned: integer("banned", { mode: "boolean" }).notNull().default(false),
    /** the guest's language (en, it, fr, de, es), from their online bookings or staff */
    locale: text("locale"),
    /** JSON array of the restaurant's labels ("vip", "regular") */
    tags: text("tags", { mode: "json" }).notNull().$type<string[]>().default(sql`'[]'`),
    /** the guest's standing allergies (a reservation carries its own too) */
    allergies: text("allergies"),
    /** staff only */
    notes: text("notes"),
    marketingConsent: integer("marketing_consent", { mode: "boolean" }).notNull().default(false),
    /** set when the personal data was erased (DELETE /customers/{id}); the row stays for the reservations */
    erasedAt: text("erased_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // customers are matched by email, then phone, within a property; one customer per email,
    // so two first bookings racing with one email cannot make two customers
    uniqueIndex("customers_property_email_uq").on(t.propertyId, t.email),
    index("customers_property_phone_idx").on(t.propertyId, t.phone),
  ],
);

export const reservations = sqliteTable(
  "reservations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    customerId: integer("customer_id").references(() => customers.id),
    serviceId: integer("service_id").references(() => services.id),
    roomId: integer("room_id").references(() => rooms.id),
    /** local wall-clock date and hour of the start */
    startDate: text("start_date").notNull(),
    startHour: text("start_hour").notNull(),
    /** local wall-clock minutes since 1970-01-01 00:00, for overlap arithmetic */
    startMin: integer("start_min").notNull(),
    endMin: integer("end_min").notNull(),
    /**
     * WAITING: the latest start the party takes (minutes like start_min, the earliest); null: only
     * start_min. A freed table is offered at the earliest start of this range that fits.
     */
    waitUntilMin: integer("wait_until_min"),
    pax: integer("pax").notNull(),
    status: text("status").notNull(),
    channel: text("channel").notNull(),
    waitingList: integer("waiting_list", { mode: "boolean" }).notNull().default(false),
    /** staff only: never shown to the guest */
    notes: text("notes"),
    /** the guest's own words */
    specialRequest: text("special_request"),
    /** birthday, anniversary, business, date or other */
    occasion: text("occasion"),
    allergies: text("allergies"),
    /**
     * JSON {first_name, last_name, email, phone}: the guest as typed for this reservation, which may
     * differ from the matched customer's record (a match is never rewritten)
     */
    guest: text("guest", { mode: "json" }).$type<Guest | null>(),
    /** staff booked or moved it past the service's pacing ("override_pacing": true); the trigger lets it pass */
    overridePacing: integer("override_pacing", { mode: "boolean" }).notNull().default(false),
    /** why it expired: no_show (not checked in by start + no_show_after_minutes, or staff said so) or unpaid */
    statusReason: text("status_reason"),
    lastStatusChange: text("last_status_change").notNull().default(now),
    checkinDate: text("checkin_date"),
    checkoutDate: text("checkout_date"),
    expirationDate: text("expiration_date"),
    manageTokenHash: text("manage_token_hash"),
    /** JSON: the tables given to the party, as shown; reservation_tables holds them only while the status holds */
    tableIds: text("table_ids", { mode: "json" }).notNull().$type<number[]>().default(sql`'[]'`),
    /** PREPAY: when the payment window closes (UTC) */
    paymentDueAt: text("payment_due_at"),
    /**
     * JSON: the money of a booking whose service asks for it (shared/payment.ts PaymentState): what
     * is owed, paid, saved or refunded, as the API shows it; Stripe's ids are in reservation_payments
     */
    payment: text("payment", { mode: "json" }).$type<PaymentState | null>(),
    /** the status before check-in and before check-out, so undo restores it exactly */
    checkinPrevStatus: text("checkin_prev_status"),
    checkoutPrevStatus: text("checkout_prev_status"),
    /** optimistic lock: every update sets version = old + 1, a trigger refuses anything else */
    version: integer("version").notNull().default(0),
    /** the properties.catalog_version its tables were chosen on; a trigger refuses a stale one */
    catalogVersion: integer("catalog_version"),
    /**
     * JSON: the customer's details as this reservation last wrote them, so a change of them is a
     * change of the reservation (its webhook event) and a late delivery shows them as they were
     */
    customerSnapshot: text("customer_snapshot"),
    /** the guest's language for messages (en, it, fr, de, es); null: the property's */
    guestLocale: text("guest_locale"),
    /** false: the guest is not emailed about this reservation (staff's `"notify": false`) */
    notifyGuest: integer("notify_guest", { mode: "boolean" }).notNull().default(true),
    /** random; with the LINK_SECRET it gives the manage token (worker/messages/links.ts), whose hash is manage_token_hash */
    manageNonce: text("manage_nonce"),
    /**
     * Bookings made through the search engine's booking server (worker/searchengine): the user id
     * the search engine gave its user (ListBookings), and the CreateBooking idempotency token. Both
     * null for every other reservation; a trigger keeps them to channel SEARCHENGINE.
     */
    searchengineUserId: text("searchengine_user_id"),
    searchengineToken: text("searchengine_token"),
    /**
     * Who made the last change, as its history entry names them ("staff:<id>", "client:<id>",
     * "guest", ...): the outbox trigger's event takes it from here (migrations/shard 0033), whatever
     * order the change's batch writes its history in.
     */
    changedBy: text("changed_by"),
    // No created_at or updated_at: the history has the time of every change (the "created" entry
    // first), and nothing read them (48 bytes a reservation, kept for good).
  },
  (t) => [
    // GET /reservations: a property's reservations by start, then id; also a service's arrivals
    // (the pacing triggers), a service's or room's upcoming reservations (their deletion guard) and
    // the list's service and room filters: a property's reservations in a span of minutes are few,
    // so no index by service or room (32 bytes a reservation each, kept for good)
    index("reservations_property_start_idx").on(t.propertyId, t.startMin, t.id),
    // the booking server's ListBookings: a search-engine user's bookings, across properties
    index("reservations_searchengine_user_idx")
      .on(t.searchengineUserId)
      .where(sql`${t.searchengineUserId} IS NOT NULL`),
    // CreateBooking is idempotent on its token: one booking per token and property, whatever the concurrency
    uniqueIndex("reservations_searchengine_token_uq")
      .on(t.propertyId, t.searchengineToken)
      .where(sql`${t.searchengineToken} IS NOT NULL`),
    // the guest's manage link; a booking that emails nobody has none (a lookup by = implies NOT NULL, so SQLite uses it)
    index("reservations_manage_token_idx").on(t.manageTokenHash).where(sql`${t.manageTokenHash} IS NOT NULL`),
    // the cron that expires unpaid PREPAY reservations: only those of a service that takes payment have a due time
    index("reservations_status_due_idx")
      .on(t.status, t.paymentDueAt)
      .where(sql`${t.paymentDueAt} IS NOT NULL`),
    // a customer's visits and counts, merge and erasure
    index("reservations_customer_idx").on(t.customerId, t.startMin),
    check("reservations_status_ck", sql`${t.status} IN ${oneOf(RESERVATION_STATUSES)}`),
    // occasion in OCCASIONS and status_reason in (no_show, unpaid): trigger reservations_values_check
    // (0003), for the reason given at services
    check("reservations_channel_ck", sql`${t.channel} IN ${oneOf(CHANNELS)}`),
    // a stay is 5 minutes to a day (the engine's hold arithmetic and the overlap trigger rely on it)
    check("reservations_stay_ck", sql`${t.endMin} - ${t.startMin} BETWEEN 5 AND 1440`),
    check("reservations_pax_ck", sql`${t.pax} >= 1`),
    // wait_until_min null or >= start_min: trigger reservations_wait_until_check (0029), for the
    // reason given at services
  ],
);

/**
 * A time kept as integer milliseconds since the epoch (6 bytes, not 24 of ISO text), read and
 * written as the ISO string every other time column is.
 */
const epochMillis = customType<{ data: string; driverData: number }>({
  dataType: () => "integer",
  toDriver: (iso) => Date.parse(iso),
  fromDriver: (ms) => new Date(Number(ms)).toISOString(),
});
/** The database's clock, in epochMillis. */
export const NOW_MILLIS = sql`(CAST(round((julianday('now') - 2440587.5) * 86400000) AS INTEGER))`;

/**
 * Every change of a reservation: who, when, what. Kept for good, so lean: the
 * entries of a reservation are clustered under it (WITHOUT ROWID, migration 0025: no index of
 * their own, 91 bytes a reservation), numbered 1, 2, ... within it, their time in milliseconds.
 * drizzle cannot say WITHOUT ROWID: a migration that rebuilds this table must be edited to keep
 * it, and to create the table's triggers again (0025 shows both).
 */
export const reservationHistory = sqliteTable(
  "reservation_history",
  {
    reservationId: integer("reservation_id")
      .notNull()
      .references(() => reservations.id),
    /** the entry's number within its reservation, from 1 (history.repo.ts insertHistory) */
    seq: integer("seq").notNull(),
    at: epochMillis("at").notNull().default(NOW_MILLIS),
    /** who: "staff:<id>", "client:<id>", "guest", "searchengine" or "system" (worker/audit/actor.ts) */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    fromStatus: text("from_status"),
    toStatus: text("to_status"),
    /** JSON: {field: [before, after]} of what changed */
    changes: text("changes", { mode: "json" })
      .notNull()
      .$type<Record<string, [unknown, unknown]>>()
      .default(sql`'{}'`),
  },
  // GET /reservations/{id}/history reads the key's range
  (t) => [primaryKey({ columns: [t.reservationId, t.seq] })],
);

/**
 * The tables a reservation holds while its status holds (PREPAY, ACCEPTED, CONFIRMED,
 * OUTOFORDER), with its time span copied for the overlap check. A group is held as itself
 * and each of its members, so a group and its members block each other. A trigger
 * (migrations/0001) refuses any row that overlaps another reservation's hold on the table.
 */
export const reservationTables = sqliteTable(
  "reservation_tables",
  {
    reservationId: integer("reservation_id")
      .notNull()
      .references(() => reservations.id),
    tableId: integer("table_id")
      .notNull()
      .references(() => diningTables.id),
    startMin: integer("start_min").notNull(),
    endMin: integer("end_min").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reservationId, t.tableId] }),
    // overlap check, deletion guard and the engine's holds: a table's reservations in a time
    // span, covering (end_min too), so reading a window's holds never visits the table's rows
    index("reservation_tables_table_time_idx").on(t.tableId, t.startMin, t.endMin),
    check("reservation_tables_stay_ck", sql`${t.endMin} - ${t.startMin} BETWEEN 5 AND 1440`),
  ],
);

/**
 * Every deletion of a room, table or service, and every change of a table's group members
 * or room ("regroup"), written first in that change's batch. A trigger (migrations/0001)
 * aborts the batch while an upcoming reservation uses the target, so the check and the
 * change are one atomic step.
 */
export const catalogChanges = sqliteTable(
  "catalog_changes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    kind: text("kind", { enum: ["room", "table", "service", "regroup"] }).notNull(),
    targetId: integer("target_id").notNull(),
    /** the property's local minutes at the deletion: reservations ending later are upcoming */
    nowMin: integer("now_min").notNull(),
    at: text("at").notNull().default(now),
  },
  (t) => [
    // retention: guard rows have done their work once their batch committed
    index("catalog_changes_at_idx").on(t.at),
    check("catalog_changes_kind_ck", sql`${t.kind} IN ('room', 'table', 'service', 'regroup')`),
  ],
);

/**
 * A guard row of each online booking (PLATFORM_BOOK, SEARCHENGINE), written first in the
 * booking's batch and deleted again at its end, so the table stays empty: a trigger
 * (guest_booking_checks_limit) aborts the batch when the guest's email or phone already holds
 * `max_bookings` active future online bookings of the property. Check and booking are one
 * atomic step, so parallel bookings of one guest cannot all pass the count.
 */
export const guestBookingChecks = sqliteTable(
  "guest_booking_checks",
  {
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    /** as the guest typed them; the trigger compares them folded (plus-tags, phone punctuation) */
    email: text("email"),
    phone: text("phone"),
    /** the property's local minutes now: bookings starting later are the guest's future ones */
    nowMin: integer("now_min").notNull(),
    maxBookings: integer("max_bookings").notNull(),
  },
  (t) => [check("guest_booking_checks_max_ck", sql`${t.maxBookings} >= 1`)],
);

// ---------- payments (worker/payments) ----------

/**
 * Stripe's side of a reservation's payment: the connected account it is taken on, the intent
 * (a PaymentIntent pi_..., or a SetupIntent seti_... for a card saved as a guarantee), the
 * guarantee's customer and saved card, and the no-show fee's own PaymentIntent. Ids only: no card
 * data and no client secret is ever stored.
 */
export const reservationPayments = sqliteTable(
  "reservation_payments",
  {
    reservationId: integer("reservation_id")
      .primaryKey()
      .references(() => reservations.id),
    account: text("account").notNull(),
    intent: text("intent"),
    customer: text("customer"),
    paymentMethod: text("payment_method"),
    feeIntent: text("fee_intent"),
    /** a refund a closed booking owes, not yet made at Stripe (minor units); null: none */
    refundDue: integer("refund_due"),
    /** tries of the owed refund so far, and when the next is due (the cron, with backoff) */
    refundAttempts: integer("refund_attempts").notNull().default(0),
    refundNextAt: text("refund_next_at"),
    refundError: text("refund_error"),
    createdAt: createdAt(),
  },
  (t) => [
    // Stripe's events name the intent (a charge.refunded names only its PaymentIntent)
    uniqueIndex("reservation_payments_intent_uq").on(t.intent),
    uniqueIndex("reservation_payments_fee_intent_uq").on(t.feeIntent),
    index("reservation_payments_refund_due_idx").on(t.refundNextAt).where(sql`${t.refundDue} IS NOT NULL`),
  ],
);

/**
 * Stripe events applied in this shard, each once: the row is written in the same batch as what the
 * event changes, so a replay (Stripe retries, or a forged copy of a real one) fails the batch and
 * changes nothing. Kept 30 days, past Stripe's three days of retries.
 */
export const stripeEvents = sqliteTable(
  "stripe_events",
  {
    id: text("id").primaryKey(),
    propertyId: integer("property_id").notNull(),
    type: text("type").notNull(),
    at: text("at").notNull().default(now),
  },
  // retention: the cron drops rows older than 30 days
  (t) => [index("stripe_events_at_idx").on(t.at)],
);

// ---------- webhooks ----------

/**
 * A client's subscription to one event type of one property. One reserved kind has no client
 * (client_id 0, so no client lists or changes it): webhook_type SEARCHENGINE_BOOKING, the search
 * engine's booking notifications, sent by worker/searchengine/notify.ts.
 */
export const webhookSubscriptions = sqliteTable(
  "webhook_subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** the API client (control database) the subscription belongs to */
    clientId: integer("client_id").notNull(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    endpoint: text("endpoint").notNull(),
    webhookType: text("webhook_type").notNull(),
    /** whsec_<base64>: HMAC keys must be readable to sign, so they are stored, never shown again */
    secret: text("secret").notNull(),
    /** the secret before the last rotation, still signing until previous_secret_expires_at */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: text("previous_secret_expires_at"),
    /** set when the receiver answered 410 Gone (or the endpoint became unacceptable); PUT re-enables */
    disabledAt: text("disabled_at"),
    disabledReason: text("disabled_reason"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
    deletedAt: text("deleted_at"),
  },
  (t) => [
    // GET /webhooks/subscriptions: a client's subscriptions by id
    index("webhook_subscriptions_client_idx").on(t.clientId, t.id),
    // the outbox triggers: who listens to this property's events of this type
    index("webhook_subscriptions_property_type_idx").on(t.propertyId, t.webhookType),
    // the search engine's notification subscription (worker/searchengine): at most one live per property
    uniqueIndex("webhook_subscriptions_searchengine_uq")
      .on(t.propertyId)
      .where(sql`${t.webhookType} = 'SEARCHENGINE_BOOKING' AND ${t.deletedAt} IS NULL`),
  ],
);

/**
 * The outbox: one row per reported change of a reservation, written by a trigger in the same
 * statement as the change (migrations/0002), so no change exists without its event.
 */
export const webhookEvents = sqliteTable(
  "webhook_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /**
     * The webhook-id header, the same on every retry and replay: 'msg_' and the event's id (ids are
     * unique across shards and kept by a move), so new events store '' (a trigger empties it,
     * migrations/shard/0021) and webhooks.repo.ts reads WEBHOOK_ID; events written before keep the
     * random one they were sent with. Never looked up, so no index.
     */
    uid: text("uid").notNull(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    reservationId: integer("reservation_id")
      .notNull()
      .references(() => reservations.id),
    type: text("type").notNull(),
    /**
     * What the outbox triggers write: the reservation row right after the change (JSON), the row's
     * columns before it (updates only) and no payload. A trigger moves them to webhook_event_bodies
     * in the same statement (migrations/shard/0014) and leaves '{}', null, null here: the event's
     * record stays small for its whole retention, the body goes once delivered.
     */
    snapshot: text("snapshot").notNull(),
    previous: text("previous"),
    payload: text("payload"),
    /** who made the change (the reservation's changed_by, copied by a trigger): the payload's `actor` */
    actor: text("actor"),
    createdAt: createdAt(),
  },
  (_t) => [
    // none: the retention purge finds events through the deliveries it drops (webhooks.repo.ts)
  ],
);

/**
 * The body of an event while any of its deliveries is undelivered (pending, or failed and so
 * replayable): deleted, not emptied, once every delivery is delivered, so its pages go back to
 * SQLite's free list for new rows (a row shrunk in place would keep its page for good).
 */
export const webhookEventBodies = sqliteTable("webhook_event_bodies", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => webhookEvents.id),
  /** JSON: the reservation row right after the change */
  snapshot: text("snapshot").notNull(),
  /** JSON: the row's columns before the change (updates only) */
  previous: text("previous"),
  /** the body, fixed at the first attempt so every retry and replay sends the same bytes */
  payload: text("payload"),
});

/** One event to one subscription: its state and schedule. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => webhookEvents.id),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => webhookSubscriptions.id),
    /** the event's property, copied: the queue's message names it, so the consumer finds the shard */
    propertyId: integer("property_id").notNull(),
    /** the event's reservation, copied so the order check is one index seek */
    reservationId: integer("reservation_id").notNull(),
    state: text("state", { enum: ["pending", "delivered", "failed"] }).notNull(),
    /** attempts in all, and since the last replay (the retry schedule counts these) */
    attempts: integer("attempts").notNull().default(0),
    cycleAttempts: integer("cycle_attempts").notNull().default(0),
    nextAttemptAt: text("next_attempt_at").notNull(),
    /** a consumer holds the delivery until then: two copies of a message never send twice at once */
    leaseUntil: text("lease_until"),
    /** when a queue message for it was last sent (or is due); the sweeper re-sends what no queue took */
    queuedAt: text("queued_at"),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    deliveredAt: text("delivered_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // GET /webhooks/subscription/{id}/deliveries
    index("webhook_deliveries_subscription_idx").on(t.subscriptionId, t.id),
    // the dispatcher and the sweeper: pending deliveries that are due (only pending ones: the rest never are)
    index("webhook_deliveries_due_idx").on(t.state, t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    // an event's deliveries: whether any is still undelivered (its body is then kept), and the purge of events left without
    index("webhook_deliveries_event_idx").on(t.eventId),
    // ordering per reservation: an earlier delivery of the same reservation to the same subscription
    index("webhook_deliveries_order_idx").on(t.subscriptionId, t.reservationId, t.id),
    // retention: delivered ones by when, failed ones by when created
    index("webhook_deliveries_done_idx").on(t.state, t.deliveredAt),
    check("webhook_deliveries_state_ck", sql`${t.state} IN ('pending', 'delivered', 'failed')`),
  ],
);

/** Every attempt to deliver: what the receiver answered and how fast. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: integer("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    at: text("at").notNull(),
    /** null when no HTTP answer came (refused, timed out, endpoint not allowed) */
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
    responseExcerpt: text("response_excerpt"),
  },
  (t) => [
    // the attempts of a page of deliveries
    index("webhook_attempts_delivery_idx").on(t.deliveryId, t.id),
  ],
);

// ---------- messages to guests and restaurants ----------

/**
 * The messages outbox: one row per email, written in the same batch as the change it tells of
 * (reservations/booking.ts plans them, the repository writes them with the change), sent at least
 * once and never twice: `uid` is its Message-ID on every attempt, a lease keeps two senders apart,
 * and its MIME in message_bodies (kept by the first attempt that fails) makes every retry the same bytes.
 */
export const messages = sqliteTable(
  "messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** the Message-ID's local part: random, the same on every attempt */
    uid: text("uid").notNull(),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    /** null: a message about the restaurant's account (a console password reset), not a reservation */
    reservationId: integer("reservation_id").references(() => reservations.id),
    template: text("template", { enum: MESSAGE_TEMPLATES }).notNull(),
    recipient: text("recipient", { enum: ["guest", "restaurant"] }).notNull(),
    toAddress: text("to_address").notNull(),
    locale: text("locale").notNull(),
    /** the calendar entry's SEQUENCE: the reservation's version at the change */
    sequence: integer("sequence").notNull().default(0),
    /** JSON: the reservation as this message tells it, at the change (worker/messages/plan.ts) */
    snapshot: text("snapshot").notNull(),
    state: text("state", { enum: MESSAGE_STATES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** when it is due: at once, or a reminder's time, or a retry's */
    nextAttemptAt: text("next_attempt_at").notNull(),
    leaseUntil: text("lease_until"),
    queuedAt: text("queued_at"),
    lastError: text("last_error"),
    sentAt: text("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("messages_uid_uq").on(t.uid),
    // GET /reservations/{id}/messages, the order check and the reminder's replacement
    index("messages_reservation_idx").on(t.reservationId, t.id),
    // the dispatcher and the sweeper: pending messages that are due
    index("messages_due_idx").on(t.state, t.nextAttemptAt),
    check("messages_template_ck", sql`${t.template} IN ${oneOf(MESSAGE_TEMPLATES)}`),
    check("messages_recipient_ck", sql`${t.recipient} IN ('guest', 'restaurant')`),
    check("messages_state_ck", sql`${t.state} IN ${oneOf(MESSAGE_STATES)}`),
    check("messages_sent_ck", sql`${t.state} <> 'sent' OR ${t.sentAt} IS NOT NULL`),
    check(
      "messages_reservation_ck",
      sql`${t.reservationId} IS NOT NULL OR ${t.template} IN ${oneOf(ACCOUNT_TEMPLATES)}`,
    ),
  ],
);

/**
 * A message's MIME (about 5 KB), kept by the first attempt that fails, while a retry may need the
 * very same bytes (a message sent at its first attempt never writes one): a trigger deletes it
 * once the message is no longer pending (migrations/shard/0016), so
 * its pages go back to SQLite's free list instead of staying half empty under a shrunk row.
 */
export const messageBodies = sqliteTable("message_bodies", {
  messageId: integer("message_id")
    .primaryKey()
    .references(() => messages.id),
  raw: text("raw").notNull(),
});

/**
 * Waiting-list offers: a table freed at a time a WAITING party asked for is offered
 * to the earliest such party by email, for `offer_minutes`; claiming it makes the reservation
 * ACCEPTED if the table is still free; an expired or declined offer passes to the next party.
 */
export const waitlistOffers = sqliteTable(
  "waitlist_offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    /** the WAITING reservation offered a table */
    reservationId: integer("reservation_id")
      .notNull()
      .references(() => reservations.id),
    /** random; with the LINK_SECRET it gives the offer's link token, whose hash is token_hash */
    nonce: text("nonce").notNull(),
    tokenHash: text("token_hash").notNull(),
    state: text("state", { enum: OFFER_STATES }).notNull().default("open"),
    expiresAt: text("expires_at").notNull(),
    closedAt: text("closed_at"),
    /** the start offered (minutes like reservations.start_min): within the party's range; null on offers made before ranges */
    startMin: integer("start_min"),
    createdAt: createdAt(),
  },
  (t) => [
    // the claim link
    uniqueIndex("waitlist_offers_token_uq").on(t.tokenHash),
    // the cron's expiry: open offers by when they lapse
    index("waitlist_offers_open_idx").on(t.state, t.expiresAt),
    // who was offered already (never twice), and the open offer of a party
    index("waitlist_offers_reservation_idx").on(t.reservationId),
    check("waitlist_offers_state_ck", sql`${t.state} IN ${oneOf(OFFER_STATES)}`),
    check("waitlist_offers_closed_ck", sql`(${t.state} = 'open') = (${t.closedAt} IS NULL)`),
  ],
);

// ---------- the evening at the restaurant: walk-ins waiting, the day's notes ----------

/**
 * The walk-in waiting list: a party at the door waiting for a table, quoted a wait when it joined.
 * "waiting" -> "notified" (told their table is ready) -> "seated" (with the walk-in reservation
 * that seated them) or "left"; a closed entry keeps when it closed.
 */
export const walkIns = sqliteTable(
  "walk_ins",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    pax: integer("pax").notNull(),
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    notes: text("notes"),
    /** the wait quoted when the party joined, in minutes */
    quotedMinutes: integer("quoted_minutes"),
    state: text("state", { enum: WALK_IN_STATES }).notNull().default("waiting"),
    notifiedAt: text("notified_at"),
    reservationId: integer("reservation_id").references(() => reservations.id),
    closedAt: text("closed_at"),
    createdAt: createdAt(),
  },
  (t) => [
    // the open list of a property, in the order parties joined
    index("walk_ins_open_idx").on(t.propertyId, t.closedAt, t.id),
    check("walk_ins_state_ck", sql`${t.state} IN ${oneOf(WALK_IN_STATES)}`),
    check("walk_ins_pax_ck", sql`${t.pax} BETWEEN 1 AND 1000`),
    check("walk_ins_closed_ck", sql`(${t.state} IN ('seated', 'left')) = (${t.closedAt} IS NOT NULL)`),
  ],
);

/** The staff's notes for one day of service (the shift's briefing): one text a day. */
export const shiftNotes = sqliteTable(
  "shift_notes",
  {
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    /** the local date */
    date: text("date").notNull(),
    text: text("text").notNull(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    // a day's note, and a range of days
    primaryKey({ columns: [t.propertyId, t.date] }),
  ],
);

/**
 * The range this shard hands out ids from: one row, its start (`base`; ids base + 1 to base +
 * 10^12). Shard k starts at k * 10^12; a move that brings in ids at or above the shard's counters
 * moves it to a fresh range above every id (control.schema.ts, id_ranges). Triggers refuse a new
 * row whose id falls outside it; `copying` lets a move's batch write rows with the ids they have.
 */
export const idRange = sqliteTable(
  "id_range",
  {
    id: integer("id").primaryKey(),
    base: integer("base").notNull(),
    copying: integer("copying").notNull().default(0),
  },
  (t) => [
    check("id_range_one_ck", sql`${t.id} = 1`),
    check("id_range_base_ck", sql`${t.base} >= 0`),
    check("id_range_copying_ck", sql`${t.copying} IN (0, 1)`),
  ],
);

// ---------- the audit log (worker/audit) ----------

/**
 * Who changed what in a restaurant, kept 13 months (the cron drops older rows): every change of a
 * reservation (a trigger copies its history entry's who and what, `ref` its number, migrations/shard
 * 0033), and of its guests, catalog, settings, staff and apps (written by the code right after the
 * change). `fields` names what changed, never its values: a guest's details stay out of it.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    propertyId: integer("property_id")
      .notNull()
      .references(() => properties.id),
    at: epochMillis("at").notNull().default(NOW_MILLIS),
    /** "staff:<id>", "client:<id>", "guest", "searchengine" or "system" */
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    /** what was changed: reservation, customer, room, table, service, closure, property, staff, app */
    subject: text("subject").notNull(),
    subjectId: integer("subject_id"),
    /** a reservation's: its history entry's number */
    ref: integer("ref"),
    /** JSON: the names of the fields that changed */
    fields: text("fields", { mode: "json" }).$type<string[]>(),
  },
  (t) => [
    // GET /properties/{id}/audit: a restaurant's rows by time, newest first; the retention purge
    index("audit_log_property_at_idx").on(t.propertyId, t.at),
  ],
);
