/**
 * The console's one door to the Worker. Its API is the integrator API mounted again under
 * `<base>/api/v2`, with the session's cookie in place of a bearer token, and the client is the one
 * an integrator would write: openapi-fetch over the types openapi-typescript makes of the Worker's
 * own OpenAPI document (./openapi.d.ts, written by the build: scripts/api-types.mjs). Paths,
 * parameters, bodies and answers are the document's; nothing here repeats them.
 *
 * ```ts
 * const r = await api.one(api.GET("/reservations/{reservation_id}", { params: { path: { reservation_id: 7 } } }));
 * const rooms = await api.list(api.GET("/rooms", { params: { query: { limit: 100 } }, signal }));
 * await api.done(api.DELETE("/closures/{id}", { params: { path: { id } } }));
 * ```
 *
 * `one`, `list` and `done` turn a problem+json answer into an ApiError (status, code, detail, the
 * refused fields, and the tables and rooms a refusal names). The console's own routes (session,
 * password, invitation, PIN switch, passkeys), which the document leaves out, are typed by
 * shared/console.ts. Writes carry the session's CSRF token; a read left unanswered is asked once
 * more; a request that finds no connection is reported to `onConnection`.
 */
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import createClient, { type Client } from "openapi-fetch";
import type { z } from "zod";
import type {
  ConsoleInviteAccept,
  ConsolePasskey,
  ConsolePasswordChange,
  ConsolePasswordForgot,
  ConsolePasswordReset,
  ConsoleSession,
  ConsoleSwitch,
  ConsoleSwitchable,
} from "../../shared/console.js";
import type { components, paths } from "./openapi.js";

/** The document's schemas: `Schema<"Reservation">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
export type Reservation = Schema<"Reservation">;
/** A reservation as lists give it (its day as `start_date`; a single record says `start_day`). */
export type ReservationListItem = Schema<"ReservationListItem">;
export type Customer = Schema<"Customer">;
export type Service = Schema<"Service">;
export type Table = Schema<"Table">;
export type Room = Schema<"Room">;
export type Property = Schema<"Property">;
export type StaffMember = Schema<"StaffMember">;
export type Session = ConsoleSession;

/**
 * The integrator API's paths as the console calls them: under `<base>/api/v2`, and without the
 * Property header, which the server takes from the session.
 */
type ConsolePaths = {
  [P in keyof paths as P extends `/api/v2${infer Rest}` ? Rest : never]: {
    [M in keyof paths[P]]: WithoutPropertyHeader<paths[P][M]>;
  };
};
type WithoutPropertyHeader<Op> = Op extends { parameters: { header: infer H } }
  ? Omit<Op, "parameters"> & {
      parameters: Omit<Op["parameters"], "header"> & { header?: Omit<H, "Property"> };
    }
  : Op;

/** The client's answers typed as JSON (a route that also speaks CSV is asked for it with `parseAs: "text"`). */
type JsonClient = Client<ConsolePaths, "application/json">;

/** One refused field of a problem+json answer, named as the API names it ("customer.email"). */
export interface FieldError {
  path: string;
  message: string;
}

/** A table or room a refusal is about, with its name. */
export interface Named {
  id: number;
  name: string;
}

/** A problem+json answer (RFC 9457): `errors` name the fields, `detail` or `title` say the rest. */
export class ApiError extends Error {
  /** a refused table or time: why (`full`, `party_size`, `closed`, `pacing`, `other_room`, `group_member`) */
  reason: string | undefined;
  /** the tables and rooms the refusal is about, with their names (read from the catalog) */
  tables: Named[] = [];
  rooms: Named[] = [];

  constructor(
    readonly status: number,
    readonly code: string | undefined,
    readonly detail: string | undefined,
    readonly errors: FieldError[] = [],
  ) {
    super(detail ?? code ?? `HTTP ${status}`);
    this.name = "ApiError";
  }

  /** The message for one field (path "customer.email" or its last part), if the API named it. */
  at(path: string): string | undefined {
    return this.errors.find((e) => e.path === path || e.path.endsWith(`.${path}`))?.message;
  }
}

/** A request that found no connection (not sent, or its answer never came). */
export const isOffline = (err: unknown) =>
  err instanceof ApiError && ["offline", "connection_lost", "unreachable"].includes(err.code ?? "");

