/** The restaurant in pictures and the services a guest can book, each with its way to book. */
import { localized, msg, str } from "@lit/localize";
import { Task } from "@lit/task";
import { css, html, LitElement, nothing } from "lit";
import { property } from "lit/decorators.js";
import type { PublicApi, PublicProfile, PublicService } from "../api.js";
import { fire, type NavigateDetail } from "../events.js";
import { formatTime, weekdayName } from "../format.js";

import { base } from "../parts/styles.js";

/**
 * The services page of <booking-engine page="services">: the photo carousel and the services.
 *
 * @fires be-navigate - (internal, not composed) the guest chose a service to book, or went back to the welcome page
 * @csspart services - the page
 * @csspart service - one service card
 * @csspart carousel - the photo carousel (with `slide` and `button` from it)
 * @csspart button - the buttons
 */
@localized()
export class ServicesPage extends LitElement {
  static override styles = [
    base,
    css`
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--_gap);
        grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
      }
      li {
        display: flex;
        flex-direction: column;
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        overflow: hidden;
        background: var(--_bg);
      }
      li img {
        width: 100%;
        aspect-ratio: 3 / 2;
        object-fit: cover;
        display: block;
      }
      .body {
        padding: 0.75rem 1rem 1rem;
        display: flex;
        flex-direction: column;
        gap: 0.4rem;
        flex: 1;
      }
      .body .actions {
        margin-top: auto;
      }
      p,
      h4 {
        margin: 0;
      }
      h4 {
        font-size: 1.05rem;
      }
      .back {
        padding: 0.5rem 0;
        min-height: 2.75rem;
        border: 0;
        background: none;
        color: var(--_accent-text, var(--_accent));
        font: inherit;
        text-decoration: underline;
        cursor: pointer;
      }
    `,
  ];

  @property({ attribute: false }) declare api: PublicApi | undefined;
  @property({ attribute: false }) declare profile: PublicProfile | undefined;
  @property() declare locale: string;

  constructor() {
    super();
    this.locale = "en";
  }

  private services = new Task(this, {
    args: () => [this.api] as const,
    task: async ([api], { signal }) => (api ? api.services(signal) : []),
  });

  private days(s: PublicService) {
    if (s.weekdays.length === 7) return msg("Every day", { id: "services.every-day" });
    return s.weekdays.map((d) => weekdayName(d, this.locale, "short")).join(", ");
  }

  /** One service: its picture, text, days and hours, and the button that books it. */
  private service(s: PublicService) {
    return html`<li part="service">
      ${s.image_url ? html`<img src=${s.image_url} alt="" loading="lazy" />` : nothing}
      <div class="body">
        <h4>${s.name}</h4>
        ${s.description ? html`<p>${s.description}</p>` : nothing}
        <p class="muted">${this.days(s)} · ${formatTime(s.start_hour, this.locale)}–${formatTime(s.end_hour, this.locale)}</p>
        <div class="actions">
          <button
            type="button"
            class="btn"
            part="button"
            aria-label=${msg(str`Book ${s.name}`, { id: "services.book-label" })}
            @click=${() => fire<NavigateDetail>(this, "be-navigate", { page: "book", serviceId: s.id }, false)}
          >
            ${msg("Book", { id: "services.book" })}
          </button>
        </div>
      </div>
    </li>`;
  }

  override render() {
    const p = this.profile;
    if (!p) return nothing;
    const photos = p.photos.map((src, i) => ({
      src,
      alt: msg(str`${p.name}, photo ${i + 1}`, { id: "services.photo" }),
    }));
    return html`<section class="stack" part="services" aria-labelledby="h">
      <button type="button" class="back" part="button" @click=${() => fire<NavigateDetail>(this, "be-navigate", { page: "welcome" }, false)}>
        <span aria-hidden="true">‹</span> ${msg("Back to the welcome page", { id: "services.home" })}
      </button>
      <h2 id="h" part="heading" tabindex="-1">${p.name}</h2>
      ${photos.length ? html`<be-carousel exportparts="carousel, slide, button" .slides=${photos} .label=${msg("Photos", { id: "services.photos" })}></be-carousel>` : nothing}
      <h3>${msg("Our services", { id: "welcome.services" })}</h3>
      ${this.services.render({
        pending: () => html`<p role="status" class="muted">${msg("Loading…", { id: "loading" })}</p>`,
        error: () =>
          html`<p role="alert" class="message error">${msg("The services could not be loaded. Please try again.", { id: "services.error" })}</p>`,
        complete: (list) =>
          list.length
            ? html`<ul>
                ${list.map((s) => this.service(s))}
              </ul>`
            : html`<p>${msg("No services can be booked online at the moment.", { id: "services.none" })}</p>`,
      })}
    </section>`;
  }
}

// Defined with the page (lazy.ts): one chunk.
export { PhotoCarousel } from "../parts/carousel.js";
