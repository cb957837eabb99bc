/** What every view of the console is given by <booking-console>. */
import { LitElement } from "lit";
import { property } from "lit/decorators.js";
import type { ConsoleApi, Session } from "../api.js";
import { getLocale } from "../localization.js";
import { base, consoleStyles, theme } from "../parts/styles.js";
import type { Route } from "../router.js";

export abstract class ConsoleView extends LitElement {
  static override styles = [theme, base, consoleStyles];

  /** the console's API client, signed in */
  @property({ attribute: false }) api!: ConsoleApi;
  /** the session (the restaurant, its zone) */
  @property({ attribute: false }) session!: Session;
  /** the view's address */
  @property({ attribute: false }) route!: Route;
  /** bumped when the live feed reports a change: views re-read what they show */
  @property({ type: Number }) version = 0;
  /** today's date in the restaurant's zone */
  @property() today = "";

  protected get locale(): string {
    return getLocale();
  }

  /** Moves focus to the view's heading (after a navigation, so a screen reader announces the view). */
  focusHeading(): void {
    this.renderRoot.querySelector<HTMLElement>("h1")?.focus();
  }
}
