/**
 * A guest's own reservation, read with the secret token of the manage link, and its
 * cancellation behind a confirm step.
 */
import { localized, msg, str } from "@lit/localize";
import { Task, TaskStatus } from "@lit/task";
import { LitElement, css, html, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { PublicApiError, type PublicApi, type PublicReservation } from "../api.js";
import { fire, type BookingCancelledDetail } from "../events.js";
import { base } from "../parts/styles.js";
import { statusText, summary } from "../parts/summary.js";
import { calendarLink } from "./book-steps.js";

/**
 * @fires booking-cancelled - the guest cancelled; detail `{ reservation }`
 */
@localized()
export class ManagePage extends LitElement {
  static override styles = [
    base,
    css`
      h2:focus,
      p:focus {
        outline: none;
      }
      .status-CANCELLED {
        color: var(--_danger);
      }
    `,
  ];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  @property() declare token: string;
  @property() declare locale: string;

  @state() private declare confirming: boolean;
  /** why the last cancellation failed; cleared when the guest asks again */
  @state() private declare failure: unknown;
  private focusSelector: string | undefined;

  constructor() {
    super();
    this.token = "";
    this.locale = "en";
    this.confirming = false;
  }

  private reservation = new Task(this, {
    args: () => [this.api, this.token] as const,
    task: async ([api, token], { signal }) => (api && token ? api.reservation(token, signal) : undefined),
  });

  private cancel = new Task(this, {
    autoRun: false,
    task: async ([token]: readonly [string], { signal }) => this.api!.cancel(token, signal),
    onComplete: (reservation) => {
      this.confirming = false;
      this.focusSelector = "#done";
      fire<BookingCancelledDetail>(this, "booking-cancelled", { reservation });
    },
    onError: (error) => {
      this.failure = error;
      if (error instanceof PublicApiError && (error.code === "cancel_notice_passed" || error.code === "party_arrived")) {
        // Too late now (or the party arrived): the confirm step goes, the reservation is read again as it stands.
        this.confirming = false;
        this.focusSelector = "#failure";
        void this.reservation.run();
      }
    },
  });

  override updated() {
    if (this.focusSelector) {
      this.renderRoot.querySelector<HTMLElement>(this.focusSelector)?.focus();
      this.focusSelector = undefined;
    }
  }

  private ask(confirming: boolean) {
    this.confirming = confirming;
    this.failure = undefined;
    this.focusSelector = confirming ? "#confirm" : "#cancel";
  }

  override render() {
    return html`<section class="stack" part="manage" aria-labelledby="h">
      <h2 id="h" tabindex="-1">${msg("Your reservation", { id: "manage.title" })}</h2>
      ${this.reservation.render({
        // Read again (after a refused cancellation): the reservation stays on screen meanwhile.
        pending: () =>
          this.reservation.value
            ? this.renderReservation(this.reservation.value)
            : html`<p role="status" class="muted">${msg("Loading your reservation…", { id: "manage.loading" })}</p>`,
        error: (e) =>
          html`<p class="message error" role="alert" part="error">
            ${e instanceof PublicApiError && e.status === 404
              ? msg("This reservation was not found. Please check the link.", { id: "manage.not-found" })
              : msg("The reservation could not be loaded. Please try again.", { id: "manage.error" })}
          </p>`,
        complete: (r) => (r ? this.renderReservation(this.cancel.value ?? r) : nothing),
      })}
    </section>`;
  }

  private renderReservation(r: PublicReservation) {
    const cancelled = r.status === "CANCELLED";
    const pending = this.cancel.status === TaskStatus.PENDING;
    const until = r.cancellable_until ? new Date(r.cancellable_until) : undefined;
    const untilText = until
      ? new Intl.DateTimeFormat(this.locale, { dateStyle: "full", timeStyle: "short", timeZone: r.restaurant.timezone }).format(until)
      : "";
    return html`
      ${summary({ ...r, state: { text: statusText(r.status), value: r.status } }, this.locale)}
      ${r.status === "ACCEPTED" || r.status === "CONFIRMED" ? html`<div class="actions">${calendarLink(this.api!.calendarUrl(this.token))}</div>` : nothing}
      <div role="status">
        ${cancelled
          ? html`<p id="done" tabindex="-1" class="message" part="cancelled">${msg("Your reservation is cancelled.", { id: "manage.cancelled" })}</p>`
          : nothing}
      </div>
      <div role="alert">
        ${this.failure
          ? html`<p id="failure" tabindex="-1" class="message error" part="error">
              ${this.failure instanceof PublicApiError && this.failure.code === "cancel_notice_passed"
                ? msg("Online cancellation has closed for this reservation. Please call the restaurant.", { id: "manage.notice-passed" })
                : this.failure instanceof PublicApiError && this.failure.code === "party_arrived"
                  ? arrivedText()
                  : msg("The reservation could not be cancelled. Please try again.", { id: "manage.cancel-error" })}
            </p>`
          : nothing}
      </div>
      ${cancelled
        ? nothing
        : until
          ? this.confirming
            ? html`<div class="message stack" part="confirm">
                <p id="confirm" tabindex="-1"><strong>${msg("Do you really want to cancel this reservation?", { id: "manage.confirm" })}</strong></p>
                <div class="actions">
                  <button type="button" class="btn danger" part="button" aria-disabled=${pending ? "true" : "false"} @click=${() => !pending && this.cancel.run([this.token])}>
                    ${pending ? msg("Cancelling…", { id: "manage.cancelling" }) : msg("Yes, cancel it", { id: "manage.yes" })}
                  </button>
                  <button type="button" class="btn secondary" part="button" @click=${() => this.ask(false)}>${msg("No, keep it", { id: "manage.no" })}</button>
                </div>
              </div>`
            : html`<p class="muted">${msg(str`You can cancel online until ${untilText}.`, { id: "manage.until" })}</p>
                <div class="actions">
                  <button id="cancel" type="button" class="btn secondary" part="button" @click=${() => this.ask(true)}>${msg("Cancel reservation", { id: "manage.cancel" })}</button>
                </div>`
          : r.arrived
            ? html`<p class="muted">${arrivedText()}</p>`
            : html`<p class="muted">${msg("This reservation can no longer be cancelled online. Please call the restaurant.", { id: "manage.too-late" })}</p>`}
    `;
  }
}

/** The staff checked the party in: it is at the restaurant, so there is nothing to cancel online (nor to call about). */
const arrivedText = () => msg("Your party has been checked in at the restaurant, so this reservation can no longer be cancelled online.", { id: "manage.arrived" });
