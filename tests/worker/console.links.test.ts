/**
 * POST /api/v2/console/links: a platform opens the console for one of its restaurants with a
 * single-use sign-in link, valid 60 seconds; following it signs the browser in to the console.
 */
import { afterEach, describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { expireSandbox } from "./auth.fixtures";
import { call, expectProblem, newClient, ORIGIN } from "./helpers";
import { page, restaurant } from "./oauth.fixtures";

afterEach(() => setClock(undefined));

/** The link's path on this Worker. */
const pathOf = (url: string) => {
  const u = new URL(url);
  expect(u.origin).toBe(ORIGIN);
  return u.pathname;
};

/** Follows the link as a browser would: the session cookie it sets, and where it sends the browser. */
async function follow(url: string) {
  const res = await page(pathOf(url));
  const cookie = (res.headers.get("Set-Cookie") ?? "").split(";")[0]!;
  return {
    status: res.status,
    location: res.headers.get("Location"),
    cookie,
    setCookie: res.headers.get("Set-Cookie"),
  };
}

describe("POST /api/v2/console/links", () => {
  it("answers 201 with a single-use sign-in link that expires in 60 seconds", async () => {
    const r = await restaurant("Links One");
    const res = await r.owner.call("/api/v2/console/links", { method: "POST", property: r.propertyId });
    expect(res.status, res.text).toBe(201);
    const [link] = res.json.data;
    expect(Object.keys(link).sort()).toEqual(["expires_at", "url"]);
    expect(pathOf(link.url)).toMatch(/^\/console\/link\/[\w-]{20,}$/);
    expect(Date.parse(link.expires_at) - now()).toBeGreaterThan(50_000);
    expect(Date.parse(link.expires_at) - now()).toBeLessThanOrEqual(60_000);
  });

  it("signs the browser in once: the session works on the console's API and the link is spent", async () => {
    const r = await restaurant("Links Two");
    const link = (await r.owner.call("/api/v2/console/links", { method: "POST", property: r.propertyId }))
      .json.data[0];
    const first = await follow(link.url);
    expect(first.status).toBe(303);
    expect(first.location).toBe("/console");
    expect(first.setCookie).toMatch(/console_session=.*HttpOnly/i);
    const session = await page("/console/session", { headers: { Cookie: first.cookie } });
    expect(session.status).toBe(200);
    expect(JSON.parse(session.text).data[0].property.id).toBe(r.propertyId);
    const rooms = await page("/console/api/v2/rooms", { headers: { Cookie: first.cookie } });
    expect(rooms.status, rooms.text).toBe(200);

    const second = await follow(link.url);
    expect(second.status).toBe(303);
    expect(second.location).toBe("/console/sign-in?link=expired");
    expect(second.setCookie).toBeNull();
  });

  it("is spent by a GET only: a HEAD (a link checker, a preview) neither spends it nor signs in", async () => {
    const r = await restaurant("Links HEAD");
    const link = (await r.owner.call("/api/v2/console/links", { method: "POST", property: r.propertyId }))
      .json.data[0];
    const head = await page(pathOf(link.url), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Set-Cookie")).toBeNull();
    expect(head.headers.get("Cache-Control")).toBe("no-store");
    const followed = await follow(link.url);
    expect(followed.location).toBe("/console");
    expect(followed.setCookie).toMatch(/console_session=/);
  });

  it("refuses a link followed after its 60 seconds, and the page it shows is the sign-in", async () => {
    const r = await restaurant("Links Three");
    const link = (await r.owner.call("/api/v2/console/links", { method: "POST", property: r.propertyId }))
      .json.data[0];
    setClock("+61000");
    const late = await follow(link.url);
    expect(late.status).toBe(303);
    expect(late.location).toBe("/console/sign-in?link=expired");
    expect(late.setCookie).toBeNull();
    const signIn = await page(late.location!);
    expect(signIn.status).toBe(200);
    expect(signIn.text).toContain("<booking-console");
  });

  it("refuses an unknown or overlong token without a 5xx", async () => {
    for (const token of ["nope", "x".repeat(5000), "%00"]) {
      const res = await follow(`${ORIGIN}/console/link/${token}`);
      expect(res.status).toBe(303);
      expect(res.location).toBe("/console/sign-in?link=expired");
    }
  });

  it("refuses a property of another client: 403 property forbidden", async () => {
    const r = await restaurant("Links Four");
    const other = await newClient("Another platform");
    const res = await other.call("/api/v2/console/links", { method: "POST", property: r.propertyId });
    expectProblem(res, 403, "property forbidden");
  });

  it("asks for the Property header (400) and refuses a bad token (401)", async () => {
    const r = await restaurant("Links Five");
    expectProblem(
      await r.owner.call("/api/v2/console/links", { method: "POST", property: undefined }),
      400,
      "property header required",
    );
    expectProblem(
      await call("/api/v2/console/links", { method: "POST", token: "not-a-token", property: r.propertyId }),
      401,
    );
  });

  it("refuses an expired sandbox: 403 sandbox expired", async () => {
    const c = await newClient();
    await expireSandbox(c.propertyId);
    expectProblem(await c.call("/api/v2/console/links", { method: "POST" }), 403, "sandbox expired");
  });

  it("is not part of the console's own API: a session cannot make links", async () => {
    const r = await restaurant("Links Six");
    const link = (await r.owner.call("/api/v2/console/links", { method: "POST", property: r.propertyId }))
      .json.data[0];
    const { cookie } = await follow(link.url);
    const session = JSON.parse((await page("/console/session", { headers: { Cookie: cookie } })).text)
      .data[0];
    const res = await page("/console/api/v2/console/links", {
      method: "POST",
      headers: { Cookie: cookie, "X-CSRF-Token": session.csrf_token },
    });
    expect(res.status).toBe(404);
  });

  it("is in the OpenAPI document with the statuses it answers", async () => {
    const doc = (await call("/api/v2/openapi.json")).json;
    const op = doc.paths["/api/v2/console/links"].post;
    expect(Object.keys(op.responses)).toEqual(
      expect.arrayContaining(["201", "400", "401", "403", "404", "429"]),
    );
    expect(op.parameters.some((p: any) => p.in === "header" && p.name === "Property")).toBe(true);
    expect(doc.paths["/console/api/v2/console/links"]).toBeUndefined();
  });
});
