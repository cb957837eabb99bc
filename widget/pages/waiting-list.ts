/** The waiting list's disclosure of the day's full times, on the booking page's first step. */
import { msg, str } from "@lit/localize";
import { html } from "lit";
import { choiceGroup, type ChoiceOption } from "../parts/choice.js";

/**
 * The full times of the service, for the waiting list: a second radio group behind a native
 * disclosure (closed while the service has free times, unless one of these is chosen).
 */
export function waitingList(o: { times: ChoiceOption[]; city: string; open: boolean; value: string | undefined; onChange: (v: string) => void; describedBy: string | undefined }) {
  return html`<details class="waiting" part="waiting-list" ?open=${o.open}>
    <summary>${msg("Join the waiting list", { id: "book.waiting" })}</summary>
    ${choiceGroup({
      name: "waiting",
      legend: msg(str`Full times in ${o.city}, for the waiting list`, { id: "book.waiting-times-in" }),
      hint: msg("On the waiting list your party holds no table: the restaurant decides later.", { id: "book.waiting-hint" }),
      options: o.times,
      value: o.value,
      onChange: o.onChange,
      describedBy: o.describedBy,
      part: "time",
      fixed: true,
    })}
  </details>`;
}

