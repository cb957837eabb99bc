/**
 * The booking flow: date, party and service, the day's times (and the full ones, for the waiting
 * list), the guest's details, then the confirmation with the manage link. A time taken meanwhile
 * (409) offers the nearest free ones.
 */
import { localized, msg } from "@lit/localize";
import { Task, TaskStatus } from "@lit/task";
import { html, LitElement, nothing, type PropertyValues } from "lit";
import { property, state } from "lit/decorators.js";
import {
  type PublicApi,
  PublicApiError,
  type PublicBooking,
  type PublicBookingInput,
  type PublicProfile,
  type PublicSlotDay,
} from "../api.js";
import { now } from "../clock.js";
import { ownEntries } from "../entries.js";
import { type BookingCreatedDetail, fire, type NavigateDetail } from "../events.js";
import { addDays } from "../format.js";
import { choiceStyles, timesSkeleton } from "../parts/choice.js";
import { contactStyles } from "../parts/contact.js";
import { hexOf } from "../parts/contrast.js";
import type { FieldErrors, GuestForm } from "../parts/guest-fields.js";
import { placeOf } from "../parts/place.js";
import { base } from "../parts/styles.js";
import { nextTask } from "../prepare.js";
import { chooseStep, dayStatus, serviceStep } from "./book-choose.js";
import { firstOpenDay, SCAN_DAYS, SlotDays } from "./book-days.js";
import { barStyles, bookStyles, nextStyles } from "./book-page.styles.js";
import { type Draft, loadDraft, recordStep, type Step, saveDraft, stepOf } from "./book-state.js";
import type { NextFound, NextTime } from "./next-available.js";

/**
 * @fires booking-created - the reservation was made; detail `{ reservation, manage_url }`
 */
@localized()
export class BookPage extends LitElement {
  static override styles = [base, choiceStyles, contactStyles, nextStyles, bookStyles, barStyles];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property() declare locale: string;
  /** a service to preselect (from the services page) */
  @property({ type: Number }) declare serviceId: number | undefined;
  /** a party size to preselect (book again after cancelling) */
  @property({ type: Number }) declare initialPax: number | undefined;
  /** on a hosted page: the address carries the step */
  @property({ type: Boolean }) declare hosted: boolean;
  /** the host shows the manage page in this element (`booking-manage`) */
  @property({ type: Boolean }) declare manageHere: boolean;

  @state() declare private step: Step;
  @state() declare private date: string | undefined;
  @state() declare private pax: number;
  /** a party larger than the online maximum was asked for (the list's last entry, or `?pax=`): it books by phone */
  @state() declare private largeParty: boolean;
  @state() declare private hour: string | undefined;
  @state() declare private guest: GuestForm;
  /** the chosen time is a full one: the booking joins the waiting list */
  @state() declare private waiting: boolean;
  /** waiting: the latest start the party takes; undefined: the chosen time alone */
  @state() declare private waitUntil: string | undefined;
  /** why the last booking failed; cleared when the guest goes back or picks another time */
  @state() declare private failure: unknown;
  @state() declare private alternatives: string[] | undefined;
  @state() declare private booking: PublicBooking | undefined;
  /** the guest chose this day's service on its chip (else a full preferred service yields to one with room) */
  @state() declare private servicePicked: boolean;
  /** the server's refusals, by field */
  @state() declare private errors: FieldErrors;
  /** "Next available", a chunk of its own (loaded when a day is full) */
  private nextModule: typeof import("./next-available.js") | undefined;
  /** the details and confirmation, a chunk of their own */
  private later: typeof import("./book-later.js") | undefined;

  private days = new SlotDays();
  private focusSelector: string | undefined;

