/**
 * Control characters: a name or any other one-line field holding a C0 control character (tab
 * apart) is refused with 400 naming the field, on every door a guest's or a restaurant's words
 * come in by; text of several lines keeps its line breaks, and a lone CR in it is written as a
 * line break in the emails and the calendar entries.
 */
import { describe, expect, it } from "vitest";
import { calendar } from "../../worker/messages/ical";
import { render } from "../../worker/messages/render";
import type { MessageSnapshot } from "../../worker/messages/types";
import { AUTH, call, expectInvalid, freshIp, newClient, seedRestaurant, unique } from "./helpers";
import { GUEST, smallRestaurant } from "./public.fixtures";
import { merchant, newToken, partner, romeSec, USER } from "./searchengine.fixtures";

const BAD = ["Ada\r\nBcc: x@evil.test", "Ada\u0000", "Ada\rRoma", "Ada\nLovelace", "\u001bAda"];

describe("the integrator API", () => {
  it("refuses a guest's name with a line break or NUL, naming the field, and stores nothing", async () => {
    const client = await newClient();
    const { service, date } = await seedRestaurant(client);
    for (const first_name of BAD) {
      const res = await client.call("/api/v2/reservations", {
        body: {
          start_date: date,
          start_hour: "19:00:00",
          pax: 2,
          service_id: service.id,
          customer: { ...GUEST, first_name },
        },
      });
      expectInvalid(res, "customer.first_name");
    }
    const list = await client.call("/api/v2/reservations");
    expect(list.json.data).toEqual([]);
  });

  it("refuses a restaurant's name or a room's name with a control character, keeps a tab and multi-line notes", async () => {
    const client = await newClient();
    expectInvalid(
      await client.call("/api/v2/properties", { body: { name: "Osteria\rRoma" }, property: undefined }),
      "name",
    );
    expectInvalid(
      await client.call(`/api/v2/properties/${client.propertyId}`, {
        method: "PUT",
        body: { name: "Osteria\u0000" },
        property: undefined,
      }),
      "name",
    );
    expectInvalid(
      await client.call(`/api/v2/properties/${client.propertyId}`, {
        method: "PUT",
        body: { position: { city: "Ro\nma" } },
        property: undefined,
      }),
      "position.city",
    );
    expectInvalid(await client.call("/api/v2/rooms", { body: { name: "Sala\n2" } }), "name");
    expect((await client.call("/api/v2/rooms", { body: { name: "Sala\t2" } })).status).toBe(201);
    const { service, date } = await seedRestaurant(client);
    const ok = await client.call("/api/v2/reservations", {
      body: {
        start_date: date,
        start_hour: "19:00:00",
        pax: 2,
        service_id: service.id,
        notes: "window\r\nquiet corner",
        customer: GUEST,
      },
    });
    expect(ok.status, ok.text).toBe(201);
    expectInvalid(
      await client.call("/api/v2/reservations", {
        body: {
          start_date: date,
          start_hour: "19:00:00",
          pax: 2,
          service_id: service.id,
          notes: "bell\u0007",
          customer: GUEST,
        },
      }),
      "notes",
    );
  });
});

describe("the public widget API", () => {
  it("refuses a guest's first_name, last_name or phone with a control character, naming the field", async () => {
    const r = await smallRestaurant();
    const base = { date: r.date, hour: "19:00:00", pax: 2, service_id: r.service.id };
    for (const first_name of BAD)
      expectInvalid(await r.guest.book({ ...base, guest: { ...GUEST, first_name } }), "guest.first_name");
    expectInvalid(
      await r.guest.book({ ...base, guest: { ...GUEST, last_name: "Love\u0000lace" } }),
      "guest.last_name",
    );
    expectInvalid(await r.guest.book({ ...base, guest: { ...GUEST, phone: "+39 055\r\n1" } }), "guest.phone");
    expectInvalid(await r.guest.book({ ...base, guest: GUEST, allergies: "nuts\u0000" }), "allergies");
  });
});

