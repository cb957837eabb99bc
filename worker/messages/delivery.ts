/**
 * Messages, one kind of the outbox (worker/outbox/dispatch.ts decides when an attempt runs). An
 * attempt leases the row (two copies of a queue message never send at once) and reads what it
 * needs in the same round trip, writes the MIME (an attempt that fails keeps it, so every retry
 * sends the very same bytes; the Message-ID and Date come from the row, so even a message written
 * again after a crash keeps them), hands it to the send_email binding, and closes it: sent,
 * retried on the outbox's schedule (webhook deliveries share it), or failed once that is
 * exhausted. SQL is in messages.repo.ts, the wire in transport.ts.
 */
import { resolveSettings, type Settings } from "../../shared/schemas";
import { type Config, config } from "../config";
import type { Bindings, Db } from "../env";
import { now as clockNow, nowIso } from "../lib/clock";
import { type Due, enqueue } from "../outbox/queue";
import { retryDelay } from "../outbox/retry";
import type { TakeDue } from "../outbox/senders";
import { shardD1, shardDb } from "../shards/shards";
import { composeInvite } from "./invite";
import {
  type ClaimedMessage,
  heldLeases,
  type Lease,
  leaseMessages,
  type MessageState,
  type SendContext,
  takeHeld,
} from "./lease.repo";
import { storedToken } from "./links";
import * as repo from "./messages.repo";
import { buildMime } from "./mime";
import { type Restaurant, render } from "./render";
import { composeReset } from "./reset";
import { sendMail } from "./transport";
import type { Locale, MessageSnapshot, Recipient, Template } from "./types";
import { mapUrl } from "./web-calendar";

/** How long an attempt holds its message. */
const LEASE_MS = 60_000;
const HOLDING = new Set(["PREPAY", "ACCEPTED", "CONFIRMED"]);

const iso = (ms: number) => new Date(ms).toISOString();

/** How many messages share a round trip of leases (six statements each) and one of closes. */
const ROUND = 10;

/** An attempt made, as its close will write it; `retry`: queued again after `delay` seconds once closed. */
interface Attempted {
  id: number;
  finish: repo.MessageFinish;
  retry?: { row: Due; delay: number };
}

/**
 * One attempt of each of messages `ids` (of shard `shard`), then of the ones that waited for them
 * (a guest's cancellation made while the confirmation was still being sent), and so on: a message
 * held back by an earlier one is sent right after it, instead of waiting on its own. A round's
 * messages are leased in one round trip, sent side by side and closed in one. Answers the ids
 * whose attempt failed on our side (the queue tries those again).
 */
export async function attemptMessages(
  env: Bindings,
  shard: number,
  ids: number[],
): Promise<Map<number, unknown>> {
  const d1 = shardD1(env, shard);
  const failed = new Map<number, unknown>();
  const firsts: number[][] = [];
  for (let i = 0; i < ids.length; i += ROUND) firsts.push(ids.slice(i, i + ROUND));
  const follow = async (round: number[]): Promise<void> => {
    const next = await attemptRound(env, d1, round, failed).catch((err: unknown) => {
      for (const id of round) failed.set(id, err);
      return [];
    });
    if (next.length) await follow(next);
  };
  await Promise.all(firsts.map(follow));
  return failed;
}

/** The statement a write's batch takes its property's due messages by, each held for its attempt (lease.repo.ts). */
export const takeHeldMessages = (db: Db, o: TakeDue) => takeHeld(db, o, iso(Date.parse(o.now) + LEASE_MS));

/**
 * One attempt of each message a write's batch took and held (takeHeldMessages), from what the
 * batch answered with them, then of those that waited for them; answers the ids that failed.
 */
export async function attemptHeldMessages(
  env: Bindings,
  shard: number,
  answered: unknown,
): Promise<Map<number, unknown>> {
  const failed = new Map<number, unknown>();
  const leases = heldLeases(answered);
  const next = await attemptLeases(env, shardD1(env, shard), leases, clockNow(), failed).catch(
    (err: unknown) => {
      for (const { id } of leases) failed.set(id, err);
      return [];
    },
  );
  if (!next.length) return failed;
  const more = await attemptMessages(env, shard, next);
  return new Map([...failed, ...more]);
}

/** One attempt of message `id` and of those that waited for it; throws what failed on our side. */
export async function attemptMessage(env: Bindings, shard: number, id: number): Promise<void> {
  const failed = await attemptMessages(env, shard, [id]);
  if (failed.size) throw [...failed.values()][0];
}

/**
 * One round: leases, the sends side by side, the closes; answers the messages that waited for
 * these. A message not leased that fails to be queued again fails alone (`failed`).
 */
async function attemptRound(
  env: Bindings,
  d1: D1Database,
  ids: number[],
  failed: Map<number, unknown>,
): Promise<number[]> {
  const now = clockNow();
  const leases = await leaseMessages(shardDb(d1), ids, iso(now), iso(now + LEASE_MS));
  return attemptLeases(env, d1, leases, now, failed);
}

