/**
 * Moving a property to another shard, in steps the operator's command drives (scripts/ops.mjs),
 * each a bounded piece of work so a large property moves within the Worker's limits:
 *  begin   the directory marks the move (writes answer 503 with Retry-After), the source shard
 *          freezes the property's rows (its triggers refuse every other write from then on), and
 *          the target moves on to a fresh id range if the property's ids would reach its counters;
 *  copy    a page of one table's rows goes to the target with its ids, in the order of references
 *          (an id the target holds for another property stops the move, before the switch);
 *  switch  the counts of both copies agree, the target opens for writes, the directory points
 *          at it (reads went on at the source all along);
 *  cleanup the source's copy goes, page by page.
 *  abort   before the switch: the partial copy goes and the source takes writes again.
 */
import type { Bindings, ControlDb } from "../env";
import { ApiError } from "../errors";
import { type DirectoryRow, getEntry, setMoving } from "../shards/directory.repo";
import { makeRoomForIds, shardCount, shardD1 } from "../shards/shards";
import * as repo from "./move.repo";

const PAGE = 100;

async function movingEntry(control: ControlDb, id: number): Promise<DirectoryRow> {
  const entry = await getEntry(control, id);
  if (!entry || entry.deletedAt) throw new ApiError("property_not_found", `property ${id} does not exist`);
  return entry;
}

function checkTarget(env: Bindings, entry: DirectoryRow, target: number) {
  if (!Number.isInteger(target) || target < 0 || target >= shardCount(env)) {
    throw new ApiError(
      "invalid_input_data",
      `there is no shard ${target} (shards 0 to ${shardCount(env) - 1})`,
      { errors: [{ path: "shard", message: "no such shard" }] },
    );
  }
  if (target === entry.shard)
    throw new ApiError("invalid_input_data", `property ${entry.id} is on shard ${target} already`, {
      errors: [{ path: "shard", message: "already there" }],
    });
}

/** Starts the move of property `id` to shard `target`; answers the tables to copy, in order. */
export async function beginMove(env: Bindings, control: ControlDb, id: number, target: number) {
  const entry = await movingEntry(control, id);
  checkTarget(env, entry, target);
  if (entry.movingSince)
    throw new ApiError(
      "resource_in_use",
      `property ${id} is being moved since ${entry.movingSince}; finish or abort that move first`,
    );
  if (await repo.shardState(shardD1(env, target), id))
    throw new ApiError(
      "resource_in_use",
      `shard ${target} holds rows of property ${id} already; abort the earlier move`,
    );
  await setMoving(control, id, true);
  const source = shardD1(env, entry.shard);
  await repo.markLeaving(source, id);
  try {
    // The property is frozen: its highest ids are final.
    await makeRoomForIds(env, target, await repo.highestIds(source, id));
  } catch (err) {
    await repo.markLive(source, id);
    await setMoving(control, id, false);
    throw err;
  }
  return { property_id: id, from: entry.shard, to: target, tables: repo.MOVED_TABLES.map((t) => t.name) };
}

/** Copies the next page of `table` after `after`; answers how many rows and where to go on. */
export async function copyPage(
  env: Bindings,
  control: ControlDb,
  id: number,
  target: number,
  table: string,
  after: repo.PageKey,
) {
  const entry = await movingEntry(control, id);
  checkTarget(env, entry, target);
  if (!entry.movingSince)
    throw new ApiError("resource_not_available", `property ${id} is not being moved; begin first`);
  const t = repo.movedTable(table);
  const rows = await repo.readPage(shardD1(env, entry.shard), t, id, after, PAGE);
  const fresh = await notCopiedYet(shardD1(env, target), target, t, id, rows);
  if (fresh.length)
    await repo.writePage(shardD1(env, target), t, id, fresh).catch((err) => {
      throw refusedCopy(err, target, t.name, id);
    });
  const last = rows.at(-1);
  return { table, copied: rows.length, after: last ? repo.keyOf(t, last) : after, done: rows.length < PAGE };
}

