/**
 * Messages to guests and restaurants: what each change sends, in the guest's
 * language, with both parts, links on PUBLIC_ORIGIN and a calendar entry that calendars read.
 */

import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { setClock } from "../../worker/lib/clock";
import { attemptHeldMessages, attemptMessage, attemptMessages } from "../../worker/messages/delivery";
import { interceptMail } from "../../worker/messages/transport";
import { getPropertyRows } from "../../worker/properties/properties.repo";
import { act, createReservation } from "../../worker/reservations/booking";
import { shardD1, shardDb } from "../../worker/shards/shards";
import { call, dateInDays, freshIp, newClient, ORIGIN, type TestClient, unique } from "./helpers";
import { calendarOf, captureMail, linksIn, mailsTo, messagesOf, parseCalendar } from "./messages.helpers";
import { publicKeyOf } from "./public.fixtures";
import { makeProduction } from "./searchengine.fixtures";
import { waitFor } from "./webhooks.helpers";

let capture: ReturnType<typeof captureMail> | undefined;
afterEach(() => {
  capture?.stop();
  capture = undefined;
  setClock(undefined);
});

const SETTINGS = {
  timezone: "Europe/Rome",
  locale: "it",
  min_notice: 0,
  max_days_ahead: 365,
  cancel_notice: 120,
};

/** A restaurant in Rome with an email address, one room, two tables and dinner every day. */
async function restaurant(settings: Record<string, unknown> = {}) {
  const client = await newClient("Trattoria Posta");
  const email = `${unique("owner")}@trattoria.example`;
  const put = await client.call(`/api/v2/properties/${client.propertyId}`, {
    method: "PUT",
    property: undefined,
    body: { email, phone: "+39 06 1234567", settings: { ...SETTINGS, ...settings } },
  });
  expect(put.status, put.text).toBe(200);
  const room = (await client.call("/api/v2/rooms", { body: { name: "Sala" } })).json.data[0];
  const t1 = (await client.call("/api/v2/tables", { body: { name: "T1", room_id: room.id, guests_max: 2 } }))
    .json.data[0];
  const t2 = (await client.call("/api/v2/tables", { body: { name: "T2", room_id: room.id, guests_max: 4 } }))
    .json.data[0];
  const service = (
    await client.call("/api/v2/services", { body: { name: "Cena", start_hour: "19:00", end_hour: "22:00" } })
  ).json.data[0];
  return { client, email, room, t1, t2, service, publicKey: await publicKeyOf(client) };
}

const guestEmail = () => `${unique("guest")}@example.com`;

