export { now, nowIso } from "./clock";

export function addSeconds(iso: string, seconds: number): string {
  return new Date(Date.parse(iso) + seconds * 1000).toISOString();
}

/** Settings read from string vars with a default and a floor, so a typo never disables a limit. */
export function intVar(value: string | undefined, fallback: number, min = 0): number {
  const n = Number(value);
  return Number.isFinite(n) && n >= min ? Math.floor(n) : fallback;
}
