/**
 * Waiting-list offers. When a table frees (a cancellation, an expiry), the party that asked
 * first for that day and now fits is offered it by email, in the same batch as the change; the
 * offer holds `offer_minutes`. Claiming it (from the link of the email) accepts the reservation
 * if a table is still free; an offer that runs out (the cron) or is declined passes to the next
 * party, again in one batch with its closing. Each party is offered once.
 */
import { resolveSettings } from "../../shared/schemas";
import { loadAvailability } from "../availability/availability.repo";
import { Availability } from "../availability/engine";
import type { Db, PropertyRow } from "../env";
import { ApiError } from "../errors";
import { now, nowIso } from "../lib/clock";
import { sha256Hex } from "../lib/crypto";
import { fromLocalMinutes } from "../lib/localtime";
import { factsOf, reachable } from "../messages/facts";
import { newLink } from "../messages/links";
import { snapshotOf } from "../messages/plan";
import type { PlannedMessage } from "../messages/types";
import { getPropertyRows } from "../properties/properties.repo";
import { act } from "../reservations/booking";
import { getReservation, type ReservationRow } from "../reservations/reservations.repo";
import type { NewOffer } from "./offers.repo";
import * as repo from "./offers.repo";
import { nextParty } from "./pick";

export interface PlannedOffer {
  offer: NewOffer;
  message: PlannedMessage;
}

export interface OfferContext {
  db: Db;
  property: PropertyRow;
  /** without it no link can be mailed, so no offer is made */
  linkSecret?: string | undefined;
}

/**
 * The offer a freed table on `date` makes, if a waiting party fits now: the offer row and its
 * email, for the caller's batch. `ignoring`: the reservation whose tables are being released;
 * `read`: that day's waiting parties, when the request read them already (waitingOnDayOf).
 */
export async function planOffer(
  ctx: OfferContext,
  date: string,
  ignoring?: number,
  read?: ReservationRow[],
): Promise<PlannedOffer | undefined> {
  if (!ctx.linkSecret) return undefined;
  const waiting = (read ?? (await repo.waitingNeverOffered(ctx.db, ctx.property.id, date))).filter(
    (w) => w.id !== ignoring,
  );
  if (!waiting.length) return undefined;
  const { catalog, holds } = await loadAvailability(ctx.db, ctx.property, date, date);
  const at = now();
  const engine = new Availability(catalog, holds, at);
  const byId = new Map(waiting.map((w) => [w.id, w]));
  const picked = nextParty(
    engine,
    waiting.map((w) => ({ ...w, channel: factsOf(w).channel, reachable: reachable(w, ctx.property) })),
    ignoring,
  );
  return picked && offerTo(ctx, byId.get(picked.party.id)!, picked.start, at);
}

/** The offer of `start` to the party: its row, and its email telling that time. */
async function offerTo(
  ctx: OfferContext,
  party: ReservationRow,
  start: number,
  at: number,
): Promise<PlannedOffer> {
  const settings = resolveSettings(ctx.property.settings);
  const link = await newLink(ctx.linkSecret, "offer");
  const expiresAt = new Date(at + settings.offer_minutes * 60_000).toISOString();
  const offered = fromLocalMinutes(start);
  // the offer is of one time: its email names that time, not the range the party asked for
  const facts = {
    ...factsOf(party),
    startDate: offered.date,
    startHour: offered.hour,
    startMin: start,
    endMin: start + party.endMin - party.startMin,
    waitUntilMin: null,
  };
  return {
    offer: { reservationId: party.id, nonce: link.nonce!, tokenHash: link.hash, expiresAt, startMin: start },
    message: {
      template: "offer",
      recipient: "guest",
      to: facts.guest!.email!,
      locale: facts.locale ?? settings.locale,
      sequence: party.version,
      snapshot: snapshotOf(facts, settings.timezone, null, {
        offer: { nonce: link.nonce!, expires_at: expiresAt },
      }),
      dueAt: at,
      reservationId: party.id,
    },
  };
}

/**
 * An open offer declined or run out: closed, and offered to the next party that fits now (if
 * any), in one batch. Answers false when it was not open any more (someone else closed it).
 */
export async function passOffer(
  ctx: OfferContext & { d1: D1Database | D1DatabaseSession },
  offer: repo.OfferRow,
  state: "declined" | "expired",
): Promise<boolean> {
  const party = await getReservation(ctx.db, offer.reservationId);
  // The party just let it pass has an offer row, so planOffer skips it.
  const next = party ? await planOffer(ctx, party.startDate) : undefined;
  return repo.closeAndPass(ctx.d1, offer.id, state, nowIso(), ctx.property.id, next);
}

const EXPIRY_BATCH = 100;

/** The cron: every open offer of this shard whose time ran out passes to the next party, until `until`. */
export async function expireOffers(
  d1: D1Database,
  db: Db,
  linkSecret: string | undefined,
  until: number,
): Promise<number> {
  const lapsed = await repo.lapsedOffers(db, nowIso(), EXPIRY_BATCH);
  const properties = new Map(
    (await getPropertyRows(db, [...new Set(lapsed.map((o) => o.propertyId))])).map((p) => [p.id, p]),
  );
  let passed = 0;
  for (const offer of lapsed) {
    if (now() > until) break;
    const property = properties.get(offer.propertyId);
    if (property && (await passOffer({ db, d1, property, linkSecret }, offer, "expired"))) passed++;
  }
  return passed;
}

// ---------- the guest's side, behind the link of the email ----------

export type FoundOffer = NonNullable<Awaited<ReturnType<typeof repo.findOfferByTokenHash>>>;

export async function findOffer(db: Db, propertyId: number, token: string): Promise<FoundOffer> {
  const hit = await repo.findOfferByTokenHash(db, propertyId, await sha256Hex(token));
  if (!hit) throw new ApiError("offer_not_found", "no offer has this link; check the address in your email");
  return hit;
}

/** An open offer past its time shows as expired, before the cron closes it. */
export function shownState(offer: repo.OfferRow, at = nowIso()): repo.OfferRow["state"] {
  return offer.state === "open" && offer.expiresAt <= at ? "expired" : offer.state;
}

/** Only an open offer within its time is claimed or declined. */
export function checkOpen(offer: repo.OfferRow): void {
  if (offer.state !== "open" || offer.expiresAt <= nowIso()) {
    throw new ApiError(
      "offer_not_available",
      offer.state === "claimed" ? "this offer was claimed already" : "this offer is no longer open",
    );
  }
}

/**
 * The party takes the offered table: its reservation becomes ACCEPTED at the offered time if a table is still free
 * (the write closes the offer as claimed in its own batch, through the reaction); taken
 * meanwhile, the party stays on the waiting list.
 */
export async function claimOffer(ctx: OfferContext, offer: repo.OfferRow): Promise<void> {
  try {
    // at the time offered (a later one of the party's range), in the same write
    const moveTo = offer.startMin ?? undefined;
    await act(
      { db: ctx.db, property: ctx.property, actor: "guest", linkSecret: ctx.linkSecret },
      offer.reservationId,
      { type: "status", to: "ACCEPTED" },
      "resource_not_available",
      moveTo,
    );
  } catch (err) {
    if (
      err instanceof ApiError &&
      (err.code === "resource_not_available" || err.code === "reservation_not_available")
    ) {
      throw new ApiError(
        "offer_not_available",
        "the table has been taken meanwhile; you are still on the waiting list",
      );
    }
    throw err;
  }
}
