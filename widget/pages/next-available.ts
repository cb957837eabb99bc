/**
 * "Next available": when the chosen day has no free time for the party, the nearest later dates
 * that have one, each with its first free time, one tap from the details. The service the guest
 * came for is kept: its dates are offered, and when it has none in the weeks searched the page
 * says so and offers the other services' dates. Loaded only when a day is full.
 */
import { msg, str } from "@lit/localize";
import { html, nothing } from "lit";
import type { PublicApi, PublicSlotDay } from "../api.js";
import { addDays, formatDate, formatTime } from "../format.js";

export interface NextTime {
  date: string;
  hour: string;
  serviceId: number;
  service: string;
}

export interface NextFound {
  times: NextTime[];
  /** the name of the service the guest chose when none of its times is free in the weeks searched */
  missing?: string | undefined;
}

/** How many dates are offered, and how far ahead the search goes (two requests of 14 days). */
const OFFERED = 3;
const CHUNK = 14;
const CHUNKS = 2;

interface Search {
  date: string;
  last: string;
  pax: number;
  /** the service the guest chose, if any */
  service?: { id: number; name: string } | undefined;
  remember: (d: PublicSlotDay) => void;
}

/** The first free time of a day, of the service `id` when one is given. */
function firstFree(d: PublicSlotDay, id?: number): NextTime | undefined {
  const s = d.services.find((x) => x.times.length && (id === undefined || x.service_id === id));
  return s && { date: d.date, hour: s.times[0]!, serviceId: s.service_id, service: s.name };
}

/**
 * The first free time of up to three dates after `date` (to `last`, the booking window's end),
 * of the chosen service while it has some. `remember` keeps each fetched day, so a tap on one
 * shows its times without another request.
 */
export async function findNext(api: PublicApi, o: Search, signal: AbortSignal): Promise<NextFound> {
  const own: NextTime[] = [];
  const any: NextTime[] = [];
  const wanted = () => (o.service ? own : any).length >= OFFERED;
  let from = addDays(o.date, 1);
  for (let i = 0; i < CHUNKS && from <= o.last && !wanted(); i++, from = addDays(from, CHUNK)) {
    const days = await api.slots({ date: from, pax: o.pax, days: CHUNK }, signal);
    for (const d of days.filter((x) => x.date <= o.last)) {
      o.remember(d);
      const mine = o.service && firstFree(d, o.service.id);
      const first = firstFree(d);
      if (mine && own.length < OFFERED) own.push(mine);
      if (first && any.length < OFFERED) any.push(first);
    }
  }
  if (!o.service) return { times: any };
  return own.length ? { times: own } : { times: any, missing: o.service.name };
}

export function nextAvailable(found: NextFound, locale: string, take: (n: NextTime) => void) {
  const missing = found.missing
    ? html`<p id="next-none">${msg(str`${found.missing} has no free table for this party in the weeks ahead.`, { id: "next.service-none" })}</p>`
    : nothing;
  if (!found.times.length) return html`<div class="next" part="next-available">${missing}</div>`;
  return html`<div class="next" part="next-available">
    <h3 id="next-h">${msg("Next available", { id: "next.title" })}</h3>
    ${missing}
    <ul aria-labelledby="next-h">
      ${found.times.map(
        (n) => html`<li>
          <button type="button" class="btn secondary" part="button" @click=${() => take(n)}>
            ${formatDate(n.date, locale)}, ${formatTime(n.hour, locale)} · ${n.service}
          </button>
        </li>`,
      )}
    </ul>
  </div>`;
}
