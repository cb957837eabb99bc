/**
 * A photo carousel after the WAI-ARIA carousel pattern: no automatic rotation, previous and next
 * buttons, each slide a labelled group ("2 of 5"), the change announced politely. Slides slide
 * only when the guest has not asked for reduced motion.
 */
import { localized, msg, str } from "@lit/localize";
import { css, html, LitElement, nothing } from "lit";
import { property, state } from "lit/decorators.js";
import { base } from "./styles.js";

export interface Slide {
  src: string;
  alt: string;
}

/**
 * @csspart carousel - the carousel
 * @csspart slide - one slide (an image)
 */
@localized()
export class PhotoCarousel extends LitElement {
  static override styles = [
    base,
    css`
      .viewport {
        position: relative;
        overflow: hidden;
        border-radius: var(--_radius);
        background: var(--_surface);
        aspect-ratio: 16 / 9;
      }
      .track {
        display: flex;
        height: 100%;
      }
      .slide {
        flex: 0 0 100%;
        height: 100%;
      }
      .slide[aria-hidden="true"] {
        visibility: hidden;
      }
      img {
        display: block;
        width: 100%;
        height: 100%;
        object-fit: cover;
      }
      .controls {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: 0.5rem;
        margin-top: 0.5rem;
      }
      @media (prefers-reduced-motion: no-preference) {
        .track {
          transition: transform 0.35s ease;
        }
        .slide[aria-hidden="true"] {
          transition: visibility 0s 0.35s;
        }
      }
    `,
  ];

  @property({ attribute: false }) declare slides: Slide[];
  /** the accessible name of the carousel */
  @property() declare label: string;
  @state() declare private index: number;

  constructor() {
    super();
    this.slides = [];
    this.label = "";
    this.index = 0;
  }

  private go(delta: number) {
    const n = this.slides.length;
    this.index = (this.index + delta + n) % n;
  }

  override render() {
    const n = this.slides.length;
    if (!n) return nothing;
    const i = Math.min(this.index, n - 1);
    return html`<section part="carousel" aria-roledescription=${msg("carousel", { id: "carousel.role" })} aria-label=${this.label}>
      <div class="viewport">
        <div class="track" aria-live="polite" style=${`transform: translateX(-${i * 100}%)`}>
          ${this.slides.map(
            (s, k) => html`<div
              class="slide"
              part="slide"
              role="group"
              aria-roledescription=${msg("slide", { id: "carousel.slide" })}
              aria-label=${msg(str`${k + 1} of ${n}`, { id: "carousel.position" })}
              aria-hidden=${k === i ? "false" : "true"}
            >
              <img src=${s.src} alt=${s.alt} loading=${k === 0 ? "eager" : "lazy"} />
            </div>`,
          )}
        </div>
      </div>
      ${
        n > 1
          ? html`<div class="controls">
            <button type="button" class="btn secondary" part="button" @click=${() => this.go(-1)}>
              <span aria-hidden="true">‹</span> ${msg("Previous photo", { id: "carousel.prev" })}
            </button>
            <span class="muted" aria-hidden="true">${i + 1} / ${n}</span>
            <button type="button" class="btn secondary" part="button" @click=${() => this.go(1)}>
              ${msg("Next photo", { id: "carousel.next" })} <span aria-hidden="true">›</span>
            </button>
          </div>`
          : nothing
      }
    </section>`;
  }
}