function staffBooking(client: TestClient, body: Record<string, unknown>) {
  return client.call("/api/v2/reservations", { body: { start_hour: "20:00:00", pax: 2, ...body } });
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

describe("the guest's confirmation", () => {
  it("a staff booking emails the guest in their language: headers, text and HTML, the manage link on PUBLIC_ORIGIN, a calendar entry", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const date = dateInDays(12);
    const res = await staffBooking(r.client, {
      start_date: date,
      service_id: r.service.id,
      locale: "de",
      customer: { first_name: "Ada", last_name: "Lovelace", email: to },
    });
    expect(res.status, res.text).toBe(201);
    const [mail] = await mailsTo(capture, to, 1);
    expect(mail!.from).toMatchObject({ name: "Trattoria Posta", address: "bookings@booking-engine.example" });
    expect(mail!.to).toEqual([{ name: "Ada Lovelace", address: to }]);
    expect(mail!.replyTo).toEqual([{ name: "Trattoria Posta", address: r.email }]);
    expect(mail!.subject).toMatch(/^Ihr Tisch im Trattoria Posta: /);
    expect(mail!.headers.find((h) => h.key === "content-language")?.value).toBe("de");
    expect(mail!.headers.find((h) => h.key === "auto-submitted")?.value).toBe("auto-generated");
    expect(mail!.text).toContain("Guten Tag Ada,");
    expect(mail!.html).toContain("<p>Guten Tag Ada,</p>");
    const manage = linksIn(mail!.text, `${ORIGIN}/p/${r.publicKey}/manage/`);
    expect(manage).toHaveLength(1);
    expect(manage[0]).toMatch(/\/manage\/[\w-]{43}\?locale=de$/);
    expect(linksIn(mail!.html, `${ORIGIN}/p/${r.publicKey}/manage/`)).toEqual(manage);
    // The link opens the guest's reservation.
    const token = manage[0]!.split("/manage/")[1]!.split("?")[0]!;
    const read = await call(`/api/v2/public/${r.publicKey}/manage/${token}`, {
      headers: { "CF-Connecting-IP": freshIp() },
    });
    expect(read.status, read.text).toBe(200);
    expect(read.json.data[0]).toMatchObject({ date, hour: "20:00:00", status: "ACCEPTED" });
    // The listing names the same Message-ID.
    const [listed] = await waitFor("the message sent", async () => {
      const list = await messagesOf(r.client, res.json.data[0].id);
      return list.every((m) => m.template !== "confirmation" || m.state === "sent") && list;
    });
    expect(listed).toMatchObject({
      template: "confirmation",
      recipient: "guest",
      to,
      locale: "de",
      state: "sent",
      attempts: 1,
      message_id: mail!.messageId,
    });
    const cal = calendarOf(mail!);
    expect(cal.method).toBe("REQUEST");
    expect(cal.event.uid).toBe(`reservation-${res.json.data[0].id}@api.test`);
    expect(cal.event.sequence).toBe(0);
    expect(cal.vevent.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Europe/Rome");
    expect(cal.event.startDate.toString()).toBe(`${date}T20:00:00`);
  });
});

describe("changes and cancellations", () => {
  it("a change and a cancellation: one UID, SEQUENCE rising, METHOD REQUEST then CANCEL; the reminder follows the change and goes with the cancellation", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const created = await staffBooking(r.client, {
      start_date: dateInDays(15),
      service_id: r.service.id,
      locale: "en",
      customer: { first_name: "Ada", email: to },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.json.data[0].id;
    await mailsTo(capture, to, 1);
    const moved = await r.client.call(`/api/v2/reservations/${id}`, {
      method: "PUT",
      body: { start_day: dateInDays(16), start_hour: "21:00:00" },
    });
    expect(moved.status, moved.text).toBe(200);
    await mailsTo(capture, to, 2);
    expect((await r.client.call(`/api/v2/reservations/${id}`, { method: "DELETE" })).status).toBe(200);
    const [confirmation, change, cancellation] = await mailsTo(capture, to, 3);
    expect(change!.subject).toMatch(/^Your reservation at Trattoria Posta has changed: /);
    expect(change!.text).toContain("Before: ");
    expect(cancellation!.subject).toBe("Your reservation at Trattoria Posta is cancelled");
    const [a, b, c] = [calendarOf(confirmation!), calendarOf(change!), calendarOf(cancellation!)];
    expect(new Set([a.event.uid, b.event.uid, c.event.uid]).size).toBe(1);
    expect([a.event.sequence, b.event.sequence, c.event.sequence]).toEqual([0, 1, 2]);
    expect([a.method, b.method, c.method]).toEqual(["REQUEST", "REQUEST", "CANCEL"]);
    expect(c.vevent.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(b.event.startDate.toString()).toBe(`${dateInDays(16)}T21:00:00`);
    // Three sent; two reminders were planned (booking, move): the first went with the move, the second with the cancellation.
    const list = await messagesOf(r.client, id);
    expect(list.map((m) => [m.template, m.state])).toEqual([
      ["confirmation", "sent"],
      ["reminder", "cancelled"],
      ["change", "sent"],
      ["reminder", "cancelled"],
      ["cancellation", "sent"],
    ]);
  });

  it("the reminder is due reminder_hours before the start; none for a booking inside that window; sent when due", async () => {
    capture = captureMail();
    setClock("2027-01-10T12:00:00Z");
    const r = await restaurant({ reminder_hours: 24 });
    const to = guestEmail();
    const later = await staffBooking(r.client, {
      start_date: "2027-01-20",
      service_id: r.service.id,
      customer: { first_name: "Ada", email: to },
    });
    // 19:00 in Rome is 18:00 UTC: six hours ahead.
    const soon = await staffBooking(r.client, {
      start_date: "2027-01-10",
      start_hour: "19:00:00",
      service_id: r.service.id,
      customer: { first_name: "Bea", email: guestEmail() },
    });
    expect([later.status, soon.status]).toEqual([201, 201]);
    const reminder = (await messagesOf(r.client, later.json.data[0].id)).find(
      (m) => m.template === "reminder",
    );
    // 20:00 in Rome (UTC+1 in January) less 24 hours.
    expect(reminder).toMatchObject({ state: "pending", due_at: "2027-01-19T19:00:00.000Z", locale: "it" });
    expect((await messagesOf(r.client, soon.json.data[0].id)).map((m) => m.template)).toEqual([
      "confirmation",
    ]);
    await mailsTo(capture, to, 1);
    setClock("2027-01-19T19:00:30Z");
    await runCron();
    const [, sent] = await mailsTo(capture, to, 2);
    expect(sent!.subject).toMatch(/^Promemoria: il tuo tavolo da Trattoria Posta/);
    expect(sent!.attachments).toHaveLength(0);
  });
});

describe("who is emailed", () => {
  it("not the guest of a staff booking with notify false, nor any when email_staff_bookings is off, nor a search-engine booking's", async () => {
    capture = captureMail();
    const r = await restaurant();
    const quiet = await staffBooking(r.client, {
      start_date: dateInDays(12),
      service_id: r.service.id,
      notify: false,
      customer: { first_name: "Q", email: guestEmail() },
    });
    expect(quiet.status, quiet.text).toBe(201);
    expect(await messagesOf(r.client, quiet.json.data[0].id)).toEqual([]);
    await makeProduction(r.client);
    expect(
      (await r.client.call("/api/v2/reservations/searchengine", { body: { enable_searchengine: true } }))
        .status,
    ).toBe(201);
    const google = await staffBooking(r.client, {
      start_date: dateInDays(12),
      start_hour: "21:00:00",
      service_id: r.service.id,
      channel: "SEARCHENGINE",
      customer: { first_name: "G", email: guestEmail() },
    });
    expect(google.status, google.text).toBe(201);
    // The restaurant hears of the online booking; the guest hears from the search engine, not from us.
    expect((await messagesOf(r.client, google.json.data[0].id)).map((m) => [m.template, m.to])).toEqual([
      ["restaurant_booking", r.email],
    ]);
    // A PUT may turn a quiet reservation's emails on: the next change is told.
    const on = await r.client.call(`/api/v2/reservations/${quiet.json.data[0].id}`, {
      method: "PUT",
      body: { notify: true, pax: 1 },
    });
    expect(on.status, on.text).toBe(200);
    expect((await messagesOf(r.client, quiet.json.data[0].id)).map((m) => m.template)).toEqual([
      "change",
      "reminder",
    ]);
    await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { settings: { email_staff_bookings: false } },
    });
    const off = await staffBooking(r.client, {
      start_date: dateInDays(13),
      service_id: r.service.id,
      customer: { first_name: "O", email: guestEmail() },
    });
    expect(off.status, off.text).toBe(201);
    expect(await messagesOf(r.client, off.json.data[0].id)).toEqual([]);
  });

  it("the restaurant, in its language, for an online booking and the guest's change and cancellation; the guest in theirs, times in the restaurant's city, the manage link on PUBLIC_ORIGIN whatever the Host", async () => {
    capture = captureMail();
    const r = await restaurant();
    // a restaurant in Milan keeps Rome's clock: its emails name its own city
    const moved = await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { position: { address: "Via Solferino 12", zip: "20121", city: "Milano" } },
    });
    expect(moved.status, moved.text).toBe(200);
    const to = guestEmail();
    const ip = freshIp();
    const booked = await (exports as unknown as { default: Fetcher }).default.fetch(
      new Request(`https://elsewhere.example/api/v2/public/${r.publicKey}/reservations`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip, Host: "elsewhere.example" },
        body: JSON.stringify({
          date: dateInDays(14),
          hour: "19:30",
          pax: 2,
          guest: { first_name: "Jean", last_name: "Valjean", email: to },
          locale: "fr",
          occasion: "anniversary",
          allergies: "noix",
          special_request: "près de la fenêtre",
        }),
      }),
    );
    expect(booked.status).toBe(201);
    const token = ((await booked.json()) as any).data[0].manage_token;
    const [mail] = await mailsTo(capture, to, 1);
    expect(mail!.subject).toMatch(/^Votre table chez Trattoria Posta : /);
    expect(mail!.text).toContain("(heure de Milano)");
    expect(mail!.text).not.toMatch(/\(heure de Rome\)|\(Rome\)/);
    expect(linksIn(mail!.text, ORIGIN)).toEqual([
      `${ORIGIN}/p/${r.publicKey}/manage/${token}?locale=fr`,
      `${ORIGIN}/api/v2/public/${r.publicKey}/manage/${token}/calendar.ics`,
    ]);
    const [notice] = await mailsTo(capture, r.email, 1);
    expect(notice!.subject).toMatch(/^Nuova prenotazione online: Jean Valjean, 2 persone, /);
    // What the guest told, the table given and the status in words; no run of blank lines.
    for (const line of [
      "Occasione: Anniversario",
      "Allergie: noix",
      "Richiesta speciale: près de la fenêtre",
      "Tavolo: T1",
      "Stato: Prenotato",
    ])
      expect(notice!.text).toContain(line);
    expect(notice!.text).not.toContain("ACCEPTED");
    expect(notice!.text).not.toMatch(/\n\s*\n\s*\n/);
    expect(notice!.replyTo).toEqual([{ name: "Jean Valjean", address: to }]);
    expect(notice!.attachments).toHaveLength(0);
    // the guest grows the party (and so moves to T2): the restaurant hears of it, with what it was
    const grown = await call(`/api/v2/public/${r.publicKey}/manage/${token}`, {
      method: "PATCH",
      headers: { "CF-Connecting-IP": ip },
      body: { pax: 3 },
    });
    expect(grown.status).toBe(200);
    const [, changed] = await mailsTo(capture, r.email, 2);
    expect(changed!.subject).toMatch(/^Prenotazione online modificata: Jean Valjean, 3 persone, /);
    expect(changed!.text).toMatch(/^Prima: .*, 2 persone\.$/m);
    expect(changed!.text).toContain("Tavolo: T2");
    expect(
      (
        await call(`/api/v2/public/${r.publicKey}/manage/${token}`, {
          method: "DELETE",
          headers: { "CF-Connecting-IP": ip },
        })
      ).status,
    ).toBe(200);
    const [, , cancelled] = await mailsTo(capture, r.email, 3);
    expect(cancelled!.subject).toMatch(/^Prenotazione online cancellata: Jean Valjean/);
    const [, , guestCancel] = await mailsTo(capture, to, 3);
    expect(calendarOf(guestCancel!).method).toBe("CANCEL");
  });
});

