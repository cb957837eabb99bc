/**
 * The console's one door to the Worker: the base path of its API and the session (the CSRF token
 * every write carries) live here only. The console's API is the integrator API mounted again under
 * `<base>/api/v2` with the session's cookie in place of a bearer token.
 */
import type {
  AuditEntry,
  BookingRoom,
  Closure,
  Customer,
  HistoryItem,
  Message,
  Property,
  Reservation,
  Role,
  Room,
  Service,
  Session,
  StaffMember,
  Table,
} from "./types.js";

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

export interface DayQuery {
  date: string;
  search?: string;
}

export interface ReservationCreate {
  start_date: string;
  start_hour: string;
  pax: number;
  service_id: number;
  customer?: { id?: number; first_name?: string; last_name?: string; email?: string; phone?: string };
  table_ids?: number[];
  room_id?: number;
  notes?: string;
  override_pacing?: boolean;
  waiting_list?: boolean;
}

export type ReservationChange = Partial<Pick<Reservation, "pax" | "notes" | "allergies">> & {
  start_day?: string;
  start_hour?: string;
  room_id?: number;
  table_ids?: number[];
  override_pacing?: boolean;
};

/** The status moves of PATCH /reservations/{id}?status=. */
export type StatusMove = "accepted" | "declined" | "cancelled" | "expired";

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** How long a read waits for its answer before it is asked once more (a stalled connection, not a slow query). */
const READ_PATIENCE_MS = 15_000;

/** A signal aborted when either is (AbortSignal.any where the browser has it: Safari since 17.4). */
function either(caller: AbortSignal | undefined, timer: AbortSignal): AbortSignal {
  if (!caller) return timer;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([caller, timer]);
  const both = new AbortController();
  for (const s of [caller, timer]) s.addEventListener("abort", () => both.abort(s.reason), { once: true });
  return both.signal;
}

export class ConsoleApi {
  /** the session once signed in: its CSRF token goes with every write */
  session: Session | undefined;

  /**
   * `base`: where the console's routes answer (`/console`; the API is `<base>/api/v2`).
   * `patience`: how long a read waits before it is asked once more (ms).
   */
  constructor(
    readonly base = "/console",
    private readonly patience = READ_PATIENCE_MS,
  ) {}

  get propertyId(): number {
    if (!this.session) throw new ApiError(401, "unauthorized", "not signed in");
    return this.session.property.id;
  }

