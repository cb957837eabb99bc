/**
 * Messages to guests and restaurants (CONTRACT 13): what each change sends, in the guest's
 * language, with both parts, links on PUBLIC_ORIGIN and a calendar entry that calendars read.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { setClock } from "../../worker/lib/clock";
import { attemptMessage } from "../../worker/messages/delivery";
import { createReservation } from "../../worker/reservations/booking";
import { getPropertyRows } from "../../worker/properties/properties.repo";
import { shardDb } from "../../worker/shards/shards";
import { call, dateInDays, freshIp, newClient, ORIGIN, type TestClient, unique } from "./helpers";
import { calendarOf, captureMail, linksIn, mailsTo, messagesOf, parseCalendar } from "./messages.helpers";
import { publicKeyOf } from "./public.fixtures";
import { waitFor } from "./webhooks.helpers";

let capture: ReturnType<typeof captureMail> | undefined;
afterEach(() => {
  capture?.stop();
  capture = undefined;
  setClock(undefined);
});

const SETTINGS = { timezone: "Europe/Rome", locale: "it", min_notice: 0, max_days_ahead: 365, cancel_notice: 120 };

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
  const t1 = (await client.call("/api/v2/tables", { body: { name: "T1", room_id: room.id, guests_max: 2 } })).json.data[0];
  const t2 = (await client.call("/api/v2/tables", { body: { name: "T2", room_id: room.id, guests_max: 4 } })).json.data[0];
  const service = (await client.call("/api/v2/services", { body: { name: "Cena", start_hour: "19:00", end_hour: "22:00" } })).json.data[0];
  return { client, email, room, t1, t2, service, publicKey: await publicKeyOf(client) };
}

const guestEmail = () => `${unique("guest")}@example.com`;

function staffBooking(client: TestClient, body: Record<string, unknown>) {
  return client.call("/api/v2/reservations", { body: { start_hour: "20:00:00", pax: 2, ...body } });
}

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("the guest's confirmation", () => {
  it("a staff booking emails the guest in their language: headers, text and HTML, the manage link on PUBLIC_ORIGIN, a calendar entry", async () => {
    capture = captureMail();
    const r = await restaurant();
    const to = guestEmail();
    const date = dateInDays(12);
    const res = await staffBooking(r.client, { start_date: date, service_id: r.service.id, locale: "de", customer: { first_name: "Ada", last_name: "Lovelace", email: to } });
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
    const read = await call(`/api/v2/public/${r.publicKey}/manage/${token}`, { headers: { "CF-Connecting-IP": freshIp() } });
    expect(read.status, read.text).toBe(200);
    expect(read.json.data[0]).toMatchObject({ date, hour: "20:00:00", status: "ACCEPTED" });
    // The listing names the same Message-ID.
    const [listed] = await waitFor("the message sent", async () => {
      const list = await messagesOf(r.client, res.json.data[0].id);
      return list.every((m) => m.template !== "confirmation" || m.state === "sent") && list;
    });
    expect(listed).toMatchObject({ template: "confirmation", recipient: "guest", to, locale: "de", state: "sent", attempts: 1, message_id: mail!.messageId });
    const cal = calendarOf(mail!);
    expect(cal.method).toBe("REQUEST");
    expect(cal.event.uid).toBe(`reservation-${res.json.data[0].id}@api.test`);
    expect(cal.event.sequence).toBe(0);
    expect(cal.vevent.getFirstProperty("dtstart")!.getParameter("tzid")).toBe("Europe/Rome");
    expect(cal.event.startDate.toString()).toBe(`${date}T20:00:00`);
  });
});
