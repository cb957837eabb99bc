/**
 * <booking-console>: the restaurant's own screen, routed on location.pathname under /console.
 */
import { localized, msg } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, LitElement, nothing, type PropertyValues } from "lit";
import { property, state } from "lit/decorators.js";
import { now } from "../clock.js";
import { ConsoleApi, type Session } from "./api.js";
import { LiveFeed, liveUrl } from "./live.js";
import { pickLocale, setLocale, supported } from "./localization.js";
import { actionError } from "./parts/errors.js";
import { chosenLocale, languageChooser } from "./parts/language.js";
import { link, type NavigateDetail } from "./parts/navigate.js";
import { base, consoleStyles, theme } from "./parts/styles.js";
import { roleName } from "./parts/words.js";
import { parseRoute, type Route, routePath, todayIn } from "./router.js";
import { defineView } from "./views/lazy.js";

/**
 * The restaurant's console: the day's book, the table timeline, new bookings and walk-ins, each
 * reservation's actions, guests and the restaurant's settings. Served by the Worker at /console.
 *
 * ```html
 * <script type="module" src="/widget/booking-console.js"></script>
 * <booking-console locale="it"></booking-console>
 * ```
 *
 * Keys (outside text fields): `w` a walk-in, `n` a new booking, `d` the day, `t` the timeline,
 * `q` the walk-in waiting list, `f` the floor plan, `/` the search;
 * on the day and the timeline `ArrowLeft` / `ArrowRight` the previous / next day.
 *
 * @attr locale - `en` | `it` | `fr` | `de` | `es`; default: the language chosen in this browser (the header's chooser), else the page's `lang`, then the session's locale
 * @attr base - where the console's routes answer (default `/console`; its API is `<base>/api/v2`)
 * @attr live - `off`: no live feed (default: a WebSocket on `<base>/live`, polling every 10 s when it fails)
 *
 * @fires console-navigate - (from the views) show another view; `detail: { route, replace? }`
 *
 * @csspart header - the bar with the restaurant's name and the navigation
 * @csspart nav - the navigation links
 * @csspart who - who is at the console, and their role
 * @csspart link - every link between views
 * @csspart main - the view's frame
 * @csspart error - an error message
 * @csspart offline - the banner shown while there is no connection
 *
 * @cssproperty --be-accent - accent colour of buttons, links and the current place
 * @cssproperty --be-on-accent - text on the accent colour
 * @cssproperty --be-text - text colour
 * @cssproperty --be-muted - secondary text colour
 * @cssproperty --be-background - background of fields and the page
 * @cssproperty --be-surface - background of messages, rows and bars
 * @cssproperty --be-border - border colour of fields and badges
 * @cssproperty --be-danger - errors, allergies and cancel
 * @cssproperty --be-success - seated parties and confirmations
 * @cssproperty --be-focus - the focus ring
 * @cssproperty --be-radius - corner radius
 * @cssproperty --be-font - font family
 * @cssproperty --be-gap - vertical rhythm
 */
@localized()
export class BookingConsole extends LitElement {
  static override styles = [
    theme,
    base,
    consoleStyles,
    css`
      :host {
        min-height: 100vh;
        background: var(--_bg);
      }
      header {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 0.5rem 1.25rem;
        padding: 0.5rem 1rem;
        background: var(--_surface);
        border-bottom: 1px solid var(--_border);
      }
      header strong {
        font-size: 1.1rem;
      }
      nav ul {
        display: flex;
        flex-wrap: wrap;
        gap: 0.25rem 1rem;
        list-style: none;
        margin: 0;
        padding: 0;
      }
      nav a {
        display: inline-block;
        padding: 0.5rem 0.1rem;
        font-weight: 600;
      }
      nav a[aria-current="page"] {
        text-decoration-thickness: 3px;
        text-underline-offset: 0.35rem;
      }
      header .who {
        margin-inline-start: auto;
        color: var(--_muted);
      }
      header .language {
        font-size: 0.9rem;
      }
      header .language select {
        width: auto;
        min-height: 2.25rem;
        margin-inline-start: 0.35rem;
      }
      main {
        padding: 1rem;
        max-width: 90rem;
        margin-inline: auto;
      }
      @media print {
        header {
          display: none;
        }
        main {
          padding: 0;
          max-width: none;
        }
      }
    `,
  ];

  @property({ reflect: true }) locale: string | undefined;
  @property() base = "/console";
  @property() live: string | undefined;

  @state() private route: Route = parseRoute(location.pathname, location.search);
  @state() private version = 0;
  @state() private signOutError: unknown;
  /** no connection: the banner says so, and the views show what they last read */
  @state() private offline = typeof navigator !== "undefined" && navigator.onLine === false;

  private api = this.connected(new ConsoleApi(this.base));
  private feed: LiveFeed | undefined;
  /** set by a navigation: once the view has rendered, focus goes to its heading */
  private moved = false;

