import { beforeAll, describe, expect, it } from "vitest";
import { expireSandbox } from "./auth.fixtures";
import {
  book,
  dateInDays,
  expectInvalid,
  expectProblem,
  newClient,
  seedRestaurant,
  shardOf,
  type TestClient,
} from "./helpers";

// A booking's property row is read by the restaurant's desk, not by the Worker before it: with the
// day and the first waiting customers, and what its answer names in the commit's own batch. These
// pin that the answers stay those of reading each on its own.
let client: TestClient;
let r: Awaited<ReturnType<typeof seedRestaurant>>;

beforeAll(async () => {
  client = await newClient();
  r = await seedRestaurant(client);
});

const withoutDay = ({ start_date: _d, start_day: _s, ...rest }: Record<string, unknown>) => rest;

describe("POST /reservations, its reads folded into the desk's", () => {
  it("answers a new guest's booking as GET then shows it, the customer just created included", async () => {
    const res = await book(client, {
      start_date: dateInDays(20),
      service_id: r.service.id,
      customer: { first_name: "Nell", last_name: "Gwyn", email: "nell@example.com" },
    });
    expect(res.status, res.text).toBe(201);
    const created = res.json.data[0];
    expect(created.customer).toMatchObject({
      first_name: "Nell",
      last_name: "Gwyn",
      email: "nell@example.com",
    });
    expect(typeof created.customer.id).toBe("number");
    const shown = await client.call(`/api/v2/reservations/${created.id}`);
    expect(shown.status).toBe(200);
    expect(withoutDay(created)).toEqual(withoutDay(shown.json.data[0]));
    expect(created.start_date).toBe(shown.json.data[0].start_day);
  });

  it("matches the guest of an earlier booking by email, and refuses an id whose email belongs to another", async () => {
    const first = (
      await book(client, {
        start_date: dateInDays(21),
        service_id: r.service.id,
        customer: { first_name: "Olive", email: "olive@example.com" },
      })
    ).json.data[0];
    const again = await book(client, {
      start_date: dateInDays(22),
      service_id: r.service.id,
      customer: { first_name: "Olive", email: "OLIVE@example.com" },
    });
    expect(again.status, again.text).toBe(201);
    expect(again.json.data[0].customer.id).toBe(first.customer.id);
    const other = (
      await book(client, {
        start_date: dateInDays(23),
        service_id: r.service.id,
        customer: { first_name: "Pam", email: "pam@example.com" },
      })
    ).json.data[0];
    const clash = await book(client, {
      start_date: dateInDays(24),
      service_id: r.service.id,
      customer: { id: other.customer.id, email: "olive@example.com" },
    });
    expect(clash.status, clash.text).toBe(400);
    expect(clash.json.errors.map((e: { path: string }) => e.path)).toEqual(["customer.email"]);
    const unknown = await book(client, {
      start_date: dateInDays(24),
      service_id: r.service.id,
      customer: { id: 999_999_999 },
    });
    expectProblem(unknown, 404);
    expect(unknown.json.code).toBe("user_not_found");
  });

  it("books a table added after the Worker kept the catalog", async () => {
    await book(client, { start_date: dateInDays(25), service_id: r.service.id });
    const t3 = (
      await client.call("/api/v2/tables", { body: { name: "T3", room_id: r.room.id, guests_max: 2 } })
    ).json.data[0];
    const res = await book(client, {
      start_date: dateInDays(25),
      start_hour: "20:00:00",
      service_id: r.service.id,
      table_ids: [t3.id],
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.data[0].tables.map((t: { id: number }) => t.id)).toEqual([t3.id]);
  });

  it("still refuses a table taken at that time, read with the property row", async () => {
    const first = await book(client, {
      start_date: dateInDays(26),
      service_id: r.service.id,
      table_ids: [r.t2.id],
    });
    expect(first.status, first.text).toBe(201);
    const second = await book(client, {
      start_date: dateInDays(26),
      service_id: r.service.id,
      table_ids: [r.t2.id],
    });
    expectProblem(second, 403);
    expect(second.json.code).toBe("table_not_available");
  });

  it("replays an idempotent booking with the same answer, and creates nothing more", async () => {
    const body = {
      start_date: dateInDays(27),
      start_hour: "19:00:00",
      pax: 2,
      service_id: r.service.id,
      customer: { first_name: "Quinn", email: "quinn@example.com" },
    };
    const headers = { "Idempotency-Key": `preload-${Date.now()}` };
    const first = await client.call("/api/v2/reservations", { body, headers });
    expect(first.status, first.text).toBe(201);
    const replay = await client.call("/api/v2/reservations", { body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.text).toBe(first.text);
    const day = await client.call(
      `/api/v2/reservations?start_date=${dateInDays(27)}&end_date=${dateInDays(27)}`,
    );
    expect(day.json.data.map((x: { id: number }) => x.id)).toEqual([first.json.data[0].id]);
  });

  it("answers a body it cannot read ahead (a bad date) with the field named", async () => {
    const res = await book(client, { start_date: "2026-02-30", service_id: r.service.id });
    expectInvalid(res, "start_date");
  });

  it("gives each of many bookings at once its own customer, by id, email or phone", async () => {
    const date = dateInDays(28);
    // earlier guests, on other days: found again by what each new booking gives
    const guests = await Promise.all(
      Array.from({ length: 9 }, async (_, i) => {
        const customer = {
          first_name: `Many${i}`,
          ...(i % 3 === 2 ? { phone: `+39 06 5550 ${1000 + i}` } : { email: `many${i}@example.com` }),
        };
        const res = await book(client, {
          start_date: dateInDays(40 + i),
          service_id: r.service.id,
          customer,
        });
        expect(res.status, res.text).toBe(201);
        return { customer, id: res.json.data[0].customer.id as number };
      }),
    );
    // by id and email (two reads), by email, by phone (one each), and a new guest (none), mixed in one round
    const given = guests.map((g, i) =>
      i % 3 === 0 && "email" in g.customer ? { id: g.id, email: g.customer.email } : g.customer,
    );
    const answers = await Promise.all(
      [...given, { first_name: "Newcomer", email: "newcomer.many@example.com" }].map((customer) =>
        book(client, {
          start_date: date,
          start_hour: "20:00:00",
          service_id: r.service.id,
          waiting_list: true,
          customer,
        }),
      ),
    );
    for (const a of answers) expect(a.status, a.text).toBe(201);
    expect(answers.slice(0, 9).map((a) => a.json.data[0].customer.id)).toEqual(guests.map((g) => g.id));
    expect(guests.map((g) => g.id)).not.toContain(answers[9]!.json.data[0].customer.id);
  });
});

describe("POST /reservations on a property whose row forbids it", () => {
  it("answers 403 sandbox expired, checked on the row the desk reads, and creates nothing", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    await expireSandbox(c.propertyId);
    const res = await book(c, { start_date: dateInDays(20), service_id: s.service.id });
    expectProblem(res, 403, "sandbox expired");
    expect(res.json.code).toBe("sandbox_expired");
    const day = await c.call(`/api/v2/reservations?start_date=${dateInDays(20)}&end_date=${dateInDays(20)}`);
    expect(day.status).toBe(403);
    // the listing is refused too, so the shard itself says nothing was written
    const stored = await (await shardOf(c.propertyId))
      .prepare("SELECT count(*) AS n FROM reservations WHERE property_id = ?")
      .bind(c.propertyId)
      .first<{ n: number }>();
    expect(stored!.n).toBe(0);
  });

  it("replays no stored booking once the sandbox expired: the replay checks the row itself", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const body = {
      start_date: dateInDays(21),
      start_hour: "19:00:00",
      pax: 2,
      service_id: s.service.id,
      customer: { first_name: "Rita", email: "rita@example.com" },
    };
    const headers = { "Idempotency-Key": `expired-${Date.now()}` };
    expect((await c.call("/api/v2/reservations", { body, headers })).status).toBe(201);
    await expireSandbox(c.propertyId);
    const replay = await c.call("/api/v2/reservations", { body, headers });
    expectProblem(replay, 403, "sandbox expired");
    expect(replay.headers.get("Idempotent-Replayed")).toBeNull();
  });
});