/** How long a read waits for its answer before it is asked once more (a stalled connection, not a slow query). */
const READ_PATIENCE_MS = 15_000;
/** How many days the console keeps as last read, for a dropped connection. */
const DAYS_KEPT = 7;

/** What openapi-fetch answers: the body of a success, or the error body, and the response. */
interface Answered<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

export class ConsoleApi {
  /** the session once signed in: its CSRF token goes with every write */
  session: Session | undefined;
  /** told when a request finds no connection (true) and when one gets through again (false) */
  onConnection: ((offline: boolean) => void) | undefined;
  readonly GET: JsonClient["GET"];
  readonly POST: JsonClient["POST"];
  readonly PUT: JsonClient["PUT"];
  readonly PATCH: JsonClient["PATCH"];
  readonly DELETE: JsonClient["DELETE"];
  /** the days last read, kept so a dropped connection leaves them readable */
  private days = new Map<string, ReservationListItem[]>();
  private house: Promise<Property | undefined> | undefined;

  /**
   * `base`: where the console's routes answer (`/console`; the API is `<base>/api/v2`).
   * `patience`: how long a read waits before it is asked once more (ms).
   */
  constructor(
    readonly base = "/console",
    private readonly patience = READ_PATIENCE_MS,
  ) {
    const client = createClient<ConsolePaths, "application/json">({
      baseUrl: `${base}/api/v2`,
      fetch: (request) => this.exchange(request),
    });
    client.use({ onRequest: ({ request }) => this.withCsrf(request) });
    this.GET = client.GET;
    this.POST = client.POST;
    this.PUT = client.PUT;
    this.PATCH = client.PATCH;
    this.DELETE = client.DELETE;
  }

  get propertyId(): number {
    if (!this.session) throw new ApiError(401, "unauthorized", "not signed in");
    return this.session.property.id;
  }

  /** The record of a `{"data": [record]}` answer. */
  async one<T>(asked: Promise<Answered<{ data: T[] }>>): Promise<T> {
    const first = (await this.answer(asked))?.data[0];
    if (first === undefined) throw new ApiError(502, undefined, "empty answer");
    return first;
  }

  /** The records of a `{"data": [...]}` answer. */
  async list<T>(asked: Promise<Answered<{ data: T[] }>>): Promise<T[]> {
    return (await this.answer(asked))?.data ?? [];
  }

