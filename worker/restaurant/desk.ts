/**
 * The restaurant's booking desk: the bookings of POST /reservations decided one at a time inside
 * the restaurant's Durable Object (./restaurant.ts hosts it; the reservations' handler hands it
 * each booking through the object's `book`). The desk keeps, per
 * day it was asked about, the day's holds with the holds_version they were read at. Bookings that
 * wait together share one read (the property row, the day's closures and arrivals, and the holds
 * only if the version moved: loadDeskDay); each is decided by the engine on it in turn, the
 * tables of those that fit held for those after them. The ones that fit go through the normal
 * plan and commit, side by side; a party that cannot fit is then answered the refusal
 * createReservation gives, with no write.
 *
 * The desk's read is also the booking's read of its property row: the Worker only checked the
 * directory (authorisePropertyLater), so the desk checks the row (gone, or a sandbox expired) and
 * answers it with the booking. The first few waiting bookings' customers come in the same read.
 *
 * D1 stays the truth and its triggers the guard: whatever changes the day outside the desk (staff
 * edits, cancellations, other channels, the catalog) moves a version or is read afresh, so a
 * "full" is never answered from holds older than the read made after the booking arrived.
 */
import type { Context } from "hono";
import type { Channel } from "../../shared/schemas";
import { type KeptHolds, loadDeskDay } from "../availability/availability.repo";
import type { Availability } from "../availability/engine";
import { config } from "../config";
import type { AppEnv, Bindings, PropertyRow } from "../env";
import { ApiError, type Problem } from "../errors";
import { type PropertyRowText, propertyToWire } from "../lib/restaurant-object";
import { checkPropertyRow } from "../properties/authorise";
import type { BookingContext } from "../reservations/context";
import {
  type Created,
  type CreateInput,
  createReservationWithRelated,
  precheckCreate,
} from "../reservations/create";
import type { CustomerRead } from "../reservations/customers";
import { customerLookup, customerQueries } from "../reservations/reservations.repo";
import { engineOf, type LoadedDay } from "../reservations/write";
import { openShard, shardD1, shardDb } from "../shards/shards";

/** One booking as the Worker hands it to the desk. */
export interface DeskJob {
  shard: number;
  propertyId: number;
  actor: string;
  input: CreateInput;
  channel: Channel;
}

/**
 * A booking created, with the property row it was decided on (the Worker has not read it), the
 * D1 bookmark of its commit (the caller's next read, given it, sees the booking) and the outbox
 * rows its commit took (for the request to attempt once it has answered).
 */
export type Booked = Created & {
  property: PropertyRowText;
  bookmark: string | null;
  /** JSON text of the rows, each sender's own shape (plain D1 rows) */
  taken: string;
};

/** The desk's answer: the booking, or the problem to answer (an ApiError as data: its class would not survive the trip). */
export type DeskAnswer = Booked | { problem: Problem };

/** What the desk has done since its object started. */
export interface DeskFigures {
  /** reads of a day (one per day of a round of waiting bookings) */
  reads: number;
  /** bookings refused on the day read, without a write */
  refused: number;
  /** bookings sent to plan and commit */
  committed: number;
  /** the most days served side by side in one round */
  widestRound: number;
}

interface Waiting {
  job: DeskJob;
  answer(a: DeskAnswer): void;
  fail(err: unknown): void;
}

/** A desk: who waits, and what it keeps between rounds. */
export interface Desk {
  queue: Waiting[];
  busy: boolean;
  /** by "shard:date": a property moved to another shard starts afresh */
  days: Map<string, KeptHolds>;
  figures: DeskFigures;
}

/** The days a desk keeps (a restaurant's drop is one day; a few dozen cover a busy booking window). */
const DAYS_KEPT = 60;

/**
 * The bookings of a round whose customers are read with the day: those first in line, who get a
 * table if anyone does. The others that fit read theirs when they commit; a drop's hundreds of
 * refused parties read none.
 */
const CUSTOMERS_WITH_DAY = 4;

const CREATE_PATH = /\/reservations\/?$/;

/** The requests whose property row the desk reads (requireProperty's `later`): POST /reservations. */
export const bookedAtDesk = (c: Context<AppEnv>) => c.req.method === "POST" && CREATE_PATH.test(c.req.path);

/** A desk with nothing waiting and nothing kept. */
export function newDesk(): Desk {
  return {
    queue: [],
    busy: false,
    days: new Map(),
    figures: { reads: 0, refused: 0, committed: 0, widestRound: 0 },
  };
}

/** A booking in line at the desk: answered once its round has decided (and, if it fits, committed) it. */
export function queueAtDesk(desk: Desk, env: Bindings, job: DeskJob): Promise<DeskAnswer> {
  return new Promise((answer, fail) => {
    desk.queue.push({ job, answer, fail });
    if (!desk.busy) void drain(desk, env);
  });
}

async function drain(desk: Desk, env: Bindings): Promise<void> {
  desk.busy = true;
  try {
    while (desk.queue.length) await serveRound(desk, env);
  } finally {
    desk.busy = false;
  }
}

/** A booking the round's read lets through, with the day it was decided on (earlier winners' tables held). */
interface Winner {
  w: Waiting;
  ctx: BookingContext;
  day: LoadedDay;
  /** the engine over `day` it was decided on, which its plan reuses */
  engine: Availability;
  /** its customer's lookup, when it came with the day */
  customer: CustomerRead | undefined;
}

/**
 * One round: every day someone is waiting for, each served on a read of its own, side by side
 * (the bookings of one day decide against each other; different days only meet in D1's guard,
 * which refuses a commit that would overlap a table across midnight). Bookings arriving meanwhile
 * wait for the next round.
 */
