/**
 * The guest's details on the booking page: name and contact, then what the restaurant should
 * know, all optional: the occasion, allergies and a special request in the guest's
 * own words. Native controls, each with its label; the form reads them back with readGuest().
 */
import { msg } from "@lit/localize";
import { html, nothing } from "lit";
import type { FieldError, PublicBookingInput } from "../api.js";
import { occasionLabel } from "./summary.js";

export type Occasion = NonNullable<PublicBookingInput["occasion"]>;
export type GuestForm = PublicBookingInput["guest"] &
  Pick<PublicBookingInput, "occasion" | "allergies" | "special_request">;

// The widget imports only types from shared/ (zod stays out of the bundle): the list, checked against them.
const OCCASIONS = [
  "birthday",
  "anniversary",
  "business",
  "date",
  "other",
] as const satisfies readonly Occasion[];

/** The fields of the form, by the API's name of each ("guest.email" -> "email"). */
const FIELDS = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "allergies",
  "special_request",
  "notes",
] as const;
export type FieldErrors = Partial<Record<(typeof FIELDS)[number], string>>;

/**
 * The server's refusals put at their fields, in the widget's language: the API's
 * English message is never shown; each field says what it needs.
 */
export function fieldErrors(errors: FieldError[]): FieldErrors {
  const out: FieldErrors = {};
  for (const e of errors) {
    const name = e.path.replace(/^guest\./, "") as (typeof FIELDS)[number];
    if (!FIELDS.includes(name)) continue;
    out[name === "notes" ? "special_request" : name] = fieldMessage(name);
  }
  return out;
}

function fieldMessage(field: (typeof FIELDS)[number]): string {
  switch (field) {
    case "first_name":
      return msg("Please enter your first name.", { id: "field.first" });
    case "last_name":
      return msg("Please enter your last name.", { id: "field.last" });
    case "email":
      return msg("Please enter a valid email address, like name@example.com.", { id: "field.email" });
    case "phone":
      return msg("Please enter a valid phone number.", { id: "field.phone" });
    default:
      return msg("This text is too long.", { id: "field.too-long" });
  }
}

/** One text field with its label, and the server's message under it when it refused the value. */
function input(
  f: keyof FieldErrors,
  label: string,
  value: string | undefined,
  errors: FieldErrors,
  o: { type?: string; required?: boolean; max: number; min?: number; auto?: string },
) {
  const error = errors[f];
  return html`<div class="field">
    <label for=${f}>${label}</label>
    <input
      id=${f}
      name=${f}
      part="input"
      type=${o.type ?? "text"}
      ?required=${o.required}
      maxlength=${o.max}
      minlength=${o.min ?? nothing}
      autocomplete=${o.auto ?? nothing}
      aria-invalid=${error ? "true" : nothing}
      aria-describedby=${error ? `${f}-error` : nothing}
      .value=${value ?? ""}
    />
    ${error ? html`<p id=${`${f}-error`} class="field-error" part="field-error">${error}</p>` : nothing}
  </div>`;
}

export function guestFields(g: GuestForm, errors: FieldErrors = {}) {
  const request = errors.special_request;
  return html`
    <div class="grid">
      ${input("first_name", msg("First name", { id: "details.first" }), g.first_name, errors, { required: true, max: 100, auto: "given-name" })}
      ${input("last_name", msg("Last name", { id: "details.last" }), g.last_name, errors, { required: true, max: 100, auto: "family-name" })}
      ${input("email", msg("Email", { id: "details.email" }), g.email, errors, { type: "email", required: true, max: 254, auto: "email" })}
      ${input("phone", msg("Phone (optional)", { id: "details.phone" }), g.phone, errors, { type: "tel", max: 40, min: 5, auto: "tel" })}
      <div class="field">
        <label for="occasion">${msg("Occasion (optional)", { id: "details.occasion" })}</label>
        <select id="occasion" name="occasion" part="input">
          <option value="" ?selected=${!g.occasion}>${msg("None", { id: "occasion.none" })}</option>
          ${OCCASIONS.map((o) => html`<option value=${o} ?selected=${g.occasion === o}>${occasionLabel(o)}</option>`)}
        </select>
      </div>
      ${input("allergies", msg("Allergies or dietary needs (optional)", { id: "details.allergies" }), g.allergies, errors, { max: 500 })}
    </div>
    <div class="field">
      <label for="special_request">${msg("Special request (optional)", { id: "details.notes" })}</label>
      <textarea
        id="special_request"
        name="special_request"
        part="input"
        maxlength="1000"
        rows="3"
        aria-invalid=${request ? "true" : nothing}
        aria-describedby=${request ? "special_request-error" : nothing}
        .value=${g.special_request ?? ""}
      ></textarea>
      ${request ? html`<p id="special_request-error" class="field-error" part="field-error">${request}</p>` : nothing}
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
