/**
 * The shard schema shows its invariants: CHECK constraints, triggers that know every column they
 * must, a freeze trigger on every table a property owns, and retention that drops only what has
 * done its work.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardD1 } from "../../worker/shards/shards";
import { purgeDeliveries } from "../../worker/webhooks/webhooks.repo";
import { book, insertReservation, newClient, seedRestaurant } from "./helpers";
import { receiverHook, settled, subscribe } from "./webhooks.helpers";

const shard0 = () => shardD1(env, 0);

async function columns(table: string): Promise<string[]> {
  const { results } = await shard0()
    .prepare(`SELECT name FROM pragma_table_info('${table}')`)
    .all<{ name: string }>();
  return results.map((r) => r.name);
}

async function triggerSql(name: string): Promise<string> {
  const row = await shard0()
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
    .bind(name)
    .first<{ sql: string }>();
  if (!row) throw new Error(`no trigger ${name}`);
  return row.sql.replace(/\s+/g, " ");
}

describe("the outbox triggers", () => {
  // Bookkeeping, not news: the API shows none of these as a change of the reservation.
  // The search engine's user id and idempotency token are its booking server's, never shown by the API;
  // the guest's language, whether to email them and the manage link's nonce are for messages, not news either;
  // a waiting party's range is the waiting list's (its offers, the guest's pages), not shown by the integrator API;
  // who made the last change is the event's `actor` (a trigger of webhook_events copies it), not a change itself.
  const BOOKKEEPING = [
    "id",
    "property_id",
    "version",
    "catalog_version",
    "manage_token_hash",
    "checkin_prev_status",
    "checkout_prev_status",
    "searchengine_user_id",
    "searchengine_token",
    "guest_locale",
    "notify_guest",
    "manage_nonce",
    "wait_until_min",
    "changed_by",
  ];

  it("copy every column of a reservation the API shows, and watch each for changes", async () => {
    const shown = (await columns("reservations")).filter((c) => !BOOKKEEPING.includes(c));
    expect(shown.length).toBeGreaterThan(15);
    const created = await triggerSql("reservations_webhook_created");
    const updated = await triggerSql("reservations_webhook_updated");
    for (const c of shown) {
      expect(created, `created: ${c}`).toContain(`NEW.\`${c}\``);
      expect(updated, `updated, snapshot: ${c}`).toContain(`NEW.\`${c}\``);
      // the snapshot is null where it is the guest as typed, the guest where it is the customer's
      // record: the triggers read both coalesced, as shown
      const watched: Record<string, string[]> = {
        customer_snapshot: [
          "coalesce(OLD.`customer_snapshot`, OLD.`guest`, (SELECT ",
          "IS NOT coalesce(NEW.`customer_snapshot`, NEW.`guest`, (SELECT ",
        ],
        guest: ["coalesce(OLD.`guest`, (SELECT ", "IS NOT coalesce(NEW.`guest`, (SELECT "],
      };
      for (const w of watched[c] ?? [`OLD.\`${c}\` IS NOT NEW.\`${c}\``])
        expect(updated, `updated, change list: ${c}`).toContain(w);
    }
  });
});

describe("freeze triggers (moves between shards)", () => {
  it("guard inserts, updates and deletes of every table a property owns", async () => {
    const { results } = await shard0()
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'id_range', 'properties')",
      )
      .all<{ name: string }>();
    expect(results.length).toBeGreaterThanOrEqual(14);
    for (const { name } of results) {
      for (const op of ["insert", "update", "delete"])
        expect(await triggerSql(`${name}_moving_${op}`), `${name} ${op}`).toContain("property_moving");
    }
  });
});

describe("CHECK constraints", () => {
  it("refuse an unknown status or channel, a stay outside 5..1440 minutes, and guests_min above guests_max", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const insert = (status: string, channel: string, stay: number) =>
      c.d1
        .prepare(
          "INSERT INTO reservations (property_id, start_date, start_hour, start_min, end_min, pax, status, channel) VALUES (?, '2031-01-01', '20:00:00', 100, ?, 2, ?, ?)",
        )
        .bind(c.propertyId, 100 + stay, status, channel)
        .run();
    await expect(insert("MAYBE", "PLATFORM_ADMIN", 60)).rejects.toThrow(
      /CHECK constraint failed: reservations_status_ck/,
    );
    await expect(insert("ACCEPTED", "FAX", 60)).rejects.toThrow(/reservations_channel_ck/);
    await expect(insert("ACCEPTED", "PLATFORM_ADMIN", 4)).rejects.toThrow(/reservations_stay_ck/);
    await expect(insert("ACCEPTED", "PLATFORM_ADMIN", 1441)).rejects.toThrow(/reservations_stay_ck/);
    await insert("ACCEPTED", "SEARCHENGINE", 1440);
    await expect(
      c.d1.prepare("UPDATE dining_tables SET guests_min = 9 WHERE id = ?").bind(s.t1.id).run(),
    ).rejects.toThrow(/dining_tables_guests_ck/);
  });

  it("refuse an unknown occasion or status reason, and pacing outside its ranges (checks kept by triggers)", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const id = await insertReservation(c.propertyId, { serviceId: s.service.id, date: "2031-01-02" });
    await expect(
      c.d1.prepare("UPDATE reservations SET occasion = 'wedding' WHERE id = ?").bind(id).run(),
    ).rejects.toThrow(/reservations_values_ck/);
    await expect(
      c.d1.prepare("UPDATE reservations SET status_reason = 'bored' WHERE id = ?").bind(id).run(),
    ).rejects.toThrow(/reservations_values_ck/);
    await c.d1
      .prepare("UPDATE reservations SET occasion = 'birthday', status_reason = 'no_show' WHERE id = ?")
      .bind(id)
      .run();
    for (const set of [
      "pacing_interval = 4",
      "pacing_interval = 241",
      "max_covers_per_interval = 0",
      "max_parties_per_interval = -1",
    ]) {
      await expect(
        c.d1.prepare(`UPDATE services SET ${set} WHERE id = ?`).bind(s.service.id).run(),
        set,
      ).rejects.toThrow(/services_pacing_ck/);
    }
  });
});

describe("retention", () => {
  it("drops delivered deliveries older than the cut, with their attempts and events, and keeps the rest", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const hook = await receiverHook();
    const sub = await subscribe(c, hook.url, "RESERVATION_CREATED");
    await book(c, { start_date: s.date, service_id: s.service.id });
    const [delivered] = await settled(c, sub.id);
    // A second event whose delivery stays pending: retention never touches it.
    await c.d1
      .prepare("UPDATE webhook_subscriptions SET endpoint = 'http://localhost:9/' WHERE id = ?")
      .bind(sub.id)
      .run();
    const pendingReservation = await insertReservation(c.propertyId, { date: s.date });
    const count = async (table: string, where: string, arg: number) =>
      (await c.d1
        .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
        .bind(arg)
        .first<{ n: number }>())!.n;
    expect(await count("webhook_attempts", "delivery_id = ?", delivered.id)).toBe(1);
    const eventId = (await c.d1
      .prepare("SELECT event_id FROM webhook_deliveries WHERE id = ?")
      .bind(delivered.id)
      .first<{ event_id: number }>())!.event_id;
    // Nothing is old enough yet.
    expect(await purgeDeliveries(c.d1, "2000-01-01T00:00:00.000Z", 1000)).toBe(0);
    // Everything is, for a cut in the future: the delivered one goes, the pending one stays (the
    // shard holds other files' deliveries too: purged a thousand at a time until none is left).
    while ((await purgeDeliveries(c.d1, "2999-01-01T00:00:00.000Z", 1000)) > 0);
    expect(await count("webhook_deliveries", "id = ?", delivered.id)).toBe(0);
    expect(await count("webhook_attempts", "delivery_id = ?", delivered.id)).toBe(0);
    expect(await count("webhook_events", "id = ?", eventId)).toBe(0);
    expect(
      await count("webhook_deliveries", "reservation_id = ? AND state = 'pending'", pendingReservation),
    ).toBe(1);
    expect(await count("webhook_events", "reservation_id = ?", pendingReservation)).toBe(1);
  });

  it("keeps an event, and the body a failed delivery replays, until the purge has dropped its last delivery", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const reservationId = (await book(c, { start_date: s.date, service_id: s.service.id })).json.data[0].id;
    // written by hand, so no queue or retry touches them: one delivery delivered long ago, one failed
    // (the event before the subscription, so the fan-out trigger adds none of its own)
    const old = "2001-01-01T00:00:00.000Z";
    const event = (await c.d1
      .prepare(
        "INSERT INTO webhook_events (uid, property_id, reservation_id, type, snapshot, created_at) VALUES ('', ?, ?, 'RESERVATION_CREATED', '{}', ?) RETURNING id",
      )
      .bind(c.propertyId, reservationId, old)
      .first<{ id: number }>())!.id;
    const sub = await subscribe(c, "http://localhost:9/", "RESERVATION_CREATED");
    await c.d1.batch([
      c.d1
        .prepare("INSERT INTO webhook_event_bodies (event_id, snapshot, payload) VALUES (?, '{}', '{}')")
        .bind(event),
      ...["delivered", "failed"].map((state) =>
        c.d1
          .prepare(
            "INSERT INTO webhook_deliveries (event_id, subscription_id, property_id, reservation_id, state, next_attempt_at, delivered_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE ?5 WHEN 'delivered' THEN ?6 END, ?6)",
          )
          .bind(event, sub.id, c.propertyId, reservationId, state, old),
      ),
    ]);
    const left = async () =>
      (await c.d1
        .prepare(
          "SELECT (SELECT count(*) FROM webhook_events WHERE id = ?1) AS events, (SELECT count(*) FROM webhook_event_bodies WHERE event_id = ?1) AS bodies, (SELECT count(*) FROM webhook_deliveries WHERE event_id = ?1) AS deliveries",
        )
        .bind(event)
        .first())!;
    // one delivery a call: the delivered one goes first, the event and its body stay for the failed
    // one (a cut just after `old`: the shard's other deliveries, of other tests, are all younger)
    const cut = "2001-01-02T00:00:00.000Z";
    expect(await purgeDeliveries(c.d1, cut, 1)).toBe(1);
    expect(await left()).toEqual({ events: 1, bodies: 1, deliveries: 1 });
    expect(await purgeDeliveries(c.d1, cut, 1)).toBe(1);
    expect(await left()).toEqual({ events: 0, bodies: 0, deliveries: 0 });
  });
});
