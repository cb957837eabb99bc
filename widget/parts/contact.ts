/**
 * Where the restaurant is and how to reach it: the address, a map link, the phone
 * and the website, on the welcome page, the confirmation and the manage page.
 */
import { msg } from "@lit/localize";
import { css, html, nothing } from "lit";
import type { PublicProfile } from "../api.js";
import { countryName } from "./place.js";

type Contact = Pick<PublicProfile, "name" | "address" | "position" | "phone" | "website">;

/**
 * OpenStreetMap: no key, no tracking script, opens on any device. The point when known, else a
 * search for the address.
 */
export function mapUrl(c: Contact): string | undefined {
  if (c.position) {
    const { latitude: lat, longitude: lon } = c.position;
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  }
  const a = c.address;
  if (!a) return undefined;
  const query = [a.street, a.zip, a.city, a.country].filter(Boolean).join(", ");
  return `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`;
}

/** `tel:` wants no spaces or punctuation but a leading +. */
export const telUrl = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** The address (its country by name, in the page's language), the map link, the phone and the website. */
export function contact(c: Contact | undefined, locale: string) {
  if (!c || (!c.address && !c.position && !c.phone && !c.website)) return nothing;
  const a = c.address;
  const map = mapUrl(c);
  return html`<address class="contact" part="contact">
    ${
      a
        ? html`<p>
          ${a.street ? html`${a.street}<br />` : nothing}${[a.zip, a.city].filter(Boolean).join(" ")}${a.country ? html`<br />${countryName(a.country, locale)}` : nothing}
        </p>`
        : nothing
    }
    <p class="links">
      ${map ? html`<a part="map-link" href=${map} target="_blank" rel="noopener">${msg("Map and directions", { id: "contact.map" })}</a>` : nothing}
      ${c.phone ? html`<a part="phone" href=${telUrl(c.phone)}><span class="sr-only">${msg("Phone", { id: "contact.phone" })}: </span>${c.phone}</a>` : nothing}
      ${c.website ? html`<a href=${c.website} target="_blank" rel="noopener">${msg("Website", { id: "contact.website" })}</a>` : nothing}
    </p>
  </address>`;
}

export const contactStyles = css`
  .contact {
    font-style: normal;
  }
  .contact p {
    margin: 0 0 0.25rem;
  }
  .contact .links {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
  }
  .contact a {
    min-height: 1.5rem;
  }
`;

/** "Please call the restaurant", with its number when it has one. */
export function callUs(profile: Contact | undefined) {
  return profile?.phone
    ? html`${msg("Please call the restaurant:", { id: "call.us" })} <a part="phone" href=${telUrl(profile.phone)}>${profile.phone}</a>`
    : msg("Please call the restaurant.", { id: "call.us-no-phone" });
}
