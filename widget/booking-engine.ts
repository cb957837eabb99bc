/**
 * <booking-engine>: a restaurant's booking widget, talking only to the public API of the Worker
 * it was loaded from.
 */
import { localized, msg } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, LitElement, nothing, type PropertyValues } from "lit";
import { property, state } from "lit/decorators.js";
import { PublicApi, PublicApiError, type PublicProfile, SCAN_DAYS } from "./api.js";
import { ownEntries } from "./entries.js";
import type { NavigateDetail } from "./events.js";
import { pickLocale, setLocale, supported } from "./localization.js";
import { definePage } from "./pages/lazy.js";
import { parseColor, textOnAccent } from "./parts/contrast.js";
import { base, theme } from "./parts/styles.js";
import { preloadChunks } from "./preload.js";
import { nextTask, prepareBookPage } from "./prepare.js";

export type Page = NavigateDetail["page"];
const PAGES: readonly Page[] = ["welcome", "services", "book", "manage", "offer", "pay"];

/** Every part of every page, exported through whichever page is shown (a part a page lacks is simply absent). */
const PARTS =
  "heading, welcome, welcome-message, logo, title, services, service, carousel, slide, book, calendar, day, selected-day, disabled-day, service-group, time, time-group, " +
  "waiting-list, button, input, form, summary, details, confirmation, manage-link, error, manage, confirm, cancelled, change, contact, map-link, phone, " +
  "next-available, action-bar, field-error, calendar-link, email-sent, offer, claim, decline, claimed, declined, pay";

/** Where this module was loaded from: the Worker that serves the public API too. */
const SCRIPT_ORIGIN = new URL(import.meta.url).origin;

