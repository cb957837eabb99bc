/**
 * The names of those who acted, read when a history, an audit page or a webhook is shown: the
 * members of staff of the property (whatever became of them since) and the apps, from the control
 * database, one query each for a page of rows.
 */
import { and, eq, inArray, or } from "drizzle-orm";
import { apiClients, staffMembers } from "../db/control.schema";
import type { ControlDb } from "../env";
import { type Actor, actorOf, parseActor } from "./actor";

/** At most this many parties of one kind a read names (a page of rows names far fewer). */
const MAX_IDS = 90;

/** The property's members of these ids (and its account member, when `account`), by id. */
function staffNamed(control: ControlDb, propertyId: number, ids: number[], account: boolean) {
  if (!ids.length && !account) return Promise.resolve([]);
  return control
    .select({ id: staffMembers.id, name: staffMembers.name, account: staffMembers.account })
    .from(staffMembers)
    .where(
      and(
        eq(staffMembers.propertyId, propertyId),
        or(
          ids.length ? inArray(staffMembers.id, ids) : undefined,
          account ? eq(staffMembers.account, true) : undefined,
        ),
      ),
    );
}

function appsNamed(control: ControlDb, ids: number[]) {
  if (!ids.length) return Promise.resolve([]);
  return control
    .select({ id: apiClients.id, name: apiClients.name })
    .from(apiClients)
    .where(inArray(apiClients.id, ids));
}

/** The actors of these stored keys, by key, with their names: staff of `propertyId` only. */
export async function namedActors(
  control: ControlDb,
  propertyId: number,
  keys: Iterable<string>,
): Promise<Map<string, Actor>> {
  const distinct = [...new Set(keys)];
  const parsed = distinct.map((key) => parseActor(key));
  const ids = (kind: string) =>
    parsed.flatMap((p) => (p.kind === kind && p.id !== null ? [p.id] : [])).slice(0, MAX_IDS);
  const [staff, apps] = await Promise.all([
    staffNamed(
      control,
      propertyId,
      ids("staff"),
      parsed.some((p) => p.console === propertyId),
    ),
    appsNamed(control, ids("app")),
  ]);
  const names = new Map<string, Actor>();
  for (const s of staff) {
    names.set(`staff:${s.id}`, { kind: "staff", id: s.id, name: s.name });
    // a change from the console before it had staff: the property's own sign-in, its first owner
    if (s.account) names.set(`console:${propertyId}`, { kind: "staff", id: s.id, name: s.name });
  }
  for (const a of apps) names.set(`client:${a.id}`, { kind: "app", id: a.id, name: a.name });
  return new Map(distinct.map((key) => [key, actorOf(key, names)]));
}