  /** Every page of a list (each asked with the previous page's `next_cursor`), at most `most` pages. */
  async pages<T>(
    ask: (next_cursor: string | undefined) => Promise<Answered<{ data: T[]; next_cursor: string | null }>>,
    most = 20,
  ): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < most; page++) {
      const body = await this.answer(ask(cursor));
      out.push(...(body?.data ?? []));
      cursor = body?.next_cursor ?? undefined;
      if (!cursor) break;
    }
    return out;
  }

  /** A write whose answer the caller does not read. */
  async done(asked: Promise<Answered<unknown>>): Promise<void> {
    await this.answer(asked);
  }

  /** The body of a success; a problem thrown as an ApiError, the tables and rooms it names looked up. */
  async answer<D>(asked: Promise<Answered<D>>): Promise<D | undefined> {
    const { data, error, response } = await asked;
    if (!response.ok) throw await this.named(problemOf(response.status, error));
    return data;
  }

  /**
   * The day's reservations (every page of them), in start order. Without a connection, the copy
   * last read of that day (the view says it is offline); a day never read fails as offline.
   */
  async day(
    q: { date: string; search?: string | undefined },
    signal?: AbortSignal,
  ): Promise<ReservationListItem[]> {
    try {
      const list = await this.pages((next_cursor) =>
        this.GET("/reservations", {
          params: {
            query: { start_date: q.date, end_date: q.date, limit: 200, text_search: q.search, next_cursor },
          },
          signal,
        }),
      );
      if (!q.search) this.days.set(q.date, list);
      if (this.days.size > DAYS_KEPT) this.days.delete(this.days.keys().next().value ?? "");
      return list;
    } catch (err) {
      const kept = this.days.get(q.date);
      if (isOffline(err) && kept && !q.search) return kept;
      throw err;
    }
  }

  /** The restaurant's record, read once a session (its phone marks anonymous walk-ins); undefined when it cannot be read. */
  houseRecord(): Promise<Property | undefined> {
    this.house ??= this.one(
      this.GET("/properties/{id}", { params: { path: { id: this.propertyId } } }),
    ).catch(() => {
      this.house = undefined;
      return undefined;
    });
    return this.house;
  }

  // The console's own routes (shared/console.ts): its session, password, invitations, PIN switch, passkeys.

  /** The current session, or undefined when not signed in (401). */
  async currentSession(signal?: AbortSignal): Promise<Session | undefined> {
    try {
      this.session = await this.own<Session>("GET", "/session", undefined, signal);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) throw err;
      this.session = undefined;
    }
    return this.session;
  }

  /** Signs in with an email (a member of staff) or the restaurant's username (its first owner). */
  async signIn(identity: string, password: string): Promise<Session> {
    const who = identity.includes("@") ? { email: identity } : { username: identity };
    return this.began(await this.own<Session>("POST", "/session", { ...who, password }));
  }

  async signOut(): Promise<void> {
    await this.ownDone("DELETE", "/session");
    this.session = undefined;
    this.house = undefined;
  }

  async forgotPassword(body: z.input<typeof ConsolePasswordForgot>): Promise<void> {
    await this.ownDone("POST", "/password/forgot", body);
  }

  async resetPassword(body: z.input<typeof ConsolePasswordReset>): Promise<void> {
    await this.ownDone("POST", "/password/reset", body);
  }

  async changePassword(body: z.input<typeof ConsolePasswordChange>): Promise<void> {
    await this.ownDone("POST", "/password", body);
  }

  /** An invitation accepted: the invitee's name and password, and signed in. */
  async acceptInvite(token: string, body: z.input<typeof ConsoleInviteAccept>): Promise<Session> {
    return this.began(await this.own<Session>("POST", `/invite/${encodeURIComponent(token)}`, body));
  }

  /** Who can take this tablet: active members with a PIN. */
  switchable(signal?: AbortSignal): Promise<ConsoleSwitchable[]> {
    return this.ownList<ConsoleSwitchable>("/session/switch", signal);
  }

  async switchUser(body: z.input<typeof ConsoleSwitch>): Promise<Session> {
    return this.began(await this.own<Session>("POST", "/session/switch", body));
  }

  /** Signs in with a passkey: the options asked, the browser's ceremony (`ceremony`) answered. */
  async passkeySignIn(
    ceremony: (options: PublicKeyCredentialRequestOptionsJSON) => Promise<AuthenticationResponseJSON>,
  ): Promise<Session> {
    const options = await this.own<PublicKeyCredentialRequestOptionsJSON>("POST", "/passkey/options", {});
    const response = await ceremony(options);
    return this.began(await this.own<Session>("POST", "/passkey", { response }));
  }

  /** A passkey added for the member at the console. */
  async addPasskey(
    ceremony: (options: PublicKeyCredentialCreationOptionsJSON) => Promise<RegistrationResponseJSON>,
  ): Promise<void> {
    const options = await this.own<PublicKeyCredentialCreationOptionsJSON>("POST", "/passkeys/options", {});
    await this.ownDone("POST", "/passkeys", { response: await ceremony(options) });
  }

  passkeys(signal?: AbortSignal): Promise<ConsolePasskey[]> {
    return this.ownList<ConsolePasskey>("/passkeys", signal);
  }

  async removePasskey(id: number): Promise<void> {
    await this.ownDone("DELETE", `/passkeys/${id}`);
  }

  /** A new session: the restaurant's record is read afresh for it. */
  private began(session: Session): Session {
    this.session = session;
    this.house = undefined;
    return session;
  }

  /** A console route: JSON in, the record of `{"data": [T]}` out. */
  private async own<T>(method: string, path: string, body?: object, signal?: AbortSignal): Promise<T> {
    const [first] = await this.ownList<T>(path, signal, method, body);
    if (first === undefined) throw new ApiError(502, undefined, "empty answer");
    return first;
  }

  /** A console route whose answer is nothing (204). */
  private async ownDone(method: string, path: string, body?: object): Promise<void> {
    await this.ownList(path, undefined, method, body);
  }

  /** A console route: JSON in, the records of `{"data": [...]}` (or none) out. */
  private async ownList<T>(path: string, signal?: AbortSignal, method = "GET", body?: object): Promise<T[]> {
    const headers = new Headers({ Accept: "application/json" });
    if (body !== undefined) headers.set("Content-Type", "application/json");
    const request = this.withCsrf(
      new Request(`${this.base}${path}`, { method, headers, body: body && JSON.stringify(body), signal }),
    );
    const response = await this.exchange(request);
    const json: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
    if (!response.ok) throw problemOf(response.status, json);
    const data: unknown = json && typeof json === "object" ? Reflect.get(json, "data") : undefined;
    return Array.isArray(data) ? data : [];
  }

  /** A write carries the session's CSRF token. */
  private withCsrf(request: Request): Request {
    if (request.method !== "GET" && this.session)
      request.headers.set("X-CSRF-Token", this.session.csrf_token);
    return request;
  }

  /**
   * A read left unanswered for `patience` is asked once more, then given up as the server's
   * (status 0); a write is never sent twice. The caller's own abort stops it at once.
   */
  private async exchange(request: Request): Promise<Response> {
    if (request.method !== "GET") return this.sent(request);
    for (let attempt = 1; ; attempt++) {
      const timer = AbortSignal.timeout(this.patience);
      try {
        return await this.sent(new Request(request, { signal: either(request.signal, timer) }));
      } catch (err) {
        if (!timer.aborted || request.signal.aborted) throw err;
        if (attempt === 2) throw new ApiError(0, "timeout", "the server did not answer");
      }
    }
  }

  /**
   * One request, the connection reported: a write while the browser knows it is offline is
   * refused before it is sent (never lost unseen); one that finds no network fails as offline.
   */
  private async sent(request: Request): Promise<Response> {
    const write = request.method !== "GET";
    if (write && navigator.onLine === false) throw new ApiError(0, "offline", "not sent: no connection");
    let response: Response;
    try {
      response = await fetch(request);
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      this.onConnection?.(true);
      throw new ApiError(0, write ? "connection_lost" : "unreachable", err.message);
    }
    // an answer to a request sent before the browser went offline does not end the offline state: "online" does
    if (navigator.onLine !== false) this.onConnection?.(false);
    return response;
  }

  /** The problem with the tables and rooms it names looked up, so the console can say their names. */
  private async named(err: ApiError): Promise<ApiError> {
    if (!err.tables.length && !err.rooms.length) return err;
    const all = { params: { query: { limit: 100 } } };
    const [tables, rooms] = await Promise.all([
      this.list(this.GET("/tables", all)).catch(() => []),
      this.list(this.GET("/rooms", all)).catch(() => []),
    ]);
    const names = (list: Named[]) => new Map(list.map((x) => [x.id, x.name]));
    const tableNames = names(tables);
    const roomNames = names(rooms);
    err.tables = err.tables.map((t) => ({ id: t.id, name: tableNames.get(t.id) ?? t.name }));
    err.rooms = err.rooms.map((r) => ({ id: r.id, name: roomNames.get(r.id) ?? r.name }));
    return err;
  }
}

