/** Who is booking where: what every reservation rule needs to know about the caller. */
import type { Db, PropertyRow } from "../env";
import type { ReservationRow } from "./reservations.repo";

export interface BookingContext {
  /** the property's shard */
  db: Db;
  property: PropertyRow;
  /** "client:<id>", "console:<property_id>", "guest", "searchengine" or "system", for the history */
  actor: string;
  /**
   * The property of reservation `id` when it belongs to another property the caller may act on
   * (403, not 404); undefined otherwise. Guests and the cron have none.
   */
  locateElsewhere?: (id: number) => Promise<number | undefined>;
  /** keys the manage and offer links of emails (worker/messages/links.ts); none: emails carry no links, no offers are made */
  linkSecret?: string | undefined;
  /**
   * Given, a change takes its due outbox rows in its own batch (./dispatch.ts) and hands what it
   * took to `took`, for the request to attempt once it has answered. Without it, the request's
   * dispatch takes them itself, one round trip later.
   */
  outbox?: { took(answered: readonly unknown[]): void } | undefined;
  /**
   * Reservation `id` as the request read it with its property row (./preload.ts), once; undefined
   * when it did not, and requireReservation reads it then.
   */
  preloaded?: ((id: number) => { row: ReservationRow | undefined } | undefined) | undefined;
}
