/**
 * A group of native radio buttons drawn as chips: arrow keys move and choose, Tab leaves the
 * group, a screen reader hears "radio button, 3 of 12". Used for services, times and alternatives.
 */
import { msg } from "@lit/localize";
import { css, html, nothing } from "lit";

export interface ChoiceOption {
  value: string;
  label: string;
}

export interface ChoiceGroup {
  name: string;
  legend: string;
  options: ChoiceOption[];
  value: string | undefined;
  onChange: (value: string) => void;
  /** id of a message describing the group (an error) */
  describedBy?: string | undefined;
  part?: string;
  hint?: string;
  /** every chip the same width (times): choosing one never moves its neighbours */
  fixed?: boolean;
}

export function choiceGroup({
  name,
  legend,
  options,
  value,
  onChange,
  describedBy,
  part = "choice",
  hint,
  fixed,
}: ChoiceGroup) {
  return html`
    <fieldset class="choices" part=${`${part}-group`} aria-describedby=${describedBy ?? nothing}>
      <legend>${legend}</legend>
      ${hint ? html`<p class="muted hint">${hint}</p>` : nothing}
      <div class=${fixed ? "chips fixed" : "chips"}>
        ${options.map(
          (o) => html`<label class="chip" part=${part}>
            <input type="radio" name=${name} .value=${o.value} .checked=${o.value === value} @change=${() => onChange(o.value)} />
            <span>${o.label}</span>
          </label>`,
        )}
      </div>
    </fieldset>
  `;
}

/**
 * While the day's times load: their shape (quiet chips, hidden from assistive technology) and the
 * words for a screen reader, so a slow network shows where the times will be, not a sentence.
 */
export function timesSkeleton() {
  return html`<p class="sr-only">${msg("Looking for free tables…", { id: "book.loading" })}</p>
    <div class="chips skeleton" aria-hidden="true" part="skeleton">${[0, 1, 2, 3, 4, 5].map(() => html`<span class="chip"><span></span></span>`)}</div>`;
}

export const choiceStyles = css`
  .chips {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .hint {
    font-size: 0.9rem;
  }
  .chip {
    position: relative;
    font-weight: 500;
  }
  .chip input {
    position: absolute;
    inset: 0;
    width: 100%;
    height: 100%;
    margin: 0;
    opacity: 0;
    cursor: pointer;
  }
  .chip span {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-width: 4.5rem;
    min-height: 2.75rem;
    padding: 0.4rem 0.8rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
  }
  /* Still, not pulsing: an endless animation keeps the compositor drawing frames while the page loads, CPU a slow phone's main thread needs then. */
  .skeleton .chip span {
    border-color: transparent;
    background: var(--_border);
    opacity: 0.45;
  }
  .chip input:checked + span {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_on-accent);
    font-weight: 700;
  }
  .fixed .chip span {
    width: 6rem;
    min-width: 0;
    padding-inline: 0.25rem;
    white-space: nowrap;
  }
  .chip input:focus-visible + span {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .chip:hover span {
    border-color: var(--_accent);
  }
`;
