/**
 * The guest's details on the booking page: name and contact, then what the restaurant should
 * know, all optional (CONTRACT 14): the occasion, allergies and a special request in the guest's
 * own words. Native controls, each with its label; the form reads them back with readGuest().
 */
import { msg } from "@lit/localize";
import { html } from "lit";
import type { PublicBookingInput } from "../api.js";

export type Occasion = NonNullable<PublicBookingInput["occasion"]>;
export type GuestForm = PublicBookingInput["guest"] & Pick<PublicBookingInput, "occasion" | "allergies" | "special_request">;

// The widget imports only types from shared/ (zod stays out of the bundle): the list, checked against them.
const OCCASIONS = ["birthday", "anniversary", "business", "date", "other"] as const satisfies readonly Occasion[];

/** An occasion in the guest's words. */
export function occasionLabel(occasion: string): string {
  const labels: Record<string, string> = {
    birthday: msg("Birthday", { id: "occasion.birthday" }),
    anniversary: msg("Anniversary", { id: "occasion.anniversary" }),
    business: msg("Business meal", { id: "occasion.business" }),
    date: msg("Date night", { id: "occasion.date" }),
    other: msg("Another occasion", { id: "occasion.other" }),
  };
  return labels[occasion] ?? occasion;
}

export function guestFields(g: GuestForm) {
  return html`
    <div class="grid">
      <div class="field">
        <label for="first_name">${msg("First name", { id: "details.first" })}</label>
        <input id="first_name" name="first_name" part="input" required maxlength="100" autocomplete="given-name" .value=${g.first_name} />
      </div>
      <div class="field">
        <label for="last_name">${msg("Last name", { id: "details.last" })}</label>
        <input id="last_name" name="last_name" part="input" required maxlength="100" autocomplete="family-name" .value=${g.last_name} />
      </div>
      <div class="field">
        <label for="email">${msg("Email", { id: "details.email" })}</label>
        <input id="email" name="email" type="email" part="input" required maxlength="254" autocomplete="email" .value=${g.email} />
      </div>
      <div class="field">
        <label for="phone">${msg("Phone (optional)", { id: "details.phone" })}</label>
        <input id="phone" name="phone" type="tel" part="input" minlength="5" maxlength="40" autocomplete="tel" .value=${g.phone ?? ""} />
      </div>
      <div class="field">
        <label for="occasion">${msg("Occasion (optional)", { id: "details.occasion" })}</label>
        <select id="occasion" name="occasion" part="input">
          <option value="" ?selected=${!g.occasion}>${msg("None", { id: "occasion.none" })}</option>
          ${OCCASIONS.map((o) => html`<option value=${o} ?selected=${g.occasion === o}>${occasionLabel(o)}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="allergies">${msg("Allergies or dietary needs (optional)", { id: "details.allergies" })}</label>
        <input id="allergies" name="allergies" part="input" maxlength="500" .value=${g.allergies ?? ""} />
      </div>
    </div>
    <div class="field">
      <label for="special_request">${msg("Special request (optional)", { id: "details.notes" })}</label>
      <textarea id="special_request" name="special_request" part="input" maxlength="1000" rows="3" .value=${g.special_request ?? ""}></textarea>
    </div>
  `;
}

/** What the form holds, trimmed; empty optional fields left out. */
export function readGuest(form: HTMLFormElement): GuestForm {
  const data = new FormData(form);
  const text = (k: string) => String(data.get(k) ?? "").trim();
  const optional = (k: string) => text(k) || undefined;
  return {
    first_name: text("first_name"),
    last_name: text("last_name"),
    email: text("email"),
    phone: optional("phone"),
    occasion: optional("occasion") as Occasion | undefined,
    allergies: optional("allergies"),
    special_request: optional("special_request"),
  };
}
