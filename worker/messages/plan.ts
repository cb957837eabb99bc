/**
 * Which messages a change of a reservation makes. Pure: the booking code calls it
 * for every write and the repository writes its answer in the change's own batch.
 *
 * The guest hears about a booking (confirmation, or "on the waiting list"), a change of day,
 * time or party, a cancellation by either side (and an unpaid booking's expiry), and gets a
 * reminder `reminder_hours` before (none when booked inside that window). Staff bookings email
 * the guest unless the property turns it off (`email_staff_bookings`) or the reservation says not
 * to (`"notify": false`); search-engine bookings never do (the search engine sends its own). The
 * restaurant hears of each online booking, and of each change and cancellation a guest makes
 * (`notify_restaurant`).
 */
import type { Channel, ReservationStatus, Settings } from "../../shared/schemas";
import { fromLocalMinutes, localToUtc, stayEndDate } from "../lib/localtime";
import type { Guest, Locale, MessagePlan, MessageSnapshot, PlannedMessage, Template } from "./types";

/** What the planner needs of a reservation, before or after the change. */
export interface ReservationFacts {
  status: ReservationStatus;
  channel: Channel;
  startDate: string;
  startHour: string;
  startMin: number;
  endMin: number;
  pax: number;
  serviceId: number | null;
  notes: string | null;
  guest: Guest | null;
  notifyGuest: boolean;
  locale: Locale | null;
  /** WAITING: the latest start of the party's range (local minutes); null or absent: only startMin */
  waitUntilMin?: number | null | undefined;
}

export interface Change {
  /** null: the reservation was just created */
  before: ReservationFacts | null;
  after: ReservationFacts;
  /** the unpaid expiry is a cancellation to tell; other expiries (a no-show) are not */
  expiredUnpaid?: boolean;
  /** "guest" for the guest's own changes, "system" for the cron, "client:<id>" for staff */
  actor: string;
  settings: Settings;
  propertyEmail: string | null;
  /** the reservation's version after the change: the calendar entry's SEQUENCE */
  version: number;
  /** epoch ms */
  now: number;
}

const HOLDING = new Set<ReservationStatus>(["PREPAY", "ACCEPTED", "CONFIRMED", "OUTOFORDER"]);
const ONLINE = new Set<Channel>(["PLATFORM_BOOK", "SEARCHENGINE"]);
const HOUR = 3_600_000;

export function snapshotOf(
  f: ReservationFacts,
  timeZone: string,
  ics: MessageSnapshot["ics"],
  extra: Partial<MessageSnapshot> = {},
): MessageSnapshot {
  const guest = f.guest ?? { first_name: null, last_name: null, email: null, phone: null };
  const range =
    f.status === "WAITING" && f.waitUntilMin != null
      ? { wait_until: fromLocalMinutes(f.waitUntilMin).hour }
      : {};
  return {
    date: f.startDate,
    hour: f.startHour,
    end: stayEndDate(timeZone, f.startMin, f.endMin),
    pax: f.pax,
    status: f.status,
    channel: f.channel,
    service_id: f.serviceId,
    guest,
    notes: f.notes,
    ics,
    ...range,
    ...extra,
  };
}

/** Whether the guest of this reservation gets emails at all. */
export function emailsGuest(f: ReservationFacts, settings: Settings): boolean {
  if (!f.guest?.email || !f.notifyGuest || f.channel === "SEARCHENGINE") return false;
  return f.channel !== "PLATFORM_ADMIN" || settings.email_staff_bookings;
}

export function planMessages(c: Change): MessagePlan {
  const out = outbox(c);
  if (!c.before) {
    created(c, out);
    return { messages: out.messages, dropReminder: false };
  }
  const status = statusChanged(c, c.before, out);
  if (status.done) return { messages: out.messages, dropReminder: status.dropReminder };
  const holdingMove = moved(c, c.before, out);
  return { messages: out.messages, dropReminder: status.dropReminder || holdingMove };
}

