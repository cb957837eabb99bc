/**
 * The evening's routes as the console calls them: the walk-in waiting list, the shift notes, the
 * reports and a table's place on the floor plan. Through the console's own client (its base, its
 * session's CSRF token, problem+json as ApiError), kept apart so the day's views do not carry it.
 */
import type { TableLayout } from "../../shared/floor.js";
import { ApiError, type ConsoleApi } from "./api.js";
import type { Table } from "./types.js";

export interface WalkIn {
  id: number;
  pax: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  notes: string | null;
  state: "waiting" | "notified" | "seated" | "left";
  position: number | null;
  quoted_minutes: number | null;
  wait_minutes: number | null;
  notified_at: string | null;
  reservation_id: number | null;
  created_at: string;
}

export interface ShiftNote {
  date: string;
  text: string;
  updated_at: string | null;
}

export type ReportBy = "day" | "service" | "channel";

export interface ReportLine {
  key: string;
  label: string | null;
  covers: number;
  parties: number;
  no_shows: number;
  cancellations: number;
}

export type PlacedTable = Table & { layout: TableLayout | null };

/** One call of the console's API: JSON in and out, the CSRF token on writes. */
async function call<T>(
  api: ConsoleApi,
  path: string,
  init: { method?: string; body?: unknown; signal?: AbortSignal } = {},
) {
  const method = init.method ?? "GET";
  const headers: Record<string, string> = { Accept: "application/json" };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && api.session) headers["X-CSRF-Token"] = api.session.csrf_token;
  const res = await fetch(`${api.base}/api/v2${path}`, {
    method,
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
    credentials: "same-origin",
  }).catch((err) => {
    if (init.signal?.aborted) throw err;
    throw new ApiError(0, "network", String(err));
  });
  const json = await res.json().catch(() => undefined);
  if (!res.ok) throw new ApiError(res.status, json?.code, json?.detail ?? json?.title, json?.errors ?? []);
  return json.data as T;
}

const own = (api: ConsoleApi, rest: string) => `/properties/${api.propertyId}/${rest}`;

export const walkIns = (api: ConsoleApi, signal?: AbortSignal) =>
  call<WalkIn[]>(api, own(api, "walk-ins"), { signal });

export const addWalkIn = async (
  api: ConsoleApi,
  body: { pax: number; name?: string; email?: string; phone?: string; notes?: string },
) => (await call<WalkIn[]>(api, own(api, "walk-ins"), { method: "POST", body }))[0]!;

export const tellReady = async (api: ConsoleApi, id: number) =>
  (
    await call<{ walk_in: WalkIn; sent: string[]; failed: string[] }[]>(
      api,
      own(api, `walk-ins/${id}/ready`),
      {
        method: "POST",
      },
    )
  )[0]!;

export const closeWalkIn = (api: ConsoleApi, id: number, state: "seated" | "left", reservation_id?: number) =>
  call<WalkIn[]>(api, own(api, `walk-ins/${id}`), { method: "PATCH", body: { state, reservation_id } });

export const notes = (api: ConsoleApi, from: string, to: string, signal?: AbortSignal) =>
  call<ShiftNote[]>(api, own(api, `notes?${new URLSearchParams({ from, to })}`), { signal });

export const putNote = async (api: ConsoleApi, date: string, text: string) =>
  (await call<ShiftNote[]>(api, own(api, `notes/${date}`), { method: "PUT", body: { text } }))[0]!;

export const report = (
  api: ConsoleApi,
  q: { from: string; to: string; by: ReportBy },
  signal?: AbortSignal,
) => call<ReportLine[]>(api, own(api, `reports?${new URLSearchParams(q)}`), { signal });

/** The report's CSV address (a download link: the session's cookie goes with it). */
export const reportCsvUrl = (api: ConsoleApi, q: { from: string; to: string; by: ReportBy }) =>
  `${api.base}/api/v2${own(api, `reports?${new URLSearchParams({ ...q, format: "csv" })}`)}`;

export const placedTables = (api: ConsoleApi, signal?: AbortSignal) =>
  call<PlacedTable[]>(api, "/tables?limit=100", { signal });

export const placeTable = async (api: ConsoleApi, id: number, layout: TableLayout | null) =>
  (await call<PlacedTable[]>(api, `/tables/${id}`, { method: "PUT", body: { layout } }))[0]!;