describe("a guest's erasure", () => {
  it("leaves no address, guest or MIME in their emails, and what was still to be sent is not sent", async () => {
    capture = captureMail();
    const r = await restaurant({ reminder_hours: 24 });
    const to = guestEmail();
    const booked = await staffBooking(r.client, {
      start_date: dateInDays(12),
      service_id: r.service.id,
      customer: { first_name: "Erin", last_name: "Erased", email: to },
    });
    expect(booked.status, booked.text).toBe(201);
    const { id, customer } = booked.json.data[0];
    await mailsTo(capture, to, 1);
    await waitFor("the confirmation recorded as sent", async () =>
      (await messagesOf(r.client, id)).some((m) => m.template === "confirmation" && m.state === "sent"),
    );
    const erased = await r.client.call(`/api/v2/customers/${customer.id}`, { method: "DELETE" });
    expect(erased.status, erased.text).toBe(200);
    const listed = await messagesOf(r.client, id);
    expect(listed.map((m) => [m.template, m.state, m.to])).toEqual([
      ["confirmation", "sent", ""],
      ["reminder", "cancelled", ""],
    ]);
    const rows = (
      await r.client.d1
        .prepare(
          "SELECT b.raw, m.snapshot FROM messages m LEFT JOIN message_bodies b ON b.message_id = m.id WHERE m.reservation_id = ?",
        )
        .bind(id)
        .all<{ raw: string | null; snapshot: string }>()
    ).results;
    expect(rows.map((m) => m.raw)).toEqual([null, null]);
    for (const m of rows) expect(m.snapshot).not.toMatch(/Erin|Erased|@example\.com/);
  });
});