/** The sends of a round's leases side by side, then their closes; answers the messages that waited for these. */
async function attemptLeases(
  env: Bindings,
  d1: D1Database,
  leases: Lease[],
  now: number,
  failed: Map<number, unknown>,
): Promise<number[]> {
  const attempts = await Promise.all(
    leases.map((lease) =>
      lease.claimed
        ? attemptLeased(env, lease)
        : notLeased(env, d1, lease.id, lease.state, now).catch(
            (err: unknown) => void failed.set(lease.id, err),
          ),
    ),
  );
  const made = attempts.filter((a): a is Attempted => a !== undefined);
  if (!made.length) return [];
  // The round's messages are sent already: left unclosed, each would be sent again once its lease
  // runs out, so a close lost to a passing D1 error is tried once more.
  const close = () => repo.finishMessages(d1, made, nowIso());
  const next = await close().catch(close);
  await Promise.all(made.map((a) => a.retry && enqueue(env, "message", [a.retry.row], a.retry.delay)));
  return next;
}

/** Writes and sends a leased message; answers how to close the attempt. */
async function attemptLeased(
  env: Bindings,
  { id, claimed, context }: Lease & { claimed: ClaimedMessage },
): Promise<Attempted> {
  let error: string | undefined;
  let ready: Ready | undefined;
  try {
    ready = await prepare(env, context);
    if ("skip" in ready) return { id, finish: { state: "cancelled", error: ready.skip, tried: false } };
    await sendMail(env, { from: config(env).emailFrom, to: ready.to, raw: ready.raw });
  } catch (err) {
    error = String((err as Error)?.message ?? err).slice(0, 500);
    console.error(
      JSON.stringify({ level: "error", where: "message attempt", message_id: id, message: error }),
    );
  }
  if (error === undefined) return { id, finish: { state: "sent", tried: true } };
  const delay = retryDelay(claimed.attempts + 1, config(env).retryScale);
  if (delay === undefined)
    return { id, finish: { state: "failed", error: `${error}; retries exhausted`, tried: true } };
  const raw = ready && "raw" in ready && !ready.kept ? ready.raw : undefined;
  const finish = {
    state: "pending" as const,
    error,
    nextAttemptAt: iso(clockNow() + delay * 1000),
    tried: true,
    raw,
  };
  return { id, finish, retry: { row: { property_id: claimed.property_id, id }, delay } };
}

/**
 * A message its round did not lease: nothing to do now, unless it is not due yet, when it is
 * queued again for its time. One held back by an earlier message of its reservation is left to
 * that one's attempt (attemptMessages), and should that attempt never end, the cron's sweeper
 * finds both.
 */
async function notLeased(
  env: Bindings,
  d1: D1Database,
  id: number,
  row: MessageState | undefined,
  now: number,
): Promise<undefined> {
  if (row?.state !== "pending" || (row.lease_until && row.lease_until >= iso(now))) return undefined;
  const dueIn = Date.parse(row.next_attempt_at) - now;
  if (dueIn <= 0) return undefined;
  const wait = Math.max(1, dueIn / 1000);
  await repo.markQueued(d1, id, iso(now + wait * 1000));
  await enqueue(env, "message", [{ property_id: row.property_id, id }], wait);
  return undefined;
}

/** kept: the MIME an earlier attempt kept */
type Ready = { to: string; raw: string; kept?: true } | { skip: string };

/** A message whose property and reservation are still there. */
type Sendable = SendContext & {
  message: Record<string, unknown>;
  property: Record<string, unknown>;
  reservation: NonNullable<SendContext["reservation"]>;
};

const sendable = (s: SendContext): s is Sendable => !!s.message && !!s.property && !!s.reservation;

/**
 * The message's MIME: the one a failed attempt kept, or written now; or why it is no longer to be
 * sent. It is kept only when an attempt fails (the retries send the same bytes): most messages go
 * at their first attempt, and writing 5 KB only to delete it a moment later was one of its three
 * commits.
 */
async function prepare(env: Bindings, ctx: SendContext): Promise<Ready> {
  if (ctx.message?.template === "password_reset" || ctx.message?.template === "staff_invite")
    return prepareAccount(env, ctx);
  if (!sendable(ctx)) return { skip: "the reservation is gone" };
  const to = String(ctx.message.to_address);
  if (typeof ctx.message.raw === "string") return { to, raw: ctx.message.raw, kept: true };
  const snapshot = JSON.parse(String(ctx.message.snapshot)) as MessageSnapshot;
  const skip = noLongerDue(ctx, snapshot);
  if (skip) return { skip };
  return { to, raw: await compose(config(env), ctx, snapshot) };
}

/** A console password reset or a staff invitation: about the restaurant's console, no reservation. */
async function prepareAccount(env: Bindings, ctx: SendContext): Promise<Ready> {
  if (!ctx.message || !ctx.property || ctx.property.deleted_at) return { skip: "the restaurant is gone" };
  const to = String(ctx.message.to_address);
  if (typeof ctx.message.raw === "string") return { to, raw: ctx.message.raw, kept: true };
  const compose = ctx.message.template === "staff_invite" ? composeInvite : composeReset;
  const composed = await compose(config(env), ctx.message, ctx.property);
  return "skip" in composed ? composed : { to, raw: composed.raw };
}

