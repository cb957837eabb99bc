/**
 * GET /api/v2/properties/{property_id}/apps and DELETE .../apps/{client_id}: the apps a
 * restaurant connected. Its console lists and disconnects them; an integrator sees and
 * disconnects only itself.
 */
import { describe, expect, it } from "vitest";
import { sessionCookie } from "./console.helpers";
import { call, expectProblem, freshIp, newClient, type TestClient } from "./helpers";
import { approve, Browser, page, pkce, REDIRECT, restaurant, token } from "./oauth.fixtures";

type Restaurant = Awaited<ReturnType<typeof restaurant>>;

/** An integrator the restaurant connects through the OAuth pages, with its access token for the restaurant. */
async function connect(r: Restaurant, name: string) {
  const app = await newClient(name);
  const { verifier, challenge } = await pkce();
  const params = await approve(new Browser(), {
    clientId: app.clientId,
    challenge,
    username: r.username,
    password: r.password,
  });
  const res = await token(app, {
    grant_type: "authorization_code",
    code: params.get("code")!,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(res.status, res.text).toBe(200);
  return { app, accessToken: res.json.access_token as string };
}

/** The restaurant's console, signed in: its cookie and CSRF token. */
async function consoleOf(r: Restaurant) {
  const res = await page("/console/session", {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
    body: JSON.stringify({ username: r.username, password: r.password }),
  });
  expect(res.status, res.text).toBe(200);
  const cookie = sessionCookie(res.headers);
  const csrf = JSON.parse(res.text).data[0].csrf_token as string;
  return (path: string, method = "GET", o: { csrf?: boolean } = {}) =>
    call(`/console/api/v2${path}`, {
      method,
      headers: { Cookie: cookie, ...(method !== "GET" && o.csrf !== false && { "X-CSRF-Token": csrf }) },
    });
}

const apps = (r: Restaurant) => `/api/v2/properties/${r.propertyId}/apps`;
const onRestaurant = (r: Restaurant, accessToken: string) =>
  call("/api/v2/rooms", { token: accessToken, property: r.propertyId });

describe("the restaurant's console: connected apps", () => {
  it("lists the connected apps, not the client that created the restaurant", async () => {
    const r = await restaurant("Apps One");
    const { app } = await connect(r, "Table Planner");
    const consoleApi = await consoleOf(r);
    const res = await consoleApi(`/properties/${r.propertyId}/apps`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual([
      {
        client_id: app.clientId,
        name: "Table Planner",
        connected_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(res.json.next_cursor).toBeNull();
  });

  it("disconnects an app: its token is refused (401) and its webhook subscriptions there are gone", async () => {
    const r = await restaurant("Apps Two");
    const { app, accessToken } = await connect(r, "Guest CRM");
    const hook = await call("/api/v2/webhooks/subscription", {
      token: accessToken,
      property: r.propertyId,
      body: { endpoint: "https://hooks.crm.example/", webhook_type: "RESERVATION_CREATED" },
    });
    expect(hook.status, hook.text).toBe(201);
    expect((await onRestaurant(r, accessToken)).status).toBe(200);
    const ownSubscriptions = async () =>
      (await call("/api/v2/webhooks/subscriptions", { token: app.token })).json.data.filter(
        (s: any) => s.property_id === r.propertyId,
      );
    expect(await ownSubscriptions()).toHaveLength(1);

    const consoleApi = await consoleOf(r);
    const res = await consoleApi(`/properties/${r.propertyId}/apps/${app.clientId}`, "DELETE");
    expect(res.status, res.text).toBe(200);
    expect(res.json.data).toEqual([app.clientId]);

    expectProblem(await onRestaurant(r, accessToken), 401);
    expect((await consoleApi(`/properties/${r.propertyId}/apps`)).json.data).toEqual([]);
    expect(await ownSubscriptions()).toEqual([]);
    // The owner goes on as before.
    expect((await r.owner.call("/api/v2/rooms", { property: r.propertyId })).status).toBe(200);
  });

  it("disconnects an app: a console sign-in link it made and nobody followed yet no longer signs in", async () => {
    const r = await restaurant("Apps Link");
    const { app, accessToken } = await connect(r, "Floor Planner");
    const made = await call("/api/v2/console/links", {
      method: "POST",
      token: accessToken,
      property: r.propertyId,
    });
    expect(made.status, made.text).toBe(201);
    const consoleApi = await consoleOf(r);
    expect((await consoleApi(`/properties/${r.propertyId}/apps/${app.clientId}`, "DELETE")).status).toBe(200);

    const followed = await page(new URL(made.json.data[0].url).pathname);
    expect(followed.status).toBe(303);
    expect(followed.headers.get("Location")).toBe("/console/sign-in?link=expired");
    expect(followed.headers.get("Set-Cookie")).toBeNull();
  });

  it("refuses to disconnect the client that created the restaurant (403) and an app not connected (404)", async () => {
    const r = await restaurant("Apps Three");
    const stranger = await newClient("Not connected");
    const consoleApi = await consoleOf(r);
    expectProblem(
      await consoleApi(`/properties/${r.propertyId}/apps/${r.owner.clientId}`, "DELETE"),
      403,
      "app cannot be disconnected",
    );
    expectProblem(
      await consoleApi(`/properties/${r.propertyId}/apps/${stranger.clientId}`, "DELETE"),
      404,
      "app not found",
    );
    expectProblem(
      await consoleApi(`/properties/${r.propertyId}/apps/nobody`, "DELETE"),
      404,
      "app not found",
    );
    expect((await r.owner.call("/api/v2/rooms", { property: r.propertyId })).status).toBe(200);
  });

  it("needs the CSRF token to disconnect, and reaches no other restaurant (403)", async () => {
    const r = await restaurant("Apps Four");
    const other = await restaurant("Apps Four Other");
    const { app, accessToken } = await connect(other, "Other's app");
    const consoleApi = await consoleOf(r);
    expectProblem(await consoleApi(`/properties/${other.propertyId}/apps`), 403, "property forbidden");
    expectProblem(
      await consoleApi(`/properties/${other.propertyId}/apps/${app.clientId}`, "DELETE"),
      403,
      "property forbidden",
    );
    const { app: mine, accessToken: mineToken } = await connect(r, "My app");
    expectProblem(
      await consoleApi(`/properties/${r.propertyId}/apps/${mine.clientId}`, "DELETE", { csrf: false }),
      403,
      "csrf token invalid",
    );
    const res = await page(`/console/api/v2/properties/${r.propertyId}/apps/${mine.clientId}`, {
      method: "DELETE",
    });
    expect(res.status).toBe(401);
    expect((await onRestaurant(other, accessToken)).status).toBe(200);
    expect((await onRestaurant(r, mineToken)).status).toBe(200);
  });
});

describe("the integrator API: an app about itself", () => {
  it("lists only the caller's own grant, never the other platforms'", async () => {
    const r = await restaurant("Apps Five");
    const a = await connect(r, "App A");
    await connect(r, "App B");
    const own = await call(apps(r), { token: a.accessToken });
    expect(own.status, own.text).toBe(200);
    expect(own.json.data.map((x: any) => x.client_id)).toEqual([a.app.clientId]);
    // The owner (the restaurant's own platform) sees no connected app through the API: the console does.
    expect((await r.owner.call(apps(r), { property: undefined })).json.data).toEqual([]);
  });

  it("refuses to disconnect another platform (403) and disconnects itself", async () => {
    const r = await restaurant("Apps Six");
    const a = await connect(r, "App A");
    const b = await connect(r, "App B");
    expectProblem(
      await call(`${apps(r)}/${b.app.clientId}`, { method: "DELETE", token: a.accessToken }),
      403,
      "property forbidden",
    );
    expectProblem(
      await r.owner.call(`${apps(r)}/${b.app.clientId}`, { method: "DELETE", property: undefined }),
      403,
      "property forbidden",
    );
    expect((await onRestaurant(r, b.accessToken)).status).toBe(200);

    const gone = await call(`${apps(r)}/${a.app.clientId}`, { method: "DELETE", token: a.accessToken });
    expect(gone.status, gone.text).toBe(200);
    expectProblem(await onRestaurant(r, a.accessToken), 401);
    expect((await onRestaurant(r, b.accessToken)).status).toBe(200);
  });

  it("refuses a client without access to the property: 403 property forbidden", async () => {
    const r = await restaurant("Apps Seven");
    const stranger: TestClient = await newClient("Stranger");
    expectProblem(await stranger.call(apps(r), { property: undefined }), 403, "property forbidden");
    expectProblem(
      await stranger.call(`${apps(r)}/${stranger.clientId}`, { method: "DELETE", property: undefined }),
      403,
      "property forbidden",
    );
  });

  it("is in the OpenAPI document", async () => {
    const doc = (await call("/api/v2/openapi.json")).json;
    expect(Object.keys(doc.paths["/api/v2/properties/{property_id}/apps"].get.responses)).toEqual(
      expect.arrayContaining(["200", "401", "403", "404", "429"]),
    );
    expect(
      Object.keys(doc.paths["/api/v2/properties/{property_id}/apps/{client_id}"].delete.responses),
    ).toEqual(expect.arrayContaining(["200", "401", "403", "404", "429", "503"]));
  });
});
