/** When to try a failed outbox row again: webhook deliveries and messages alike. Pure. */

/** The retry schedule, in seconds: the delay before attempt n (0-based). */
export const RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000] as const;

/** Seconds to wait before the next attempt after `attempts` failed ones, or undefined when exhausted. */
export function retryDelay(attempts: number, scale: number, retryAfterSeconds?: number): number | undefined {
  const planned = RETRY_SCHEDULE[attempts];
  if (planned === undefined) return undefined;
  const scaled = planned * scale;
  // A receiver's Retry-After asks for more time, never less than the schedule (capped at a day).
  return retryAfterSeconds !== undefined ? Math.max(scaled, Math.min(retryAfterSeconds, 86_400)) : scaled;
}

/** Retry-After as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, (at - now) / 1000) : undefined;
}
