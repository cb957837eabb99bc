/**
 * Who acts: the one model of "who did what" for a reservation's history, the webhook events and the
 * audit log. What is stored is a short key ("staff:12", "client:3", "guest", "searchengine",
 * "system"); what the API shows is `{kind, id, name}`, the name read when it is shown (a member's
 * name, an app's), so the key stays small in rows kept for good. Pure (a request's own actor:
 * audit.ts requestActor).
 */

export const ACTOR_KINDS = ["staff", "app", "guest", "searchengine", "system"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/** Who made a change, as the API shows it. */
export interface Actor {
  kind: ActorKind;
  /** the member's or the app's id; null for a guest, the search engine and the system */
  id: number | null;
  /** the member's or the app's name when it is shown; null when there is none to tell */
  name: string | null;
}

/** The keys of the parties that act. */
export const staffActor = (staffId: number) => `staff:${staffId}`;
export const appActor = (clientId: number) => `client:${clientId}`;
export const GUEST = "guest";
export const SEARCHENGINE = "searchengine";
export const SYSTEM = "system";

/** What a stored key says before any name is read: its kind and id (`console`: a restaurant's console before it had staff). */
export interface ActorKey {
  kind: ActorKind;
  id: number | null;
  /** "console:<property_id>": a change made from the console when it had one sign-in, the property's own */
  console?: number;
  /** a system party that names itself ("stripe") */
  label?: string;
}

/** A stored key, read: "staff:12", "client:3", "console:7" (older rows), "guest", "searchengine", anything else the system. */
export function parseActor(key: string): ActorKey {
  const [kind, rawId] = key.split(":");
  const id = rawId !== undefined && /^\d{1,15}$/.test(rawId) ? Number(rawId) : null;
  if (kind === "staff" && id !== null) return { kind: "staff", id };
  if (kind === "client" && id !== null) return { kind: "app", id };
  if (kind === "console" && id !== null) return { kind: "staff", id: null, console: id };
  if (key === GUEST) return { kind: "guest", id: null };
  if (key === SEARCHENGINE) return { kind: "searchengine", id: null };
  return key === SYSTEM ? { kind: "system", id: null } : { kind: "system", id: null, label: key };
}

/**
 * The audit filter `actor`: a kind ("staff", "app", ...) or one party ("staff:12", "app:3"), as
 * the stored keys it matches: an exact key, or a key prefix for a kind that has ids.
 */
export function actorFilter(filter: string): { exact: string } | { prefix: string } | undefined {
  const [kind, rawId] = filter.split(":");
  const stored = kind === "app" ? "client" : kind;
  if (!(ACTOR_KINDS as readonly string[]).includes(kind ?? "") && kind !== "client") return undefined;
  if (rawId === undefined)
    return stored === "staff" || stored === "client" ? { prefix: `${stored}:` } : { exact: stored! };
  if (!/^\d{1,15}$/.test(rawId) || (stored !== "staff" && stored !== "client")) return undefined;
  return { exact: `${stored}:${Number(rawId)}` };
}

/** The actor of a stored key, given the names read for it (`names`: by key). */
export function actorOf(key: string, names: ReadonlyMap<string, Actor>): Actor {
  const named = names.get(key);
  if (named) return named;
  const parsed = parseActor(key);
  return { kind: parsed.kind, id: parsed.id, name: parsed.label ?? null };
}