/**
 * A restaurant's booking widget: welcome, services, booking and the guest's own reservation.
 *
 * ```html
 * <script type="module" src="https://<origin>/widget/booking-engine.js"></script>
 * <booking-engine property="pk_..." page="book" locale="it"></booking-engine>
 * ```
 *
 * @attr property - the restaurant's public key (required)
 * @attr page - `welcome` | `services` | `book` (default) | `manage` | `offer` (a waiting-list offer) | `pay` (a booking's payment)
 * @attr locale - `en` | `it` | `fr` | `de` | `es`; default: the page's `lang` (`<html lang>`) when it is one of these, else the restaurant's locale
 * @attr api - the origin of the API (default: the origin the script was loaded from)
 * @attr token - the manage token of a reservation (pages `manage` and `pay`), or a waiting-list offer's (page `offer`)
 * @attr service - a service id to preselect on the booking page
 * @attr pax - a party size to preselect on the booking page (over the online maximum, the page
 *   says such a party cannot book online and gives the number to call)
 * @attr booking-manage - the host page shows the guest's reservation in this element: the
 *   confirmation's manage link opens it here (and `#booking-manage=<token>` in the host's address
 *   opens it on load); without it the link opens the hosted manage page in a new tab, in the host's accent
 * @attr hosted - set by the hosted pages: each page and step has its own address (`/p/<key>/services`, `?step=`)
 * @attr heading - `none`: the host page has its own heading, so the widget shows neither the
 *   restaurant's name above its pages nor their headings (still read out by screen readers)
 *
 * @fires booking-created - a reservation was made; `detail: { reservation, manage_url }`
 * @fires booking-cancelled - the guest cancelled a reservation; `detail: { reservation }`
 * @fires booking-paid - the guest paid (or saved a card) and the reservation is confirmed; `detail: { reservation_id }`
 *
 * @slot loading - what shows while the restaurant is loading (default: on the booking page its shape
 *   drawn quiet, elsewhere "Loading…"; the hosted pages put their own in the page's language)
 * @slot payment - the payment step puts Stripe's Payment Element here itself (Stripe's Elements refuse a shadow root)
 * @csspart pay - the payment step
 * @csspart base - the element's frame
 * @csspart skeleton - the booking page's shape shown while the restaurant loads
 * @csspart welcome - the welcome page; also `services`, `book`, `details`, `confirmation`, `manage` for the other pages and steps
 * @csspart welcome-message - the restaurant's welcome message
 * @csspart header - the restaurant's logo and name above the booking and manage pages
 * @csspart heading - the heading of each page and step ("Book a table", "Your details", ...)
 * @csspart logo - the restaurant's logo
 * @csspart title - the restaurant's name
 * @csspart button - every button and button-like link
 * @csspart input - every text field and select
 * @csspart calendar - the date picker
 * @csspart day - a day of the date picker
 * @csspart selected-day - the chosen day (with `day`)
 * @csspart disabled-day - a day that cannot be booked (with `day`)
 * @csspart time - one time to choose (a chip)
 * @csspart time-group - the group of times (also the full times of the waiting list)
 * @csspart waiting-list - the disclosure that offers the day's full times for the waiting list
 * @csspart service - a service chip on the booking page, a service card on the services page
 * @csspart service-group - the group of services on the booking page
 * @csspart form - the guest's details form
 * @csspart summary - the summary of a reservation
 * @csspart manage-link - the link to the manage page in the confirmation
 * @csspart calendar-link - "Add to calendar" (the reservation's .ics) in the confirmation and on the manage page
 * @csspart email-sent - the confirmation's note of where the email went
 * @csspart offer - the waiting-list offer page; `claim` and `decline` its buttons (with `button`), `claimed` and `declined` its answers
 * @csspart error - an error message
 * @csspart confirm - the "really cancel?" step of the manage page
 * @csspart change - the manage page's form that changes date, time or party size
 * @csspart cancelled - the message that the reservation is cancelled
 * @csspart carousel - the photo carousel
 * @csspart slide - one photo of the carousel
 * @csspart contact - the restaurant's address, map link, phone and website
 * @csspart map-link - the link to the map
 * @csspart phone - the restaurant's phone number (a tel: link)
 * @csspart next-available - the nearest dates with a free time, when the chosen day has none
 * @csspart action-bar - the bar that keeps the next step in reach on a phone
 * @csspart field-error - the message under a field the server refused
 *
 * @cssproperty --be-accent - accent colour of buttons and choices (default: the restaurant's accent_color)
 * @cssproperty --be-on-accent - text on the accent colour (default: black or white, whichever contrasts more with the accent)
 * @cssproperty --be-text - text colour
 * @cssproperty --be-muted - secondary text colour
 * @cssproperty --be-background - background of fields and the frame
 * @cssproperty --be-surface - background of messages and photos
 * @cssproperty --be-border - border colour of fields and chips
 * @cssproperty --be-danger - errors and cancel
 * @cssproperty --be-success - confirmations
 * @cssproperty --be-focus - the focus ring
 * @cssproperty --be-radius - corner radius
 * @cssproperty --be-font - font family
 * @cssproperty --be-gap - vertical rhythm
 * @cssproperty --be-padding - the padding of the frame (1rem)
 * @cssproperty --be-max-width - the widest the element grows (40rem)
 */
@localized()
export class BookingEngine extends LitElement {
  static override styles = [
    theme,
    base,
    css`
      :host {
        max-width: var(--be-max-width, 40rem);
        margin-inline: auto;
      }
      .frame {
        padding: var(--be-padding, 1rem);
        background: var(--_bg);
      }
      header {
        display: flex;
        align-items: center;
        gap: 0.75rem;
        margin-bottom: 1rem;
      }
      header img {
        width: 3rem;
        height: 3rem;
        object-fit: contain;
      }
      header p {
        margin: 0;
        font-weight: 700;
        font-size: 1.15rem;
      }
      .probe {
        display: none;
        color: var(--_accent);
      }
      .skeleton {
        min-height: 22rem;
        margin: 1rem 0;
      }
      .skeleton i {
        display: block;
        border-radius: var(--_radius);
        background: var(--_surface);
      }
      .skeleton .bar {
        height: 2.75rem;
        max-width: 16rem;
        margin-bottom: 1.5rem;
      }
      .skeleton .days {
        display: grid;
        grid-template-columns: repeat(7, 1fr);
        gap: 0.375rem;
        margin-bottom: 1.5rem;
      }
      .skeleton .days i,
      .skeleton .times i {
        height: 2.75rem;
      }
      .skeleton .times {
        display: flex;
        flex-wrap: wrap;
        gap: 0.5rem;
      }
      .skeleton .times i {
        width: 4.5rem;
      }
      :host([heading="none"]) [data-page]::part(heading) {
        position: absolute;
        width: 1px;
        height: 1px;
        margin: -1px;
        overflow: hidden;
        clip: rect(0 0 0 0);
        white-space: nowrap;
      }
    `,
  ];

