/** What a D1 batch holds. */
import type { BatchItem } from "drizzle-orm/batch";

/** One statement of a D1 batch, as drizzle builds it: atomic work is one batch of these. */
export type Statement = BatchItem<"sqlite">;
