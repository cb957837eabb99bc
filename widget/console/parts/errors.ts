/**
 * The API's answers in words, where they belong: a field's message under that field, the rest
 * beside the action that caused it.
 */
import { msg } from "@lit/localize";
import { html, nothing } from "lit";
import { ApiError } from "../api.js";

/** What went wrong, in the API's words when it gave any. */
export function problemText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 0 || err.status >= 500)
      return msg("The server could not answer. Try again.", { id: "console.error.server" });
    const fields = err.errors.map((e) => e.message).join("; ");
    return (
      [err.detail, fields].filter(Boolean).join(": ") ||
      err.code ||
      msg("The request was refused.", { id: "console.error.refused" })
    );
  }
  if (err instanceof TypeError) return msg("No connection to the server.", { id: "console.error.offline" });
  return String(err);
}

/** An alert beside an action (role=alert: read out as it appears). */
export const actionError = (err: unknown) =>
  err ? html`<p class="message error" role="alert" part="error">${problemText(err)}</p>` : nothing;

/** The API's message for one field, with the id a field's aria-describedby points to. */
export function fieldError(err: unknown, path: string, id: string) {
  const text = err instanceof ApiError ? err.at(path) : undefined;
  return text ? html`<p class="field-error" id=${id} part="field-error">${text}</p>` : nothing;
}

/** Whether the API refused this field (for aria-invalid). */
export const invalid = (err: unknown, path: string) =>
  err instanceof ApiError && err.at(path) ? "true" : "false";
