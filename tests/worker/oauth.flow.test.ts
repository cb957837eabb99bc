/**
 * The hosted authorisation flow and connected-apps page: what redirects and what
 * never does, the sign-in's answers and limits, CSRF, cookies and headers, the five languages.
 * The same flow in Chromium with oauth4webapi and axe: tests/e2e/oauth.test.mjs.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AUTH, newClient, shardOf } from "./helpers";
import {
  approve,
  authorizeUrl,
  Browser,
  connected,
  csrfOf,
  page,
  pkce,
  REDIRECT,
  restaurant,
  token,
} from "./oauth.fixtures";

const APPS = `${AUTH}/connected-apps`;

async function flow(extra: Record<string, string> = {}, o: { redirectUri?: string } = {}) {
  const r = await restaurant();
  const integrator = await newClient("Acme POS");
  const { challenge } = await pkce();
  const browser = new Browser();
  const first = await browser.get(authorizeUrl({ clientId: integrator.clientId, challenge, extra, ...o }));
  return { r, integrator, browser, first };
}

describe("GET /authorize: what never redirects", () => {
  it("shows an error page for an unknown client_id, with no Location", async () => {
    const { challenge } = await pkce();
    const res = await new Browser().get(authorizeUrl({ clientId: "ci_unknown_client_x", challenge }));
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
    expect(res.text).toContain("not known to us");
  });

  it("shows an error page for a redirect_uri other than the registered one, or none", async () => {
    const integrator = await newClient();
    const { challenge } = await pkce();
    for (const redirectUri of [
      "https://evil.example",
      "https://integrator.example/",
      "https://integrator.example/callback",
      "HTTPS://integrator.example",
    ]) {
      const res = await new Browser().get(
        authorizeUrl({ clientId: integrator.clientId, challenge, redirectUri }),
      );
      expect([res.status, res.headers.get("Location")], redirectUri).toEqual([400, null]);
      expect(res.text).toContain("return address");
    }
    const q = new URLSearchParams({
      response_type: "code",
      client_id: integrator.clientId,
      code_challenge: challenge,
      code_challenge_method: "S256",
    });
    expect((await new Browser().get(`${AUTH}/authorize?${q}`)).status).toBe(400);
  });

  it("shows an error page, not a redirect, for a parameter sent twice", async () => {
    const integrator = await newClient();
    const { challenge } = await pkce();
    const res = await new Browser().get(
      `${authorizeUrl({ clientId: integrator.clientId, challenge })}&redirect_uri=${encodeURIComponent("https://evil.example")}`,
    );
    expect([res.status, res.headers.get("Location")]).toEqual([400, null]);
  });
});

describe("GET /authorize: errors that go back to the client", () => {
  it("answers a missing PKCE challenge, plain PKCE or another response_type on the redirect_uri, with the state", async () => {
    const integrator = await newClient();
    const { challenge } = await pkce();
    const cases: [Record<string, string>, string][] = [
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ code_challenge: "short" }, "invalid_request"],
    ];
    for (const [extra, error] of cases) {
      const res = await new Browser().get(
        authorizeUrl({ clientId: integrator.clientId, challenge, extra, state: "xyz" }),
      );
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get("Location")!);
      expect(`${back.origin}${back.pathname}`).toBe(`${REDIRECT}/`);
      expect([back.searchParams.get("error"), back.searchParams.get("state")]).toEqual([error, "xyz"]);
    }
    const none = await new Browser().get(
      authorizeUrl({ clientId: integrator.clientId, challenge: undefined }),
    );
    expect(new URL(none.headers.get("Location")!).searchParams.get("error")).toBe("invalid_request");
  });
});

describe("the sign-in", () => {
  it("shows a sign-in page with no script, a hashed style, frame-ancestors 'none' and no-store, and a short HttpOnly cookie", async () => {
    const { first } = await flow();
    expect(first.status).toBe(200);
    const csp = first.headers.get("Content-Security-Policy")!;
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+=*'/);
    expect(csp).not.toContain("unsafe-inline");
    expect(first.headers.get("Cache-Control")).toBe("no-store");
    expect(first.text).not.toMatch(/<script/i);
    const style = /<style>([\s\S]*?)<\/style>/.exec(first.text)![1]!;
    const digest = btoa(
      String.fromCharCode(
        ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(style))),
      ),
    );
    expect(csp).toContain(`'sha256-${digest}'`);
    const cookie = first.headers.get("Set-Cookie")!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/auth\/api\/v2\/api-account\/oauth2/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).toBeLessThanOrEqual(600);
  });

  it("answers a wrong username and a wrong password the same way", async () => {
    const { r, browser, first } = await flow();
    const csrf = csrfOf(first.text);
    const wrongUser = await browser.post(`${AUTH}/authorize`, {
      csrf,
      username: "nobody-here-at-all",
      password: r.password,
      action: "sign-in",
    });
    const wrongPassword = await browser.post(`${AUTH}/authorize`, {
      csrf,
      username: r.username,
      password: "not-the-password",
      action: "sign-in",
    });
    expect(wrongUser.status).toBe(wrongPassword.status);
    const blank = (html: string, name: string) => html.replace(`value="${name}"`, 'value=""');
    expect(blank(wrongUser.text, "nobody-here-at-all")).toBe(blank(wrongPassword.text, r.username));
    expect(wrongPassword.text).toContain("not right");
    expect(wrongPassword.headers.get("Location")).toBeNull();
    // Still the same flow: the right password now goes on to consent.
    expect(
      (
        await browser.post(`${AUTH}/authorize`, {
          csrf,
          username: r.username,
          password: r.password,
          action: "sign-in",
        })
      ).status,
    ).toBe(303);
  });

  it("takes the username in any case and Unicode form", async () => {
    const { r, browser, first } = await flow();
    const res = await browser.post(`${AUTH}/authorize`, {
      csrf: csrfOf(first.text),
      username: r.username.toUpperCase(),
      password: r.password,
      action: "sign-in",
    });
    expect(res.status).toBe(303);
  });

  it("limits attempts per username from devices that never signed in to it, whatever the address", async () => {
    const { r, integrator } = await flow();
    const { challenge } = await pkce();
    const statuses: number[] = [];
    // The limiter counts in fixed minutes (Miniflare's as Cloudflare's): attempts that cross a
    // minute's start are split between two, so up to 121 are made and one minute holds 61 of them.
    for (let i = 0; i < 121 && !statuses.includes(429); i++) {
      const browser = new Browser();
      const start = await browser.get(authorizeUrl({ clientId: integrator.clientId, challenge }));
      statuses.push(
        (
          await browser.post(`${AUTH}/authorize`, {
            csrf: csrfOf(start.text),
            username: r.username,
            password: "wrong-password",
            action: "sign-in",
          })
        ).status,
      );
    }
    // 60 a minute (SIGNIN_ACCOUNT_RATE_LIMITER): more than one address's 10, so a few cannot lock the owner out
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(200));
    expect(statuses.at(-1)).toBe(429);
  });

  it("limits attempts per address (IPv6 per /64), whatever the username", async () => {
    const { integrator } = await flow();
    const { challenge } = await pkce();
    const statuses: number[] = [];
    // Up to 21 attempts, as above: a minute's start may split them between two windows.
    for (let i = 0; i < 21 && !statuses.includes(429); i++) {
      const browser = new Browser();
      const headers = { "CF-Connecting-IP": `2001:db8:13:13:${i.toString(16)}::1` };
      const start = await browser.get(authorizeUrl({ clientId: integrator.clientId, challenge }), headers);
      const res = await browser.post(
        `${AUTH}/authorize`,
        { csrf: csrfOf(start.text), username: `someone-${i}`, password: "wrong-password", action: "sign-in" },
        headers,
      );
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.at(-1)).toBe(429);
  });

  it("does not sign in a deleted restaurant", async () => {
    const { r, browser, first } = await flow();
    await r.owner.call(`/api/v2/properties/${r.propertyId}`, { method: "DELETE" });
    const res = await browser.post(`${AUTH}/authorize`, {
      csrf: csrfOf(first.text),
      username: r.username,
      password: r.password,
      action: "sign-in",
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain("not right");
  });

  it("refuses a form without this browser's CSRF token or from another origin, and never redirects it", async () => {
    const { r, browser, first } = await flow();
    const csrf = csrfOf(first.text);
    const form = { username: r.username, password: r.password, action: "sign-in" };
    const cases = [
      await browser.post(`${AUTH}/authorize`, form),
      await browser.post(`${AUTH}/authorize`, { ...form, csrf: `${csrf}x` }),
      await browser.post(`${AUTH}/authorize`, { ...form, csrf }, { Origin: "https://evil.example" }),
      await browser.post(`${AUTH}/authorize`, { ...form, csrf }, { "Sec-Fetch-Site": "cross-site" }),
      await browser.post(
        `${AUTH}/authorize`,
        { ...form, csrf },
        { Origin: "null", "Sec-Fetch-Site": "same-site" },
      ),
      // Another browser (no cookie) with a token it read somewhere.
      await new Browser().post(`${AUTH}/authorize`, { ...form, csrf }),
    ];
    for (const res of cases) expect([res.status, res.headers.get("Location")]).toEqual([403, null]);
  });

  it("takes its own page's form, which a no-referrer page posts with Origin: null", async () => {
    const { r, browser, first } = await flow();
    const form = { csrf: csrfOf(first.text), username: r.username, password: r.password, action: "sign-in" };
    const res = await browser.post(`${AUTH}/authorize`, form, {
      Origin: "null",
      "Sec-Fetch-Site": "same-origin",
    });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("Location")!, "http://x").pathname).toBe(`${AUTH}/authorize/consent`);
  });
});

describe("consent", () => {
  it("shows the app, the restaurant and what it may do; Allow redirects with a code and the state", async () => {
    const r = await restaurant("Osteria Consenso");
    const integrator = await newClient("Acme POS");
    const { challenge } = await pkce();
    const browser = new Browser();
    const start = await browser.get(
      authorizeUrl({ clientId: integrator.clientId, challenge, state: "s-42" }),
    );
    await browser.post(`${AUTH}/authorize`, {
      csrf: csrfOf(start.text),
      username: r.username,
      password: r.password,
      action: "sign-in",
    });
    const consent = await browser.get(`${AUTH}/authorize/consent`);
    expect(consent.text).toContain("Allow Acme POS to work with Osteria Consenso?");
    expect(consent.headers.get("Content-Security-Policy")).toContain(
      "form-action 'self' https://integrator.example",
    );
    const done = await browser.post(`${AUTH}/authorize/consent`, {
      csrf: csrfOf(consent.text),
      decision: "approve",
    });
    const back = new URL(done.headers.get("Location")!);
    expect(back.searchParams.get("code")).toMatch(/^ac_/);
    expect(back.searchParams.get("state")).toBe("s-42");
    expect(back.searchParams.get("iss")).toBe("https://api.test/auth/api/v2");
    // The flow's cookie ends with it.
    expect(done.headers.get("Set-Cookie")).toMatch(/oauth_flow=;.*Max-Age=0/);
    expect(browser.cookies.has("oauth_flow")).toBe(false);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM sign_in_sessions WHERE client_id = ?")
      .bind(integrator.id)
      .first<{ n: number }>();
    expect(row!.n).toBe(0);
  });

  it("gives one code for one consent: the form posted again, at once or later, finds the flow ended", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { challenge } = await pkce();
    const browser = new Browser();
    const start = await browser.get(authorizeUrl({ clientId: integrator.clientId, challenge }));
    await browser.post(`${AUTH}/authorize`, {
      csrf: csrfOf(start.text),
      username: r.username,
      password: r.password,
      action: "sign-in",
    });
    const consent = await browser.get(`${AUTH}/authorize/consent`);
    const form = { csrf: csrfOf(consent.text), decision: "approve" };
    const cookie = `oauth_flow=${browser.cookies.get("oauth_flow")}`;
    const posts = await Promise.all(
      Array.from({ length: 3 }, () => browser.post(`${AUTH}/authorize/consent`, form)),
    );
    const again = await new Browser().post(`${AUTH}/authorize/consent`, form, { Cookie: cookie });
    const answers = [...posts, again].map((p) => [p.status, !!p.headers.get("Location")]);
    expect(answers.sort()).toEqual([[303, true], ...Array(3).fill([403, false])]);
    const codes = await env.DB.prepare("SELECT count(*) AS n FROM oauth_codes WHERE client_id = ?")
      .bind(integrator.id)
      .first<{ n: number }>();
    expect(codes!.n).toBe(1);
  });

  it("Deny redirects with error=access_denied and the state, and grants nothing", async () => {
    const r = await restaurant();
    const integrator = await newClient();
    const { challenge } = await pkce();
    const params = await approve(new Browser(), {
      clientId: integrator.clientId,
      challenge,
      username: r.username,
      password: r.password,
      decision: "deny",
    });
    expect([params.get("error"), params.get("state"), params.get("code")]).toEqual([
      "access_denied",
      "st-1",
      null,
    ]);
    const grant = await env.DB.prepare(
      "SELECT 1 FROM property_grants WHERE client_id = ? AND property_id = ?",
    )
      .bind(integrator.id, r.propertyId)
      .first();
    expect(grant).toBeNull();
  });

  it("Cancel on the sign-in page also answers access_denied", async () => {
    const { browser, first } = await flow();
    const res = await browser.post(`${AUTH}/authorize`, { csrf: csrfOf(first.text), action: "cancel" });
    expect(res.status).toBe(303);
    expect(new URL(res.headers.get("Location")!).searchParams.get("error")).toBe("access_denied");
  });

  it("cannot be reached or posted without signing in", async () => {
    const { browser, first } = await flow();
    const consent = await browser.get(`${AUTH}/authorize/consent`);
    // The flow is there but not signed in: the sign-in page again.
    expect(consent.text).toContain('name="password"');
    const post = await browser.post(`${AUTH}/authorize/consent`, {
      csrf: csrfOf(first.text),
      decision: "approve",
    });
    expect([post.status, post.headers.get("Location")]).toEqual([403, null]);
  });
});

describe("the five languages", () => {
  it("speaks the language of ui_locales, else of Accept-Language, else English", async () => {
    const integrator = await newClient();
    const { challenge } = await pkce();
    const expectations: [Record<string, string>, Record<string, string>, string, string][] = [
      [{ ui_locales: "it" }, {}, "it", "Nome utente"],
      [{ ui_locales: "xx fr" }, {}, "fr", "Nom d&#39;utilisateur"],
      [{}, { "Accept-Language": "de-DE,de;q=0.9" }, "de", "Benutzername"],
      [{}, { "Accept-Language": "es" }, "es", "Nombre de usuario"],
      [{}, { "Accept-Language": "ja" }, "en", "Username"],
    ];
    for (const [extra, headers, lang, word] of expectations) {
      const res = await new Browser().get(
        authorizeUrl({ clientId: integrator.clientId, challenge, extra }),
        headers,
      );
      expect(res.text).toContain(`<html lang="${lang}">`);
      expect(res.text).toContain(word);
    }
  });
});

describe("the connected-apps page", () => {
  it("lists the apps after sign-in, the owner without a Disconnect button", async () => {
    const { integrator, username, password, propertyId } = await connected();
    const browser = new Browser();
    const start = await browser.get(APPS);
    expect(start.text).toContain('name="password"');
    const signedIn = await browser.post(APPS, {
      csrf: csrfOf(start.text),
      username,
      password,
      action: "sign-in",
    });
    expect([signedIn.status, signedIn.headers.get("Location")]).toEqual([303, APPS]);
    const list = await browser.get(APPS);
    expect(list.text).toContain("Acme POS");
    expect(list.text).toContain("Restaurant&#39;s own POS");
    expect(list.text.match(/name="client_id"/g)?.length).toBe(1);
    expect(list.text).toContain(`value="${integrator.clientId}"`);
    expect(list.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
    expect(propertyId).toBeGreaterThan(0);
  });

  it("disconnects an app: its tokens are refused and its subscriptions gone", async () => {
    const { integrator, username, password, propertyId, tokens } = await connected();
    const bearer = { Authorization: `Bearer ${tokens.access_token}`, Property: String(propertyId) };
    const sub = await page("/api/v2/webhooks/subscription", {
      method: "POST",
      headers: { ...bearer, "Content-Type": "application/json" },
      body: JSON.stringify({
        endpoint: "https://hooks.integrator.example/",
        webhook_type: "RESERVATION_UPDATED",
      }),
    });
    expect(sub.status).toBe(201);
    const browser = new Browser();
    const start = await browser.get(APPS);
    await browser.post(APPS, { csrf: csrfOf(start.text), username, password, action: "sign-in" });
    const list = await browser.get(APPS);
    const res = await browser.post(`${APPS}/disconnect`, {
      csrf: csrfOf(list.text),
      client_id: integrator.clientId,
    });
    expect(res.status).toBe(303);
    const after = await browser.get(res.headers.get("Location")!);
    expect(after.text).toContain("Acme POS is disconnected");
    expect(after.text).not.toContain(`value="${integrator.clientId}"`);
    expect((await page("/api/v2/rooms", { headers: bearer })).status).toBe(401);
    expect(
      (
        await page("/api/v2/rooms", {
          headers: { Authorization: `Bearer ${integrator.token}`, Property: String(propertyId) },
        })
      ).status,
    ).toBe(403);
    expect(
      (await token(integrator, { grant_type: "refresh_token", refresh_token: tokens.refresh_token })).json
        .error,
    ).toBe("invalid_grant");
    const live = await (await shardOf(propertyId))
      .prepare("SELECT count(*) AS n FROM webhook_subscriptions WHERE client_id = ? AND deleted_at IS NULL")
      .bind(integrator.id)
      .first<{ n: number }>();
    expect(live!.n).toBe(0);
  });

  it("never disconnects the restaurant's owner, nor from a form without the CSRF token", async () => {
    const { integrator, username, password, owner, propertyId } = await connected();
    const browser = new Browser();
    const start = await browser.get(APPS);
    await browser.post(APPS, { csrf: csrfOf(start.text), username, password, action: "sign-in" });
    const list = await browser.get(APPS);
    await browser.post(`${APPS}/disconnect`, { csrf: csrfOf(list.text), client_id: owner.clientId });
    await browser.post(`${APPS}/disconnect`, { csrf: "forged", client_id: integrator.clientId });
    const grants = await env.DB.prepare("SELECT count(*) AS n FROM property_grants WHERE property_id = ?")
      .bind(propertyId)
      .first<{ n: number }>();
    expect(grants!.n).toBe(2);
  });

  it("signs out, and a new password ends every signed-in session", async () => {
    const { username, password, owner, propertyId } = await connected();
    const signedIn = async () => {
      const browser = new Browser();
      const start = await browser.get(APPS);
      await browser.post(APPS, { csrf: csrfOf(start.text), username, password, action: "sign-in" });
      return browser;
    };
    const a = await signedIn();
    const list = await a.get(APPS);
    expect(list.text).toContain('name="client_id"');
    await a.post(`${APPS}/sign-out`, { csrf: csrfOf(list.text) });
    expect((await a.get(APPS)).text).toContain('name="password"');

    const b = await signedIn();
    expect((await b.get(APPS)).text).toContain('name="client_id"');
    await owner.call(`/api/v2/properties/${propertyId}`, {
      method: "PUT",
      body: { password: "a-brand-new-password" },
    });
    expect((await b.get(APPS)).text).toContain('name="password"');
  });
});

describe("authorization server metadata (RFC 8414)", () => {
  it("names the endpoints, S256 only and the issuer", async () => {
    const res = await page("/.well-known/oauth-authorization-server/auth/api/v2");
    const m = JSON.parse(res.text);
    expect(m).toMatchObject({
      issuer: "https://api.test/auth/api/v2",
      authorization_endpoint: `https://api.test${AUTH}/authorize`,
      token_endpoint: `https://api.test${AUTH}/token`,
      revocation_endpoint: `https://api.test${AUTH}/revoke`,
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
    });
  });
});
