/**
 * GET /reservations?text_search=: the customer's name, email or phone contains the text, up to the
 * documented 100 characters whatever their bytes (D1 refuses LIKE patterns over 50 bytes),
 * with `%` and `_` taken literally.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { book, dateInDays, expectInvalid, newClient, seedCatalog, type TestClient } from "./helpers";

let client: TestClient;
const ids: Record<string, number> = {};

// 100 characters of name: "first last" with a space in the middle.
const LONG_FIRST = "Maximiliana Alexandrina Bartholomea";
const LONG_LAST = "Featherstonehaugh-Cholmondeley-Marjoribanks-Wolfeschlegelsteinhausen";
const ACCENTED_FIRST = "Éléonore Hélène Bénédicte";
const ACCENTED_LAST = "Séverine-Thérèse Françoise Gœthe";

async function customerBooking(key: string, day: number, customer: Record<string, string>) {
  const res = await book(client, { start_date: dateInDays(day), service_id: serviceId, customer });
  expect(res.status, res.text).toBe(201);
  ids[key] = res.json.data[0].id;
}

let serviceId: number;

beforeAll(async () => {
  client = await newClient();
  serviceId = (await seedCatalog(client)).service.id;
  await customerBooking("long", 5, {
    first_name: LONG_FIRST,
    last_name: LONG_LAST,
    email: "long@example.com",
  });
  await customerBooking("accented", 6, {
    first_name: ACCENTED_FIRST,
    last_name: ACCENTED_LAST,
    email: "eleonore@example.com",
  });
  await customerBooking("percent", 7, {
    first_name: "Cento",
    last_name: "100%",
    email: "percent@example.com",
  });
  await customerBooking("underscore", 8, {
    first_name: "Ana_Maria",
    last_name: "Rossi",
    email: "ana@example.com",
    phone: "+39 055 123456",
  });
  await customerBooking("plain", 9, {
    first_name: "Bruno",
    last_name: "Bianchi",
    email: "bruno@example.com",
  });
});

async function search(text: string): Promise<number[]> {
  const res = await client.call(`/api/v2/reservations?text_search=${encodeURIComponent(text)}&limit=200`);
  expect(res.status, `${text.length} characters: ${res.text}`).toBe(200);
  return res.json.data.map((r: { id: number }) => r.id);
}

describe("GET /reservations?text_search=", () => {
  it("matches up to the documented 100 characters (49, 50, 51 and 100 of them)", async () => {
    const full = `${LONG_FIRST} ${LONG_LAST}`.toLowerCase();
    expect(full.length).toBeGreaterThan(100);
    for (const n of [49, 50, 51, 100]) expect(await search(full.slice(0, n))).toEqual([ids.long]);
    expect(await search(full.slice(-100))).toEqual([ids.long]);
    // 100 characters that no name contains: an empty page, not a 500.
    expect(await search(`${full.slice(0, 99)}!`)).toEqual([]);
  });

  it("counts characters, not bytes: accented text over 50 bytes matches, in either case", async () => {
    const text = `${ACCENTED_FIRST} ${ACCENTED_LAST}`;
    expect(new TextEncoder().encode(text).length).toBeGreaterThan(50);
    expect(text.length).toBeLessThanOrEqual(100);
    expect(await search(text)).toEqual([ids.accented]);
    expect(await search(text.toLowerCase())).toEqual([ids.accented]);
    expect(await search(text.toUpperCase())).toEqual([ids.accented]);
    expect(await search("hélène bénédicte")).toEqual([ids.accented]);
    expect(await search("éléonore")).toEqual([ids.accented]);
    expect(await search("SÉVERINE-THÉRÈSE")).toEqual([ids.accented]);
    expect(await search("é".repeat(60))).toEqual([]);
  });

  it("takes % and _ literally", async () => {
    expect(await search("%")).toEqual([ids.percent]);
    expect(await search("100%")).toEqual([ids.percent]);
    expect(await search("_")).toEqual([ids.underscore]);
    expect(await search("a_m")).toEqual([ids.underscore]);
    expect(await search("%%%")).toEqual([]);
  });

  it("matches the customer's email, ASCII letters in any case", async () => {
    expect(await search("bruno@example")).toEqual([ids.plain]);
    expect(await search("ELEONORE@")).toEqual([ids.accented]);
    expect(await search("@example.com")).toEqual([
      ids.long,
      ids.accented,
      ids.percent,
      ids.underscore,
      ids.plain,
    ]);
    expect(await search("nobody@example.com")).toEqual([]);
  });

  it("still matches names case-insensitively and phones", async () => {
    expect(await search("BRUNO bianchi")).toEqual([ids.plain]);
    expect(await search("055 123")).toEqual([ids.underscore]);
  });

  it("refuses more than 100 characters with 400 naming text_search", async () => {
    const res = await client.call(`/api/v2/reservations?text_search=${"a".repeat(101)}`);
    expectInvalid(res, "text_search");
  });
});
