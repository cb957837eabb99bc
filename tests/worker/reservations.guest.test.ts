/**
 * A guest's reservations and returning guests: GET /reservations?customer_id= lists one
 * customer's reservations on any day (past ones too) unless start_date or end_date narrows them,
 * and every reservation's `customer` carries the customer's visits.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { book, call, expectInvalid, getToken, newClient, seedCatalog, type TestClient } from "./helpers";

let client: TestClient;
// Days counted from the instant the file starts, so moving the clock does not move them.
const start = now();
const dateInDays = (days: number) => new Date(start + days * 86_400_000).toISOString().slice(0, 10);
let serviceId: number;
const ADA = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" };
const GRACE = { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" };
const at = (day: number, customer: Record<string, string>, hour = "19:00:00") =>
  book(client, { start_date: dateInDays(day), start_hour: hour, service_id: serviceId, customer });
let early: { date: string; id: number; customerId: number };
let later: number;
let grace: { id: number; customerId: number };

beforeAll(async () => {
  setClock(new Date(start).toISOString());
  client = await newClient();
  serviceId = (await seedCatalog(client)).service.id;
  const first = (await at(3, ADA)).json.data[0];
  early = { date: first.start_date, id: first.id, customerId: first.customer.id };
  later = (await at(20, ADA, "20:00:00")).json.data[0].id;
  const g = (await at(3, GRACE, "20:00:00")).json.data[0];
  grace = { id: g.id, customerId: g.customer.id };
  // Ada comes on day 3 (checked in at 19:05 on the restaurant's clock, UTC by default); then day 7 is today.
  await moveClock(`${early.date}T19:05:00Z`);
  const seated = await client.call(`/api/v2/reservations/${early.id}/checkin`, { method: "PATCH" });
  expect(seated.status, seated.text).toBe(200);
  await moveClock(`${dateInDays(7)}T12:00:00Z`);
});

afterAll(() => setClock(undefined));

/** Moves the clock days on; the client's token would have expired, so it gets a fresh one. */
async function moveClock(iso: string) {
  setClock(iso);
  const token = await getToken(client.clientId, client.clientSecret);
  client = {
    ...client,
    token,
    call: (path, o = {}) => call(path, { token, property: client.propertyId, ...o }),
  };
}

const ids = async (query: string) => {
  const res = await client.call(`/api/v2/reservations?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.json.data as { id: number; customer: { id: number; visits: number } }[];
};

describe("GET /reservations?customer_id=", () => {
  it("lists a guest's reservations on any day, past ones too, and no one else's", async () => {
    expect((await ids(`customer_id=${early.customerId}`)).map((r) => r.id)).toEqual([early.id, later]);
    expect((await ids(`customer_id=${grace.customerId}`)).map((r) => r.id)).toEqual([grace.id]);
    // without customer_id the list still starts today: the past day is not in it
    expect((await ids("limit=200")).map((r) => r.id)).toEqual([later]);
  });

  it("narrows to start_date and end_date when they are given", async () => {
    expect(
      (await ids(`customer_id=${early.customerId}&start_date=${dateInDays(4)}`)).map((r) => r.id),
    ).toEqual([later]);
    expect(
      (await ids(`customer_id=${early.customerId}&start_date=${early.date}&end_date=${early.date}`)).map(
        (r) => r.id,
      ),
    ).toEqual([early.id]);
  });

  it("pages a guest's reservations with next_cursor", async () => {
    const first = await client.call(`/api/v2/reservations?customer_id=${early.customerId}&limit=1`);
    expect(first.json.data.map((r: { id: number }) => r.id)).toEqual([early.id]);
    const next = await client.call(
      `/api/v2/reservations?customer_id=${early.customerId}&limit=1&next_cursor=${first.json.next_cursor}`,
    );
    expect(next.json.data.map((r: { id: number }) => r.id)).toEqual([later]);
  });

  it("finds nothing for another restaurant's customer", async () => {
    const other = await newClient();
    const otherService = (await seedCatalog(other)).service.id;
    const theirs = (await book(other, { start_date: dateInDays(9), service_id: otherService, customer: ADA }))
      .json.data[0];
    expect(await ids(`customer_id=${theirs.customer.id}`)).toEqual([]);
  });

  it("refuses a customer_id that is not a positive integer, naming it", async () => {
    for (const bad of ["0", "-1", "abc", "1.5"])
      expectInvalid(await client.call(`/api/v2/reservations?customer_id=${bad}`), "customer_id");
  });
});

describe("customer.visits on a reservation", () => {
  it("counts the customer's check-ins on every reservation of theirs", async () => {
    for (const r of await ids(`customer_id=${early.customerId}`)) expect(r.customer.visits).toBe(1);
    expect((await client.call(`/api/v2/reservations/${later}`)).json.data[0].customer).toMatchObject({
      id: early.customerId,
      visits: 1,
    });
    expect((await ids(`customer_id=${grace.customerId}`))[0]!.customer.visits).toBe(0);
  });
});

describe("the guest's own record on a reservation", () => {
  it("carries the guest's standing allergies, tags and the staff's notes, where a list shows them", async () => {
    const put = await client.call(`/api/v2/customers/${grace.customerId}`, {
      method: "PUT",
      body: { allergies: "Peanuts (severe)", tags: ["VIP"], notes: "likes the window" },
    });
    expect(put.status, put.text).toBe(200);
    expect((await ids(`customer_id=${grace.customerId}`))[0]!.customer).toMatchObject({
      allergies: "Peanuts (severe)",
      tags: ["VIP"],
      notes: "likes the window",
    });
    expect((await client.call(`/api/v2/reservations/${early.id}`)).json.data[0].customer).toMatchObject({
      allergies: null,
      tags: [],
      notes: null,
    });
  });
});

describe("a phone number searched in any format", () => {
  it("finds the guest by digits whatever the punctuation and country code, on reservations and customers", async () => {
    const made = await at(
      25,
      { first_name: "Phone", last_name: "Format", phone: "(415) 555-0120" },
      "20:30:00",
    );
    expect(made.status, made.text).toBe(201);
    const id = made.json.data[0].id;
    const range = `start_date=${dateInDays(0)}&end_date=${dateInDays(40)}`;
    for (const typed of ["4155550120", "+14155550120", "+1 415 555 0120", "001-415-555-0120", "555-0120"]) {
      const found = await ids(`${range}&text_search=${encodeURIComponent(typed)}`);
      expect(
        found.map((r) => r.id),
        typed,
      ).toEqual([id]);
      const customers = await client.call(`/api/v2/customers?search=${encodeURIComponent(typed)}`);
      expect(
        customers.json.data.map((c: { phone: string }) => c.phone),
        typed,
      ).toEqual(["(415) 555-0120"]);
    }
    expect(await ids(`${range}&text_search=4155550121`)).toEqual([]);
  });
});