/** The messages of one change as they are planned: to the guest, to the restaurant, and the guest's reminder. */
function outbox(c: Change) {
  const { after, settings } = c;
  const messages: PlannedMessage[] = [];
  const guestLocale = after.locale ?? settings.locale;
  const toGuest = (
    template: Template,
    ics: MessageSnapshot["ics"],
    dueAt = c.now,
    extra: Partial<MessageSnapshot> = {},
  ) =>
    messages.push({
      template,
      recipient: "guest",
      to: after.guest!.email!,
      locale: guestLocale,
      sequence: c.version,
      snapshot: snapshotOf(after, settings.timezone, ics, extra),
      dueAt,
    });
  const toRestaurant = (template: Template, extra: Partial<MessageSnapshot> = {}) =>
    messages.push({
      template,
      recipient: "restaurant",
      to: c.propertyEmail!,
      locale: settings.locale,
      sequence: c.version,
      snapshot: snapshotOf(after, settings.timezone, null, extra),
      dueAt: c.now,
    });
  const startUtc = localToUtc(settings.timezone, after.startMin);
  const remind = () => {
    const at = startUtc - settings.reminder_hours * HOUR;
    if (settings.reminder_hours > 0 && at > c.now) toGuest("reminder", null, at);
  };
  return {
    messages,
    toGuest,
    toRestaurant,
    remind,
    guest: emailsGuest(after, settings),
    restaurant: ONLINE.has(after.channel) && settings.notify_restaurant && !!c.propertyEmail,
  };
}

type Outbox = ReturnType<typeof outbox>;

/** A new reservation: its confirmation (or "on the waiting list") and reminder, and the restaurant's notice. */
function created(c: Change, out: Outbox): void {
  const { after } = c;
  if (out.guest && after.status === "WAITING") out.toGuest("waiting", null);
  if (out.guest && HOLDING.has(after.status)) {
    out.toGuest("confirmation", "REQUEST");
    out.remind();
  }
  if (out.restaurant && after.status !== "OUTOFORDER") out.toRestaurant("restaurant_booking");
}

/**
 * A new status: an end is a cancellation to tell, a waiting party given a table a confirmation.
 * `done`: nothing else of the change is told. A reservation that stops holding drops its reminder.
 */
function statusChanged(
  c: Change,
  before: ReservationFacts,
  out: Outbox,
): { done: boolean; dropReminder: boolean } {
  const { after } = c;
  if (before.status === after.status) return { done: false, dropReminder: false };
  const dropReminder = !HOLDING.has(after.status) && HOLDING.has(before.status);
  const ended =
    after.status === "CANCELLED" ||
    after.status === "REJECTED" ||
    (after.status === "EXPIRED" && c.expiredUnpaid === true);
  if (ended && before.status !== "CANCELLED") {
    // A guest with a calendar entry gets it cancelled; a waiting party had none.
    if (out.guest) out.toGuest("cancellation", HOLDING.has(before.status) ? "CANCEL" : null);
    if (out.restaurant && after.status === "CANCELLED" && c.actor === "guest")
      out.toRestaurant("restaurant_cancellation");
    return { done: true, dropReminder };
  }
  if (before.status === "WAITING" && HOLDING.has(after.status)) {
    if (out.guest) {
      out.toGuest("confirmation", "REQUEST");
      out.remind();
    }
    return { done: true, dropReminder };
  }
  return { done: false, dropReminder };
}

/**
 * A new day, time, party or service tells the guest, and the restaurant when the guest made it;
 * answers whether the reminder is planned again.
 */
function moved(c: Change, before: ReservationFacts, out: Outbox): boolean {
  const { after } = c;
  const changed =
    before.startDate !== after.startDate ||
    before.startHour !== after.startHour ||
    before.pax !== after.pax ||
    before.serviceId !== after.serviceId;
  if (!changed || !(HOLDING.has(after.status) || after.status === "WAITING")) return false;
  const holding = HOLDING.has(after.status);
  const was = { before: { date: before.startDate, hour: before.startHour, pax: before.pax } };
  if (out.guest) {
    out.toGuest("change", holding ? "REQUEST" : null, c.now, was);
    if (holding) out.remind();
  }
  if (out.restaurant && c.actor === "guest") out.toRestaurant("restaurant_change", was);
  return holding;
}
