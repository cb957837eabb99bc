/**
 * The public widget API is open to anyone: it must never reveal another guest's data or who is
 * banned, its manage tokens must be unguessable and bound to their restaurant, CORS is open
 * and the per-IP limit holds.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { book, call, expectProblem } from "./helpers";
import { operations } from "./openapi-walk";
import { GUEST, guestOf, listed, smallRestaurant } from "./public.fixtures";

describe("per-IP rate limit", () => {
  it("answers 429 with Retry-After once an address spent its budget, and only to that address", async () => {
    const r = await smallRestaurant();
    const flood = guestOf(r.publicKey);
    // vitest.config.ts gives PUBLIC_RATE_LIMITER 120 requests a minute per key (as wrangler.toml
    // does): spend them in parallel waves (first in this file: every request of a test file costs a
    // little more than the one before).
    let limited: Awaited<ReturnType<typeof flood.call>> | undefined;
    for (let wave = 0; wave < 3 && !limited; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, () => flood.call("/slots?date=bad&pax=2")),
      );
      limited = answers.find((res) => res.status === 429);
      for (const res of answers) expect([400, 429]).toContain(res.status);
    }
    expect(limited, "no 429 after 300 requests").toBeDefined();
    expectProblem(limited!, 429, "too many requests");
    expect(limited!.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(limited!.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect((await r.guest.call("")).status).toBe(200);
  });
});

describe("per-IP write limit", () => {
  it("bookings and cancellations have a smaller budget of their own; reads go on", async () => {
    const r = await smallRestaurant();
    const writer = guestOf(r.publicKey);
    // vitest.config.ts gives PUBLIC_WRITE_RATE_LIMITER 30 a minute: bad bookings cost the same as good ones.
    // 61: the limiter counts in fixed minutes, and a burst that crosses a minute's start is split in two.
    const answers = await Promise.all(Array.from({ length: 61 }, () => writer.book({ date: "bad" })));
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThan(0);
    for (const res of answers) expect([400, 429]).toContain(res.status);
    expect((await writer.call("/services")).status).toBe(200);
    expect((await r.guest.book({ date: "bad" })).status).toBe(400);
  });

  it("counts an IPv6 caller by its /64 network", async () => {
    const r = await smallRestaurant();
    const net = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    // Every request from another address of the same /64.
    const answers = await Promise.all(
      Array.from({ length: 61 }, (_, i) =>
        guestOf(r.publicKey, `${net}::${(i + 1).toString(16)}`).book({ date: "bad" }),
      ),
    );
    expect(answers.filter((res) => res.status === 429).length).toBeGreaterThan(0);
    expect(
      (await guestOf(r.publicKey, `${net.replace(/:[0-9a-f]+$/, ":ffff")}::1`).book({ date: "bad" })).status,
    ).toBe(400);
  });
});

describe("CORS", () => {
  it("answers a preflight from any origin for JSON bodies and Idempotency-Key", async () => {
    const r = await smallRestaurant();
    const res = await r.guest.call("/reservations", {
      method: "OPTIONS",
      headers: {
        Origin: "https://restaurant.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, idempotency-key",
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(res.headers.get("Access-Control-Allow-Methods")).toMatch(/POST/);
    expect(res.headers.get("Access-Control-Allow-Methods")).toMatch(/DELETE/);
    expect(res.headers.get("Access-Control-Allow-Headers")?.toLowerCase()).toMatch(
      /content-type.*idempotency-key/,
    );
  });

  it("lets any origin read answers and problems, with X-Request-Id exposed; credentials are never allowed", async () => {
    const r = await smallRestaurant();
    const headers = { Origin: "https://elsewhere.example" };
    for (const res of [
      await r.guest.call("", { headers }),
      await guestOf("pk_unknown").call("", { headers }),
      await r.guest.call("/slots?pax=x", { headers }),
    ]) {
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe("*");
      expect(res.headers.get("Access-Control-Expose-Headers")).toMatch(/X-Request-Id/);
      expect(res.headers.get("Access-Control-Allow-Credentials")).toBeNull();
      expect(res.headers.get("X-Request-Id")).toBeTruthy();
    }
  });

  it("the integrator API stays without CORS", async () => {
    const res = await call("/api/v2/rooms", { headers: { Origin: "https://elsewhere.example" } });
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });
});

describe("other guests' data", () => {
  it("a booking with someone else's email shows only what this guest typed, never the stored customer", async () => {
    const r = await smallRestaurant();
    const alice = {
      first_name: "Alice",
      last_name: "Original",
      email: "alice@example.com",
      phone: "+39 333 0000001",
    };
    const first = (
      await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: alice })
    ).json.data[0];
    // Mallory knows Alice's email and books with it from another address.
    const mallory = guestOf(r.publicKey);
    const made = await mallory.book({
      service_id: r.service.id,
      date: r.date,
      hour: "20:00",
      pax: 2,
      guest: { first_name: "Mallory", last_name: "Probe", email: "alice@example.com" },
    });
    expect(made.status, made.text).toBe(201);
    const read = await mallory.call(`/manage/${made.json.data[0].manage_token}`);
    for (const res of [made, read]) {
      expect(res.json.data[0].guest).toEqual({
        first_name: "Mallory",
        last_name: "Probe",
        email: "alice@example.com",
        phone: null,
      });
      for (const secret of ["Alice", "Original", alice.phone]) expect(res.text).not.toContain(secret);
    }
    // Alice's own link still shows her, and Mallory did not rename her customer record.
    expect((await r.guest.call(`/manage/${first.manage_token}`)).json.data[0].guest).toEqual(alice);
    const customer = await r.client.d1
      .prepare("SELECT first_name, last_name, phone FROM customers WHERE property_id = ? AND email = ?")
      .bind(r.client.propertyId, "alice@example.com")
      .first();
    expect(customer).toEqual({ first_name: "Alice", last_name: "Original", phone: alice.phone });
  });

  it("profile, services, slots and refusals name no guest", async () => {
    const r = await smallRestaurant();
    await book(r.client, {
      start_date: r.date,
      start_hour: "19:00:00",
      service_id: r.service.id,
      customer: { first_name: "Zebedee", email: "zeb@example.com", phone: "+39 333 999" },
      notes: "secret note",
    });
    const texts = [
      (await r.guest.call("")).text,
      (await r.guest.call("/services")).text,
      (await r.guest.call(`/slots?date=${r.date}&pax=2&days=3`)).text,
      (await r.guest.book({ service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST }))
        .text,
    ];
    for (const text of texts)
      for (const secret of ["Zebedee", "zeb@example.com", "+39 333 999", "secret note"])
        expect(text).not.toContain(secret);
  });
});

describe("banned customers", () => {
  it("are refused exactly like a full time, never as banned", async () => {
    const r = await smallRestaurant();
    // Dinner 17:00-22:00 so both refusals have alternatives.
    await r.client.call(`/api/v2/services/${r.service.id}`, {
      method: "PUT",
      body: { start_hour: "17:00", end_hour: "22:00" },
    });
    await book(r.client, {
      start_date: r.date,
      start_hour: "19:00:00",
      service_id: r.service.id,
      customer: { first_name: "Mal", email: "banned@example.com" },
    });
    await r.client.d1
      .prepare("UPDATE customers SET banned = 1 WHERE property_id = ? AND email = ?")
      .bind(r.client.propertyId, "banned@example.com")
      .run();

    // A full time for an ordinary guest (19:30 overlaps the 19:00 reservation) ...
    const full = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:30",
      pax: 2,
      guest: GUEST,
    });
    // ... and a free time for the banned guest.
    expect(await listed(r.guest, r.date, 2)).toContain("21:00:00");
    const banned = await guestOf(r.publicKey).book({
      service_id: r.service.id,
      date: r.date,
      hour: "21:00",
      pax: 2,
      guest: { first_name: "Mal", last_name: "Banned", email: "banned@example.com" },
    });
    for (const res of [full, banned]) {
      expectProblem(res, 409, "time no longer available");
      expect(Object.keys(res.json).sort()).toEqual([
        "alternatives",
        "code",
        "detail",
        "request_id",
        "status",
        "title",
        "type",
      ]);
      expect(res.json.alternatives.length).toBeGreaterThan(0);
      expect(res.text.toLowerCase()).not.toMatch(/ban/);
    }
    const list = await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`);
    expect(list.json.data).toHaveLength(1);
  });
});

describe("manage tokens", () => {
  it("are 256-bit random strings, stored only as their SHA-256, shown once", async () => {
    const r = await smallRestaurant();
    const tokens = new Set<string>();
    for (const hour of ["19:00", "20:00"]) {
      const b = (await r.guest.book({ service_id: r.service.id, date: r.date, hour, pax: 2, guest: GUEST }))
        .json.data[0];
      expect(b.manage_token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 bytes
      tokens.add(b.manage_token);
      // Neither the reservation row nor its history holds the token itself.
      const rows = await r.client.d1
        .prepare(
          "SELECT r.*, h.changes FROM reservations r JOIN reservation_history h ON h.reservation_id = r.id WHERE r.property_id = ?",
        )
        .bind(r.client.propertyId)
        .all();
      expect(JSON.stringify(rows.results)).not.toContain(b.manage_token);
      // The read does not show it again.
      expect((await r.guest.call(`/manage/${b.manage_token}`)).text).not.toContain(b.manage_token);
    }
    expect(tokens.size).toBe(2);
  });

  it("are not kept readably for an idempotent replay either, and the replay is not cached", async () => {
    const r = await smallRestaurant();
    const body = { service_id: r.service.id, date: r.date, hour: "19:00", pax: 2, guest: GUEST };
    const first = await r.guest.book(body, { "Idempotency-Key": "retry-me" });
    const token = first.json.data[0].manage_token;
    const stored = await env.DB.prepare(
      "SELECT key, response_body FROM idempotency_keys WHERE scope LIKE 'public:%'",
    ).all();
    expect(stored.results.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored.results)).not.toContain(token);
    expect(JSON.stringify(stored.results)).not.toContain("retry-me");
    const replay = await r.guest.book(body, { "Idempotency-Key": "retry-me" });
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("Cache-Control")).toBe("no-store");
    expect(replay.json.data[0].manage_token).toBe(token);
  });

  it("of one restaurant do not work under another's public key", async () => {
    const a = await smallRestaurant();
    const b = await smallRestaurant();
    const token = (
      await a.guest.book({ service_id: a.service.id, date: a.date, hour: "19:00", pax: 2, guest: GUEST })
    ).json.data[0].manage_token;
    expectProblem(await b.guest.call(`/manage/${token}`), 404, "reservation not found");
    expectProblem(await b.guest.call(`/manage/${token}`, { method: "DELETE" }), 404, "reservation not found");
    expectProblem(
      await b.guest.call(`/manage/${token}`, { method: "PATCH", body: { hour: "19:15" } }),
      404,
      "reservation not found",
    );
    expect((await a.guest.call(`/manage/${token}`)).json.data[0].status).toBe("ACCEPTED");
  });

  it("a reservation made by staff has a manage link only when its guest is emailed (the link is in the email, never in the API)", async () => {
    const r = await smallRestaurant();
    const quiet = await book(r.client, {
      start_date: r.date,
      start_hour: "19:00:00",
      service_id: r.service.id,
      notify: false,
    });
    const mailed = await book(r.client, {
      start_date: r.date,
      start_hour: "20:00:00",
      service_id: r.service.id,
    });
    expect([quiet.status, mailed.status]).toEqual([201, 201]);
    expect(JSON.stringify(mailed.json)).not.toMatch(/manage/);
    const hash = async (id: number) =>
      (await r.client.d1
        .prepare("SELECT manage_token_hash FROM reservations WHERE id = ?")
        .bind(id)
        .first<{ manage_token_hash: string | null }>())!.manage_token_hash;
    expect(await hash(quiet.json.data[0].id)).toBeNull();
    expect(await hash(mailed.json.data[0].id)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the OpenAPI document", () => {
  it("lists the public routes under the public tag without security; every other /api/v2 route needs a token", async () => {
    const { doc } = await operations();
    const publicOps: string[] = [];
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (path.startsWith("/api/v2/public/")) {
          publicOps.push(`${method.toUpperCase()} ${path}`);
          expect(op.tags).toEqual(["public"]);
          expect(op.security).toBeUndefined();
        } else if (path.startsWith("/api/v2/")) {
          expect(op.security, `${method} ${path}`).toEqual([{ bearer: [] }]);
        }
      }
    }
    expect(publicOps.sort()).toEqual(
      [
        "GET /api/v2/public/{public_key}",
        "GET /api/v2/public/{public_key}/services",
        "GET /api/v2/public/{public_key}/slots",
        "POST /api/v2/public/{public_key}/reservations",
        "GET /api/v2/public/{public_key}/manage/{token}",
        "PATCH /api/v2/public/{public_key}/manage/{token}",
        "DELETE /api/v2/public/{public_key}/manage/{token}",
        "GET /api/v2/public/{public_key}/manage/{token}/calendar.ics",
        "GET /api/v2/public/{public_key}/offers/{token}",
        "POST /api/v2/public/{public_key}/offers/{token}/claim",
        "POST /api/v2/public/{public_key}/offers/{token}/decline",
        "GET /api/v2/public/{public_key}/pay/{token}",
      ].sort(),
    );
  });
});
