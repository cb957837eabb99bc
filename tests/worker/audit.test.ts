/**
 * Who did what: each change names its actor {kind, id, name} on the reservation's history (`by`),
 * in webhook payloads (`actor`) and in the audit log (GET /properties/{id}/audit, by time and by
 * actor, newest first, paged; rows older than 13 months dropped by the cron).
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { shardWork } from "../../worker/cron";
import { now, setClock } from "../../worker/lib/clock";
import { addMember, staffedRestaurant } from "./staff.helpers";
import { receiverHook, subscribe, verified, waitFor } from "./webhooks.helpers";

afterEach(() => setClock(undefined));

/** The shard the directory placed a property on. */
const directoryShard = async (propertyId: number) =>
  (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
    .bind(propertyId)
    .first<{ shard: number }>())!.shard;

const tomorrow = () => new Date(now() + 86_400_000).toISOString().slice(0, 10);

async function setUp(name: string) {
  const r = await staffedRestaurant(name);
  const host = await addMember(r, "host", "Bea Host");
  const manager = await addMember(r, "manager", "Carla Manager");
  const book = (browser = host.browser) =>
    browser.fetch("/console/api/v2/reservations", {
      body: {
        start_date: tomorrow(),
        start_hour: "20:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Ada", last_name: "Rossi", email: `ada.${Math.random()}@example.com` },
      },
    });
  const audit = (query = "", browser = manager.browser) =>
    browser.fetch(`/console/api/v2/properties/${r.propertyId}/audit${query}`);
  return { r, host, manager, book, audit };
}

describe("a reservation's history and the audit log", () => {
  it("name the member of staff who made each change, and the app that made others", async () => {
    const { r, host, manager, book, audit } = await setUp("Audit Who");
    const made = await book();
    expect(made.status, made.text).toBe(201);
    const id = made.json.data[0].id;
    const cancelled = await manager.browser.fetch(`/console/api/v2/reservations/${id}`, { method: "DELETE" });
    expect(cancelled.status, cancelled.text).toBe(200);
    const history = await host.browser.fetch(`/console/api/v2/reservations/${id}/history`);
    expect(history.json.data.map((h: any) => [h.action, h.actor, h.by])).toEqual([
      ["created", `staff:${host.id}`, { kind: "staff", id: host.id, name: "Bea Host" }],
      [expect.any(String), `staff:${manager.id}`, { kind: "staff", id: manager.id, name: "Carla Manager" }],
    ]);
    const byApp = await r.owner.call(`/api/v2/reservations/${id}/history`, { property: r.propertyId });
    expect(byApp.json.data[1].by.name).toBe("Carla Manager");
    const entries = (await audit()).json.data;
    expect(entries.slice(0, 2).map((e: any) => [e.action, e.actor.name, e.subject, e.fields])).toEqual([
      [expect.any(String), "Carla Manager", { type: "reservation", id }, ["status"]],
      ["created", "Bea Host", { type: "reservation", id }, ["status"]],
    ]);
  });

  it("records guest, catalog, settings and staff changes, and filters by actor, kind and time", async () => {
    const { r, host, manager, book, audit } = await setUp("Audit Filters");
    const guest = (await book()).json.data[0].customer.id;
    const noted = await host.browser.fetch(`/console/api/v2/customers/${guest}`, {
      method: "PUT",
      body: { notes: "prefers the window" },
    });
    expect(noted.status, noted.text).toBe(200);
    const byHost = (await audit(`?actor=staff:${host.id}`)).json.data;
    expect(byHost[0]).toMatchObject({
      action: "updated",
      subject: { type: "customer", id: guest },
      fields: ["notes"],
      actor: { kind: "staff", id: host.id, name: "Bea Host" },
    });
    const renamed = await manager.browser.fetch(`/console/api/v2/services/${r.service.id}`, {
      method: "PUT",
      body: { name: "Late dinner" },
    });
    expect(renamed.status, renamed.text).toBe(200);
    const viaApi = await r.owner.call(`/api/v2/properties/${r.propertyId}`, {
      method: "PUT",
      property: r.propertyId,
      body: { phone: "+39 06 5550101" },
    });
    expect(viaApi.status).toBe(200);
    const mine = (await audit(`?actor=staff:${manager.id}`)).json.data;
    expect(mine.map((e: any) => [e.action, e.subject.type, e.fields])).toEqual([
      ["updated", "service", ["name"]],
    ]);
    const apps = (await audit("?actor=app")).json.data;
    expect(apps[0]).toMatchObject({
      action: "updated",
      subject: { type: "property", id: r.propertyId },
      fields: ["phone"],
      actor: { kind: "app", name: "Restaurant's own POS" },
    });
    const staffKinds = new Set((await audit("?actor=staff")).json.data.map((e: any) => e.actor.kind));
    expect([...staffKinds]).toEqual(["staff"]);
    const invites = (await audit("?actor=app")).json.data.filter((e: any) => e.action === "invited");
    expect(invites).toHaveLength(2);
    const future = new Date(now() + 3_600_000).toISOString();
    expect((await audit(`?from=${future}`)).json.data).toEqual([]);
    expect((await audit("?actor=nobody")).status).toBe(400);
  });

  it("pages newest first with a cursor", async () => {
    const { book, audit } = await setUp("Audit Pages");
    for (let i = 0; i < 3; i++) await book();
    const first = await audit("?limit=2");
    expect(first.json.data).toHaveLength(2);
    expect(first.json.next_cursor).toEqual(expect.any(String));
    const second = await audit(`?limit=2&next_cursor=${first.json.next_cursor}`);
    const ids = [...first.json.data, ...second.json.data].map((e: any) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const times = [...first.json.data, ...second.json.data].map((e: any) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("is kept 13 months: the cron drops older rows", async () => {
    const { r, book, audit } = await setUp("Audit Retention");
    await book();
    const before = (await audit()).json.data.length;
    expect(before).toBeGreaterThan(0);
    setClock(new Date(now() + 396 * 86_400_000).toISOString());
    await shardWork(env, await directoryShard(r.propertyId), now() + 10_000);
    setClock(undefined);
    expect((await audit()).json.data).toEqual([]);
  });
});

describe("webhook payloads", () => {
  it("name who made the change", async () => {
    const { r, host, manager, book } = await setUp("Audit Webhooks");
    const hook = await receiverHook();
    const sub = await subscribe(r.owner, hook.url, "RESERVATION_UPDATED", r.propertyId);
    const id = (await book()).json.data[0].id;
    await manager.browser.fetch(`/console/api/v2/reservations/${id}`, {
      method: "PUT",
      body: { notes: "window" },
    });
    const [message] = await waitFor("the update's delivery", async () => {
      const got = await hook.received();
      return got.length ? got : undefined;
    });
    const payload = verified(sub.secret, message!);
    expect(payload.actor).toEqual({ kind: "staff", id: manager.id, name: "Carla Manager" });
    expect(host.id).not.toBe(manager.id);
  });
});