async function serveRound(desk: Desk, env: Bindings): Promise<void> {
  const days = new Map<string, Waiting[]>();
  for (const w of desk.queue) {
    const key = `${w.job.shard}:${w.job.input.start_date}`;
    days.set(key, [...(days.get(key) ?? []), w]);
  }
  desk.figures.widestRound = Math.max(desk.figures.widestRound, days.size);
  await Promise.all([...days].map(([key, waiting]) => serveDay(desk, env, key, waiting)));
}

/**
 * One read of the day, then its waiting bookings decided in turn on it, each one that fits
 * holding its tables for those after it. The ones that fit are committed side by side (each the
 * normal plan and commit, on the tables it was decided on); once every one of them has committed,
 * those that could not fit are refused. Should any commit fail, they wait for the next round's
 * read instead: a "full" is never answered on a table nobody took.
 */
async function serveDay(desk: Desk, env: Bindings, key: string, round: Waiting[]): Promise<void> {
  let read: Awaited<ReturnType<typeof readDay>>;
  try {
    read = await readDay(desk, env, round, key);
  } catch (err) {
    for (const w of take(desk, round)) answerError(w, err);
    return;
  }
  const { winners, refused } = decideRound(env, round, read);
  take(
    desk,
    winners.map((x) => x.w),
  );
  desk.figures.committed += winners.length;
  const committed = await Promise.all(winners.map((x) => commit(x, env)));
  if (!committed.every(Boolean)) return;
  desk.figures.refused += refused.length;
  for (const { w, err } of refused) answerError(take(desk, [w])[0]!, err);
}

/** The round's decisions on its read: who fits (in the order they came), who cannot and why. */
function decideRound(env: Bindings, round: Waiting[], read: DayRead) {
  const winners: Winner[] = [];
  const refused: { w: Waiting; err: unknown }[] = [];
  let day = read.day;
  // one engine per state of the day: building it is what costs, deciding on it is cheap
  let engine = engineOf(day);
  for (const [i, w] of round.entries()) {
    const ctx = contextOf(env, w.job, read.property);
    try {
      const spans = precheckCreate(ctx, w.job.input, w.job.channel, day, engine);
      winners.push({ w, ctx, day, engine, customer: read.customers[i] });
      if (!spans.length) continue;
      day = { ...day, holds: [...day.holds, ...spans] };
      engine = engineOf(day);
    } catch (err) {
      refused.push({ w, err });
    }
  }
  return { winners, refused };
}

/** The normal plan and commit, in a session on the primary; true when the booking was created. */
async function commit({ w, ctx, day, engine, customer }: Winner, env: Bindings): Promise<boolean> {
  try {
    const session = openShard(env, w.job.shard, { write: true });
    const taken: (readonly unknown[])[] = [];
    const outbox = { took: (answered: readonly unknown[]) => void taken.push(answered) };
    const created = await createReservationWithRelated(
      { ...ctx, db: shardDb(session), outbox },
      w.job.input,
      w.job.channel,
      { day, engine, customer },
    );
    w.answer({
      ...created,
      property: propertyToWire(ctx.property),
      bookmark: session.getBookmark(),
      taken: JSON.stringify(taken),
    });
    return true;
  } catch (err) {
    answerError(w, err);
    return false;
  }
}

/** A round's read: the property row (checked), the day, and the lookups of the customers first in line (by their place in the round). */
interface DayRead {
  property: PropertyRow;
  day: LoadedDay;
  customers: (CustomerRead | undefined)[];
}

/** The day of the round as D1 has it now, the holds from memory while their version stands. */
async function readDay(desk: Desk, env: Bindings, round: Waiting[], key: string): Promise<DayRead> {
  desk.figures.reads++;
  const job = round[0]!.job;
  const db = shardDb(shardD1(env, job.shard));
  const lookups = round
    .slice(0, CUSTOMERS_WITH_DAY)
    .map((w) => (w.job.input.customer ? customerLookup(w.job.input.customer) : undefined));
  const statements = lookups.map((l) => (l ? customerQueries(db, job.propertyId, l) : []));
  const read = await loadDeskDay(
    db,
    job.propertyId,
    job.input.start_date,
    desk.days.get(key),
    statements.flat(),
  );
  // 404 when the row is gone, 403 when its sandbox expired: the checks the Worker left to this read
  const property = checkPropertyRow(job.propertyId, read?.property);
  desk.days.delete(key);
  desk.days.set(key, read!.kept);
  if (desk.days.size > DAYS_KEPT) desk.days.delete(desk.days.keys().next().value!);
  return { property, day: read!.day, customers: customersOf(lookups, statements, read!.alongside) };
}

/** Each lookup's results, cut from the read's by how many statements each sent. */
function customersOf(
  lookups: (CustomerRead["lookup"] | undefined)[],
  statements: unknown[][],
  results: readonly unknown[],
): (CustomerRead | undefined)[] {
  let at = 0;
  return lookups.map((lookup, i) => {
    const n = statements[i]!.length;
    at += n;
    return lookup && { lookup, results: results.slice(at - n, at) };
  });
}

function take(desk: Desk, waiting: Waiting[]): Waiting[] {
  desk.queue = desk.queue.filter((w) => !waiting.includes(w));
  return waiting;
}

function contextOf(env: Bindings, job: DeskJob, property: PropertyRow): BookingContext {
  return {
    db: shardDb(shardD1(env, job.shard)),
    property,
    actor: job.actor,
    linkSecret: config(env).linkSecret,
  };
}

/** An ApiError crosses back as data (its class would not survive the trip); anything else fails the call as before. */
function answerError(w: Waiting, err: unknown): void {
  if (err instanceof ApiError) w.answer({ problem: err.problem() });
  else w.fail(err);
}
