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
  Occasion,
  PaymentAccount,
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
  /** a refused table or time: why (`full`, `party_size`, `closed`, `pacing`, `other_room`, `group_member`) */
  reason: string | undefined;
  /** the tables and rooms the refusal is about, with their names (read from the catalog) */
  tables: { id: number; name: string }[] = [];
  rooms: { id: number; name: string }[] = [];

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
  allergies?: string;
  occasion?: Occasion;
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
  /** told when a request finds no connection (true) and when one gets through again (false) */
  onConnection: ((offline: boolean) => void) | undefined;
  /** the days last read, kept so a dropped connection leaves them readable */
  private days = new Map<string, Reservation[]>();

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

  /**
   * The day's reservations (every page of them), in start order. Without a connection, the copy
   * last read of that day (the view says it is offline); a day never read fails as offline.
   */
  async day(q: DayQuery, signal?: AbortSignal): Promise<Reservation[]> {
    try {
      const list = await this.readDay(q, signal);
      if (!q.search) this.days.set(q.date, list);
      if (this.days.size > 7) this.days.delete(this.days.keys().next().value!);
      return list;
    } catch (err) {
      const kept = this.days.get(q.date);
      if (isOffline(err) && kept && !q.search) return kept;
      throw err;
    }
  }

  private async readDay({ date, search }: DayQuery, signal?: AbortSignal): Promise<Reservation[]> {
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
    if (body?.status !== 206) return (body?.data as BookingRoom[][] | undefined)?.[0] ?? [];
    // No one table seats the party: the floor for a couple, so tables can be put together.
    if (q.pax <= 2) return [];
    return (await this.rooms({ ...q, pax: 2 }, signal)).map((room) => ({
      ...room,
      tables: room.tables.map((t) => ({ ...t, best_choice: false })),
    }));
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

  // Payments: the restaurant's Stripe account (owners) and a reservation's money steps (managers).

  /** The restaurant's Stripe account; undefined while none is connected (404). */
  async paymentAccount(signal?: AbortSignal): Promise<PaymentAccount | undefined> {
    try {
      return await this.one<PaymentAccount>(this.api(`/properties/${this.propertyId}/payments/account`), {
        signal,
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return undefined;
      throw err;
    }
  }

  /** Stripe's onboarding link for the restaurant's account (made on the first call), back to `returnUrl`. */
  connectPayments(returnUrl: string): Promise<{ url: string; expires_at: string }> {
    return this.one(this.api(`/properties/${this.propertyId}/payments/account`), {
      method: "POST",
      body: { return_url: returnUrl },
    });
  }

  /** Refunds `amount` (minor units; all that is left when undefined) of the reservation's payment. */
  refund(id: number, amount?: number): Promise<Reservation> {
    return this.one<Reservation>(this.api(`/reservations/${id}/payment/refund`), {
      method: "POST",
      body: amount === undefined ? {} : { amount },
    });
  }

  /** Charges a guarantee's no-show fee on the card the guest saved. */
  noShowFee(id: number): Promise<Reservation> {
    return this.one<Reservation>(this.api(`/reservations/${id}/payment/no-show-fee`), { method: "POST" });
  }

  customers(search: string, signal?: AbortSignal, limit = 8): Promise<Customer[]> {
    const q = new URLSearchParams({ limit: String(limit) });
    if (search) q.set("search", search);
    return this.list<Customer>(`/customers?${q}`, { signal });
  }

  /** Reservations on any day from `from` to `to` whose guest's name, phone (any format) or email matches. */
  async search(text: string, from: string, to: string, signal?: AbortSignal): Promise<Reservation[]> {
    const q = new URLSearchParams({ start_date: from, end_date: to, text_search: text, limit: "100" });
    return (
      ((await this.send(this.api(`/reservations?${q}`), { signal }))?.data as Reservation[] | undefined) ?? []
    );
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

  private house: Promise<Property | undefined> | undefined;

  /** The restaurant's record, read once a session (its phone marks anonymous walk-ins); undefined when it cannot be read. */
  houseRecord(): Promise<Property | undefined> {
    this.house ??= this.property().catch(() => {
      this.house = undefined;
      return undefined;
    });
    return this.house;
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
    const write = WRITES.has(method);
    if (write && this.session) headers["X-CSRF-Token"] = this.session.csrf_token;
    // A write while the browser knows it is offline is refused before it is sent: never lost unseen.
    if (write && navigator.onLine === false) throw new ApiError(0, "offline", "not sent: no connection");
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        credentials: "same-origin",
      });
    } catch (err) {
      if (err instanceof TypeError) {
        this.onConnection?.(true);
        throw new ApiError(0, write ? "connection_lost" : "unreachable", err.message);
      }
      throw err;
    }
    this.onConnection?.(false);
    const json =
      res.status === 204 ? undefined : ((await res.json().catch(() => undefined)) as Answer | undefined);
    if (!res.ok) throw await this.named(res.status, json);
    return res.status === 206 ? { status: 206 } : json;
  }

  /** The problem as an ApiError, the tables and rooms it names looked up, so the console can say their names. */
  private async named(status: number, json: Answer | undefined): Promise<ApiError> {
    const err = new ApiError(status, json?.code, json?.detail ?? json?.title, json?.errors ?? []);
    err.reason = json?.reason;
    if (!json?.table_ids?.length && !json?.room_ids?.length) return err;
    const names = await this.catalogNames();
    const of = (ids: number[] | undefined, map: Map<number, string>) =>
      (ids ?? []).map((id) => ({ id, name: map.get(id) ?? String(id) }));
    err.tables = of(json.table_ids, names.tables);
    err.rooms = of(json.room_ids, names.rooms);
    return err;
  }

  /** Every table's and room's name (read afresh for each refusal that names some: tables get renamed). */
  private async catalogNames() {
    const [tables, rooms] = await Promise.all([
      this.list<Table>("/tables?limit=100", {}).catch(() => []),
      this.list<Room>("/rooms?limit=100", {}).catch(() => []),
    ]);
    return {
      tables: new Map(tables.map((t) => [t.id, t.name])),
      rooms: new Map(rooms.map((r) => [r.id, r.name])),
    };
  }
}

/** A request that found no connection (not sent, or its answer never came). */
export const isOffline = (err: unknown) =>
  err instanceof ApiError && ["offline", "connection_lost", "unreachable"].includes(err.code ?? "");

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
  reason?: string;
  table_ids?: number[];
  room_ids?: number[];
}