/**
 * The rows of a page the target does not hold yet (a page copied twice goes in once); an id the
 * target holds for another property (left by moves before each shard kept a range of its own)
 * stops the move with its reason, before anything of the page is written.
 */
async function notCopiedYet(
  d1: D1Database,
  target: number,
  t: repo.MovedTable,
  id: number,
  rows: Record<string, unknown>[],
) {
  if (t.key !== "id" || !rows.length) return rows;
  const held = await repo.heldIds(
    d1,
    t,
    id,
    rows.map((r) => Number(r.id)),
  );
  if (held.others.length)
    throw new ApiError(
      "resource_in_use",
      `shard ${target} already holds ${t.name} ${held.others.join(", ")} for another property (ids that clashed under an earlier move): property ${id} cannot move there; abort the move and it stays where it is`,
    );
  return rows.filter((r) => !held.mine.has(Number(r.id)));
}

/** A copy the target's constraints refused, as the move's reason to stop (anything else as it is). */
function refusedCopy(err: unknown, target: number, table: string, id: number): unknown {
  const constraint = /UNIQUE constraint failed: ([\w.,\s]+)/.exec(String((err as Error)?.message ?? err));
  if (!constraint) return err;
  return new ApiError(
    "resource_in_use",
    `shard ${target} already holds a row of ${table} with the same ${constraint[1]!.trim()} as one of property ${id}: the property cannot move there; abort the move and it stays where it is`,
  );
}

/** Checks both copies agree, opens the target and points the directory at it. */
export async function switchMove(env: Bindings, control: ControlDb, id: number, target: number) {
  const entry = await movingEntry(control, id);
  checkTarget(env, entry, target);
  if (!entry.movingSince)
    throw new ApiError("resource_not_available", `property ${id} is not being moved; begin first`);
  const [source, copy] = await Promise.all([
    repo.countRows(shardD1(env, entry.shard), id),
    repo.countRows(shardD1(env, target), id),
  ]);
  const differ = Object.keys(source).filter((t) => source[t] !== copy[t]);
  if (differ.length) {
    throw new ApiError(
      "resource_in_use",
      `the copy is incomplete: ${differ.map((t) => `${t} ${copy[t]} of ${source[t]}`).join(", ")}`,
    );
  }
  await repo.markLive(shardD1(env, target), id);
  await setMoving(control, id, false, target);
  return { property_id: id, from: entry.shard, to: target, rows: copy };
}

/** Deletes the next page of the property's rows from shard `from` (the one it left); done when none is left. */
export async function cleanupPage(env: Bindings, control: ControlDb, id: number, from: number) {
  const entry = await movingEntry(control, id);
  if (entry.shard === from)
    throw new ApiError("resource_in_use", `property ${id} still lives on shard ${from}`);
  return deleteFrom(shardD1(env, from), id);
}

/** Gives up a move before its switch: the partial copy goes, the source takes writes again. */
export async function abortMove(env: Bindings, control: ControlDb, id: number, target: number) {
  const entry = await movingEntry(control, id);
  checkTarget(env, entry, target);
  let left = await deleteFrom(shardD1(env, target), id);
  while (!left.done) left = await deleteFrom(shardD1(env, target), id);
  await repo.markLive(shardD1(env, entry.shard), id);
  await setMoving(control, id, false);
  return { property_id: id, on: entry.shard };
}

/** One page of deletion of the property's rows in a shard, children first. */
async function deleteFrom(d1: D1Database, id: number) {
  if (!(await repo.shardState(d1, id))) return { deleted: 0, done: true };
  for (const t of [...repo.MOVED_TABLES].reverse()) {
    const n = await repo.deletePage(d1, t, id, PAGE * 5);
    if (n > 0) return { table: t.name, deleted: n, done: t.name === "properties" };
  }
  return { deleted: 0, done: true };
}
