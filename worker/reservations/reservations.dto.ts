/** Reservations and their history as the integrator API shows them. */
import type { Context } from "hono";
import { owesPayment } from "../../shared/payment";
import { resolveSettings } from "../../shared/schemas";
import { type Actor, actorOf } from "../audit/actor";
import { config } from "../config";
import type { AppEnv } from "../env";
import { storedToken } from "../lib/links";
import { toLocalDateTime } from "../lib/localtime";
import { type HistoryRow, loadRelated, type Related, type ReservationRow } from "./reservations.repo";
import { toReservationDto } from "./reservations.schemas";

/**
 * Reservations with their customer, service, room and tables, read in one go: lists and
 * creation answer `start_date`, single records `start_day` (the API has both names). `known`: read
 * already (a creation reads them in its commit's batch).
 */
export async function present<K extends "start_date" | "start_day">(
  c: Context<AppEnv>,
  rows: ReservationRow[],
  key: K,
  known?: Related,
) {
  const property = c.get("property");
  const related = known ?? (await loadRelated(c.get("db"), property.id, rows));
  const tz = resolveSettings(property.settings).timezone;
  const dtos = rows.map((r) => toReservationDto(r, related, tz, key));
  const { publicOrigin, linkSecret } = config(c.env);
  await Promise.all(
    rows.map(async (r, i) => {
      const payment = dtos[i]!.payment;
      if (payment && owesPayment(r.status, r.payment))
        payment.pay_url = (await payUrl(publicOrigin, property.publicKey, linkSecret, r)) ?? null;
    }),
  );
  return dtos;
}

/**
 * The guest's hosted payment page (/p/<key>/pay/<token>): the manage link's token, given again from
 * its nonce; none when the booking has no link (a secret rotated since, or no LINK_SECRET).
 */
export async function payUrl(
  origin: string,
  publicKey: string,
  secret: string | undefined,
  r: Pick<ReservationRow, "manageNonce" | "manageTokenHash">,
): Promise<string | undefined> {
  const token = await storedToken(secret, "manage", r.manageNonce, r.manageTokenHash);
  return token && `${origin}/p/${encodeURIComponent(publicKey)}/pay/${token}`;
}

/** One history entry, its instant on the restaurant's wall clock, who made it by key and by name. */
export function toHistoryDto(h: HistoryRow, tz: string, actors: ReadonlyMap<string, Actor>) {
  return {
    id: h.seq,
    at: toLocalDateTime(tz, h.at, true),
    actor: h.actor,
    by: actorOf(h.actor, actors),
    action: h.action,
    from_status: h.fromStatus,
    to_status: h.toStatus,
    changes: h.changes,
  };
}
