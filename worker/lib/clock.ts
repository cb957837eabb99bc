/**
 * The Worker's one clock: every "now" of the business rules (notice, booking window, expiry,
 * tokens, schedules) comes from here. In local development and tests only, `DEV_CLOCK` sets it
 * to a fixed instant ("2026-11-23T12:51:00Z") or shifts it ("+3600000", "-86400000" ms); the var
 * is read only when `ENVIRONMENT` is "development", which the dev scripts and the test pool set
 * and wrangler.toml does not, so a deployed Worker always runs on the real time. No request can
 * set it. A test in the Worker's isolate may pin it with setClock(), which wins over DEV_CLOCK.
 */

type Source = () => number;
const real: Source = () => Date.now();

let fromEnv: Source = real;
let envSpec: string | undefined;
let pinned: Source | undefined;

/** Milliseconds since the epoch, by the Worker's clock. */
export const now = (): number => (pinned ?? fromEnv)();
export const nowIso = (): string => new Date(now()).toISOString();

/** A clock from a DEV_CLOCK value: a fixed instant or an offset; throws on anything else. */
export function parseClock(value: string): Source {
  if (/^[+-]\d+$/.test(value)) {
    const offset = Number(value);
    return () => Date.now() + offset;
  }
  const at = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(at))
    throw new Error(`DEV_CLOCK: "${value}" is neither an ISO instant nor +/- milliseconds`);
  return () => at;
}

/** Tests: pins the clock to a DEV_CLOCK-style value; undefined unpins it. */
export function setClock(value: string | undefined): void {
  pinned = value ? parseClock(value) : undefined;
}

/** Applied at each of the Worker's doors (fetch, queue, scheduled). */
export function clockFromEnv(env: { ENVIRONMENT?: string; DEV_CLOCK?: string }): void {
  const spec = env.ENVIRONMENT === "development" && env.DEV_CLOCK ? env.DEV_CLOCK : undefined;
  if (spec === envSpec) return;
  envSpec = spec;
  fromEnv = spec ? parseClock(spec) : real;
}
