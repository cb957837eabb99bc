/**
 * Messages, one kind of the outbox (worker/outbox/dispatch.ts decides when an attempt runs). An
 * attempt leases the row (two copies of a queue message never send at once), writes the MIME
 * once (the first attempt fixes it, so a retry sends the very same bytes with the same
 * Message-ID), hands it to the send_email binding, and closes it: sent, retried on CONTRACT 9's
 * schedule, or failed once that is exhausted. SQL is in messages.repo.ts, the wire in transport.ts.
 */
import { resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { Bindings } from "../env";
import { now as clockNow, nowIso } from "../lib/clock";
import { enqueue } from "../outbox/queue";
import { shardD1 } from "../shards/shards";
import { retryDelay } from "../outbox/retry";
import { storedToken } from "./links";
import * as repo from "./messages.repo";
import { buildMime } from "./mime";
import { render, type Restaurant } from "./render";
import { sendMail } from "./transport";
import type { Locale, MessageSnapshot, Recipient, Template } from "./types";

/** How long an attempt holds its message. */
const LEASE_MS = 60_000;
/** How long an attempt waits for an earlier message of the same reservation to go first. */
const ORDER_WAIT_MS = 3000;
const HOLDING = new Set(["PREPAY", "ACCEPTED", "CONFIRMED"]);

const iso = (ms: number) => new Date(ms).toISOString();

export async function attemptMessage(env: Bindings, shard: number, id: number): Promise<void> {
  const d1 = shardD1(env, shard);
  const claimed = await claim(env, d1, id);
  if (!claimed) return;
  let error: string | undefined;
  try {
    const ready = await prepare(env, d1, id);
    if ("skip" in ready) return repo.finishMessage(d1, id, { state: "cancelled", error: ready.skip, tried: false }, nowIso());
    await sendMail(env, { from: config(env).emailFrom, to: ready.to, raw: ready.raw });
  } catch (err) {
    error = String((err as Error)?.message ?? err).slice(0, 500);
    console.error(JSON.stringify({ level: "error", where: "message attempt", message_id: id, message: error }));
  }
  if (error === undefined) return repo.finishMessage(d1, id, { state: "sent", tried: true }, nowIso());
  const delay = retryDelay(claimed.attempts + 1, config(env).retryScale);
  if (delay === undefined) return repo.finishMessage(d1, id, { state: "failed", error: `${error}; retries exhausted`, tried: true }, nowIso());
  await repo.finishMessage(d1, id, { state: "pending", error, nextAttemptAt: iso(clockNow() + delay * 1000), tried: true }, nowIso());
  await enqueue(env, "message", [{ property_id: claimed.property_id, id }], delay);
}

/**
 * Leases message `id` if it is due and nobody else holds it. Answers undefined when there is
 * nothing to do now; a message not due yet, or waiting too long for an earlier one, is queued again.
 */
async function claim(env: Bindings, d1: D1Database, id: number): Promise<repo.ClaimedMessage | undefined> {
  const started = Date.now();
  for (;;) {
    const now = clockNow();
    const claimed = await repo.leaseMessage(d1, id, iso(now), iso(now + LEASE_MS));
    if (claimed) return claimed;
    const row = await repo.messageState(d1, id);
    if (!row || row.state !== "pending" || (row.lease_until && row.lease_until >= iso(now))) return undefined;
    const dueIn = Date.parse(row.next_attempt_at) - now;
    if (dueIn > 1000 || Date.now() - started > ORDER_WAIT_MS) {
      const wait = Math.max(1, dueIn / 1000);
      await repo.markQueued(d1, id, iso(now + wait * 1000));
      await enqueue(env, "message", [{ property_id: row.property_id, id }], wait);
      return undefined;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Ready = { to: string; raw: string } | { skip: string };

/** The message's MIME, written once; or why it is no longer to be sent. */
async function prepare(env: Bindings, d1: D1Database, id: number): Promise<Ready> {
  const ctx = await repo.sendContext(d1, id);
  const m = ctx.message;
  if (!m || !ctx.property || !ctx.reservation) return { skip: "the reservation is gone" };
  const to = String(m.to_address);
  if (typeof m.raw === "string") return { to, raw: m.raw };
  const snapshot = JSON.parse(String(m.snapshot)) as MessageSnapshot;
  const r = ctx.reservation;
  const template = m.template as Template;
  if (template === "reminder" && (!HOLDING.has(r.status) || r.start_date !== snapshot.date || r.start_hour !== snapshot.hour)) {
    return { skip: "the reservation changed: this reminder is no longer due" };
  }
  if (template === "offer" && ctx.offer?.state !== "open") return { skip: "the offer is no longer open" };
  const c = config(env);
  const p = ctx.property;
  const settings = resolveSettings(JSON.parse(String(p.settings ?? "{}")));
  const locale = m.locale as Locale;
  const publicKey = encodeURIComponent(String(p.public_key));
  const manage = await storedToken(c.linkSecret, "manage", r.manage_nonce, r.manage_token_hash);
  const offer = ctx.offer && (await storedToken(c.linkSecret, "offer", ctx.offer.nonce, ctx.offer.token_hash));
  const restaurant = restaurantOf(p, settings.timezone, settings.cancel_notice);
  const rendered = render({
    template,
    recipient: m.recipient as Recipient,
    locale,
    snapshot,
    sequence: Number(m.sequence),
    writtenAt: Date.parse(String(m.created_at)),
    reservationId: r.id,
    restaurant,
    service: ctx.serviceName,
    links: {
      manage: manage && `${c.publicOrigin}/p/${publicKey}/manage/${manage}?locale=${locale}`,
      calendar: manage && `${c.publicOrigin}/api/v2/public/${publicKey}/manage/${manage}/calendar.ics`,
      offer: offer && `${c.publicOrigin}/p/${publicKey}/offer/${offer}?locale=${locale}`,
    },
    domain: new URL(c.publicOrigin).hostname,
    organizer: c.emailFrom,
  });
  const guest = [snapshot.guest.first_name, snapshot.guest.last_name].filter(Boolean).join(" ");
  const toGuest = m.recipient === "guest";
  const raw = buildMime({
    from: { name: toGuest ? restaurant.name : `${restaurant.name} · online bookings`, addr: c.emailFrom },
    to: { name: toGuest ? guest : restaurant.name, addr: to },
    replyTo: toGuest ? (restaurant.email ? { name: restaurant.name, addr: restaurant.email } : undefined) : snapshot.guest.email ? { name: guest, addr: snapshot.guest.email } : undefined,
    subject: rendered.subject,
    messageId: `<${String(m.uid)}@${c.emailFrom.split("@")[1]}>`,
    date: Date.parse(String(m.created_at)),
    locale,
    text: rendered.text,
    html: rendered.html,
    calendar: rendered.calendar,
  });
  return { to, raw: await repo.fixRaw(d1, id, raw) };
}

/** The restaurant as messages show it, from its row in the shard (raw, or as drizzle reads it). */
export function restaurantOf(p: Record<string, unknown>, timezone: string, cancelNotice: number): Restaurant {
  const raw = p.position ?? "{}";
  const position = (typeof raw === "string" ? JSON.parse(raw) : raw) as { address?: string; zip?: string; city?: string };
  const place = [position.zip, position.city].filter(Boolean).join(" ");
  const address = [position.address, place].filter(Boolean).join(", ");
  return {
    name: String(p.name),
    email: (p.email as string | null) ?? null,
    phone: (p.phone as string | null) ?? null,
    website: (p.website as string | null) ?? null,
    address: address || null,
    timezone,
    cancelNotice,
  };
}
