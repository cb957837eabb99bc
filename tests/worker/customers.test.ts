/**
 * A restaurant's guests: the matching rules that never rewrite another person, the
 * typed guest on the reservation, the customers API (search, get, update,
 * merge, erase) and each customer's visits, no-shows, cancellations, covers and last visit, with
 * no-shows expired by the cron.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mergeCustomers } from "../../worker/customers/customers.repo";
import { customers } from "../../worker/db/shard.schema";
import { setClock } from "../../worker/lib/clock";
import { storedGuest } from "../../worker/reservations/guest.repo";
import { expireNoShows } from "../../worker/reservations/noshow";
import { shardDb } from "../../worker/shards/shards";
import { fixPayload } from "../../worker/webhooks/webhooks.repo";
import {
  book,
  createIn,
  dateInDays,
  expectInvalid,
  expectProblem,
  newClient,
  seedRestaurant,
  type TestClient,
} from "./helpers";
import { guestOf, publicKeyOf } from "./public.fixtures";

const customerOf = async (c: TestClient, id: number) =>
  (await c.call(`/api/v2/customers/${id}`)).json.data[0];
const reservation = async (c: TestClient, id: number) =>
  (await c.call(`/api/v2/reservations/${id}`)).json.data[0];

describe("matching a booking's customer", () => {
  it("a second person sharing a phone is never written over the first (the issue's own example)", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const ada = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+39 055 1" },
      })
    ).json.data[0];
    // another person, her own email, the same phone: a customer of her own
    const bea = (
      await book(c, {
        start_date: s.date,
        start_hour: "21:00",
        service_id: s.service.id,
        customer: { first_name: "Bea", email: "bea@example.com", phone: "+39 055 1" },
      })
    ).json.data[0];
    expect(bea.customer.id).not.toBe(ada.customer.id);
    // the phone alone, under another name: Ada's customer, untouched, and the guest as typed
    const cleo = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { first_name: "Cleo", phone: "+39 055 1" },
      })
    ).json.data[0];
    expect(cleo.customer).toEqual({
      id: ada.customer.id,
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      phone: "+39 055 1",
      visits: 0,
      allergies: null,
      tags: [],
      notes: null,
    });
    expect(cleo.guest).toEqual({ first_name: "Cleo", last_name: null, email: null, phone: "+39 055 1" });
    expect((await reservation(c, ada.id)).customer).toMatchObject({
      first_name: "Ada",
      email: "ada@example.com",
    });
  });

  it("a known email under another name keeps the typed guest and leaves the customer as it is; the same name fills what it lacks", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const grace = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
      })
    ).json.data[0];
    const other = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: {
          first_name: "Mallory",
          last_name: "Hopper",
          email: "GRACE@example.com",
          phone: "+1 555 0199",
        },
      })
    ).json.data[0];
    expect(other.customer).toEqual({
      id: grace.customer.id,
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: null,
      visits: 0,
      allergies: null,
      tags: [],
      notes: null,
    });
    expect(other.guest).toEqual({
      first_name: "Mallory",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: "+1 555 0199",
    });
    const same = (
      await book(c, {
        start_date: dateInDays(12),
        service_id: s.service.id,
        customer: { first_name: " grace ", email: "grace@example.com", phone: "+1 555 0100" },
      })
    ).json.data[0];
    expect(same.customer).toEqual({
      id: grace.customer.id,
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: "+1 555 0100",
      visits: 0,
      allergies: null,
      tags: [],
      notes: null,
    });
    // filled, never replaced: a later phone does not overwrite the one she has
    const later = (
      await book(c, {
        start_date: dateInDays(13),
        service_id: s.service.id,
        customer: { first_name: "Grace", email: "grace@example.com", phone: "+1 555 0101" },
      })
    ).json.data[0];
    expect(later.customer.phone).toBe("+1 555 0100");
    expect(later.guest.phone).toBe("+1 555 0101");
  });

  it("an explicit customer id is that person: staff may correct their details", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const first = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Alan", email: "alan@example.com" },
      })
    ).json.data[0];
    const again = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { id: first.customer.id, first_name: "Alan M.", phone: "+44 20 1" },
      })
    ).json.data[0];
    expect(again.customer).toEqual({
      id: first.customer.id,
      first_name: "Alan M.",
      last_name: null,
      email: "alan@example.com",
      phone: "+44 20 1",
      visits: 0,
      allergies: null,
      tags: [],
      notes: null,
    });
    expect(again.guest).toEqual({
      first_name: "Alan M.",
      last_name: null,
      email: "alan@example.com",
      phone: "+44 20 1",
    });
    expectProblem(
      await book(c, {
        start_date: s.date,
        start_hour: "21:00",
        service_id: s.service.id,
        customer: { id: 999_999_999 },
      }),
      404,
      "user not found",
    );
  });

  it("a public booking typed as Mallory with a known email shows staff Mallory, not the stored customer", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const alice = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: {
          first_name: "Alice",
          last_name: "Original",
          email: "alice@example.com",
          phone: "+39 333 0000001",
        },
      })
    ).json.data[0];
    const guest = guestOf(await publicKeyOf(c));
    const made = await guest.book({
      service_id: s.service.id,
      date: s.date,
      hour: "21:00",
      pax: 2,
      guest: { first_name: "Mallory", last_name: "Probe", email: "alice@example.com" },
    });
    expect(made.status, made.text).toBe(201);
    const list = (await c.call(`/api/v2/reservations?start_date=${s.date}&end_date=${s.date}`)).json.data;
    const seen = list.find((x: { id: number }) => x.id !== alice.id);
    expect(seen.guest).toEqual({
      first_name: "Mallory",
      last_name: "Probe",
      email: "alice@example.com",
      phone: null,
    });
    expect(seen.customer).toEqual(alice.customer);
  });

  it("keeps the customer's details on the row only where they differ from the guest as typed, and reads them the same either way", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const stored = async (id: number) =>
      c.d1
        .prepare("SELECT guest, customer_snapshot FROM reservations WHERE id = ?")
        .bind(id)
        .first<{ guest: string; customer_snapshot: string | null }>();
    const grace = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
      })
    ).json.data[0];
    // the usual case: the guest as typed is the customer's record, which the row leans on
    expect(await stored(grace.id)).toEqual({ guest: null, customer_snapshot: null });
    expect((await reservation(c, grace.id)).guest).toEqual({
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: null,
    });
    expect((await reservation(c, grace.id)).customer).toEqual({
      id: grace.customer.id,
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: null,
      visits: 0,
      allergies: null,
      tags: [],
      notes: null,
    });
    // another name with her email: both kept, each shown where it belongs
    const other = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { first_name: "Mallory", email: "grace@example.com" },
      })
    ).json.data[0];
    expect(JSON.parse((await stored(other.id))!.customer_snapshot!)).toEqual({
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: null,
    });
    // staff name her: the guest is Grace again, and the row keeps one copy
    const put = await c.call(`/api/v2/reservations/${other.id}`, {
      method: "PUT",
      body: { customer: { id: grace.customer.id, first_name: "Grace" } },
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
    expect((await stored(other.id))!.customer_snapshot).toBeNull();
    const read = await reservation(c, other.id);
    expect(read.guest).toEqual({
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: null,
    });
    expect(read.customer).toEqual(grace.customer);
  });
});

describe("a guest stored once, in the customer record", () => {
  const GRACE = { first_name: "Grace", last_name: "Hopper", email: "grace@example.com", phone: null };
  const rawGuest = async (c: TestClient, id: number) =>
    (await c.d1
      .prepare("SELECT guest FROM reservations WHERE id = ?")
      .bind(id)
      .first<{ guest: string | null }>())!.guest;
  const events = async (c: TestClient, id: number) =>
    (
      await c.d1
        .prepare(
          "SELECT b.snapshot FROM webhook_events e JOIN webhook_event_bodies b ON b.event_id = e.id WHERE e.reservation_id = ? ORDER BY e.id",
        )
        .bind(id)
        .all<{ snapshot: string }>()
    ).results.map((e) => JSON.parse(e.snapshot));

  it("keeps what each reservation showed when the record is corrected, with no event, and leans on it again for the next booking", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    await c.call("/api/v2/webhooks/subscription", {
      body: { endpoint: "http://localhost:9/", webhook_type: "RESERVATION_UPDATED" },
    });
    const grace = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { ...GRACE, phone: undefined },
      })
    ).json.data[0];
    expect(grace.guest).toEqual(GRACE);
    expect(await rawGuest(c, grace.id)).toBeNull();
    const put = await c.call(`/api/v2/customers/${grace.customer.id}`, {
      method: "PUT",
      body: { first_name: "Gracie", phone: "+1 555 0100" },
    });
    expect(put.status, put.text).toBe(200);
    // the reservation still shows the guest it was booked for, now written on its row
    const read = await reservation(c, grace.id);
    expect(read.guest).toEqual(GRACE);
    expect(read.customer).toMatchObject({ first_name: "Gracie", phone: "+1 555 0100" });
    expect(JSON.parse((await rawGuest(c, grace.id))!)).toEqual(GRACE);
    expect(await events(c, grace.id)).toEqual([]);
    const listed = (await c.call(`/api/v2/reservations?start_date=${s.date}`)).json.data;
    expect(listed.find((r: { id: number }) => r.id === grace.id).guest).toEqual(GRACE);
    // the corrected record is what the next booking leans on
    const again = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { first_name: "Gracie", email: "grace@example.com" },
      })
    ).json.data[0];
    expect(again.customer.id).toBe(grace.customer.id);
    expect(again.guest).toEqual({ ...GRACE, first_name: "Gracie", phone: "+1 555 0100" });
    expect(await rawGuest(c, again.id)).toBeNull();
    expect((await reservation(c, again.id)).guest).toEqual(again.guest);
    // a change of the guest on the reservation is a change, with its event
    const renamed = await c.call(`/api/v2/reservations/${again.id}`, {
      method: "PUT",
      body: { customer: { id: grace.customer.id, first_name: "G." } },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.json.data[0].guest).toMatchObject({ first_name: "G." });
    expect((await events(c, again.id)).map((e) => e.guest.first_name)).toEqual(["G."]);
  });

  it("a merge moves the reservations with the guest they were booked as, and an erasure empties them with an event", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    await c.call("/api/v2/webhooks/subscription", {
      body: { endpoint: "http://localhost:9/", webhook_type: "RESERVATION_UPDATED" },
    });
    const kate = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Kate", email: "kate@example.com" },
      })
    ).json.data[0];
    const grace = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { ...GRACE, phone: undefined },
      })
    ).json.data[0];
    expect(await rawGuest(c, kate.id)).toBeNull();
    const merged = await c.call(`/api/v2/customers/${kate.customer.id}/merge`, {
      body: { into: grace.customer.id },
    });
    expect(merged.status, merged.text).toBe(200);
    const moved = await reservation(c, kate.id);
    expect(moved.customer.id).toBe(grace.customer.id);
    expect(moved.guest).toEqual({
      first_name: "Kate",
      last_name: null,
      email: "kate@example.com",
      phone: null,
    });
    expect((await events(c, kate.id)).map((e) => [e.customerId, e.guest.first_name])).toEqual([
      [grace.customer.id, "Kate"],
    ]);
    // Grace leaned on her record until the erasure: her reservation shows no guest, and says so
    expect((await c.call(`/api/v2/customers/${grace.customer.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await reservation(c, grace.id)).guest).toBeNull();
    expect((await reservation(c, kate.id)).guest).toBeNull();
    const erasedEvents = await events(c, grace.id);
    expect(erasedEvents).toHaveLength(1);
    expect(JSON.stringify(erasedEvents)).not.toContain("Grace");
  });
});

describe("a guest stored once: decided by the database, as the write happens", () => {
  it("leans on the record only while it says what was typed, never on one changed or erased since it was read", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const grace = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" },
      })
    ).json.data[0];
    const typed: { first_name: string; last_name: string; email: string; phone: string | null } = {
      first_name: "Grace",
      last_name: "Hopper",
      email: "grace@example.com",
      phone: null,
    };
    const stored = async (guest: typeof typed) =>
      (await shardDb(c.d1).get<{ g: string | null }>(
        sql`SELECT ${storedGuest(guest, grace.customer.id)} AS g`,
      ))!.g;
    expect(await stored(typed)).toBeNull();
    // the record as read a moment ago is not what counts: a correction since is
    await c.call(`/api/v2/customers/${grace.customer.id}`, { method: "PUT", body: { phone: "+1 555 0100" } });
    expect(JSON.parse((await stored(typed))!)).toEqual(typed);
    expect(await stored({ ...typed, phone: "+1 555 0100" })).toBeNull();
    expect((await c.call(`/api/v2/customers/${grace.customer.id}`, { method: "DELETE" })).status).toBe(200);
    expect(JSON.parse((await stored({ ...typed, phone: "+1 555 0100" }))!)).toEqual({
      ...typed,
      phone: "+1 555 0100",
    });
  });

  it("a merge whose source was erased meanwhile writes nothing: its anonymised reservations never take the other's details", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const kate = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Kate", email: "kate@example.com" },
      })
    ).json.data[0];
    const grace = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { first_name: "Grace", email: "grace@example.com" },
      })
    ).json.data[0];
    const db = shardDb(c.d1);
    const byId = async (id: number) => (await db.select().from(customers).where(eq(customers.id, id)))[0];
    const [source, into] = [await byId(kate.customer.id), await byId(grace.customer.id)];
    // the merge read both, then the source is erased before it writes
    expect((await c.call(`/api/v2/customers/${kate.customer.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await mergeCustomers(db, source!, into!, { tags: ["vip"] }, "client:test")).toBeUndefined();
    expect(await reservation(c, kate.id)).toMatchObject({
      guest: null,
      customer: { id: kate.customer.id, first_name: null },
    });
    expect((await customerOf(c, grace.customer.id)).tags).toEqual([]);
  });
});

describe("the customers API", () => {
  it("lists and searches by name, email or phone, pages by cursor, and reads one", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const people = [
      { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
      { first_name: "Grace", last_name: "Hopper", phone: "+1 555 0100" },
      { first_name: "Alan", last_name: "Turing", email: "alan@turing.example" },
    ];
    for (const [i, p] of people.entries())
      await book(c, { start_date: dateInDays(10 + i), service_id: s.service.id, customer: p });
    const names = async (q: string) =>
      (await c.call(`/api/v2/customers?${q}`)).json.data.map((x: { first_name: string }) => x.first_name);
    expect(await names("")).toEqual(["Ada", "Grace", "Alan"]);
    expect(await names("search=LOVE")).toEqual(["Ada"]);
    expect(await names("search=turing.example")).toEqual(["Alan"]);
    expect(await names("search=555%200100")).toEqual(["Grace"]);
    expect(await names("search=hopper%20grace")).toEqual(["Grace"]);
    expect(await names(`search=${"x".repeat(100)}`)).toEqual([]);
    const page1 = (await c.call("/api/v2/customers?limit=2")).json;
    expect(page1.data).toHaveLength(2);
    const page2 = (await c.call(`/api/v2/customers?limit=2&next_cursor=${page1.next_cursor}`)).json;
    expect(page2.data.map((x: { first_name: string }) => x.first_name)).toEqual(["Alan"]);
    expect(page2.next_cursor).toBeNull();
    expect(page1.data[0]).toEqual({
      id: expect.any(Number),
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@example.com",
      phone: null,
      locale: null,
      tags: [],
      allergies: null,
      notes: null,
      banned: false,
      marketing_consent: false,
      erased: false,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      visits: 0,
      no_shows: 0,
      cancellations: 0,
      covers: 0,
      last_visit: null,
    });
    expect(await customerOf(c, page1.data[0].id)).toEqual(page1.data[0]);
    expectProblem(await c.call("/api/v2/customers/999999999"), 404, "user not found");
  });

  it("updates details, labels and consent; another customer's email is refused; a ban takes effect", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const a = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Ann", email: "ann@example.com" },
      })
    ).json.data[0].customer;
    await book(c, {
      start_date: s.date,
      start_hour: "21:00",
      service_id: s.service.id,
      customer: { first_name: "Ben", email: "ben@example.com" },
    });
    const put = await c.call(`/api/v2/customers/${a.id}`, {
      method: "PUT",
      body: {
        last_name: "Lee",
        phone: "+39 02 1",
        locale: "it",
        tags: ["vip", "vip", "regular"],
        allergies: "shellfish",
        notes: "corner table",
        marketing_consent: true,
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json.data[0]).toMatchObject({
      first_name: "Ann",
      last_name: "Lee",
      phone: "+39 02 1",
      locale: "it",
      tags: ["vip", "regular"],
      allergies: "shellfish",
      notes: "corner table",
      marketing_consent: true,
    });
    expectInvalid(
      await c.call(`/api/v2/customers/${a.id}`, { method: "PUT", body: { email: "BEN@example.com" } }),
      "email",
    );
    expectInvalid(
      await c.call(`/api/v2/customers/${a.id}`, { method: "PUT", body: { tags: "vip", locale: "xx" } }),
      "tags",
      "locale",
    );
    expect(
      (await c.call(`/api/v2/customers/${a.id}`, { method: "PUT", body: {} })).json.data[0].last_name,
    ).toBe("Lee");
    await c.call(`/api/v2/customers/${a.id}`, { method: "PUT", body: { banned: true } });
    expectProblem(
      await book(c, {
        start_date: dateInDays(12),
        service_id: s.service.id,
        customer: { first_name: "Ann", email: "ann@example.com" },
      }),
      403,
      "customer is banned",
    );
  });

  it("merges one customer into another: reservations move with a history entry, details fill in, the first is gone", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const one = (
      await book(c, {
        start_date: s.date,
        service_id: s.service.id,
        customer: { first_name: "Kate", last_name: "Smith", phone: "+39 333 1" },
      })
    ).json.data[0];
    const two = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { first_name: "Katie", email: "kate@example.com" },
      })
    ).json.data[0];
    await c.call(`/api/v2/customers/${one.customer.id}`, {
      method: "PUT",
      body: { tags: ["regular"], allergies: "nuts" },
    });
    await c.call(`/api/v2/customers/${two.customer.id}`, {
      method: "PUT",
      body: { tags: ["vip"], allergies: "gluten" },
    });
    expectInvalid(await c.call(`/api/v2/customers/${one.customer.id}/merge`, { body: {} }), "into");
    expectInvalid(
      await c.call(`/api/v2/customers/${one.customer.id}/merge`, { body: { into: one.customer.id } }),
      "into",
    );
    expectProblem(
      await c.call(`/api/v2/customers/${one.customer.id}/merge`, { body: { into: 999_999_999 } }),
      404,
      "user not found",
    );
    const merged = await c.call(`/api/v2/customers/${one.customer.id}/merge`, {
      body: { into: two.customer.id },
    });
    expect(merged.status, merged.text).toBe(200);
    expect(merged.json.data[0]).toMatchObject({
      id: two.customer.id,
      first_name: "Katie",
      last_name: "Smith",
      email: "kate@example.com",
      phone: "+39 333 1",
      tags: ["vip", "regular"],
      allergies: "gluten; nuts",
    });
    expect((await reservation(c, one.id)).customer.id).toBe(two.customer.id);
    const history = (await c.call(`/api/v2/reservations/${one.id}/history`)).json.data;
    expect(history.at(-1)).toMatchObject({
      action: "customer_merged",
      changes: { customer_id: [one.customer.id, two.customer.id] },
    });
    expectProblem(await c.call(`/api/v2/customers/${one.customer.id}`), 404, "user not found");
    // the reservation still changes normally afterwards (its version moved on with the merge)
    expect((await c.call(`/api/v2/reservations/${one.id}`, { method: "PUT", body: { pax: 1 } })).status).toBe(
      200,
    );
  });

  it("erases personal data and keeps the reservations, anonymised, in their history and webhook outbox too", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    await c.call("/api/v2/webhooks/subscription", {
      body: { endpoint: "http://localhost:9/", webhook_type: "RESERVATION_UPDATED" },
    });
    const guest = guestOf(await publicKeyOf(c));
    const made = (
      await guest.book({
        service_id: s.service.id,
        date: s.date,
        hour: "19:00",
        pax: 2,
        guest: { first_name: "Erin", last_name: "Erased", email: "erin@example.com", phone: "+39 333 777" },
        special_request: "Erin's cake",
        allergies: "Erin's allergy",
      })
    ).json.data[0];
    const id = (await c.call(`/api/v2/reservations?start_date=${s.date}`)).json.data[0].id;
    const before = await reservation(c, id);
    await c.call(`/api/v2/reservations/${id}`, {
      method: "PUT",
      body: { notes: "Erin is a critic", pax: 3 },
    });
    // a delivery attempt that read an event before the erasure and fixes its body after it
    const stale = await c.d1
      .prepare(
        "SELECT e.id, b.snapshot FROM webhook_events e JOIN webhook_event_bodies b ON b.event_id = e.id WHERE e.reservation_id = ? ORDER BY e.id DESC",
      )
      .bind(id)
      .first<{ id: number; snapshot: string }>();
    const erased = await c.call(`/api/v2/customers/${before.customer.id}`, { method: "DELETE" });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.json.data).toEqual([before.customer.id]);
    const after = await reservation(c, id);
    expect(after).toMatchObject({
      id,
      pax: 3,
      status: "ACCEPTED",
      guest: null,
      customer: { id: before.customer.id, first_name: null, last_name: null, email: null, phone: null },
    });
    for (const key of ["notes", "special_request", "allergies"]) expect(after[key]).toBeUndefined();
    expect(await customerOf(c, before.customer.id)).toMatchObject({
      erased: true,
      first_name: null,
      email: null,
      tags: [],
    });
    const secrets = ["Erin", "erin@example.com", "+39 333 777", "critic"];
    const texts = [
      JSON.stringify((await c.call(`/api/v2/reservations/${id}/history`)).json),
      JSON.stringify(
        (
          await c.d1
            .prepare("SELECT snapshot, previous, payload FROM webhook_events WHERE reservation_id = ?")
            .bind(id)
            .all()
        ).results,
      ),
      JSON.stringify(
        (
          await c.d1
            .prepare(
              "SELECT b.* FROM webhook_event_bodies b JOIN webhook_events e ON e.id = b.event_id WHERE e.reservation_id = ?",
            )
            .bind(id)
            .all()
        ).results,
      ),
      (await guest.call(`/manage/${made.manage_token}`)).text,
      (await c.call("/api/v2/customers?search=erin")).text,
    ];
    expect(
      await fixPayload(c.d1, stale!.id, JSON.stringify({ guest: "Erin Erased" }), stale!.snapshot),
    ).toBeUndefined();
    for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
    expect((await c.call("/api/v2/customers?search=erin")).json.data).toEqual([]);
    // the same email books again as a new person
    const back = (
      await book(c, {
        start_date: dateInDays(11),
        service_id: s.service.id,
        customer: { first_name: "Erin", email: "erin@example.com" },
      })
    ).json.data[0];
    expect(back.customer.id).not.toBe(before.customer.id);
  });
});

describe("visits, no-shows, cancellations, covers and last visit", () => {
  it("count check-outs as visits, cron no-shows as no-shows, and cancellations", async () => {
    // A Monday noon in Rome, whatever today is; the restaurant expires no-shows 15 minutes after the start.
    setClock("2027-01-11T11:00:00Z");
    try {
      const c = await newClient();
      await c.call(`/api/v2/properties/${c.propertyId}`, {
        method: "PUT",
        property: undefined,
        body: { settings: { timezone: "Europe/Rome", no_show_after_minutes: 15 } },
      });
      const room = await createIn(c, "rooms", { name: "Main" });
      for (const n of ["T1", "T2", "T3"])
        await createIn(c, "tables", { name: n, room_id: room.id, guests_max: 4 });
      const lunch = await createIn(c, "services", { name: "Lunch", start_hour: "12:00", end_hour: "15:00" });
      const who = { first_name: "Olga", email: "olga@example.com" };
      const at = (date: string, hour: string, pax = 2) =>
        book(c, { start_date: date, start_hour: hour, pax, service_id: lunch.id, customer: who });
      const came = (await at("2027-01-11", "12:00", 3)).json.data[0];
      const noShow = (await at("2027-01-11", "12:30")).json.data[0];
      const waiting = (await at("2027-01-11", "12:45")).json.data[0];
      const cancelled = (await at("2027-01-12", "13:00")).json.data[0];
      const later = (await at("2027-01-11", "14:00")).json.data[0];
      await c.call(`/api/v2/reservations/${came.id}/checkin`, { method: "PATCH" });
      await c.call(`/api/v2/reservations/${came.id}/checkout`, { method: "PATCH" });
      await c.call(`/api/v2/reservations/${cancelled.id}`, { method: "DELETE" });

      // 12:50 in Rome: 12:30 passed its 15 minutes, 12:45 has not; the guest who came is checked in.
      setClock("2027-01-11T11:50:00Z");
      // (the shard's other restaurants are not this test's business: only this one's reservations are looked at)
      const expired = await expireNoShows(shardDb(c.d1));
      expect(expired).toContain(noShow.id);
      for (const other of [came, waiting, cancelled, later]) expect(expired).not.toContain(other.id);
      expect(await reservation(c, noShow.id)).toMatchObject({ status: "EXPIRED", status_reason: "no_show" });
      expect((await c.call(`/api/v2/reservations/${noShow.id}/history`)).json.data.at(-1)).toMatchObject({
        actor: "system",
        action: "expired_no_show",
        to_status: "EXPIRED",
      });
      expect((await reservation(c, waiting.id)).status).toBe("ACCEPTED");
      expect((await reservation(c, came.id)).status).toBe("CONFIRMED");
      expect((await reservation(c, later.id)).status).toBe("ACCEPTED");
      expect(await customerOf(c, came.customer.id)).toMatchObject({
        visits: 1,
        no_shows: 1,
        cancellations: 1,
        covers: 3,
        last_visit: "2027-01-11",
      });
      // once expired, nothing more to do
      expect(await expireNoShows(shardDb(c.d1))).not.toContain(noShow.id);
    } finally {
      setClock(undefined);
    }
  });

  it("expire nothing while no_show_after_minutes is off (the default)", async () => {
    const c = await newClient();
    const s = await seedRestaurant(c);
    const past = await c.d1
      .prepare(
        `INSERT INTO reservations (property_id, service_id, start_date, start_hour, start_min, end_min, pax, status, channel)
         VALUES (?, ?, '2000-01-01', '19:00:00', ?, ?, 2, 'ACCEPTED', 'PLATFORM_ADMIN') RETURNING id`,
      )
      .bind(
        c.propertyId,
        s.service.id,
        Math.floor(Date.now() / 60000) - 120,
        Math.floor(Date.now() / 60000) - 60,
      )
      .first<{ id: number }>();
    expect(await expireNoShows(shardDb(c.d1))).not.toContain(past!.id);
    expect((await reservation(c, past!.id)).status).toBe("ACCEPTED");
  });
});
