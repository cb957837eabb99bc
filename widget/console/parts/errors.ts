/**
 * The API's answers in words, where they belong: a field's message under that field, the rest
 * beside the action that caused it.
 */
import { msg, str } from "@lit/localize";
import { html, nothing } from "lit";
import { ApiError } from "../api.js";

const listOf = (items: { name: string }[]) => items.map((i) => i.name).join(", ");

/** A refused table or time in the console's words, naming the tables and rooms; undefined when it cannot. */
export function refusalText(err: ApiError): string | undefined {
  const tables = listOf(err.tables);
  const [first, second] = err.tables;
  const [tableRoom, partyRoom] = err.rooms;
  switch (err.reason) {
    case "full":
      if (!tables)
        return msg("Every table that seats this party is taken at this time.", {
          id: "console.refusal.allheld",
        });
      return err.tables.length > 1
        ? msg(str`Tables ${tables} are taken at this time.`, { id: "console.refusal.heldmany" })
        : msg(str`Table ${tables} is taken at this time.`, { id: "console.refusal.held" });
    case "party_size":
      return tables
        ? msg(str`Table ${tables} cannot seat this party.`, { id: "console.refusal.seats" })
        : msg("No table seats a party of this size.", { id: "console.refusal.noseats" });
    case "closed":
      return msg("A closure covers this time.", { id: "console.refusal.closed" });
    case "pacing":
      return msg("The kitchen's pacing limit is reached at this time.", { id: "console.refusal.pacing" });
    case "other_room":
      if (!first || !tableRoom || !partyRoom) return undefined;
      return msg(
        str`Table ${first.name} is in ${tableRoom.name}, not in ${partyRoom.name}: a party sits in one room.`,
        { id: "console.refusal.room" },
      );
    case "group_member":
      if (!first || !second) return undefined;
      return msg(str`Table ${first.name} is already part of ${second.name}.`, {
        id: "console.refusal.group",
      });
    default:
      return undefined;
  }
}

/** What went wrong, in the API's words when it gave any. */
export function problemText(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "offline")
      return msg("No connection: nothing was sent. Try again once the connection is back.", {
        id: "console.error.offline.write",
      });
    if (err.code === "unreachable")
      return msg("No connection: this cannot load until the connection is back.", {
        id: "console.error.unreachable",
      });
    if (err.code === "connection_lost")
      return msg(
        "The connection dropped: this change may not have been saved. The console checks once it is back.",
        { id: "console.error.lost" },
      );
    if (err.status === 0 || err.status >= 500)
      return msg("The server could not answer. Try again.", { id: "console.error.server" });
    const refused = refusalText(err);
    if (refused) return refused;
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
  const text = err instanceof ApiError && err.at(path) ? (refusalText(err) ?? err.at(path)) : undefined;
  return text ? html`<p class="field-error" id=${id} part="field-error">${text}</p>` : nothing;
}

/** Whether the API refused this field (for aria-invalid). */
export const invalid = (err: unknown, path: string) =>
  err instanceof ApiError && err.at(path) ? "true" : "false";