describe("the calendar entry of the manage link", () => {
  it("serves the same entry as the emails, in the restaurant's zone across DST", async () => {
    capture = captureMail();
    setClock("2027-01-10T12:00:00Z");
    const r = await restaurant({ timezone: "Europe/Rome" });
    // Winter (UTC+1), the day summer time starts (UTC+2 from 02:00), the day it ends (UTC+1 from 03:00).
    const cases = [
      ["2027-02-01", "2027-02-01T19:00:00.000Z"],
      ["2027-03-28", "2027-03-28T18:00:00.000Z"],
      ["2027-10-31", "2027-10-31T19:00:00.000Z"],
    ] as const;
    for (const [date, utc] of cases) {
      const to = guestEmail();
      const res = await staffBooking(r.client, {
        start_date: date,
        service_id: r.service.id,
        customer: { first_name: "Ada", email: to },
      });
      expect(res.status, res.text).toBe(201);
      const [mail] = await mailsTo(capture, to, 1);
      const mailed = calendarOf(mail!);
      expect(mailed.event.startDate.toString()).toBe(`${date}T20:00:00`);
      expect(mailed.event.startDate.toJSDate().toISOString()).toBe(utc);
      const token = linksIn(mail!.text, `${ORIGIN}/p/`)[0]!.split("/manage/")[1]!.split("?")[0]!;
      const served = await call(`/api/v2/public/${r.publicKey}/manage/${token}/calendar.ics`, {
        headers: { "CF-Connecting-IP": freshIp() },
      });
      expect(served.status).toBe(200);
      expect(served.headers.get("Content-Type")).toMatch(/^text\/calendar/);
      const cal = parseCalendar(served.text);
      expect(cal.event.uid).toBe(mailed.event.uid);
      expect(cal.event.sequence).toBe(0);
      expect(cal.event.startDate.toJSDate().toISOString()).toBe(utc);
    }
  });
});

