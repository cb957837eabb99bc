/** The words of the API's codes on the console's screens: statuses, channels, occasions, guests. */
import { msg } from "@lit/localize";
import type { ConsoleRole as Role } from "../../../shared/console.js";
import type { Channel, Occasion, ReservationStatus } from "../../../shared/schemas.js";
import type { ReservationListItem, Schema } from "../api.js";

type Actor = NonNullable<Schema<"Actor">>;

/** What a reservation says of itself, a single record or a list's item alike. */
type Said = Pick<ReservationListItem, "status" | "checkin_date" | "checkout_date" | "status_reason">;

export function statusText(r: Said): string {
  if (r.checkout_date) return msg("Left", { id: "console.status.left" });
  if (r.checkin_date) return msg("Seated", { id: "console.status.seated" });
  if (r.status === "EXPIRED" && r.status_reason === "no_show")
    return msg("No-show", { id: "console.status.noshow" });
  const words: Record<ReservationStatus, string> = {
    WAITING: msg("Waiting list", { id: "console.status.waiting" }),
    ACCEPTED: msg("Booked", { id: "console.status.accepted" }),
    CONFIRMED: msg("Confirmed", { id: "console.status.confirmed" }),
    PREPAY: msg("Awaiting payment", { id: "console.status.prepay" }),
    CANCELLED: msg("Cancelled", { id: "console.status.cancelled" }),
    EXPIRED: msg("Expired", { id: "console.status.expired" }),
    REJECTED: msg("Declined", { id: "console.status.rejected" }),
    OUTOFORDER: msg("Blocked", { id: "console.status.block" }),
  };
  return words[r.status] ?? r.status;
}

export function channelText(channel: Channel): string {
  if (channel === "PLATFORM_ADMIN") return msg("Staff", { id: "console.channel.staff" });
  if (channel === "SEARCHENGINE") return msg("Search engine", { id: "console.channel.search" });
  return msg("Online", { id: "console.channel.online" });
}

export function occasionText(occasion: Occasion): string {
  const words: Record<Occasion, string> = {
    birthday: msg("Birthday", { id: "console.occasion.birthday" }),
    anniversary: msg("Anniversary", { id: "console.occasion.anniversary" }),
    business: msg("Business", { id: "console.occasion.business" }),
    date: msg("Date", { id: "console.occasion.date" }),
    other: msg("Occasion", { id: "console.occasion.other" }),
  };
  return words[occasion];
}

/** The guest's name as typed for this reservation, else the customer's. */
export function guestName(r: Pick<ReservationListItem, "guest" | "customer">): string {
  const p = r.guest ?? r.customer;
  const name = [p?.first_name, p?.last_name].filter(Boolean).join(" ");
  return name || msg("(no name)", { id: "console.guest.noname" });
}

/** Statuses whose party takes covers (arrivals the kitchen expects or has). */
export const COUNTED: ReadonlySet<ReservationStatus> = new Set(["ACCEPTED", "CONFIRMED", "PREPAY"]);

/** Whether the party counts in the day's covers. */
export const counts = (r: Said) => COUNTED.has(r.status) || (!!r.checkin_date && r.status !== "CANCELLED");

/** A history entry's action in words (an action the console does not know yet: as the API names it). */
export function actionText(action: string): string {
  const words: Record<string, string> = {
    created: msg("Booked", { id: "console.history.created" }),
    updated: msg("Changed", { id: "console.history.updated" }),
    status: msg("Status changed", { id: "console.history.status" }),
    checkin: msg("Seated", { id: "console.status.seated" }),
    checkout: msg("Left", { id: "console.status.left" }),
    undo_checkin: msg("Seating undone", { id: "console.history.undo-checkin" }),
    undo_checkout: msg("Check-out undone", { id: "console.history.undo-checkout" }),
    cancelled: msg("Cancelled", { id: "console.status.cancelled" }),
    expired_unpaid: msg("Expired unpaid", { id: "console.history.unpaid" }),
    expired_no_show: msg("No-show", { id: "console.status.noshow" }),
    no_show_fee: msg("No-show fee charged", { id: "console.history.fee" }),
    no_show_fee_declined: msg("No-show fee declined", { id: "console.history.feedeclined" }),
    payment_canceled: msg("Payment cancelled", { id: "console.history.paycancelled" }),
    payment_failed: msg("Payment failed", { id: "console.history.payfailed" }),
    refund: msg("Refunded", { id: "console.history.refund" }),
    payment_paid: msg("Paid", { id: "console.pay.st.paid" }),
    card_saved: msg("Card saved", { id: "console.pay.st.saved" }),
    refund_owed: msg("Refund on its way", { id: "console.pay.pending" }),
  };
  return words[action] ?? action;
}

/** A status word of a history entry (no check-in state there: the status alone). */
export const statusWord = (status: string) =>
  statusText({ status: status as ReservationStatus, checkin_date: undefined, checkout_date: undefined });

/** A console role in words. */
export function roleName(role: Role): string {
  const words: Record<Role, string> = {
    owner: msg("Owner", { id: "console.role.owner" }),
    manager: msg("Manager", { id: "console.role.manager" }),
    host: msg("Host", { id: "console.role.host" }),
  };
  return words[role] ?? role;
}

/** Who made a change, in words: the member's or the app's name, else what they are. */
export function actorName(a: Actor | null | undefined): string {
  if (!a) return "";
  if (a.name) return a.name;
  const words: Record<Actor["kind"], string> = {
    staff: msg("The console", { id: "console.actor.staff" }),
    app: msg("An app", { id: "console.actor.app" }),
    guest: msg("The guest", { id: "console.actor.guest" }),
    searchengine: msg("Search engine", { id: "console.channel.search" }),
    system: msg("Automatic", { id: "console.actor.system" }),
  };
  return words[a.kind];
}