  /** The current session, or undefined when not signed in (401). */
  async currentSession(signal?: AbortSignal): Promise<Session | undefined> {
    try {
      this.session = await this.one<Session>(`${this.base}/session`, { signal });
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 401)) throw err;
      this.session = undefined;
      return undefined;
    }
    return this.session;
  }

  /** Signs in with an email (a member of staff) or the restaurant's username (its first owner). */
  async signIn(identity: string, password: string): Promise<Session> {
    const who = identity.includes("@") ? { email: identity } : { username: identity };
    this.session = await this.one<Session>(`${this.base}/session`, {
      method: "POST",
      body: { ...who, password },
    });
    return this.session;
  }

  async signOut(): Promise<void> {
    await this.send(`${this.base}/session`, { method: "DELETE" });
    this.session = undefined;
  }

  forgotPassword(username: string): Promise<unknown> {
    return this.send(`${this.base}/password/forgot`, { method: "POST", body: { username } });
  }

  resetPassword(token: string, password: string): Promise<unknown> {
    return this.send(`${this.base}/password/reset`, { method: "POST", body: { token, password } });
  }

  /** An invitation accepted: the invitee's name and password, and signed in. */
  async acceptInvite(token: string, name: string, password: string): Promise<Session> {
    this.session = await this.one<Session>(`${this.base}/invite/${encodeURIComponent(token)}`, {
      method: "POST",
      body: { name, password },
    });
    return this.session;
  }

  /** Who can take this tablet: active members with a PIN. */
  switchable(signal?: AbortSignal): Promise<{ id: number; name: string | null; role: string }[]> {
    return this.send(`${this.base}/session/switch`, { signal }).then(
      (a) => (a?.data as { id: number; name: string | null; role: string }[] | undefined) ?? [],
    );
  }

  async switchUser(staff_id: number, pin: string): Promise<Session> {
    this.session = await this.one<Session>(`${this.base}/session/switch`, {
      method: "POST",
      body: { staff_id, pin },
    });
    return this.session;
  }

  /** Passkeys: the WebAuthn ceremony's two halves, the browser's part given as `ceremony`. */
  async passkeySignIn(ceremony: (options: unknown) => Promise<unknown>): Promise<Session> {
    const options = await this.one<unknown>(`${this.base}/passkey/options`, { method: "POST", body: {} });
    const response = await ceremony(options);
    this.session = await this.one<Session>(`${this.base}/passkey`, { method: "POST", body: { response } });
    return this.session;
  }

  async addPasskey(ceremony: (options: unknown) => Promise<unknown>): Promise<unknown> {
    const options = await this.one<unknown>(`${this.base}/passkeys/options`, { method: "POST", body: {} });
    return this.send(`${this.base}/passkeys`, {
      method: "POST",
      body: { response: await ceremony(options) },
    });
  }

  passkeys(signal?: AbortSignal): Promise<{ id: number; created_at: string; last_used_at: string | null }[]> {
    return this.send(`${this.base}/passkeys`, { signal }).then(
      (a) => (a?.data as { id: number; created_at: string; last_used_at: string | null }[] | undefined) ?? [],
    );
  }

  removePasskey(id: number): Promise<unknown> {
    return this.send(`${this.base}/passkeys/${id}`, { method: "DELETE" });
  }

  staff(signal?: AbortSignal): Promise<StaffMember[]> {
    return this.list<StaffMember>(`/properties/${this.propertyId}/staff`, { signal });
  }

  invite(input: { email: string; name?: string; role: Role }): Promise<StaffMember> {
    return this.one<StaffMember>(this.api(`/properties/${this.propertyId}/staff`), {
      method: "POST",
      body: input,
    });
  }

  changeStaff(
    id: number,
    change: { role?: Role; active?: boolean; pin?: string | null },
  ): Promise<StaffMember> {
    return this.one<StaffMember>(this.api(`/properties/${this.propertyId}/staff/${id}`), {
      method: "PATCH",
      body: change,
    });
  }

  /** A page of the audit log, newest first. */
  async audit(
    query: { from?: string; to?: string; actor?: string; next_cursor?: string },
    signal?: AbortSignal,
  ): Promise<{ data: AuditEntry[]; next_cursor: string | null }> {
    const q = new URLSearchParams({ limit: "50" });
    for (const [k, v] of Object.entries(query)) if (v) q.set(k, v);
    const answer = await this.send(this.api(`/properties/${this.propertyId}/audit?${q}`), { signal });
    return {
      data: (answer?.data as AuditEntry[] | undefined) ?? [],
      next_cursor: answer?.next_cursor ?? null,
    };
  }

  changePassword(old_password: string, new_password: string): Promise<unknown> {
    return this.send(`${this.base}/password`, { method: "POST", body: { old_password, new_password } });
  }

  /** The day's reservations (every page of them), in start order. */
  async day({ date, search }: DayQuery, signal?: AbortSignal): Promise<Reservation[]> {
    const out: Reservation[] = [];
    let cursor: string | null | undefined;
    for (let page = 0; page < 20; page++) {
      const q = new URLSearchParams({ start_date: date, end_date: date, limit: "200" });
      if (search) q.set("text_search", search);
      if (cursor) q.set("next_cursor", cursor);
      const body = await this.send(this.api(`/reservations?${q}`), { signal });
      out.push(...((body?.data as Reservation[] | undefined) ?? []));
      cursor = body?.next_cursor;
      if (!cursor) break;
    }
    return out;
  }

  reservation(id: number, signal?: AbortSignal): Promise<Reservation> {
    return this.one<Reservation>(this.api(`/reservations/${id}`), { signal });
  }

  history(id: number, signal?: AbortSignal): Promise<HistoryItem[]> {
    return this.list<HistoryItem>(`/reservations/${id}/history`, { signal });
  }

  messages(id: number, signal?: AbortSignal): Promise<Message[]> {
    return this.list<Message>(`/reservations/${id}/messages`, { signal });
  }

  /** A guest's reservations, on any day (the API filters by customer_id). */
  guestReservations(customerId: number, signal?: AbortSignal): Promise<Reservation[]> {
    return this.list<Reservation>(`/reservations?customer_id=${customerId}&limit=100`, { signal });
  }

  create(input: ReservationCreate): Promise<Reservation> {
    return this.one<Reservation>(this.api("/reservations"), {
      method: "POST",
      body: { channel: "PLATFORM_ADMIN", ...input },
    });
  }

  update(id: number, change: ReservationChange): Promise<Reservation> {
    return this.one<Reservation>(this.api(`/reservations/${id}`), { method: "PUT", body: change });
  }

  /** Seat (checkin) or check out; `undo` reverses a step made by mistake. */
  step(id: number, step: "checkin" | "checkout", undo = false): Promise<Reservation> {
    return this.one<Reservation>(this.api(`/reservations/${id}/${step}${undo ? "?undo=true" : ""}`), {
      method: "PATCH",
    });
  }

  setStatus(id: number, status: StatusMove): Promise<Reservation> {
    return this.one<Reservation>(this.api(`/reservations/${id}?status=${status}`), { method: "PATCH" });
  }

  cancel(id: number): Promise<unknown> {
    return this.send(this.api(`/reservations/${id}`), { method: "DELETE" });
  }

  /** Rooms and tables at one time for a party, the engine's choice marked (`best_choice`). */
  async rooms(
    q: { date: string; hour: string; pax: number; service_id: number },
    signal?: AbortSignal,
  ): Promise<BookingRoom[]> {
    const params = new URLSearchParams({
      start_date: q.date,
      start_hour: q.hour,
      pax: String(q.pax),
      service_id: String(q.service_id),
      best_choice: "true",
    });
    const body = await this.send(this.api(`/bookings/rooms?${params}`), { signal });
    return body?.status === 206 ? [] : ((body?.data as BookingRoom[][] | undefined)?.[0] ?? []);
  }

  services(signal?: AbortSignal): Promise<Service[]> {
    return this.list<Service>("/services?limit=100", { signal });
  }

  updateService(id: number, change: Partial<Service>): Promise<Service> {
    return this.one<Service>(this.api(`/services/${id}`), { method: "PUT", body: change });
  }

  roomList(signal?: AbortSignal): Promise<Room[]> {
    return this.list<Room>("/rooms?limit=100", { signal });
  }

  tables(signal?: AbortSignal): Promise<Table[]> {
    return this.list<Table>("/tables?limit=100", { signal });
  }

  closures(signal?: AbortSignal): Promise<Closure[]> {
    return this.list<Closure>("/closures?limit=100", { signal });
  }

  createClosure(input: { start_date: string; end_date?: string; reason?: string }): Promise<Closure> {
    return this.one<Closure>(this.api("/closures"), { method: "POST", body: input });
  }

  deleteClosure(id: number): Promise<unknown> {
    return this.send(this.api(`/closures/${id}`), { method: "DELETE" });
  }

  createRoom(name: string): Promise<Room> {
    return this.one<Room>(this.api("/rooms"), { method: "POST", body: { name } });
  }

  createTable(input: {
    name: string;
    room_id: number;
    guests_min: number;
    guests_max: number;
  }): Promise<Table> {
    return this.one<Table>(this.api("/tables"), { method: "POST", body: input });
  }

  /** The apps connected to the restaurant through OAuth. */
  apps(signal?: AbortSignal): Promise<{ client_id: string; name: string; connected_at: string }[]> {
    return this.list(`/properties/${this.propertyId}/apps`, { signal });
  }

  revokeApp(clientId: string): Promise<unknown> {
    return this.send(this.api(`/properties/${this.propertyId}/apps/${encodeURIComponent(clientId)}`), {
      method: "DELETE",
    });
  }

  customers(search: string, signal?: AbortSignal): Promise<Customer[]> {
    return this.list<Customer>(`/customers?${new URLSearchParams({ search, limit: "8" })}`, { signal });
  }

  customer(id: number, signal?: AbortSignal): Promise<Customer> {
    return this.one<Customer>(this.api(`/customers/${id}`), { signal });
  }

  updateCustomer(id: number, change: Partial<Customer>): Promise<Customer> {
    return this.one<Customer>(this.api(`/customers/${id}`), { method: "PUT", body: change });
  }

  /** Merges customer `id` into `into` (the one that stays). */
  merge(id: number, into: number): Promise<unknown> {
    return this.send(this.api(`/customers/${id}/merge`), { method: "POST", body: { into } });
  }

  /** The restaurant's own record (name, phone, public key, settings). */
  property(signal?: AbortSignal): Promise<Property> {
    return this.one<Property>(this.api(`/properties/${this.propertyId}`), { signal });
  }

  updateProperty(
    change: Partial<Omit<Property, "settings">> & { settings?: Record<string, unknown> },
  ): Promise<Property> {
    return this.one<Property>(this.api(`/properties/${this.propertyId}`), { method: "PUT", body: change });
  }

  /** The hosted pages of the restaurant (welcome, services, booking). */
  links(signal?: AbortSignal): Promise<{ name: string; link: string }[]> {
    return this.list<{ name: string; link: string }>("/bookings/links", { signal });
  }

  private api(path: string) {
    return `${this.base}/api/v2${path}`;
  }

  private async one<T>(url: string, init: Init): Promise<T> {
    const body = await this.send(url, init);
    const first = (body?.data as T[] | undefined)?.[0];
    if (first === undefined) throw new ApiError(502, undefined, "empty answer");
    return first;
  }

  private async list<T>(path: string, init: Init): Promise<T[]> {
    return ((await this.send(this.api(path), init))?.data as T[] | undefined) ?? [];
  }

  /**
   * A read left unanswered for `patience` is asked once more, then given up as the server's
   * (status 0); a write is never sent twice.
   */
  private async send(url: string, init: Init): Promise<Answer | undefined> {
    if (WRITES.has(init.method ?? "GET")) return this.exchange(url, init);
    for (let attempt = 1; ; attempt++) {
      const timer = AbortSignal.timeout(this.patience);
      try {
        return await this.exchange(url, { ...init, signal: either(init.signal, timer) });
      } catch (err) {
        if (!timer.aborted || init.signal?.aborted) throw err;
        if (attempt === 2) throw new ApiError(0, "timeout", "the server did not answer");
      }
    }
  }

  /** One request: JSON in and out, the CSRF header on writes, problem+json into ApiError. */
  private async exchange(url: string, { method = "GET", body, signal }: Init): Promise<Answer | undefined> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (WRITES.has(method) && this.session) headers["X-CSRF-Token"] = this.session.csrf_token;
    const res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      credentials: "same-origin",
    });
    const json =
      res.status === 204 ? undefined : ((await res.json().catch(() => undefined)) as Answer | undefined);
    if (!res.ok) throw new ApiError(res.status, json?.code, json?.detail ?? json?.title, json?.errors ?? []);
    return res.status === 206 ? { status: 206 } : json;
  }
}

interface Init {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
}

interface Answer {
  data?: unknown;
  code?: string;
  detail?: string;
  title?: string;
  errors?: FieldError[];
  status?: number;
  next_cursor?: string | null;
}