  @property({ reflect: true }) declare property: string;
  @property({ reflect: true }) declare page: Page;
  @property() declare locale: string | undefined;
  @property() declare api: string | undefined;
  @property() declare token: string | undefined;
  @property({ type: Number }) declare service: number | undefined;
  @property({ type: Number }) declare pax: number | undefined;
  @property({ type: Boolean, attribute: "booking-manage" }) declare bookingManage: boolean;
  @property({ type: Boolean }) declare hosted: boolean;
  @property({ reflect: true }) declare heading: string | undefined;

  @state() declare private client: PublicApi | undefined;
  /** black or white, whichever reads better on the accent as the browser resolved it */
  @state() declare private onAccent: string | undefined;
  /** the accent is too light to be text on the background: such text takes the text colour */
  @state() declare private lightAccent: boolean;

  constructor() {
    super();
    this.property = "";
    this.page = "book";
    this.bookingManage = false;
    this.hosted = false;
    this.lightAccent = false;
  }

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener("hashchange", this.fromHash);
    window.addEventListener("popstate", this.onPop);
    this.fromHash();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener("hashchange", this.fromHash);
    window.removeEventListener("popstate", this.onPop);
  }

  private entries = ownEntries();

  override firstUpdated() {
    // The entry the widget opened on says which page it is, for Back to come to it.
    const page = this.page;
    this.entries.firstLater(() =>
      history.replaceState({ ...(history.state as object | null), bookingEnginePage: page }, ""),
    );
  }

  /** Back or Forward to an entry of another page of this element: show that page. */
  private onPop = (e: PopStateEvent) => {
    const to = pageOf(e.state);
    if (to && to.page !== this.page) void this.show(to);
  };

  /**
   * The host shows reservations here when it says so: the `booking-manage` attribute, or a
   * `#booking-manage` hash in its address; `#booking-manage=<token>` opens that reservation.
   */
  private get manageHere() {
    return this.bookingManage || location.hash.startsWith("#booking-manage");
  }

  private fromHash = () => {
    const token = this.manageHere && location.hash.match(/^#booking-manage=([\w-]{16,200})$/)?.[1];
    if (token) {
      this.token = token;
      this.page = "manage";
    }
  };

  override willUpdate(changed: PropertyValues<this>) {
    if (changed.has("page")) {
      // the page's chunks, and the language's table when the element or the host page names it
      preloadChunks(this.page, supported(this.locale) ?? supported(document.documentElement.lang));
      void definePage(this.page);
    }
    if (changed.has("api") || changed.has("property"))
      this.client = this.property ? new PublicApi(this.api || SCRIPT_ORIGIN, this.property) : undefined;
  }

  private profile = new Task(this, {
    args: () => [this.client, this.locale] as const,
    task: async ([client], { signal }) => {
      if (!client) throw new PublicApiError(404, "property_not_found", "no property attribute");
      // The restaurant's own texts in the guest's language, when the page says which one.
      client.locale = supported(this.locale) ?? supported(document.documentElement.lang);
      // The request leaves the task that defines the element; while the restaurant loads, the booking
      // page's first screen is prepared in small tasks of their own, and its first times are asked
      // for beside the profile (the hosted pages preload the same address).
      const asked = nextTask().then(() => {
        if (this.page === "book") client.prefetchFirstDays(this.pax ?? 2, SCAN_DAYS);
        return client.profile(signal);
      });
      const [profile] = await Promise.all([
        asked,
        this.page === "book" ? prepareBookPage(client.locale ?? "en", this.hosted) : undefined,
      ]);
      client.locale = this.localeFor(profile);
      await setLocale(client.locale);
      return profile;
    },
  });

  private probeQueued = false;

  override updated() {
    // Read once the frame is drawn: then the styles are already worked out and reading them costs
    // nothing, where reading them now would have the browser work them out at once.
    if (this.probeQueued) return;
    this.probeQueued = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        this.probeQueued = false;
        this.contrastAccent();
      }),
    );
  }

  /**
   * Text on the accent: black or white, whichever contrasts more, unless the page sets
   * --be-on-accent. The probe is styled with the accent, so any CSS colour the host gives is resolved.
   */
  private contrastAccent() {
    const probe = this.renderRoot.querySelector<HTMLElement>(".probe");
    const rgb = probe && parseColor(getComputedStyle(probe).color);
    if (!rgb) return;
    const { on, light } = textOnAccent(rgb);
    if (on !== this.onAccent) this.onAccent = on;
    if (light !== this.lightAccent) this.lightAccent = light;
  }

  /** The `locale` attribute, else the host page's `lang`, else the restaurant's locale. */
  private localeFor(profile: PublicProfile) {
    return pickLocale(this.locale, document.documentElement.lang, profile.locale);
  }

  /**
   * A page asked for another: a new history entry (Back returns), with the page's own address on
   * the hosted pages (so a reload shows the same page); then the page itself.
   */
  private navigate(e: CustomEvent<NavigateDetail>) {
    e.stopPropagation();
    const state = {
      ...(history.state as object | null),
      bookingEngineStep: undefined,
      bookingEnginePage: e.detail,
    };
    history.pushState(state, "", this.hosted ? hostedUrl(this.property, e.detail) : undefined);
    this.entries.wrote();
    void this.show(e.detail);
  }

  /** Shows a page and moves the focus to its heading, where a reader starts. */
  private async show(to: NavigateDetail) {
    this.page = to.page;
    if (to.serviceId) this.service = to.serviceId;
    if (to.pax) this.pax = to.pax;
    if (to.token) this.token = to.token;
    await definePage(this.page);
    await this.updateComplete;
    const heading = await headingOf(this.renderRoot.querySelector<LitElement>("[data-page]"));
    heading?.focus();
    heading?.scrollIntoView?.({ block: "nearest" });
  }

  override render() {
    return html`<div class="frame" part="base" @be-navigate=${this.navigate}>
      ${this.profile.render({
        // The hosted pages give their own placeholder, already in the page's language.
        pending: () => html`<slot name="loading">${loading(this.page)}</slot>`,
        error: (e) =>
          html`<p role="alert" class="message error" part="error">
            ${
              e instanceof PublicApiError && e.status === 404
                ? msg("This restaurant cannot be booked online.", { id: "engine.not-found" })
                : msg("The booking page could not be loaded. Please try again later.", { id: "engine.error" })
            }
          </p>`,
        complete: (profile) => this.renderPage(profile),
      })}
    </div>`;
  }

  /** The page asked for (the booking page when the attribute names none), in the restaurant's colours. */
  private renderPage(profile: PublicProfile) {
    const locale = this.localeFor(profile);
    const page = PAGES.includes(this.page) ? this.page : "book";
    return html`<div style=${this.themeStyle(profile)} lang=${locale}>
      <span class="probe" aria-hidden="true"></span>
      ${this.heading !== "none" && (page === "book" || page === "manage" || page === "offer" || page === "pay") ? header(profile) : nothing}
      ${this.pageElement(page, profile, locale)}
    </div>`;
  }

  /**
   * The restaurant's accent (unless the host sets --be-accent) and the text that reads on it: until
   * the probe has read the accent as the browser resolved it, the text that reads on the restaurant's own.
   */
  private themeStyle(profile: PublicProfile) {
    const own =
      profile.accent_color && /^#[0-9a-f]{3,8}$/i.test(profile.accent_color)
        ? profile.accent_color
        : undefined;
    const accent = own ? `--_accent: var(--be-accent, ${own});` : "";
    const guess = this.onAccent === undefined && own ? parseColor(own) : undefined;
    const { on, light } = guess ? textOnAccent(guess) : { on: this.onAccent, light: this.lightAccent };
    return (
      accent +
      (on ? `--_on-accent: var(--be-on-accent, ${on});` : "") +
      (light ? "--_accent-text: var(--_text);" : "")
    );
  }

  private pageElement(page: Page, profile: PublicProfile, locale: string) {
    switch (page) {
      case "welcome":
        return html`<be-welcome-page data-page exportparts=${PARTS} .profile=${profile} .locale=${locale}></be-welcome-page>`;
      case "services":
        return html`<be-services-page data-page exportparts=${PARTS} .api=${this.client} .profile=${profile} .locale=${locale}></be-services-page>`;
      case "manage":
        return html`<be-manage-page data-page exportparts=${PARTS} .api=${this.client} .profile=${profile} .token=${this.token ?? ""} .locale=${locale}></be-manage-page>`;
      case "offer":
        return html`<be-offer-page data-page exportparts=${PARTS} .api=${this.client} .profile=${profile} .token=${this.token ?? ""} .locale=${locale}></be-offer-page>`;
      case "pay":
        return html`<be-pay-page data-page exportparts=${PARTS} .api=${this.client} .profile=${profile} .token=${this.token ?? ""} .locale=${locale}><slot name="payment" slot="payment"></slot></be-pay-page>`;
      default:
        return html`<be-book-page
          data-page
          exportparts=${PARTS}
          .api=${this.client}
          .profile=${profile}
          .serviceId=${this.service}
          .initialPax=${this.pax}
          .hosted=${this.hosted}
          .manageHere=${this.manageHere}
          .locale=${locale}
        ></be-book-page>`;
    }
  }
}

