/** What a D1 batch holds, and a batch of statements built as a list. */
import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "../db/handles";

/** One statement of a D1 batch, as drizzle builds it: atomic work is one batch of these. */
export type Statement = BatchItem<"sqlite">;

/** What statement S answers in a batch: its rows as drizzle types them, or `unknown` for a statement of any kind. */
type Answer<S extends Statement> = 0 extends 1 & S["_"]["result"] ? unknown : S["_"]["result"];

/**
 * The statements in one batch (one round trip, atomic), in order, and what each answered; none
 * sends nothing. drizzle's batch() takes a tuple written out; ours are lists built by parts: a list
 * of one kind of statement answers that kind's rows, a mixed list `unknown` for each.
 */
export function batch<S extends Statement>(db: Db, statements: readonly S[]): Promise<Answer<S>[]>;
export async function batch(db: Db, statements: readonly Statement[]): Promise<unknown[]> {
  const [first, ...rest] = statements;
  if (!first) return [];
  return db.batch([first, ...rest]);
}
