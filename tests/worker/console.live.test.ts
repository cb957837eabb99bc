import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ConsoleBrowser, sessionCookie } from "./console.helpers";
import { dateInDays, freshIp, GUEST, ORIGIN, seedCatalog, type TestClient } from "./helpers";
import { restaurant } from "./oauth.fixtures";

const worker = () => (exports as unknown as { default: Fetcher }).default;

describe("GET /console/live", () => {
  it("greets an open console and tells it of a booking and its cancellation made through the integrator API", async () => {
    const r = await restaurant("Console Live");
    const signed = await worker().fetch(
      new Request(`${ORIGIN}/console/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
        body: JSON.stringify({ username: r.username, password: r.password }),
      }),
    );
    const cookie = sessionCookie(signed.headers);
    const res = await worker().fetch(
      new Request(`${ORIGIN}/console/live`, {
        headers: { Cookie: cookie, Upgrade: "websocket", Origin: ORIGIN },
      }),
    );
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const heard: any[] = [];
    ws.accept();
    ws.addEventListener("message", (e) => heard.push(JSON.parse(e.data as string)));
    const owner = r.owner as TestClient;
    const call = (path: string, o: Parameters<TestClient["call"]>[1] = {}) =>
      owner.call(path, { property: r.propertyId, ...o });
    const { service } = await seedCatalog({ ...owner, propertyId: r.propertyId, call } as TestClient);
    const made = await call("/api/v2/reservations", {
      body: {
        start_date: dateInDays(10),
        service_id: service.id,
        start_hour: "19:00:00",
        pax: 2,
        customer: GUEST,
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.json.data[0].id;
    for (let i = 0; i < 50 && !heard.some((m) => m.type === "reservation"); i++)
      await new Promise((ok) => setTimeout(ok, 50));
    expect(heard[0].type).toBe("hello");
    expect(heard).toContainEqual(expect.objectContaining({ type: "reservation", id }));
    // the booking was told from inside the restaurant's object; a cancellation comes from the Worker
    const cancelled = await call(`/api/v2/reservations/${id}`, { method: "DELETE" });
    expect(cancelled.status, cancelled.text).toBe(200);
    const told = () => heard.filter((m) => m.type === "reservation" && m.id === id);
    for (let i = 0; i < 50 && told().length < 2; i++) await new Promise((ok) => setTimeout(ok, 50));
    expect(told().map((m) => m.version)).toEqual([told()[0].version, told()[0].version + 1]);
    ws.close();
  });

  it("tells every open console when the walk-in waiting list changes through the console's API", async () => {
    const r = await restaurant("Console Walk-ins");
    const host = new ConsoleBrowser();
    expect((await host.signIn(r.username, r.password)).status).toBe(200);
    const live = await host.openLive();
    const heard = () => live.frames.map((f) => JSON.parse(f)).filter((m) => m.type === "walk-ins");
    const added = await host.fetch(`/console/api/v2/properties/${r.propertyId}/walk-ins`, {
      body: { pax: 2 },
    });
    expect(added.status, added.text).toBe(201);
    for (let i = 0; i < 50 && heard().length < 1; i++) await new Promise((ok) => setTimeout(ok, 50));
    const id = added.json.data[0].id;
    const left = await host.fetch(`/console/api/v2/properties/${r.propertyId}/walk-ins/${id}`, {
      method: "PATCH",
      body: { state: "left" },
    });
    expect(left.status, left.text).toBe(200);
    for (let i = 0; i < 50 && heard().length < 2; i++) await new Promise((ok) => setTimeout(ok, 50));
    // the frame names nothing: the console reads the list again
    expect(heard()).toEqual([{ type: "walk-ins" }, { type: "walk-ins" }]);
    live.ws.close();
  });

  it("refuses a page of another origin", async () => {
    const r = await restaurant("Console Live Two");
    const signed = await worker().fetch(
      new Request(`${ORIGIN}/console/session`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
        body: JSON.stringify({ username: r.username, password: r.password }),
      }),
    );
    const cookie = sessionCookie(signed.headers);
    const res = await worker().fetch(
      new Request(`${ORIGIN}/console/live`, {
        headers: { Cookie: cookie, Upgrade: "websocket", Origin: "https://evil.example" },
      }),
    );
    expect(res.status).toBe(403);
  });
});
