/** The words of the API's codes on the console's screens: statuses, channels, occasions, guests. */
import { msg } from "@lit/localize";
import type { Channel, Occasion, ReservationStatus } from "../../../shared/schemas.js";
import type { ReservationListItem } from "../api.js";

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
