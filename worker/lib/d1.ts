/** What D1 tells us when a trigger of ours aborts a batch (RAISE(ABORT, '<reason>')), and what a batch holds. */
import type { BatchItem } from "drizzle-orm/batch";

/** The first of `reasons` named in the error or its causes (drizzle and D1 wrap it). */
export function abortReason<R extends string>(err: unknown, reasons: readonly R[]): R | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as { message?: unknown }).message ?? e);
    const found = reasons.find((r) => message.includes(r));
    if (found) return found;
  }
  return undefined;
}

/** One statement of a D1 batch, as drizzle builds it: atomic work is one batch of these. */
export type Statement = BatchItem<"sqlite">;
