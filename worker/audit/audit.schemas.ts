/** The actor object and an audit entry, as the API shows them. */
import { z } from "@hono/zod-openapi";
import { toLocalDateTime } from "../lib/localtime";
import { ACTOR_KINDS, type Actor, actorOf } from "./actor";
import type { AuditRow } from "./audit.repo";

export const ActorSchema = z
  .object({
    kind: z.enum(ACTOR_KINDS).openapi({
      description:
        "staff: a member of the restaurant's staff in its console; app: an integrator's app (or the platform that opened the console); guest: the guest on their own booking pages; searchengine: the search engine's booking server; system: the service itself (expiries, no-shows)",
    }),
    id: z.number().int().nullable().openapi({
      description: "the member's id (/properties/{id}/staff) or the app's; null for the other kinds",
    }),
    name: z.string().nullable().openapi({ description: "the member's or the app's name, as it is now" }),
  })
  .openapi("Actor", { example: { kind: "staff", id: 12, name: "Ada Rossi" } });

export const AuditEntrySchema = z
  .object({
    id: z.number().int(),
    at: z.string().openapi({ description: "when (UTC)", example: "2026-12-05T19:02:11.204Z" }),
    local_at: z
      .string()
      .openapi({ description: "when, on the restaurant's clock", example: "2026-12-05T20:02:11.204" }),
    actor: ActorSchema,
    action: z.string().openapi({
      description:
        "what was done: a reservation's history action (created, updated, checkin, status, cancel, ...), or created, updated, deleted, merged, erased, invited, deactivated, connected (the Stripe account), disconnected, password_changed",
      example: "cancel",
    }),
    subject: z
      .object({
        type: z.enum([
          "reservation",
          "customer",
          "room",
          "table",
          "service",
          "closure",
          "property",
          "staff",
          "app",
        ]),
        id: z.number().int().nullable(),
      })
      .openapi({ description: "what was changed" }),
    fields: z.array(z.string()).openapi({
      description: "the names of the fields that changed (never their values)",
      example: ["status"],
    }),
  })
  .openapi("AuditEntry");

type Joined = {
  row: AuditRow;
  fromStatus: string | null;
  toStatus: string | null;
  changes: Record<string, unknown> | null;
};

/** The fields a row names: a reservation's from its history entry (its status first when it changed). */
function fieldsOf(j: Joined): string[] {
  if (j.row.subject !== "reservation") return j.row.fields ?? [];
  const changed = Object.keys(j.changes ?? {}).filter((k) => k !== "status");
  return j.fromStatus !== j.toStatus ? ["status", ...changed] : changed;
}

export function toAuditDto(j: Joined, actors: ReadonlyMap<string, Actor>, timeZone: string) {
  return {
    id: j.row.id,
    at: j.row.at,
    local_at: toLocalDateTime(timeZone, j.row.at, true),
    actor: actorOf(j.row.actor, actors),
    action: j.row.action,
    subject: {
      type: j.row.subject as z.infer<typeof AuditEntrySchema>["subject"]["type"],
      id: j.row.subjectId,
    },
    fields: fieldsOf(j),
  };
}