  private connected(api: ConsoleApi): ConsoleApi {
    api.onConnection = (offline) => this.onConnection(offline);
    return api;
  }

  private sessionTask = new Task(this, {
    task: async ([base], { signal }) => {
      if (this.api.base !== base) this.api = this.connected(new ConsoleApi(base));
      const session = await this.api.currentSession(signal);
      await this.applyLocale(session);
      return session;
    },
    args: () => [this.base] as const,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener("popstate", this.onPop);
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    document.addEventListener("keydown", this.onKey);
    this.addEventListener("console-navigate", this.onNavigate);
    this.addEventListener("console-signed-in", this.onSignedIn);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener("popstate", this.onPop);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("keydown", this.onKey);
    this.feed?.stop();
    this.feed = undefined;
  }

  /** Shows `route` and records it in the history (Back returns to where the user was). */
  go(route: Route, replace = false): void {
    const path = routePath(route);
    if (path !== location.pathname + location.search)
      history[replace ? "replaceState" : "pushState"](null, "", path);
    this.route = route;
    this.moved = true;
  }

  private onPop = () => {
    this.route = parseRoute(location.pathname, location.search);
    this.moved = true;
  };

  private onOffline = () => (this.offline = true);

  /** The connection is back: the banner goes and every view reads its data again. */
  private onOnline = () => {
    if (!this.offline) return;
    this.offline = false;
    this.version++;
  };

  private onConnection = (offline: boolean) => (offline ? this.onOffline() : this.onOnline());

  private onNavigate = (e: CustomEvent<NavigateDetail>) => this.go(e.detail.route, e.detail.replace);

  private onSignedIn = () => {
    this.sessionTask.run();
    if (this.route.view === "sign-in" || this.route.view === "reset" || this.route.view === "invite")
      this.go({ view: "day" }, true);
  };

  /** Single keys to the views most used at the host stand, never while typing. */
  private onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || !this.session) return;
    const target = e.composedPath()[0] as HTMLElement | undefined;
    if (target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)) return;
    const routes: Record<string, Route> = {
      w: { view: "new", walkIn: true },
      n: { view: "new" },
      d: { view: "day" },
      t: { view: "timeline" },
      q: { view: "waitlist" },
      f: { view: "floor" },
    };
    if (e.key === "/") {
      e.preventDefault();
      void this.focusSearch();
      return;
    }
    const route = routes[e.key];
    if (!route) return;
    e.preventDefault();
    this.go(route);
  };

  /** `/`: the search of the view on screen (the guests' or the day's), else the day's. */
  private async focusSearch() {
    const searchable = (v: unknown): v is { focusSearch(): void } =>
      typeof (v as { focusSearch?: unknown } | null)?.focusSearch === "function";
    let view = this.renderRoot.querySelector("main > *");
    if (!searchable(view)) {
      this.go({ view: "day" });
      await this.updateComplete;
      await defineView("day");
      view = this.renderRoot.querySelector("main > *");
      await (view as { updateComplete?: Promise<unknown> } | null)?.updateComplete;
    }
    if (searchable(view)) view.focusSearch();
  }

  private get session(): Session | undefined {
    return this.sessionTask.value;
  }

  private async applyLocale(session: Session | undefined) {
    const locale =
      supported(this.locale) ??
      chosenLocale() ??
      pickLocale(document.documentElement.lang || undefined, session?.locale, session?.property.locale);
    await setLocale(locale);
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has("locale")) void this.applyLocale(this.session);
    const session = this.session;
    if (session && !this.feed && this.live !== "off") {
      // a session that ended or changed (another role, a switch elsewhere): read it again
      this.feed = new LiveFeed(
        liveUrl(this.base),
        () => this.version++,
        () => this.sessionTask.run(),
      );
      this.feed.start();
    }
    if (!session && this.feed) {
      this.feed.stop();
      this.feed = undefined;
    }
    if (this.moved) void this.focusView();
  }

  private async focusView() {
    this.moved = false;
    await defineView(this.route.view);
    const view = this.renderRoot.querySelector<
      HTMLElement & { updateComplete?: Promise<unknown>; focusHeading?: () => void }
    >("main > *");
    await view?.updateComplete;
    view?.focusHeading?.();
  }

  private async signOut() {
    this.signOutError = undefined;
    try {
      await this.api.signOut();
      this.feed?.stop();
      this.feed = undefined;
      this.sessionTask.run();
      this.go({ view: "sign-in" });
    } catch (err) {
      this.signOutError = err;
    }
  }

  override render() {
    const shown = (session: Session | undefined) =>
      session && !["sign-in", "reset", "invite"].includes(this.route.view)
        ? this.signedIn(session)
        : this.signInView();
    return this.sessionTask.render({
      // reading the session again (another member took the tablet) keeps the screen as it was meanwhile
      pending: () =>
        this.session
          ? shown(this.session)
          : html`<p class="muted" role="status">${msg("Loading…", { id: "console.loading" })}</p>`,
      complete: shown,
      error: (err) => html`<main part="main">${actionError(err)}</main>`,
    });
  }

  private signInView() {
    const route =
      this.route.view === "reset" || this.route.view === "invite"
        ? this.route
        : ({ view: "sign-in" } as Route);
    void defineView(route.view);
    return html`<main part="main"><bc-sign-in .api=${this.api} .route=${route}></bc-sign-in></main>`;
  }

  private signedIn(session: Session) {
    const today = todayIn(session.property.timezone, now());
    const current = this.route.view;
    const item = (route: Route, text: string, active: boolean) =>
      html`<li>${active ? html`<a href=${routePath(route)} aria-current="page" part="link" @click=${(e: MouseEvent) => this.follow(e, route)}>${text}</a>` : link(route, text)}</li>`;
    return html`
      <header part="header">
        <strong>${session.property.name}</strong>
        <nav part="nav" aria-label=${msg("Console", { id: "console.nav" })}>
          <ul>
            ${item({ view: "day" }, msg("Day", { id: "console.nav.day" }), current === "day")}
            ${item({ view: "timeline" }, msg("Timeline", { id: "console.nav.timeline" }), current === "timeline")}
            ${item({ view: "new" }, msg("New booking", { id: "console.nav.new" }), current === "new" && !("walkIn" in this.route && this.route.walkIn))}
            ${item({ view: "new", walkIn: true }, msg("Walk-in", { id: "console.nav.walkin" }), current === "new" && "walkIn" in this.route && !!this.route.walkIn)}
            ${item({ view: "guests" }, msg("Guests", { id: "console.nav.guests" }), current === "guests")}
            ${item({ view: "waitlist" }, msg("Waiting list", { id: "console.nav.waitlist" }), current === "waitlist")}
            ${item({ view: "floor" }, msg("Floor plan", { id: "console.nav.floor" }), current === "floor")}
            ${item({ view: "sheet" }, msg("Day sheet", { id: "console.nav.sheet" }), current === "sheet")}
            ${item({ view: "reports" }, msg("Reports", { id: "console.nav.reports" }), current === "reports")}
            ${item({ view: "restaurant" }, msg("Restaurant", { id: "console.nav.restaurant" }), current === "restaurant")}
          </ul>
        </nav>
        <span class="who" part="who">${session.actor.name ?? ""} · ${roleName(session.role)}</span>
        <button class="btn secondary small" type="button" @click=${this.openSwitch}>${msg("Switch user", { id: "console.switch" })}</button>
        ${languageChooser(() => (this.locale = undefined))}
        <button class="btn secondary small" type="button" @click=${() => this.signOut()}>${msg("Sign out", { id: "console.signout" })}</button>
      </header>
      <bc-switch-user .api=${this.api} @console-signed-in=${this.onSwitched}></bc-switch-user>
      ${actionError(this.signOutError)}
      ${this.offline ? html`<p class="message error offline" role="alert" part="offline">${msg("No connection. What is on screen is as it was last read; changes cannot be sent until the connection is back, and the console catches up then.", { id: "console.offline" })}</p>` : nothing}
      <main part="main">${this.view(session, today)}</main>
    `;
  }

  private openSwitch = async () => {
    await import("./parts/switch-user.js");
    await customElements.whenDefined("bc-switch-user");
    (this.renderRoot.querySelector("bc-switch-user") as HTMLElement & { open(): void }).open();
  };

  /** Another member took the tablet: the session (and role) the views see is theirs from now on. */
  private onSwitched = (e: Event) => {
    e.stopPropagation();
    this.sessionTask.run();
    this.version++;
  };

  private follow(e: MouseEvent, route: Route) {
    e.preventDefault();
    this.go(route);
  }

  private view(session: Session, today: string) {
    const route = this.route;
    void defineView(route.view);
    const p = { api: this.api, session, route, version: this.version, today };
    switch (route.view) {
      case "timeline":
        return html`<bc-timeline-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-timeline-view>`;
      case "new":
        return html`<bc-new-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-new-view>`;
      case "reservation":
        return html`<bc-reservation-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-reservation-view>`;
      case "guest":
        return html`<bc-guest-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-guest-view>`;
      case "guests":
        return html`<bc-guests-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-guests-view>`;
      case "waitlist":
        return html`<bc-waitlist-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-waitlist-view>`;
      case "floor":
        return html`<bc-floor-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-floor-view>`;
      case "sheet":
        return html`<bc-sheet-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-sheet-view>`;
      case "reports":
        return html`<bc-reports-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-reports-view>`;
      case "restaurant":
        return html`<bc-restaurant-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-restaurant-view>`;
      default:
        return html`<bc-day-view .api=${p.api} .session=${session} .route=${route} .version=${p.version} .today=${today}></bc-day-view>`;
    }
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "console-signed-in": CustomEvent<Session>;
  }
}