  constructor() {
    super();
    this.locale = "en";
    this.step = "choose";
    this.pax = 2;
    this.largeParty = false;
    this.guest = { first_name: "", last_name: "", email: "" };
    this.waiting = false;
    this.servicePicked = false;
    this.errors = {};
    this.hosted = false;
    this.manageHere = false;
  }

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener("popstate", this.onPop);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener("popstate", this.onPop);
  }

  /** Back or Forward to an entry of this flow: show its step (what it needs is still here). */
  private onPop = (e: PopStateEvent) => {
    const step = stepOf(e.state);
    if (!step || step === this.step) return;
    if (this.step === "done") this.reset();
    this.step =
      step === "details" && this.hour ? "details" : step === "done" && this.booking ? "done" : "choose";
    this.failure = undefined;
    this.focusSelector = "h2";
  };

  /** What the guest chose and typed before a reload (sessionStorage); a date already past is dropped. */
  private restore(profile: PublicProfile) {
    const d = loadDraft(profile.public_key);
    if (this.initialPax) this.pax = this.initialPax;
    else if (d?.pax) this.pax = d.pax;
    this.largeParty = this.pax > profile.max_online_pax;
    this.pax = Math.min(this.pax, profile.max_online_pax);
    if (!d || this.initialPax) return this.recordFirstStep("choose");
    if (d.guest) this.guest = d.guest;
    if (d.date && d.date >= profile.first_date && d.date <= profile.last_date) {
      this.date = d.date;
      this.serviceId = d.serviceId ?? this.serviceId;
      this.hour = d.hour;
      this.waiting = !!d.waiting;
      this.waitUntil = d.waiting ? d.until : undefined;
    }
    this.step = d.step === "details" && this.hour ? "details" : "choose";
    if (this.step === "details") void this.loadLater();
    this.recordFirstStep(this.step);
  }

  private entries = ownEntries();

  /** The step the page opened on, in the entry it opened on. */
  private recordFirstStep(step: Step) {
    this.entries.firstLater(() => recordStep(step, this.hosted, true));
  }

  private draft(): Draft {
    if (this.step === "done") return { step: "choose", pax: this.pax };
    return {
      step: this.step,
      pax: this.pax,
      date: this.date,
      hour: this.hour,
      waiting: this.waiting,
      until: this.waitUntil,
      serviceId: this.serviceId,
      guest: this.guest,
    };
  }

  private slots = new Task(this, {
    args: () => [this.api, this.profile, this.pax, this.date] as const,
    task: async ([api, profile, pax, date], { signal }) => {
      if (!api || !profile) return undefined;
      if (!date) {
        // The request in a task of its own, out of the one that draws the page.
        await nextTask();
        // asked beside the profile when the element knew the party (BookingEngine); asked again if that failed
        const ask = () => api.slots({ date: profile.first_date, pax, days: SCAN_DAYS }, signal);
        const days = await (api.takeFirstDays(pax)?.catch(ask) ?? ask());
        this.days.remember(pax, days);
        const first = firstOpenDay(days, this.serviceId);
        this.date = first?.date ?? profile.first_date;
        return first;
      }
      // Times taken or moved inside the notice since: a day fetched a while ago is fetched again.
      const known = this.days.fresh(pax, date);
      if (known) return known;
      const [day] = await api.slots({ date, pax }, signal);
      if (day) this.days.remember(pax, [day]);
      return day;
    },
  });

  /**
   * The nearest later dates with a free time (of the service the guest chose, while it has
   * some), asked only when the chosen day has none; the code for it is fetched then.
   */
  private next = new Task(this, {
    args: () => [this.api, this.profile, this.pax, this.slots.value, this.serviceId] as const,
    task: async ([api, profile, pax, day, serviceId], { signal }): Promise<NextFound | undefined> => {
      if (!api || !profile || !day || day.services.some((s) => s.times.length)) return undefined;
      const chosen = day.services.find((s) => s.service_id === serviceId);
      const at = now();
      this.nextModule ??= await import("./next-available.js");
      const service = chosen && { id: chosen.service_id, name: chosen.name };
      return this.nextModule.findNext(
        api,
        {
          date: day.date,
          last: profile.last_date,
          pax,
          service,
          remember: (d) => this.days.remember(pax, [d], at),
        },
        signal,
      );
    },
  });

  /** A new party size marks the date grid again: its first two weeks are asked for that size. */
  private async scan(pax: number) {
    const profile = this.profile;
    if (!this.api || !profile || this.days.has(pax, profile.first_date)) return;
    const days = await this.api.slots({ date: profile.first_date, pax, days: SCAN_DAYS }).catch(() => []);
    this.days.fill(pax, days);
    this.requestUpdate();
  }

  private create = new Task(this, {
    autoRun: false,
    task: async ([input]: readonly [PublicBookingInput], { signal }) => this.api!.create(input, signal),
    onComplete: (booking) => {
      this.booking = booking;
      this.failure = undefined;
      this.alternatives = undefined;
      this.days.clear();
      const pays = booking.status === "PREPAY" && booking.payment?.status === "requires_payment";
      if (!pays) this.goTo("done", true);
      const { manage_token: _token, manage_url, ...reservation } = booking;
      fire<BookingCreatedDetail>(this, "booking-created", { reservation, manage_url });
      if (pays) this.toPayment(booking);
    },
    onError: (error) => {
      this.failure = error;
      if (error instanceof PublicApiError && error.status === 400) {
        this.errors = this.later!.fieldErrors(error.errors);
        const first = Object.keys(this.errors)[0];
        if (first) this.focusSelector = `#${first}`;
      }
      if (error instanceof PublicApiError && error.timeTaken) {
        // The day's times changed: fetch them again, for when the guest goes back to choose.
        this.days.forget(this.pax, this.date);
        void this.slots.run();
        this.alternatives = error.alternatives;
        this.hour = undefined;
        this.waiting = false;
        // The submit button the focus was on is gone: the focus goes to the explanation.
        if (!error.alternatives.length) this.focusSelector = "#failure";
      }
    },
  });

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has("profile") && this.profile && !changed.get("profile")) this.restore(this.profile);
  }

  override updated() {
    // A page's element taken away (or replaced) stops writing: the one on screen owns the draft.
    if (this.profile && this.isConnected) saveDraft(this.profile.public_key, this.draft());
    if (this.focusSelector) {
      this.renderRoot.querySelector<HTMLElement>(this.focusSelector)?.focus();
      this.focusSelector = undefined;
    }
  }

  /** A new step is a new history entry; the confirmation replaces the details' (Back does not book again). */
  private goTo(step: Step, replace = false) {
    this.step = step;
    this.failure = undefined;
    this.errors = {};
    this.focusSelector = "h2";
    recordStep(step, this.hosted, replace);
    this.entries.wrote();
  }

  /** Services with a free or a full time (the waiting list) that day. */
  private open(day: PublicSlotDay | undefined) {
    return day?.services.filter((s) => s.times.length || s.full_times.length) ?? [];
  }

  /**
   * The service shown: the one the guest picked on its chip; else the preferred one (services
   * page, an earlier day) while it has a free time; else the first with free times, so a full
   * preferred service yields to one with room and its waiting list comes second.
   */
  private service(day: PublicSlotDay | undefined) {
    const open = this.open(day);
    const preferred = open.find((s) => s.service_id === this.serviceId);
    if (preferred && (preferred.times.length || this.servicePicked)) return preferred;
    return open.find((s) => s.times.length) ?? preferred ?? open[0];
  }

  private pick(hour: string, waiting: boolean) {
    void this.loadLater();
    this.hour = hour;
    this.waiting = waiting;
    this.waitUntil = undefined;
    this.failure = undefined;
  }

  override render() {
    if (!this.profile) return nothing;
    if (this.step === "done" && this.booking && this.later)
      return this.later.confirmation(
        this.booking,
        this.locale,
        () => this.again(),
        this.profile,
        { hosted: this.hosted, here: this.manageHere, accent: this.accent() },
        this.api!.calendarUrl(this.booking.manage_token),
      );
    if (this.step === "details") return this.renderDetails();
    return this.renderChoose(this.profile);
  }

  private renderChoose(profile: PublicProfile) {
    const day = this.slots.value;
    const loading = this.slots.status === TaskStatus.PENDING;
    const service = loading ? undefined : this.service(day);
    const open = this.open(day);
    const free = open.reduce((n, s) => n + s.times.length, 0);
    const city = placeOf(profile);
    return chooseStep({
      profile,
      pax: this.pax,
      largeParty: this.largeParty,
      date: this.date,
      locale: this.locale,
      full: this.days.fullDates(this.pax),
      setPax: (n) => this.setPax(n),
      setDate: (d) => this.setDate(d),
      status: this.slots.render({
        pending: () => timesSkeleton(),
        error: () =>
          html`<p class="message error">${msg("The times could not be loaded. Please try again.", { id: "book.slots-error" })}</p>`,
        complete: () => dayStatus(free, open.length),
      }),
      next:
        !loading && day && !free && this.next.value && this.nextModule
          ? this.nextModule.nextAvailable(this.next.value, this.locale, (n) => this.takeNext(n))
          : nothing,
      service: service
        ? serviceStep({
            service,
            open,
            city,
            preferred: this.serviceId,
            pax: this.pax,
            hour: this.hour,
            waiting: this.waiting,
            locale: this.locale,
            setService: (id) => this.setService(id),
            pick: (h, waiting) => this.pick(h, waiting),
            next: () => void this.toDetails(),
          })
        : nothing,
    });
  }

  /** "Next available": straight to the details with that date, time and service. */
  private async takeNext(n: NextTime) {
    this.date = n.date;
    this.serviceId = n.serviceId;
    this.servicePicked = false;
    this.pick(n.hour, false);
    await this.loadLater();
    this.goTo("details");
  }

  /** The host's accent as #rrggbb when it is not the restaurant's own, for the hosted manage page opened from an embedded widget. */
  private accent(): string | undefined {
    const hex = hexOf(getComputedStyle(this).getPropertyValue("--_accent"));
    return hex && hex !== this.profile?.accent_color?.toLowerCase() ? hex : undefined;
  }

  private setPax(pax: number) {
    this.largeParty = pax > this.profile!.max_online_pax;
    if (this.largeParty) return;
    this.pax = pax;
    this.hour = undefined;
    this.servicePicked = false;
    void this.scan(pax);
  }

  private setDate(date: string) {
    this.date = date;
    this.hour = undefined;
    this.servicePicked = false;
    // Picked again (or at last): the day's times are fetched again when they are not fresh.
    if (this.slots.value?.date === date) void this.slots.run();
  }

  private setService(id: number) {
    this.serviceId = id;
    this.servicePicked = true;
    this.hour = undefined;
  }

  /** From the action bar, which shows once a time is chosen. */
  private async toDetails() {
    if (!this.hour) return;
    this.alternatives = undefined;
    await this.loadLater();
    this.goTo("details");
  }

  /** The details step, from the chunk that holds it (loaded when the guest picks a time). */
  private renderDetails() {
    const later = this.later;
    if (!later) return html`<p role="status" class="muted">${msg("Loading…", { id: "loading" })}</p>`;
    return later.detailsStep({
      guest: this.guest,
      errors: this.errors,
      failure: this.failure,
      pending: this.create.status === TaskStatus.PENDING,
      alternatives: this.alternatives,
      hour: this.hour,
      waiting: this.waiting,
      until: this.waitUntil,
      laterTimes: this.waiting ? later.laterTimes(this.service(this.slots.value), this.hour) : [],
      setUntil: (h) => (this.waitUntil = h),
      summary: {
        date: this.startDate(),
        hour: this.hour,
        waiting_until: this.waiting ? this.waitUntil : undefined,
        pax: this.pax,
        service: this.service(this.slots.value),
      },
      payment: this.waiting ? null : this.service(this.slots.value)?.payment,
      profile: this.profile!,
      locale: this.locale,
      submit: (e) => this.submit(e),
      remember: (e) => this.remember(e),
      back: () => this.goTo("choose"),
      choose: (h) => (this.hour = h),
    });
  }

  /** The details and confirmation (book-later.ts): fetched once, while the guest looks at the times. */
  private async loadLater() {
    if (!this.later) {
      this.later = await import("./book-later.js");
      this.requestUpdate();
    }
    return this.later;
  }

  /** Keeps what was typed; a field the server refused is cleared of its message once edited. */
  private remember(e: Event) {
    this.guest = this.later!.readGuest(e.currentTarget as HTMLFormElement);
    const field = (e.target as HTMLElement).id as keyof FieldErrors;
    if (this.errors[field]) this.errors = { ...this.errors, [field]: undefined };
  }

  /**
   * The calendar date of the chosen time: a service past midnight lists its late times (before
   * its start_hour) under the day it started, and they are booked on the next date.
   */
  private startDate(): string {
    const service = this.service(this.slots.value);
    return service && this.hour && this.hour < service.start_hour ? addDays(this.date!, 1) : this.date!;
  }

  private submit(e: SubmitEvent) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    if (this.create.status === TaskStatus.PENDING) return;
    if (!form.reportValidity()) return;
    if (!this.hour) {
      this.renderRoot.querySelector<HTMLInputElement>('input[name="alternative"]')?.focus();
      return;
    }
    this.remember(e);
    this.failure = undefined;
    const { guest, pax, hour, waiting, locale } = this;
    void this.create.run([
      this.later!.bookingInput({
        guest,
        date: this.startDate(),
        hour,
        pax,
        service: this.service(this.slots.value),
        waiting,
        until: this.waitUntil,
        locale,
      }),
    ]);
  }

  /**
   * The payment step: on the hosted pages its own page (whose policy alone lets Stripe's script and
   * frames in), in an embedded widget the next page of this element.
   */
  private toPayment(booking: PublicBooking) {
    saveDraft(this.profile!.public_key, { step: "choose", pax: this.pax });
    if (this.hosted) return location.assign(booking.manage_url.replace("/manage/", "/pay/"));
    fire<NavigateDetail>(this, "be-navigate", { page: "pay", token: booking.manage_token });
  }

  private reset() {
    this.booking = undefined;
    this.hour = undefined;
    this.waiting = false;
    void this.slots.run();
  }

  private again() {
    this.reset();
    this.goTo("choose");
  }
}

// Defined with the page (lazy.ts): one chunk.
export { DateGrid } from "../parts/date-grid.js";