describe("client creation", () => {
  it("refuses a name, a phone or a sandbox property's name with a control character", async () => {
    const create = (body: Record<string, unknown>) =>
      call(`${AUTH}/client`, { body, headers: { "CF-Connecting-IP": freshIp() } });
    const flat = {
      name: "Acme",
      email: "acme@example.com",
      username: unique("acme").toLowerCase().replace(/_/g, "-"),
      password: "password-123",
      redirect_uri: "https://acme.example/cb",
    };
    expectInvalid(await create({ ...flat, name: "Acme\r\nX-Evil: 1" }), "name");
    expectInvalid(await create({ ...flat, phone: "+39\u00001" }), "phone");
    const { redirect_uri, ...property } = flat;
    expectInvalid(
      await create({ redirect_uri, sandbox_property: { ...property, name: "Acme\u0000" } }),
      "sandbox_property.name",
    );
  });
});

describe("the search engine's CreateBooking", () => {
  it("refuses user_information with a line break or NUL, naming the field", async () => {
    const m = await merchant();
    const slot = {
      merchant_id: m.merchantId,
      service_id: m.serviceId,
      start_sec: String(romeSec(m.date, "19:00:00")),
      duration_sec: "1800",
      resources: { party_size: 2 },
    };
    for (const [field, value] of [
      ["given_name", "John\r\nBcc: x@evil.test"],
      ["family_name", "Smith\u0000"],
      ["telephone", "+1209\n1111111"],
    ] as const) {
      const res = await partner("/v3/CreateBooking", {
        slot,
        user_information: { ...USER, [field]: value },
        idempotency_token: newToken(),
      });
      expect(res.status, res.text).toBe(400);
      expect(JSON.stringify(res.json)).toContain(`user_information.${field}`);
    }
  });
});

describe("emails and calendar entries of text stored before the rule", () => {
  const snapshot: MessageSnapshot = {
    date: "2027-05-10",
    hour: "20:00:00",
    end: "2027-05-10T21:00:00",
    pax: 2,
    status: "ACCEPTED",
    channel: "PLATFORM_BOOK",
    service_id: 1,
    guest: { first_name: "Ada\u0000", last_name: "Lovelace", email: "ada@example.com", phone: null },
    notes: "window\rquiet",
    ics: "REQUEST",
    before: undefined,
    offer: undefined,
  } as MessageSnapshot;
  const restaurant = {
    name: "Osteria\rRoma",
    email: "o@example.com",
    phone: null,
    website: null,
    address: "Via Roma 1\r00100 Roma",
    city: "Roma",
    timezone: "Europe/Rome",
    cancelNotice: 0,
    map: null,
    accent: null,
    logo: null,
    offerMinutes: 30,
  };
  const input = (recipient: "guest" | "restaurant") => ({
    template: (recipient === "guest" ? "confirmation" : "restaurant_booking") as never,
    recipient,
    locale: "en" as const,
    snapshot,
    sequence: 0,
    writtenAt: Date.UTC(2027, 4, 1),
    reservationId: 7,
    restaurant,
    service: "Dinner",
    links: { manage: "https://book.example/m", calendar: "https://book.example/c.ics", offer: undefined },
    domain: "book.example",
    organizer: "bookings@book.example",
  });

  it("writes a lone CR in the calendar as an escaped line break and drops a NUL from a parameter", () => {
    const ics = render(input("guest")).calendar!.content;
    const lines = ics.split("\r\n");
    // Every CR of the entry ends a content line: none is left inside one.
    expect(lines.every((line) => !line.includes("\r") && !line.includes("\n"))).toBe(true);
    expect(ics).toContain("SUMMARY:Osteria\\nRoma");
    expect(ics).toContain("LOCATION:Via Roma 1\\n00100 Roma");
    expect(ics).not.toContain("\u0000");
    expect(ics).toMatch(/ATTENDEE;CN="Ada Lovelace"/);
  });

  it("writes a lone CR in the restaurant's email as a line break, and text without one as before", () => {
    const text = render(input("restaurant")).text;
    expect(text).not.toContain("\r");
    expect(text).toContain("window\nquiet");
    const plain = calendar({
      uid: "u@x",
      sequence: 0,
      method: "REQUEST",
      stamp: 0,
      timeZone: "UTC",
      start: { date: "2027-01-01", hour: "20:00:00" },
      end: { date: "2027-01-01", hour: "21:00:00" },
      summary: "A, B; C\\D\nE",
      description: "",
      organizer: { name: "O", email: "o@x" },
    });
    expect(plain).toContain("SUMMARY:A\\, B\\; C\\\\D\\nE");
  });
});
