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
import { summary } from "../parts/summary.js";

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
  });

  override updated() {
    if (this.focusSelector) {
      this.renderRoot.querySelector<HTMLElement>(this.focusSelector)?.focus();
      this.focusSelector = undefined;
    }
  }

  private ask(confirming: boolean) {
    this.confirming = confirming;
    this.focusSelector = confirming ? "#confirm" : "#cancel";
  }

  override render() {
    return html`<section class="stack" part="manage" aria-labelledby="h">
      <h2 id="h" tabindex="-1">${msg("Your reservation", { id: "manage.title" })}</h2>
      ${this.reservation.render({
        pending: () => html`<p role="status" class="muted">${msg("Loading your reservation…", { id: "manage.loading" })}</p>`,
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

  private statusText(status: string) {
    const map: Record<string, string> = {
      ACCEPTED: msg("Confirmed", { id: "status.accepted" }),
      WAITING: msg("On the waiting list", { id: "status.waiting" }),
      PENDING: msg("Awaiting confirmation", { id: "status.pending" }),
      PREPAY: msg("Awaiting payment", { id: "status.prepay" }),
      CANCELLED: msg("Cancelled", { id: "status.cancelled" }),
      REFUSED: msg("Declined", { id: "status.refused" }),
      NO_SHOW: msg("Missed", { id: "status.no-show" }),
      ARRIVED: msg("Arrived", { id: "status.arrived" }),
      SEATED: msg("Seated", { id: "status.seated" }),
      COMPLETED: msg("Completed", { id: "status.completed" }),
    };
    return map[status] ?? status;
  }

  private renderReservation(r: PublicReservation) {
    const cancelled = r.status === "CANCELLED";
    const pending = this.cancel.status === TaskStatus.PENDING;
    const until = r.cancellable_until ? new Date(r.cancellable_until) : undefined;
    const untilText = until
      ? new Intl.DateTimeFormat(this.locale, { dateStyle: "full", timeStyle: "short", timeZone: r.restaurant.timezone }).format(until)
      : "";
    return html`
      ${summary({ ...r, state: { text: this.statusText(r.status), value: r.status } }, this.locale)}
      <div role="status">
        ${cancelled
          ? html`<p id="done" tabindex="-1" class="message" part="cancelled">${msg("Your reservation is cancelled.", { id: "manage.cancelled" })}</p>`
          : nothing}
      </div>
      ${this.cancel.status === TaskStatus.ERROR
        ? html`<p class="message error" role="alert" part="error">${msg("The reservation could not be cancelled. Please try again.", { id: "manage.cancel-error" })}</p>`
        : nothing}
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
          : html`<p class="muted">${msg("This reservation can no longer be cancelled online. Please call the restaurant.", { id: "manage.too-late" })}</p>`}
    `;
  }
}