/** The page of a history entry this element wrote (a page's name, or the detail it was asked with). */
function pageOf(state: unknown): NavigateDetail | undefined {
  const p = (state as { bookingEnginePage?: Page | NavigateDetail } | null)?.bookingEnginePage;
  return typeof p === "string" ? { page: p } : p;
}

/** A hosted page's own address (the query's `locale` and `accent` kept); the manage and offer pages keep theirs. */
function hostedUrl(property: string, to: NavigateDetail): string | undefined {
  if (to.page !== "welcome" && to.page !== "services" && to.page !== "book") return undefined;
  const url = new URL(location.href);
  url.pathname = `/p/${encodeURIComponent(property)}${to.page === "welcome" ? "" : `/${to.page}`}`;
  for (const drop of ["step", "pax"]) url.searchParams.delete(drop);
  if (to.pax) url.searchParams.set("pax", String(to.pax));
  return url.href;
}

/**
 * What shows while the restaurant loads: on the booking page its shape (the party, a fortnight of
 * days, a row of times) drawn quiet, as the hosted pages draw it, so an embedded widget does not
 * sit empty; the word for a screen reader. It stands still: a pulse would cost the main thread.
 */
function loading(page: Page) {
  const word = msg("Loading…", { id: "loading" });
  if (page !== "book") return html`<p role="status" class="muted">${word}</p>`;
  const cells = (n: number) => Array.from({ length: n }, () => html`<i></i>`);
  return html`<div role="status" class="skeleton" part="skeleton">
    <span class="sr-only">${word}</span>
    <div aria-hidden="true"><i class="bar"></i><div class="days">${cells(14)}</div><div class="times">${cells(6)}</div></div>
  </div>`;
}

/** The restaurant's logo and name, above the booking, manage and offer pages. */
function header(profile: PublicProfile) {
  return html`<header part="header">
    ${profile.logo_url ? html`<img part="logo" src=${profile.logo_url} alt="" />` : nothing}
    <p part="title">${profile.name}</p>
  </header>`;
}

/** A page's heading once it is drawn: a page draws it only when its own data is in, a few frames after it is defined. */
async function headingOf(page: LitElement | null): Promise<HTMLElement | null> {
  for (let frame = 0; page && frame < 120; frame++) {
    await page.updateComplete;
    const heading = page.shadowRoot?.querySelector<HTMLElement>("h2");
    if (heading) return heading;
    await new Promise((r) => requestAnimationFrame(r));
  }
  return null;
}
