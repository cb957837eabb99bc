import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { housekeeping } from "../../worker/cron";
import { now } from "../../worker/lib/clock";
import { sessionCookie } from "./console.helpers";
import { freshIp, ORIGIN } from "./helpers";
import { restaurant } from "./oauth.fixtures";

const worker = () => (exports as unknown as { default: Fetcher }).default;

/** A browser on the console: its cookie and its CSRF token. */
async function signIn(username: string, password: string) {
  const ip = freshIp();
  const res = await worker().fetch(
    new Request(`${ORIGIN}/console/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": ip },
      body: JSON.stringify({ username, password }),
    }),
  );
  const cookie = sessionCookie(res.headers);
  const json: any = await res.json();
  return { res, cookie, csrf: json?.data?.[0]?.csrf_token as string, json };
}

function consoleCall(
  cookie: string,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const headers = {
    Cookie: cookie,
    ...(init.body !== undefined && { "Content-Type": "application/json" }),
    ...init.headers,
  };
  return worker().fetch(
    new Request(`${ORIGIN}${path}`, {
      method: init.method ?? "GET",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
}

describe("the console's session", () => {
  it("signs in with the property's username and password and answers the session", async () => {
    const r = await restaurant("Console One");
    const s = await signIn(r.username, r.password);
    expect(s.res.status).toBe(200);
    expect(s.res.headers.get("Set-Cookie")).toMatch(/console_session=.*HttpOnly/i);
    expect(s.res.headers.get("Set-Cookie")).toMatch(/SameSite=Strict/i);
    expect(s.json.data[0].property.id).toBe(r.propertyId);
    const again = await consoleCall(s.cookie, "/console/session");
    expect(again.status).toBe(200);
  });

  it("refuses a wrong password and an unknown user alike", async () => {
    const r = await restaurant("Console Two");
    const wrong = await signIn(r.username, "not-the-password");
    const unknown = await signIn("nobody-here", "not-the-password");
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(wrong.json.code).toBe("invalid_credentials");
    expect(unknown.json.code).toBe("invalid_credentials");
  });

  it("signs out only with the CSRF token", async () => {
    const r = await restaurant("Console Three");
    const s = await signIn(r.username, r.password);
    expect((await consoleCall(s.cookie, "/console/session", { method: "DELETE" })).status).toBe(403);
    expect(
      (
        await consoleCall(s.cookie, "/console/session", {
          method: "DELETE",
          headers: { "X-CSRF-Token": s.csrf },
        })
      ).status,
    ).toBe(204);
    expect((await consoleCall(s.cookie, "/console/session")).status).toBe(401);
  });
});

describe("the cron's housekeeping of the console", () => {
  it("drops expired sessions and links, and keeps live ones", async () => {
    const r = await restaurant("Console Housekeeping");
    const live = await signIn(r.username, r.password);
    const past = new Date(now() - 60_000).toISOString();
    const later = new Date(now() + 60_000).toISOString();
    const tag = `hk-${r.propertyId}`;
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO console_sessions (token_hash, property_id, locale, password_stamp, staff_id, signer_id, expires_at) SELECT ?, ?, 'en', '', id, id, ? FROM staff_members WHERE property_id = ? AND account = 1",
      ).bind(`${tag}-gone`, r.propertyId, past, r.propertyId),
      env.DB.prepare(
        "INSERT INTO console_links (token_hash, kind, property_id, expires_at) VALUES (?, 'sign_in', ?, ?)",
      ).bind(`${tag}-link-gone`, r.propertyId, past),
      env.DB.prepare(
        "INSERT INTO console_links (token_hash, kind, property_id, expires_at) VALUES (?, 'reset', ?, ?)",
      ).bind(`${tag}-link-kept`, r.propertyId, later),
    ]);
    await housekeeping(env);
    const sessions = await env.DB.prepare("SELECT token_hash FROM console_sessions WHERE property_id = ?")
      .bind(r.propertyId)
      .all<{ token_hash: string }>();
    expect(sessions.results.map((s) => s.token_hash)).not.toContain(`${tag}-gone`);
    expect(sessions.results).toHaveLength(1);
    const links = await env.DB.prepare("SELECT token_hash FROM console_links WHERE property_id = ?")
      .bind(r.propertyId)
      .all<{ token_hash: string }>();
    expect(links.results.map((l) => l.token_hash)).toEqual([`${tag}-link-kept`]);
    expect((await consoleCall(live.cookie, "/console/session")).status).toBe(200);
  });
});

describe("the console's API", () => {
  it("serves the integrator API for the session's property and refuses any other", async () => {
    const a = await restaurant("Console A");
    const b = await restaurant("Console B");
    const s = await signIn(a.username, a.password);
    const own = await consoleCall(s.cookie, "/console/api/v2/rooms");
    expect(own.status).toBe(200);
    const other = await consoleCall(s.cookie, "/console/api/v2/rooms", {
      headers: { Property: String(b.propertyId) },
    });
    expect(other.status).toBe(403);
    const otherPath = await consoleCall(s.cookie, `/console/api/v2/properties/${b.propertyId}`);
    expect(otherPath.status).toBe(403);
    const text = await otherPath.text();
    expect(text).not.toContain("Console B");
  });

  it("refuses a write without the CSRF token", async () => {
    const a = await restaurant("Console C");
    const s = await signIn(a.username, a.password);
    const refused = await consoleCall(s.cookie, "/console/api/v2/rooms", {
      method: "POST",
      body: { name: "Terrace" },
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as any).code).toBe("csrf_token_invalid");
    const made = await consoleCall(s.cookie, "/console/api/v2/rooms", {
      method: "POST",
      body: { name: "Terrace" },
      headers: { "X-CSRF-Token": s.csrf },
    });
    expect(made.status).toBe(201);
  });

  it("answers 401 without a session", async () => {
    expect((await consoleCall("", "/console/api/v2/rooms")).status).toBe(401);
  });
});

describe("the console's pages", () => {
  it("can never be framed and are never stored", async () => {
    const res = await worker().fetch(
      new Request(`${ORIGIN}/console/day/2030-01-01`, { headers: { "Accept-Language": "it" } }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Frame-Options")).toBe("DENY");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const html = await res.text();
    expect(html).toContain('<html lang="it">');
    expect(html).toContain("/widget/booking-console.js");
  });
});
