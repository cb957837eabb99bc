/**
 * The cancellation policy in the guest's words: before confirming (from the
 * restaurant's cancel_notice and the chosen start) and after (from the reservation's
 * cancellable_until), always in the restaurant's wall-clock time, labelled with its city.
 */
import { msg, str } from "@lit/localize";
import { formatDate, formatTime, minusMinutes } from "../format.js";

/** Before booking: online until the start minus the notice, as the restaurant's clock reads it. */
export function policyBefore(o: {
  date: string;
  hour: string;
  cancelNotice: number;
  city: string;
  locale: string;
}) {
  const { city } = o;
  if (!o.cancelNotice)
    return msg("You can cancel online until your reservation starts.", { id: "policy.until-start" });
  const until = minusMinutes(o.date, o.hour, o.cancelNotice);
  const when = `${formatDate(until.date, o.locale)}, ${formatTime(until.hour, o.locale)}`;
  return msg(str`You can cancel online until ${when} (time in ${city}).`, { id: "policy.until" });
}

/** After booking: the reservation's own deadline (an instant), shown in the restaurant's zone. */
export function policyAfter(o: { until: string | null; timezone: string; city: string; locale: string }) {
  if (!o.until)
    return msg("This reservation can no longer be cancelled online.", { id: "manage.too-late-short" });
  const { city } = o;
  const when = new Intl.DateTimeFormat(o.locale, {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: o.timezone,
  }).format(new Date(o.until));
  return msg(str`You can cancel online until ${when} (time in ${city}).`, { id: "policy.until" });
}
