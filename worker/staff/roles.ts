/**
 * Who may do what in the console: one table of its routes (the integrator API served again under
 * /console/api/v2, and the console's own), each method and path with the least role that may call
 * it. Roles rank owner > manager > host: a host runs the evening (the day, the timeline, bookings
 * and walk-ins, seating, check-out, no-shows, undo, moves, notes, cancelling, guests read and their
 * notes); a manager also the catalog (services, tables, rooms, closures), guests (merge, ban,
 * erase), money back and no-show fees, booking links, the search engine switch and the audit; an
 * owner also staff, the payments account, connected apps, the profile and settings, deleting.
 * A route the table does not name is the owner's: a new route is closed until it is placed here.
 * Pure: the console's middleware (../console/roles.ts) asks it, the console's page mirrors it.
 */

/** The roles, from the most trusted (the staff table's CHECK lists the same). */
export const ROLES = ["owner", "manager", "host"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { host: 1, manager: 2, owner: 3 };

/** Whether `role` is `least` or above it. */
export const atLeast = (role: Role, least: Role) => RANK[role] >= RANK[least];

/** A lower role's narrower right on a route: only these body fields, and (`self`) only on one's own record. */
interface Narrower {
  role: Role;
  fields: readonly string[];
  self?: boolean;
}

export interface Rule {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "*";
  /** segments; ":x" matches one, a trailing "*" the rest */
  path: string;
  role: Role;
  narrower?: Narrower;
}

const rule = (method: Rule["method"], path: string, role: Role, narrower?: Narrower): Rule => ({
  method,
  path,
  role,
  ...(narrower && { narrower }),
});

/** The integrator API under /console/api/v2, first match wins. */
export const API_RULES: readonly Rule[] = [
  // the evening: reservations, their moves, steps and messages, the slots and rooms to book them
  rule("GET", "/reservations/*", "host"),
  rule("GET", "/reservations", "host"),
  rule("POST", "/reservations/searchengine", "manager"),
  rule("POST", "/reservations/:id/payment/*", "manager"),
  rule("POST", "/reservations", "host"),
  rule("PUT", "/reservations/:id", "host"),
  rule("PATCH", "/reservations/*", "host"),
  rule("DELETE", "/reservations/:id", "host"),
  rule("GET", "/bookings/slots", "host"),
  rule("GET", "/bookings/rooms", "host"),
  rule("GET", "/bookings/*", "manager"),
  // guests: read by all, their notes by a host, the rest by a manager
  rule("GET", "/customers", "host"),
  rule("GET", "/customers/*", "host"),
  rule("PUT", "/customers/:id", "manager", { role: "host", fields: ["notes"] }),
  rule("*", "/customers/*", "manager"),
  // the catalog: read by all (the timeline and bookings need it), changed by a manager
  ...["rooms", "tables", "services", "closures"].flatMap((r) => [
    rule("GET", `/${r}`, "host"),
    rule("GET", `/${r}/*`, "host"),
    rule("*", `/${r}`, "manager"),
    rule("*", `/${r}/*`, "manager"),
  ]),
  // the restaurant: read by all; its audit by a manager; staff, apps, payments account, profile by an owner
  rule("GET", "/properties", "host"),
  rule("GET", "/properties/:id", "host"),
  rule("GET", "/properties/:id/audit", "manager"),
  rule("PATCH", "/properties/:id/staff/:staff", "owner", { role: "host", fields: ["pin"], self: true }),
  rule("*", "/properties/*", "owner"),
];

/** The console's own routes under /console: every signed-in member (a password, a PIN, passkeys are one's own). */
export const CONSOLE_RULES: readonly Rule[] = [
  rule("*", "/session", "host"),
  rule("*", "/session/*", "host"),
  rule("POST", "/password", "host"),
  rule("*", "/passkeys", "host"),
  rule("*", "/passkeys/*", "host"),
  rule("GET", "/live", "host"),
];

function matches(pattern: string, path: string): boolean {
  const want = pattern.split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  for (let i = 0; i < want.length; i++) {
    if (want[i] === "*") return got.length > i;
    if (got[i] === undefined || (!want[i]!.startsWith(":") && want[i] !== got[i])) return false;
  }
  return want.length === got.length;
}

/** The rule of a request (the owner's when none names it). */
export function ruleFor(rules: readonly Rule[], method: string, path: string): Rule {
  const m = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase();
  return (
    rules.find((r) => (r.method === "*" || r.method === m) && matches(r.path, path)) ??
    rule("*", path, "owner")
  );
}

export interface Asker {
  role: Role;
  /** the member asking (null: a platform's session) */
  staffId: number | null;
}

/**
 * The role a request needs that `asker` lacks, or undefined when it may go on. `body`: the JSON body's
 * field names; `target`: the staff id a staff route names.
 */
export function missingRole(
  rules: readonly Rule[],
  asker: Asker,
  request: { method: string; path: string; body?: readonly string[]; target?: number },
): Role | undefined {
  const r = ruleFor(rules, request.method, request.path);
  if (atLeast(asker.role, r.role)) return undefined;
  const n = r.narrower;
  if (!n || !request.body || !atLeast(asker.role, n.role)) return r.role;
  const fieldsOk = request.body.every((f) => n.fields.includes(f));
  const selfOk = !n.self || (asker.staffId !== null && asker.staffId === request.target);
  return fieldsOk && selfOk ? undefined : r.role;
}
