/**
 * "Next available": when the chosen day has no free time for the party, the
 * nearest later dates that have one, each with its first free time, one tap from the details.
 */
import { msg } from "@lit/localize";
import { css, html, nothing } from "lit";
import type { PublicApi, PublicSlotDay } from "../api.js";
import { addDays, formatDate, formatTime } from "../format.js";

export interface NextTime {
  date: string;
  hour: string;
  serviceId: number;
  service: string;
}

/** How many dates are offered, and how far ahead the search goes (two requests of 14 days). */
const OFFERED = 3;
const CHUNK = 14;
const CHUNKS = 2;

/**
 * The first free time of up to three dates after `date` (to `last`, the booking window's end).
 * `remember` keeps each fetched day, so a tap on one shows its times without another request.
 */
export async function findNext(api: PublicApi, o: { date: string; last: string; pax: number; remember: (d: PublicSlotDay) => void }, signal: AbortSignal): Promise<NextTime[]> {
  const found: NextTime[] = [];
  let from = addDays(o.date, 1);
  for (let i = 0; i < CHUNKS && from <= o.last && found.length < OFFERED; i++, from = addDays(from, CHUNK)) {
    const days = await api.slots({ date: from, pax: o.pax, days: CHUNK }, signal);
    for (const d of days) {
      if (d.date > o.last) break;
      o.remember(d);
      const s = d.services.find((x) => x.times.length);
      if (s && found.length < OFFERED) found.push({ date: d.date, hour: s.times[0]!, serviceId: s.service_id, service: s.name });
    }
  }
  return found;
}

export function nextAvailable(list: NextTime[], locale: string, take: (n: NextTime) => void) {
  if (!list.length) return nothing;
  return html`<div class="next" part="next-available">
    <h3 id="next-h">${msg("Next available", { id: "next.title" })}</h3>
    <ul aria-labelledby="next-h">
      ${list.map(
        (n) => html`<li>
          <button type="button" class="btn secondary" part="button" @click=${() => take(n)}>
            ${formatDate(n.date, locale)}, ${formatTime(n.hour, locale)} · ${n.service}
          </button>
        </li>`,
      )}
    </ul>
  </div>`;
}

export const nextStyles = css`
  .next ul {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .next .btn {
    width: 100%;
    justify-content: flex-start;
    text-align: start;
  }
`;
