/**
 * The search engine names a booking by its id and a user by the id it gave them, never by a
 * merchant: both are looked up in every shard (one indexed read each, side by side), and the
 * directory says which copy is the property's own (a move leaves an old one until its cleanup).
 */
import type { Bindings, ControlDb } from "../env";
import { type DirectoryRow, shardsOf } from "../shards/directory.repo";
import { openShard, shardCount, shardDb } from "../shards/shards";
import { present } from "./bookings";
import type { Booking } from "./google";
import { type BookingRow, bookingById, bookingsOfUser } from "./searchengine.repo";

/** Every shard's primary: what the search engine just wrote must be what it reads. */
function shards(env: Bindings) {
  return Array.from({ length: shardCount(env) }, (_, k) => ({
    k,
    db: shardDb(openShard(env, k, { write: true })),
  }));
}

/** Keeps the rows found in the shard the directory names for their property; answers the entries too. */
async function owned<T extends { propertyId: number }>(
  control: ControlDb,
  found: { k: number; rows: T[] }[],
) {
  const entries = await shardsOf(control, [
    ...new Set(found.flatMap((f) => f.rows.map((r) => r.propertyId))),
  ]);
  return {
    entries,
    kept: found.map((f) => ({ ...f, rows: f.rows.filter((r) => entries.get(r.propertyId)?.shard === f.k) })),
  };
}

/** The search-engine booking `id` and its property's directory entry, if the search engine made it. */
export async function locateBooking(
  env: Bindings,
  control: ControlDb,
  id: number,
): Promise<{ row: BookingRow; entry: DirectoryRow } | undefined> {
  const found = await Promise.all(
    shards(env).map(async ({ k, db }) => ({
      k,
      rows: [await bookingById(db, id)].filter((r) => r !== undefined),
    })),
  );
  const { entries, kept } = await owned(control, found);
  const row = kept.find((f) => f.rows.length)?.rows[0];
  return row && { row, entry: entries.get(row.propertyId)! };
}

/** ListBookings: every booking of the user, in every shard, oldest first. */
export async function listUserBookings(
  env: Bindings,
  control: ControlDb,
  userId: string,
): Promise<Booking[]> {
  const all = shards(env);
  const found = await Promise.all(
    all.map(async ({ k, db }) => ({ k, rows: await bookingsOfUser(db, userId) })),
  );
  const { kept } = await owned(control, found);
  const lists = await Promise.all(kept.map((f) => present(all[f.k]!.db, f.rows)));
  return lists.flat().sort((a, b) => Number(a.booking_id) - Number(b.booking_id));
}
