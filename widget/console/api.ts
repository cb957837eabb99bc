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
 * `one`, `list` and `done` turn a problem+json answer into an ApiError (status, code, detail and
 * the refused fields). The console's session, which the document leaves out, is typed by
 * shared/console.ts. Writes carry the session's CSRF token; a read left unanswered is asked once more.
 */
import createClient, { type Client } from "openapi-fetch";
import type { z } from "zod";
import type {
  ConsolePasswordChange,
  ConsolePasswordForgot,
  ConsolePasswordReset,
  ConsoleSession,
  ConsoleSignIn,
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

/** A problem+json answer (RFC 9457): `errors` name the fields, `detail` or `title` say the rest. */
export class ApiError extends Error {
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

/** How long a read waits for its answer before it is asked once more (a stalled connection, not a slow query). */
const READ_PATIENCE_MS = 15_000;

/** What openapi-fetch answers: the body of a success, or the error body, and the response. */
interface Answered<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

export class ConsoleApi {
  /** the session once signed in: its CSRF token goes with every write */
  session: Session | undefined;
  readonly GET: JsonClient["GET"];
  readonly POST: JsonClient["POST"];
  readonly PUT: JsonClient["PUT"];
  readonly PATCH: JsonClient["PATCH"];
  readonly DELETE: JsonClient["DELETE"];

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

  /** The body of a success; a problem thrown as an ApiError. */
  async answer<D>(asked: Promise<Answered<D>>): Promise<D | undefined> {
    const { data, error, response } = await asked;
    if (!response.ok) throw problemOf(response.status, error);
    return data;
  }

  // The console's own routes (shared/console.ts): its session and password.

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

  async signIn(body: z.input<typeof ConsoleSignIn>): Promise<Session> {
    this.session = await this.own<Session>("POST", "/session", body);
    return this.session;
  }

  async signOut(): Promise<void> {
    await this.own("DELETE", "/session");
    this.session = undefined;
  }

  async forgotPassword(body: z.input<typeof ConsolePasswordForgot>): Promise<void> {
    await this.own("POST", "/password/forgot", body);
  }

  async resetPassword(body: z.input<typeof ConsolePasswordReset>): Promise<void> {
    await this.own("POST", "/password/reset", body);
  }

  async changePassword(body: z.input<typeof ConsolePasswordChange>): Promise<void> {
    await this.own("POST", "/password", body);
  }

  /** A console route: JSON in, `{"data": [T]}` or nothing out. */
  private async own<T>(method: string, path: string, body?: object, signal?: AbortSignal): Promise<T> {
    const headers = new Headers(body === undefined ? {} : { "Content-Type": "application/json" });
    const request = this.withCsrf(
      new Request(`${this.base}${path}`, { method, headers, body: body && JSON.stringify(body), signal }),
    );
    const response = await this.exchange(request);
    const json: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
    if (!response.ok) throw problemOf(response.status, json);
    return Reflect.get(Object(json), "data")?.[0];
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
    if (request.method !== "GET") return fetch(request);
    for (let attempt = 1; ; attempt++) {
      const timer = AbortSignal.timeout(this.patience);
      try {
        return await fetch(new Request(request, { signal: either(request.signal, timer) }));
      } catch (err) {
        if (!timer.aborted || request.signal.aborted) throw err;
        if (attempt === 2) throw new ApiError(0, "timeout", "the server did not answer");
      }
    }
  }
}

/** A signal aborted when either is (AbortSignal.any where the browser has it: Safari since 17.4). */
function either(caller: AbortSignal, timer: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === "function") return AbortSignal.any([caller, timer]);
  const both = new AbortController();
  for (const s of [caller, timer]) s.addEventListener("abort", () => both.abort(s.reason), { once: true });
  return both.signal;
}

/** The ApiError of a refused request, from its problem+json body when it has one. */
function problemOf(status: number, body: unknown): ApiError {
  const field = (name: string): unknown =>
    body && typeof body === "object" ? Reflect.get(body, name) : undefined;
  const text = (name: string) => {
    const value = field(name);
    return typeof value === "string" ? value : undefined;
  };
  const errors = field("errors");
  return new ApiError(
    status,
    text("code"),
    text("detail") ?? text("title"),
    Array.isArray(errors) ? errors.filter(isFieldError) : [],
  );
}

function isFieldError(e: unknown): e is FieldError {
  return (
    !!e &&
    typeof e === "object" &&
    typeof Reflect.get(e, "path") === "string" &&
    typeof Reflect.get(e, "message") === "string"
  );
}
