/**
 * A guest's own reservation, read with the secret token of the manage link, and its
 * cancellation behind a confirm step.
 */
import { localized, msg, str } from "@lit/localize";
import { Task, TaskStatus } from "@lit/task";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { type PublicApi, PublicApiError, type PublicProfile, type PublicReservation } from "../api.js";
import { type BookingCancelledDetail, fire, type NavigateDetail } from "../events.js";
import { formatDate, formatTime } from "../format.js";
import { callUs, contact, contactStyles } from "../parts/contact.js";
import { refundIfCancelled, refundOnItsWay } from "../parts/money.js";
import { placeOf } from "../parts/place.js";
import { policyAfter } from "../parts/policy.js";
import { base } from "../parts/styles.js";
import { statusText, summary } from "../parts/summary.js";
import { calendarLink } from "./book-steps.js";
import type { ChangedDetail } from "./manage-change.js";

/**
 * @fires booking-cancelled - the guest cancelled; detail `{ reservation }`
 * @fires be-navigate - (internal) "Book again" after cancelling, with the party size kept
 */
@localized()
export class ManagePage extends LitElement {
  static override styles = [
    base,
    contactStyles,
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
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property() declare token: string;
  @property() declare locale: string;

  @state() declare private confirming: boolean;
  /** the change form is open */
  @state() declare private changing: boolean;
  /** the reservation as the last change or cancellation answered it */
  @state() declare private latest: PublicReservation | undefined;
  /** the reservation before the guest's last change: the page says what changed */
  @state() declare private changedFrom: PublicReservation | undefined;
  /** why the last cancellation failed; cleared when the guest asks again */
  @state() declare private failure: unknown;
  private focusSelector: string | undefined;

  constructor() {
    super();
    this.token = "";
    this.locale = "en";
    this.confirming = false;
    this.changing = false;
  }

  private reservation = new Task(this, {
    args: () => [this.api, this.token] as const,
    task: async ([api, token], { signal }) => (api && token ? api.reservation(token, signal) : undefined),
  });

  private cancel = new Task(this, {
    autoRun: false,
    task: async ([token]: readonly [string], { signal }) => this.api!.cancel(token, signal),
    onComplete: (reservation) => {
      this.latest = reservation;
      this.changedFrom = undefined;
      this.confirming = false;
      this.focusSelector = "#done";
      fire<BookingCancelledDetail>(this, "booking-cancelled", { reservation });
    },
    onError: (error) => {
      this.failure = error;
      if (
        error instanceof PublicApiError &&
        (error.code === "cancel_notice_passed" || error.code === "party_arrived")
      ) {
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

  private onChanged(e: CustomEvent<ChangedDetail>) {
    this.changedFrom = this.latest ?? this.reservation.value;
    this.latest = e.detail.reservation;
    this.changing = false;
    this.focusSelector = "#changed";
  }

  private openChange(open: boolean) {
    this.changing = open;
    this.changedFrom = undefined;
    if (!open) this.focusSelector = "#change";
    else
      void this.updateComplete.then(async () => {
        const form = this.renderRoot.querySelector<LitElement>("be-manage-change");
        await form?.updateComplete;
        form?.shadowRoot?.querySelector<HTMLElement>("#change-h")?.focus();
      });
  }

  private ask(confirming: boolean) {
    this.confirming = confirming;
    this.failure = undefined;
    this.focusSelector = confirming ? "#confirm" : "#cancel";
  }

  override render() {
    return html`<section class="stack" part="manage" aria-labelledby="h">
      <h2 id="h" part="heading" tabindex="-1">${msg("Your reservation", { id: "manage.title" })}</h2>
      ${this.reservation.render({
        // Read again (after a refused cancellation): the reservation stays on screen meanwhile.
        pending: () =>
          this.reservation.value
            ? this.renderReservation(this.reservation.value)
            : html`<p role="status" class="muted">${msg("Loading your reservation…", { id: "manage.loading" })}</p>`,
        error: (e) =>
          html`<p class="message error" role="alert" part="error">
            ${
              e instanceof PublicApiError && e.status === 404
                ? msg("This reservation was not found. Please check the link.", { id: "manage.not-found" })
                : msg("The reservation could not be loaded. Please try again.", { id: "manage.error" })
            }
          </p>`,
        complete: (r) => (r ? this.renderReservation(this.latest ?? r) : nothing),
      })}
    </section>`;
  }

  private renderReservation(r: PublicReservation) {
    const cancelled = r.status === "CANCELLED";
    return html`
      ${summary({ ...r, state: { text: statusText(r.status), value: r.status } }, this.locale)}
      ${r.status === "ACCEPTED" || r.status === "CONFIRMED" ? html`<div class="actions">${calendarLink(this.api!.calendarUrl(this.token))}</div>` : nothing}
      <div role="status">${this.outcome(r)} ${this.refundOwed(r)}</div>
      ${cancelled ? this.bookAgain(r) : nothing}
      <div role="alert">${this.failure ? this.failureMessage(this.failure) : nothing}</div>
      ${cancelled ? nothing : this.nextSteps(r)}
      ${contact(this.profile, this.locale)}
    `;
  }

  /** What the guest's last action did: cancelled, or moved (and what is new: "Now 21:00, 3 guests."). */
  private outcome(r: PublicReservation) {
    if (r.status === "CANCELLED")
      return html`<p id="done" tabindex="-1" class="message" part="cancelled">${msg("Your reservation is cancelled.", { id: "manage.cancelled" })}</p>`;
    if (!this.changedFrom) return nothing;
    const now = changes(this.changedFrom, r, this.locale);
    return html`<p id="changed" tabindex="-1" class="message success">
      ${msg("Your reservation is changed.", { id: "change.done" })} ${now ? msg(str`Now ${now}.`, { id: "change.now" }) : nothing}
    </p>`;
  }

  private refundOwed(r: PublicReservation) {
    const owed = r.payment && refundOnItsWay(r.payment, this.locale);
    return owed ? html`<p id="refund-owed" class="message">${owed}</p>` : nothing;
  }

  private bookAgain(r: PublicReservation) {
    return html`<div class="actions">
      <button id="again" type="button" class="btn" part="button" @click=${() => fire<NavigateDetail>(this, "be-navigate", { page: "book", pax: r.pax }, false)}>
        ${msg("Book again", { id: "manage.again" })}
      </button>
    </div>`;
  }

  private failureMessage(failure: unknown) {
    const code = failure instanceof PublicApiError ? failure.code : undefined;
    return html`<p id="failure" tabindex="-1" class="message error" part="error">
      ${
        code === "cancel_notice_passed"
          ? html`${msg("Online cancellation has closed for this reservation.", { id: "manage.notice-passed-short" })} ${callUs(this.profile)}`
          : code === "party_arrived"
            ? arrivedText()
            : msg("The reservation could not be cancelled. Please try again.", { id: "manage.cancel-error" })
      }
    </p>`;
  }

  /** The city of the restaurant's clock: its address's, else its zone's. */
  private city(r: PublicReservation) {
    return placeOf({ address: this.profile?.address ?? null, timezone: r.restaurant.timezone });
  }

  /** What the guest may still do: confirm the cancellation, change, or read why neither is online. */
  private nextSteps(r: PublicReservation) {
    const until = r.cancellable_until;
    if (!until)
      return r.arrived
        ? html`<p class="muted">${arrivedText()}</p>`
        : html`<p class="muted">${policyAfter({ until: null, timezone: r.restaurant.timezone, city: this.city(r), locale: this.locale })} ${callUs(this.profile)}</p>`;
    if (this.confirming) return this.confirmStep(r);
    if (this.changing) return this.changeForm(r);
    return html`<p class="muted">${policyAfter({ until, timezone: r.restaurant.timezone, city: this.city(r), locale: this.locale })}</p>
      <div class="actions">
        <button id="change" type="button" class="btn secondary" part="button" @click=${() => this.openChange(true)}>${msg("Change reservation", { id: "manage.change" })}</button>
        <button id="cancel" type="button" class="btn secondary" part="button" @click=${() => this.ask(true)}>${msg("Cancel reservation", { id: "manage.cancel" })}</button>
      </div>`;
  }

  private confirmStep(r: PublicReservation) {
    const pending = this.cancel.status === TaskStatus.PENDING;
    // What a cancellation now does to what was paid, said before the guest confirms.
    const money = r.payment && refundIfCancelled(r.payment, this.locale);
    return html`<div class="message stack" part="confirm">
      <p id="confirm" tabindex="-1"><strong>${msg("Do you really want to cancel this reservation?", { id: "manage.confirm" })}</strong></p>
      ${money ? html`<p id="refund">${money}</p>` : nothing}
      <div class="actions">
        <button type="button" class="btn danger" part="button" aria-disabled=${pending ? "true" : "false"} @click=${() => !pending && this.cancel.run([this.token])}>
          ${pending ? msg("Cancelling…", { id: "manage.cancelling" }) : msg("Yes, cancel it", { id: "manage.yes" })}
        </button>
        <button type="button" class="btn secondary" part="button" @click=${() => this.ask(false)}>${msg("No, keep it", { id: "manage.no" })}</button>
      </div>
    </div>`;
  }

  private changeForm(r: PublicReservation) {
    return html`<be-manage-change
      exportparts="button, input, error"
      .api=${this.api}
      .profile=${this.profile}
      .reservation=${r}
      .token=${this.token}
      .locale=${this.locale}
      @be-changed=${this.onChanged}
      @be-change-cancel=${() => this.openChange(false)}
    ></be-manage-change>`;
  }
}

/** What differs after a change, as the guest reads it: "Friday, May 15, 2026, 21:00 · Cena, 3 guests". */
export function changes(before: PublicReservation, after: PublicReservation, locale: string): string {
  const when = [
    after.date !== before.date && formatDate(after.date, locale),
    after.hour !== before.hour && formatTime(after.hour, locale),
  ]
    .filter(Boolean)
    .join(", ");
  const service = after.service && after.service.id !== before.service?.id ? after.service.name : "";
  const party =
    after.pax === before.pax
      ? ""
      : after.pax === 1
        ? msg("1 guest", { id: "change.guest" })
        : msg(str`${after.pax} guests`, { id: "change.guests" });
  return [[when, service].filter(Boolean).join(" · "), party].filter(Boolean).join(", ");
}

/** The staff checked the party in: it is at the restaurant, so there is nothing to cancel online (nor to call about). */
const arrivedText = () =>
  msg(
    "Your party has been checked in at the restaurant, so this reservation can no longer be cancelled online.",
    { id: "manage.arrived" },
  );