describe("delivery under faults", () => {
  it("the binding throws twice, then recovers: each message sent exactly once, with one Message-ID", async () => {
    capture = captureMail((_mail, n) => n <= 2);
    const r = await restaurant();
    const to = guestEmail();
    const res = await staffBooking(r.client, {
      start_date: dateInDays(20),
      service_id: r.service.id,
      customer: { first_name: "Ada", email: to },
    });
    expect(res.status).toBe(201);
    const listed = await waitFor("the confirmation sent", async () =>
      (await messagesOf(r.client, res.json.data[0].id)).find(
        (m) => m.template === "confirmation" && m.state === "sent",
      ),
    );
    expect(listed.attempts).toBe(3);
    const tries = capture.all.filter((m) => m.to === to);
    expect(tries.map((m) => m.delivered)).toEqual([false, false, true]);
    // Every attempt was the same message: the MIME is fixed by the first.
    expect(new Set(tries.map((m) => m.raw)).size).toBe(1);
    // Another attempt of a sent message sends nothing.
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!.shard;
    // Sent, its MIME is no longer kept (only a retry needed it); the row and its Message-ID stay.
    const row = await shardD1(env, shard)
      .prepare(
        "SELECT b.raw, m.uid, m.state FROM messages m LEFT JOIN message_bodies b ON b.message_id = m.id WHERE m.id = ?",
      )
      .bind(listed.id)
      .first<{ raw: string | null; uid: string; state: string }>();
    expect(row).toEqual({ raw: null, uid: expect.stringMatching(/^msg_/), state: "sent" });
    await attemptMessage(env, shard, listed.id);
    expect(capture.to(to)).toHaveLength(1);
  });

  it("a message sent at its first attempt never stores its MIME; one that fails keeps it for the retry", async () => {
    const r = await restaurant();
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!.shard;
    const kept = (to: string) =>
      shardD1(env, shard)
        .prepare(
          "SELECT count(*) AS n FROM message_bodies b JOIN messages m ON m.id = b.message_id WHERE m.to_address = ?",
        )
        .bind(to)
        .first<{ n: number }>()
        .then((row) => row!.n);
    const first = guestEmail();
    const second = guestEmail();
    const seen: [string, number][] = [];
    // Looks into the database while the binding has the message: what a crash at that moment would leave.
    interceptMail(async (mail, send) => {
      seen.push([mail.to, await kept(mail.to)]);
      if (mail.to === second && seen.filter(([to]) => to === second).length === 1)
        throw new Error("simulated send_email failure");
      await send(mail);
    });
    try {
      for (const to of [first, second]) {
        const res = await staffBooking(r.client, {
          start_date: dateInDays(20),
          service_id: r.service.id,
          customer: { first_name: "Ada", email: to },
        });
        expect(res.status, res.text).toBe(201);
      }
      await waitFor(
        "both confirmations sent",
        async () => seen.filter(([to]) => to === second).length === 2 && seen.some(([to]) => to === first),
      );
      // The first went at once and never wrote its MIME; the second's failed attempt kept it for its retry.
      expect(seen).toEqual(
        expect.arrayContaining([
          [first, 0],
          [second, 0],
          [second, 1],
        ]),
      );
      await waitFor("the retry closed", async () => (await kept(second)) === 0);
    } finally {
      interceptMail(undefined);
    }
  });

  it("a send that fails after the guest's data was erased keeps no MIME of it, and the message stays cancelled", async () => {
    const r = await restaurant();
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!.shard;
    const to = guestEmail();
    let customerId: (id: number) => void = () => {};
    const booked = new Promise<number>((resolve) => (customerId = resolve));
    const erased: number[] = [];
    // The guest's data is erased while the binding holds the confirmation, and the send then fails.
    interceptMail(async (mail, send) => {
      if (mail.to !== to) return send(mail);
      const id = await booked;
      const res = await r.client.call(`/api/v2/customers/${id}`, { method: "DELETE" });
      erased.push(res.status);
      throw new Error("simulated send_email failure");
    });
    try {
      const res = await staffBooking(r.client, {
        start_date: dateInDays(20),
        service_id: r.service.id,
        customer: { first_name: "Eve", email: to },
      });
      expect(res.status, res.text).toBe(201);
      customerId(res.json.data[0].customer.id);
      await waitFor("the erasure during the send", async () => erased.length === 1);
      expect(erased).toEqual([200]);
      const reservationId = res.json.data[0].id;
      // Cancelled by the erasure, it stays so: the failed attempt neither brings it back nor keeps its MIME.
      // (the close is a statement away from the failed send: a second leaves it ample time)
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const listed = await messagesOf(r.client, reservationId);
      expect(listed.find((m) => m.template === "confirmation")).toMatchObject({ state: "cancelled" });
      const kept = await shardD1(env, shard)
        .prepare(
          "SELECT count(*) AS n FROM message_bodies b JOIN messages m ON m.id = b.message_id WHERE m.reservation_id = ?",
        )
        .bind(reservationId)
        .first<{ n: number }>();
      expect(kept!.n).toBe(0);
    } finally {
      interceptMail(undefined);
    }
  });

  it("two attempts of one message at once send it once (the lease)", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const property = (await getPropertyRows(shardDb(r.client.d1), [r.client.propertyId]))[0]!;
    // Written by a Worker that stopped before sending anything.
    const row = await createReservation(
      { db: shardDb(r.client.d1), property, actor: "client:0", linkSecret: "test-link-secret-0123456789" },
      {
        start_date: dateInDays(20),
        start_hour: "20:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", email: to },
      },
      "PLATFORM_ADMIN",
    );
    const [message] = await messagesOf(r.client, row.id);
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!.shard;
    await Promise.all([
      attemptMessage(env, shard, message.id),
      attemptMessage(env, shard, message.id),
      attemptMessage(env, shard, message.id),
    ]);
    expect(capture.to(to)).toHaveLength(1);
  });

  it("a cancellation held back by its confirmation is sent by the confirmation's attempt, right after it", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const property = (await getPropertyRows(shardDb(r.client.d1), [r.client.propertyId]))[0]!;
    // Booked and cancelled by a Worker that stopped before sending anything: both messages pending.
    const ctx = {
      db: shardDb(r.client.d1),
      property,
      actor: "client:0",
      linkSecret: "test-link-secret-0123456789",
    };
    const row = await createReservation(
      ctx,
      {
        start_date: dateInDays(22),
        start_hour: "20:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", email: to },
      },
      "PLATFORM_ADMIN",
    );
    await act(ctx, row.id, { type: "cancel" });
    const sent = (await messagesOf(r.client, row.id)).filter((m) => m.template !== "reminder");
    expect(sent.map((m) => [m.template, m.state])).toEqual([
      ["confirmation", "pending"],
      ["cancellation", "pending"],
    ]);
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!.shard;
    // The cancellation's own attempt may not go first, and does not wait: it leaves itself to the confirmation's.
    await attemptMessage(env, shard, sent[1]!.id);
    expect(capture.to(to)).toHaveLength(0);
    await attemptMessage(env, shard, sent[0]!.id);
    // both taken by the binding within that one call, the confirmation first
    expect(capture.to(to)).toHaveLength(2);
    expect((await mailsTo(capture, to, 2)).map((m) => calendarOf(m).method)).toEqual(["REQUEST", "CANCEL"]);
    expect(
      (await messagesOf(r.client, row.id)).filter((m) => m.template !== "reminder").map((m) => m.state),
    ).toEqual(["sent", "sent"]);
  });

  /** Bookings written as by a Worker that stopped before sending anything: their messages all pending. */
  async function unsentBookings(r: Awaited<ReturnType<typeof restaurant>>, days: number) {
    const property = (await getPropertyRows(shardDb(r.client.d1), [r.client.propertyId]))[0]!;
    const ctx = {
      db: shardDb(r.client.d1),
      property,
      actor: "client:0",
      linkSecret: "test-link-secret-0123456789",
    };
    const book = (to: string, hour: string) =>
      createReservation(
        ctx,
        {
          start_date: dateInDays(days),
          start_hour: hour,
          pax: 2,
          service_id: r.service.id,
          customer: { first_name: "Ada", email: to },
        },
        "PLATFORM_ADMIN",
      );
    return { ctx, book };
  }

  /** The property's shard, and an env whose binding of it counts round trips (batches); the `failOn`th fails once. */
  async function countedShard(propertyId: number, failOn?: number) {
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(propertyId)
      .first<{ shard: number }>())!.shard;
    const d1 = shardD1(env, shard);
    let trips = 0;
    const batch = (s: D1PreparedStatement[]) =>
      ++trips === failOn
        ? Promise.reject(new Error("D1_ERROR: database is locked: SQLITE_BUSY"))
        : d1.batch(s);
    const counted = { prepare: (q: string) => d1.prepare(q), batch } as unknown as D1Database;
    return { shard, env: { ...env, [`SHARD_${shard}`]: counted }, trips: () => trips };
  }

  it("messages attempted together share their round trips: one for the leases, one for the closes, then the one held back", async () => {
    capture = captureMail();
    const r = await restaurant();
    const [toA, toB] = [guestEmail(), guestEmail()];
    // two confirmations and a cancellation, none sent yet
    const { ctx, book } = await unsentBookings(r, 23);
    const [a, b] = [await book(toA, "19:00:00"), await book(toB, "21:00:00")];
    await act(ctx, a.id, { type: "cancel" });
    const pending = async (id: number) =>
      (await messagesOf(r.client, id)).filter((m) => m.template !== "reminder");
    const [confirmA, cancelA] = await pending(a.id);
    const [confirmB] = await pending(b.id);
    const counted = await countedShard(r.client.propertyId);
    const failed = await attemptMessages(counted.env, counted.shard, [
      cancelA!.id,
      confirmA!.id,
      confirmB!.id,
    ]);
    expect([...failed.keys()]).toEqual([]);
    expect(counted.trips()).toBe(4);
    expect((await mailsTo(capture, toA, 2)).map((m) => calendarOf(m).method)).toEqual(["REQUEST", "CANCEL"]);
    expect(capture.to(toB)).toHaveLength(1);
    expect([...(await pending(a.id)), ...(await pending(b.id))].map((m) => m.state)).toEqual([
      "sent",
      "sent",
      "sent",
    ]);
  });

  it("a round's close lost to a passing D1 error is tried once more: its messages end sent, each sent once", async () => {
    capture = captureMail();
    const r = await restaurant();
    const [toA, toB] = [guestEmail(), guestEmail()];
    const { book } = await unsentBookings(r, 24);
    const rows = [await book(toA, "19:00:00"), await book(toB, "21:00:00")];
    const confirmations = await Promise.all(
      rows.map(
        async (row) => (await messagesOf(r.client, row.id)).find((m) => m.template === "confirmation")!,
      ),
    );
    // The second round trip (the round's close) fails once, as a busy database might make it.
    const counted = await countedShard(r.client.propertyId, 2);
    const failed = await attemptMessages(
      counted.env,
      counted.shard,
      confirmations.map((m) => m.id),
    );
    expect([...failed.keys()]).toEqual([]);
    expect(counted.trips()).toBe(3);
    expect(capture.to(toA)).toHaveLength(1);
    expect(capture.to(toB)).toHaveLength(1);
    const states = await Promise.all(
      rows.map(
        async (row) => (await messagesOf(r.client, row.id)).find((m) => m.template === "confirmation")!.state,
      ),
    );
    expect(states).toEqual(["sent", "sent"]);
  });

  it("a Worker stopped between the commit and the send: the sweeper sends it", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const property = (await getPropertyRows(shardDb(r.client.d1), [r.client.propertyId]))[0]!;
    const row = await createReservation(
      { db: shardDb(r.client.d1), property, actor: "client:0", linkSecret: "test-link-secret-0123456789" },
      {
        start_date: dateInDays(21),
        start_hour: "20:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", email: to },
      },
      "PLATFORM_ADMIN",
    );
    const [pending] = await messagesOf(r.client, row.id);
    expect(pending).toMatchObject({ template: "confirmation", state: "pending", attempts: 0 });
    const queued = await r.client.d1
      .prepare("SELECT queued_at FROM messages WHERE id = ?")
      .bind(pending.id)
      .first<{ queued_at: string | null }>();
    expect(queued!.queued_at).toBeNull();
    expect(capture.to(to)).toHaveLength(0);
    await runCron();
    const [mail] = await mailsTo(capture, to, 1);
    expect(mail!.messageId).toBe(pending.message_id);
  });

  it("a change given an outbox takes the rows its own batch writes, held for the request to attempt; one behind an untried one waits for it; without an outbox it takes none", async () => {
    const r = await restaurant();
    const to = guestEmail();
    const property = (await getPropertyRows(shardDb(r.client.d1), [r.client.propertyId]))[0]!;
    const plain = {
      db: shardDb(r.client.d1),
      property,
      actor: "client:0",
      linkSecret: "test-link-secret-0123456789",
    };
    const row = await createReservation(
      plain,
      {
        start_date: dateInDays(23),
        start_hour: "20:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", email: to },
      },
      "PLATFORM_ADMIN",
    );
    const [confirmation] = await messagesOf(r.client, row.id);
    const queuedAt = async (id: number) =>
      (await r.client.d1
        .prepare("SELECT queued_at FROM messages WHERE id = ?")
        .bind(id)
        .first<{ queued_at: string | null }>())!.queued_at;
    expect(await queuedAt(confirmation.id)).toBeNull();
    const took: unknown[][] = [];
    await act({ ...plain, outbox: { took: (answered) => took.push([...answered]) } }, row.id, {
      type: "cancel",
    });
    // one take per kind (webhook deliveries first: none here, no subscription), the property's due messages in the second
    expect(took).toHaveLength(1);
    const [deliveries, messages] = took[0] as { id: number; property_id: number }[][];
    expect(deliveries).toEqual([]);
    const cancellation = (await messagesOf(r.client, row.id)).find((m) => m.template === "cancellation")!;
    // the confirmation, never tried, is held (leased) for this request; the cancellation waits for it, untaken
    expect(messages!.map((m) => m.id)).toEqual([confirmation.id]);
    expect(messages!.every((m) => m.property_id === r.client.propertyId)).toBe(true);
    const held = async (id: number) =>
      (await r.client.d1
        .prepare("SELECT queued_at, lease_until FROM messages WHERE id = ?")
        .bind(id)
        .first<{ queued_at: string | null; lease_until: string | null }>())!;
    expect(await held(confirmation.id)).toMatchObject({
      queued_at: expect.any(String),
      lease_until: expect.any(String),
    });
    expect(await held(cancellation.id)).toEqual({ queued_at: null, lease_until: null });
  });

  it("what a write's batch took and held is sent without a round trip for its lease, once, then the message that waited for it", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const { ctx, book } = await unsentBookings(r, 25);
    const row = await book(to, "20:00:00");
    const took: unknown[][] = [];
    await act({ ...ctx, outbox: { took: (answered) => took.push([...answered]) } }, row.id, {
      type: "cancel",
    });
    const [, held] = took[0]!;
    const [confirmation, cancellation] = (await messagesOf(r.client, row.id)).filter(
      (m) => m.template !== "reminder",
    );
    // held: an attempt through the queue meanwhile finds it leased and sends nothing
    const counted = await countedShard(r.client.propertyId);
    await attemptMessages(counted.env, counted.shard, [confirmation!.id]);
    expect(capture.to(to)).toHaveLength(0);
    const failed = await attemptHeldMessages(counted.env, counted.shard, held);
    expect([...failed.keys()]).toEqual([]);
    // the queue's lease (1); then the held one's close (1), the cancellation's lease (1) and close (1)
    expect(counted.trips()).toBe(4);
    expect((await mailsTo(capture, to, 2)).map((m) => calendarOf(m).method)).toEqual(["REQUEST", "CANCEL"]);
    expect(
      (await messagesOf(r.client, row.id)).filter((m) => m.template !== "reminder").map((m) => m.state),
    ).toEqual(["sent", "sent"]);
    expect(cancellation!.template).toBe("cancellation");
  });

  it("a held message's context is the one its lease reads: the same email either way", async () => {
    capture = captureMail();
    const r = await restaurant();
    const [viaLease, viaHold] = [guestEmail(), guestEmail()];
    const { ctx, book } = await unsentBookings(r, 26);
    const leased = await book(viaLease, "19:00:00");
    const shard = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!.shard;
    await attemptMessages(env, shard, [
      (await messagesOf(r.client, leased.id)).find((m) => m.template === "confirmation")!.id,
    ]);
    const took: unknown[][] = [];
    await book(viaHold, "19:00:00");
    const other = await book(guestEmail(), "21:00:00");
    // a change of another reservation takes the property's due messages: the second booking's confirmation among them
    await act({ ...ctx, outbox: { took: (answered) => took.push([...answered]) } }, other.id, {
      type: "cancel",
    });
    await attemptHeldMessages(env, shard, took[0]![1]);
    const [a] = await mailsTo(capture, viaLease, 1);
    const [b] = await mailsTo(capture, viaHold, 1);
    // each reservation has its own manage link: the rest is the same
    const same = (m: typeof a) => {
      const token = /manage\/([^?\s/]+)/.exec(m!.text ?? "")![1]!;
      return {
        subject: m!.subject,
        text: m!.text?.replaceAll(token, "…"),
        html: m!.html?.replaceAll(token, "…"),
        from: m!.from,
        replyTo: m!.replyTo,
      };
    };
    expect(same(b)).toEqual(same(a));
  });
});