/** A signal aborted when either is (AbortSignal.any where the browser has it: Safari since 17.4). */
function either(caller: AbortSignal, timer: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([caller, timer]);
  const both = new AbortController();
  for (const s of [caller, timer]) s.addEventListener("abort", () => both.abort(s.reason), { once: true });
  return both.signal;
}

/** The ApiError of a refused request, from its problem+json body when it has one (its ids named by their number). */
function problemOf(status: number, body: unknown): ApiError {
  const field = (name: string): unknown =>
    body && typeof body === "object" ? Reflect.get(body, name) : undefined;
  const text = (name: string) => {
    const value = field(name);
    return typeof value === "string" ? value : undefined;
  };
  const ids = (name: string): Named[] => {
    const value = field(name);
    return Array.isArray(value)
      ? value.filter((id) => typeof id === "number").map((id) => ({ id, name: String(id) }))
      : [];
  };
  const errors = field("errors");
  const err = new ApiError(
    status,
    text("code"),
    text("detail") ?? text("title"),
    Array.isArray(errors) ? errors.filter(isFieldError) : [],
  );
  err.reason = text("reason");
  err.tables = ids("table_ids");
  err.rooms = ids("room_ids");
  return err;
}

function isFieldError(e: unknown): e is FieldError {
  return (
    !!e &&
    typeof e === "object" &&
    typeof Reflect.get(e, "path") === "string" &&
    typeof Reflect.get(e, "message") === "string"
  );
}
