/** The restaurant's welcome: logo, name, welcome message and the way to book. */
import { localized, msg } from "@lit/localize";
import { css, html, LitElement, nothing } from "lit";
import { property } from "lit/decorators.js";
import type { PublicProfile } from "../api.js";
import { fire, type NavigateDetail } from "../events.js";
import { contact, contactStyles } from "../parts/contact.js";
import { base } from "../parts/styles.js";

/**
 * The welcome page of <booking-engine page="welcome">.
 *
 * @fires be-navigate - (internal, not composed) the guest asked for the booking or services page
 * @csspart welcome - the page
 * @csspart logo - the restaurant's logo
 * @csspart title - the restaurant's name
 * @csspart welcome-message - the welcome message
 * @csspart button - the buttons
 * @csspart contact - the address, map link, phone and website
 */
@localized()
export class WelcomePage extends LitElement {
  static override styles = [
    base,
    contactStyles,
    css`
      .welcome {
        text-align: center;
      }
      .logo {
        display: block;
        max-width: 10rem;
        max-height: 8rem;
        margin: 0 auto 1rem;
        object-fit: contain;
      }
      .message-text {
        font-size: 1.1rem;
        white-space: pre-line;
      }
      .actions,
      .contact .links {
        justify-content: center;
      }
    `,
  ];

  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property() declare locale: string;

  constructor() {
    super();
    this.locale = "en";
  }

  override render() {
    const p = this.profile;
    if (!p) return nothing;
    const go = (page: NavigateDetail["page"]) => fire<NavigateDetail>(this, "be-navigate", { page }, false);
    return html`<section class="welcome stack" part="welcome" aria-labelledby="h">
      ${p.logo_url ? html`<img class="logo" part="logo" src=${p.logo_url} alt="" />` : nothing}
      <h2 id="h" part="title heading" tabindex="-1">${p.name}</h2>
      ${p.welcome_message ? html`<p class="message-text" part="welcome-message">${p.welcome_message}</p>` : nothing}
      <div class="actions">
        <button type="button" class="btn" part="button" @click=${() => go("book")}>${msg("Book a table", { id: "book.title" })}</button>
        <button type="button" class="btn secondary" part="button" @click=${() => go("services")}>${msg("Our services", { id: "welcome.services" })}</button>
      </div>
      ${contact(p, this.locale)}
    </section>`;
  }
}