/** A reminder of a reservation moved or ended since, an offer closed since: not sent. */
function noLongerDue(s: Sendable, snapshot: MessageSnapshot): string | undefined {
  const r = s.reservation;
  const template = s.message.template as Template;
  if (
    template === "reminder" &&
    (!HOLDING.has(r.status) || r.start_date !== snapshot.date || r.start_hour !== snapshot.hour)
  ) {
    return "the reservation changed: this reminder is no longer due";
  }
  if (template === "offer" && s.offer?.state !== "open") return "the offer is no longer open";
  return undefined;
}

/** The message rendered in its language and wrapped as MIME. */
async function compose(c: Config, s: Sendable, snapshot: MessageSnapshot): Promise<string> {
  const m = s.message;
  const settings = resolveSettings(JSON.parse(String(s.property.settings ?? "{}")));
  const locale = m.locale as Locale;
  const links = await linksOf(c, s, locale, snapshot.pax);
  const restaurant = restaurantOf(s.property, settings);
  const rendered = render({
    template: m.template as Template,
    recipient: m.recipient as Recipient,
    locale,
    snapshot,
    sequence: Number(m.sequence),
    writtenAt: Date.parse(String(m.created_at)),
    reservationId: s.reservation.id,
    restaurant,
    service: s.serviceName,
    links,
    request: s.request,
    domain: new URL(c.publicOrigin).hostname,
    organizer: c.emailFrom,
  });
  return mimeOf(c, m, { restaurant, snapshot, rendered, locale });
}

/**
 * The guest's manage page, calendar entry and offer, when the LINK_SECRET can make their links
 * again; and the booking page, to book again with the party kept.
 */
async function linksOf(c: Config, s: Sendable, locale: Locale, pax: number) {
  const publicKey = encodeURIComponent(String(s.property.public_key));
  const manage = await storedToken(
    c.linkSecret,
    "manage",
    s.reservation.manage_nonce,
    s.reservation.manage_token_hash,
  );
  const offer = s.offer && (await storedToken(c.linkSecret, "offer", s.offer.nonce, s.offer.token_hash));
  return {
    manage: manage && `${c.publicOrigin}/p/${publicKey}/manage/${manage}?locale=${locale}`,
    calendar: manage && `${c.publicOrigin}/api/v2/public/${publicKey}/manage/${manage}/calendar.ics`,
    offer: offer && `${c.publicOrigin}/p/${publicKey}/offer/${offer}?locale=${locale}`,
    pay: manage && `${c.publicOrigin}/p/${publicKey}/pay/${manage}?locale=${locale}`,
    book: `${c.publicOrigin}/p/${publicKey}/book?locale=${locale}&pax=${pax}`,
  };
}

interface Rendered {
  restaurant: Restaurant;
  snapshot: MessageSnapshot;
  rendered: ReturnType<typeof render>;
  locale: Locale;
}

/** From the restaurant to the guest (replies to the restaurant), or to the restaurant (replies to the guest). */
function mimeOf(
  c: Config,
  m: Record<string, unknown>,
  { restaurant, snapshot, rendered, locale }: Rendered,
): string {
  const guest = [snapshot.guest.first_name, snapshot.guest.last_name].filter(Boolean).join(" ");
  const toGuest = m.recipient === "guest";
  const replyToRestaurant = restaurant.email ? { name: restaurant.name, addr: restaurant.email } : undefined;
  const replyToGuest = snapshot.guest.email ? { name: guest, addr: snapshot.guest.email } : undefined;
  return buildMime({
    from: { name: toGuest ? restaurant.name : `${restaurant.name} · online bookings`, addr: c.emailFrom },
    to: { name: toGuest ? guest : restaurant.name, addr: String(m.to_address) },
    replyTo: toGuest ? replyToRestaurant : replyToGuest,
    subject: rendered.subject,
    messageId: `<${String(m.uid)}@${c.emailFrom.split("@")[1]}>`,
    date: Date.parse(String(m.created_at)),
    locale,
    text: rendered.text,
    html: rendered.html,
    calendar: rendered.calendar,
  });
}

/** The restaurant as messages show it, from its row in the shard (raw, or as drizzle reads it). */
export function restaurantOf(p: Record<string, unknown>, settings: Settings): Restaurant {
  const raw = p.position ?? "{}";
  const position = (typeof raw === "string" ? JSON.parse(raw) : raw) as {
    address?: string;
    zip?: string;
    city?: string;
    latitude?: number;
    longitude?: number;
  };
  const place = [position.zip, position.city].filter(Boolean).join(" ");
  const address = [position.address, place].filter(Boolean).join(", ") || null;
  return {
    name: String(p.name),
    email: (p.email as string | null) ?? null,
    phone: (p.phone as string | null) ?? null,
    website: (p.website as string | null) ?? null,
    address,
    map: mapUrl({ latitude: position.latitude, longitude: position.longitude, address }),
    city: position.city?.trim() || null,
    timezone: settings.timezone,
    cancelNotice: settings.cancel_notice,
    accent: settings.accent_color,
    logo: settings.logo_url,
    offerMinutes: settings.offer_minutes,
  };
}
