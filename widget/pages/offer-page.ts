/**
 * A waiting-list offer, behind the link of its email: the table that freed up, until when the
 * guest may claim it (in the restaurant's time, with its city), and the guest's answer. The offer
 * holds no table, as its email says: claiming makes the reservation ACCEPTED if the table is
 * still free; declining passes it to the next guest at once.
 */
import { localized, msg, str } from "@lit/localize";
import { Task, TaskStatus } from "@lit/task";
import { css, html, LitElement, nothing } from "lit";
import { property } from "lit/decorators.js";
import { type PublicApi, PublicApiError, type PublicOffer, type PublicProfile } from "../api.js";
import { placeOf } from "../parts/place.js";
import { base } from "../parts/styles.js";
import { statusText, summary } from "../parts/summary.js";

/** Words for a failed answer or read: the offer closed meanwhile, unknown, or a network failure. */
function failure(e: unknown) {
  if (e instanceof PublicApiError && e.code === "offer_not_available") {
    return msg(
      "This offer is no longer open: the table has been taken or the time has run out. You are still on the waiting list.",
      { id: "offer.closed" },
    );
  }
  if (e instanceof PublicApiError && e.status === 404)
    return msg("This offer was not found. Please check the link.", { id: "offer.not-found" });
  return msg("Something went wrong. Please try again.", { id: "offer.error" });
}

@localized()
export class OfferPage extends LitElement {
  static override styles = [
    base,
    css`
      h2:focus,
      p:focus {
        outline: none;
      }
    `,
  ];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  /** the restaurant: the city its times are labelled with */
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property() declare token: string;
  @property() declare locale: string;

  constructor() {
    super();
    this.token = "";
    this.locale = "en";
  }

  private offer = new Task(this, {
    args: () => [this.api, this.token] as const,
    task: async ([api, token], { signal }) => (api && token ? api.offer(token, signal) : undefined),
  });

  private answer = new Task(this, {
    autoRun: false,
    task: async ([answer]: readonly ["claim" | "decline"], { signal }) =>
      this.api!.answerOffer(this.token, answer, signal),
    // The answer is rendered only after onComplete/onError return: focus it in updated().
    onComplete: () => (this.focusResult = true),
    onError: () => (this.focusResult = true),
  });

  private focusResult = false;

  override updated() {
    if (!this.focusResult) return;
    this.focusResult = false;
    this.renderRoot.querySelector<HTMLElement>("#result")?.focus();
  }

  override render() {
    return html`<section class="stack" part="offer" aria-labelledby="h">
      <h2 id="h" part="heading" tabindex="-1">${msg("A table is free for you", { id: "offer.title" })}</h2>
      ${this.offer.render({
        pending: () => html`<p role="status" class="muted">${msg("Loading…", { id: "loading" })}</p>`,
        error: (e) => html`<p class="message error" role="alert" part="error">${failure(e)}</p>`,
        complete: (o) => (o ? this.renderOffer(this.answer.value ?? o) : nothing),
      })}
    </section>`;
  }

  private renderOffer(o: PublicOffer) {
    const r = o.reservation;
    const pending = this.answer.status === TaskStatus.PENDING;
    const until = new Intl.DateTimeFormat(this.locale, {
      dateStyle: "full",
      timeStyle: "short",
      timeZone: r.restaurant.timezone,
    }).format(new Date(o.expires_at));
    const city = placeOf({ address: this.profile?.address ?? null, timezone: r.restaurant.timezone });
    const open = o.state === "open" && this.answer.status !== TaskStatus.ERROR;
    return html`
      ${summary({ ...r, hour: o.hour, waiting_until: null, state: { text: statusText(r.status), value: r.status } }, this.locale)}
      <div role="status">
        ${
          o.state === "claimed"
            ? html`<p id="result" tabindex="-1" class="message success" part="claimed">${msg("The table is yours. We sent you a confirmation by email.", { id: "offer.claimed" })}</p>`
            : o.state === "declined"
              ? html`<p id="result" tabindex="-1" class="message" part="declined">${msg("Thank you. The table goes to the next guest; you stay on the waiting list.", { id: "offer.declined" })}</p>`
              : o.state === "expired"
                ? html`<p id="result" tabindex="-1" class="message">${failure(new PublicApiError(409, "offer_not_available", undefined))}</p>`
                : nothing
        }
      </div>
      <div role="alert">${this.answer.status === TaskStatus.ERROR ? html`<p id="result" tabindex="-1" class="message error" part="error">${failure(this.answer.error)}</p>` : nothing}</div>
      ${
        open
          ? html`<p>${msg(str`Claim it before ${until} (time in ${city}): the table is yours if it is still free then. The offer holds no table.`, { id: "offer.claim-before" })}</p>
            <div class="actions">
              <button type="button" class="btn" part="button claim" aria-disabled=${pending ? "true" : "false"} @click=${() => !pending && this.answer.run(["claim"])}>
                ${pending ? msg("Sending…", { id: "offer.sending" }) : msg("Take the table", { id: "offer.claim" })}
              </button>
              <button type="button" class="btn secondary" part="button decline" aria-disabled=${pending ? "true" : "false"} @click=${() => !pending && this.answer.run(["decline"])}>
                ${msg("No, thanks", { id: "offer.decline" })}
              </button>
            </div>`
          : nothing
      }
    `;
  }
}
