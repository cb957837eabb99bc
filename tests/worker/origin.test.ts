/**
 * Absolute URLs come from the configured PUBLIC_ORIGIN (https://api.test in the test pool), never
 * from the request's Host: a request sent to another host name gets links on
 * PUBLIC_ORIGIN all the same.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { freshIp, newClient, ORIGIN } from "./helpers";
import { GUEST, smallRestaurant } from "./public.fixtures";

const FORGED = "https://attacker.example";

/** The Worker reached under another host name, as a Host header (or a proxy) would name it. */
async function viaForgedHost(path: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("Host", "attacker.example");
  const res = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`${FORGED}${path}`, { ...init, headers }),
  );
  return { status: res.status, json: (await res.json()) as any };
}

describe("absolute URLs", () => {
  it("booking links are on PUBLIC_ORIGIN whatever the Host", async () => {
    const client = await newClient();
    const res = await viaForgedHost("/api/v2/bookings/list", {
      headers: { Authorization: `Bearer ${client.token}`, Property: String(client.propertyId) },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toHaveLength(3);
    for (const link of res.json.data) expect(link.link.startsWith(`${ORIGIN}/p/`), link.link).toBe(true);
  });

  it("the public API's manage_url is on PUBLIC_ORIGIN whatever the Host", async () => {
    const r = await smallRestaurant();
    const res = await viaForgedHost(`/api/v2/public/${r.publicKey}/reservations`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
      body: JSON.stringify({ date: r.date, hour: "19:00", pax: 2, guest: GUEST, locale: "it" }),
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    const booked = res.json.data[0];
    expect(booked.manage_url).toBe(`${ORIGIN}/p/${r.publicKey}/manage/${booked.manage_token}?locale=it`);
  });

  it("the OpenAPI document's server and a problem's type are on PUBLIC_ORIGIN whatever the Host", async () => {
    const doc = await viaForgedHost("/api/v2/openapi.json");
    expect(doc.json.servers).toEqual([{ url: ORIGIN, description: "this server" }]);
    const problem = await viaForgedHost("/api/v2/nowhere");
    expect(problem.status).toBe(404);
    expect(problem.json.type).toBe(`${ORIGIN}/docs/errors#not_found`);
  });

  it("the OAuth server's issuer and endpoints are on PUBLIC_ORIGIN whatever the Host", async () => {
    const meta = await viaForgedHost("/.well-known/oauth-authorization-server/auth/api/v2");
    expect(meta.status).toBe(200);
    expect(meta.json).toMatchObject({
      issuer: `${ORIGIN}/auth/api/v2`,
      authorization_endpoint: `${ORIGIN}/auth/api/v2/api-account/oauth2/authorize`,
      token_endpoint: `${ORIGIN}/auth/api/v2/api-account/oauth2/token`,
      revocation_endpoint: `${ORIGIN}/auth/api/v2/api-account/oauth2/revoke`,
    });
  });
});
