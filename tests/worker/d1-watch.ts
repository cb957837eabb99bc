/**
 * Watches the D1 calls of the test's own isolate through the runtime's prototypes: every batch
 * of a session, and every statement's first/all/run/raw, with the SQL each sends. A request run
 * in this isolate (direct) is seen whole; stopWatching() puts the prototypes back.
 */
import { env } from "cloudflare:workers";

/** One D1 call (a batch, or one statement's first/all/run/raw) with the SQL it sends. */
export type Call = { kind: string; sql: string[] };

let restore: (() => void) | undefined;

/** Watches every D1 call until stopWatching(); `beforeBatch` runs before a batch reaches D1. */
export function watchCalls(beforeBatch: (sql: string[]) => Promise<void> = async () => {}): Call[] {
  stopWatching();
  const calls: Call[] = [];
  const d1 = (env as unknown as { SHARD_0: D1Database }).SHARD_0;
  const session = Object.getPrototypeOf(d1.withSession("first-primary")) as Record<string, unknown>;
  const statement = Object.getPrototypeOf(d1.prepare("SELECT 1")) as Record<string, unknown>;
  const saved: [Record<string, unknown>, string, unknown][] = [];
  const wrap = (
    proto: Record<string, unknown>,
    name: string,
    sqlOf: (self: any, args: any[]) => string[],
  ) => {
    const original = proto[name] as (...args: unknown[]) => Promise<unknown>;
    saved.push([proto, name, original]);
    proto[name] = async function (this: unknown, ...args: unknown[]) {
      const sql = sqlOf(this, args);
      calls.push({ kind: name, sql });
      if (name === "batch") await beforeBatch(sql);
      return original.apply(this, args);
    };
  };
  wrap(session, "batch", (_self, [statements]) => statements.map((s: { statement: string }) => s.statement));
  for (const name of ["first", "all", "run", "raw"]) wrap(statement, name, (self) => [self.statement]);
  restore = () => {
    for (const [proto, name, original] of saved) proto[name] = original;
  };
  return calls;
}

/** Puts the prototypes back (a no-op when nothing is watched); call it after each test too. */
export function stopWatching(): void {
  restore?.();
  restore = undefined;
}
