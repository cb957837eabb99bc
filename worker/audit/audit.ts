/**
 * Recording a change in the audit log: who (the request's actor), what (a subject and its id), how
 * (an action and the names of the fields it changed). A reservation's changes are recorded by the
 * database from their history; the rest of a restaurant's changes (guests, catalog, settings, staff,
 * apps) call `recordChange` right after they are written.
 */
import type { Context } from "hono";
import type { AppEnv, Db } from "../env";
import { insertAudit } from "./audit.repo";

export type AuditSubject =
  | "customer"
  | "room"
  | "table"
  | "service"
  | "closure"
  | "property"
  | "staff"
  | "app";

/**
 * Who the request acts for, as its changes record it: the console's member of staff (or the
 * platform that opened the console), an integrator's app. The cron, a guest's own page and the
 * search engine name theirs (audit/actor.ts SYSTEM, GUEST, SEARCHENGINE).
 */
export function requestActor(c: Context<AppEnv>): string {
  return c.get("client").actor;
}

export interface Change {
  action: string;
  subject: AuditSubject;
  subjectId: number | null;
  fields?: string[] | undefined;
  /** the property changed: the request's own unless given */
  propertyId?: number;
  /** the property's shard: the request's own unless given */
  db?: Db;
  /** who: the request's actor unless given (the console's own routes name the member at it) */
  actor?: string;
}

/** Writes one change of the request's property, by the request's actor. */
export async function recordChange(c: Context<AppEnv>, change: Change): Promise<void> {
  const { db, propertyId, actor, ...rest } = change;
  await insertAudit(db ?? c.get("db"), {
    ...rest,
    propertyId: propertyId ?? c.get("property").id,
    actor: actor ?? requestActor(c),
  });
}

/** The names of the fields a partial update gave (those present in its body). */
export const givenFields = (body: object): string[] =>
  Object.entries(body)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k)
    .sort();
