/**
 * The OAuth flow driven like a browser would (cookies kept by hand, forms posted with their CSRF
 * token) and an integrator's token requests, for the worker suites. The real browser and a real
 * OAuth client library (oauth4webapi) drive it end to end in tests/e2e/oauth.test.mjs.
 */
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { AUTH, call, freshIp, newClient, ORIGIN, type TestClient, unique } from "./helpers";

export const REDIRECT = "https://integrator.example";
export const PAGE_HEADERS = { Accept: "text/html" };

export async function s256(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export async function pkce() {
  const verifier = `v${crypto.randomUUID()}${crypto.randomUUID()}`.replace(/-/g, "");
  return { verifier, challenge: await s256(verifier) };
}

/** A restaurant with a sign-in: a property created by its own client (the owner), with username and password. */
export async function restaurant(name = "Trattoria OAuth") {
  const owner = await newClient("Restaurant's own POS");
  const username = unique("resto").toLowerCase().replace(/_/g, "-");
  const password = "restaurant-password-1";
  const res = await owner.call("/api/v2/properties", { body: { name, username, password } });
  if (res.status !== 201) throw new Error(`property: ${res.status} ${res.text}`);
  return { owner, propertyId: res.json.data[0].id as number, username, password, name };
}

/** One request as a browser sends it, redirects not followed (the test follows them, cookies and all). */
export async function page(path: string, init: RequestInit = {}) {
  const res = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`${ORIGIN}${path}`, { redirect: "manual", ...init }),
  );
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A browser: one caller address and the cookies the Worker set. */
export class Browser {
  readonly ip = freshIp();
  readonly cookies = new Map<string, string>();

  async get(path: string, headers: Record<string, string> = {}) {
    return this.keep(await page(path, { headers: { ...PAGE_HEADERS, ...this.headers(), ...headers } }));
  }

  async post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    const body = new URLSearchParams(form).toString();
    return this.keep(
      await page(path, {
        method: "POST",
        body,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: ORIGIN,
          ...this.headers(),
          ...headers,
        },
      }),
    );
  }

  private headers(): Record<string, string> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    return { "CF-Connecting-IP": this.ip, ...(cookie && { Cookie: cookie }) };
  }

  private keep<R extends { headers: Headers }>(res: R): R {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      const v = value.join("=");
      if (/max-age=0/i.test(line) || v === "") this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), v);
    }
    return res;
  }
}

/** The CSRF token of the page's form. */
export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no CSRF token in:\n${html.slice(0, 500)}`);
  return m[1]!;
}

export interface AuthorizeOptions {
  clientId: string;
  challenge?: string | undefined;
  state?: string;
  redirectUri?: string;
  extra?: Record<string, string>;
}

export function authorizeUrl(o: AuthorizeOptions) {
  const q = new URLSearchParams({
    response_type: "code",
    client_id: o.clientId,
    redirect_uri: o.redirectUri ?? REDIRECT,
    state: o.state ?? "st-1",
    code_challenge_method: "S256",
  });
  if (o.challenge) q.set("code_challenge", o.challenge);
  for (const [k, v] of Object.entries(o.extra ?? {})) q.set(k, v);
  return `${AUTH}/authorize?${q}`;
}

/** The browser's way to a code: authorize, sign in, consent. Answers the redirect's parameters. */
export async function approve(
  browser: Browser,
  o: AuthorizeOptions & { username: string; password: string; decision?: "approve" | "deny" },
) {
  const page = await browser.get(authorizeUrl(o));
  expect(page.status, page.text).toBe(200);
  const signedIn = await browser.post(`${AUTH}/authorize`, {
    csrf: csrfOf(page.text),
    username: o.username,
    password: o.password,
    action: "sign-in",
  });
  expect(signedIn.status, signedIn.text).toBe(303);
  const consent = await browser.get(`${AUTH}/authorize/consent`);
  expect(consent.status, consent.text).toBe(200);
  const decided = await browser.post(`${AUTH}/authorize/consent`, {
    csrf: csrfOf(consent.text),
    decision: o.decision ?? "approve",
  });
  expect(decided.status, decided.text).toBe(303);
  return new URL(decided.headers.get("Location")!).searchParams;
}

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

export function token(client: TestClient, fields: Record<string, string>) {
  return call(`${AUTH}/token`, {
    method: "POST",
    body: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      ...fields,
    }).toString(),
    headers: { ...FORM, "CF-Connecting-IP": freshIp() },
  });
}

export function revoke(client: TestClient, tokenValue: string) {
  return call(`${AUTH}/revoke`, {
    method: "POST",
    body: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      token: tokenValue,
    }).toString(),
    headers: { ...FORM, "CF-Connecting-IP": freshIp() },
  });
}

/** A restaurant, an integrator and the tokens of a completed approval. */
export async function connected() {
  const r = await restaurant();
  const integrator = await newClient("Acme POS");
  const { verifier, challenge } = await pkce();
  const params = await approve(new Browser(), {
    clientId: integrator.clientId,
    challenge,
    username: r.username,
    password: r.password,
  });
  const res = await token(integrator, {
    grant_type: "authorization_code",
    code: params.get("code")!,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(res.status, res.text).toBe(200);
  return {
    ...r,
    integrator,
    tokens: res.json as { access_token: string; refresh_token: string; property_ids: number[] },
  };
}

/** What `npm run ops -- revoke-grant` asks of the Worker's operator door. */
export function opsRevokeGrant(clientId: string, propertyId: number) {
  return call("/__ops/revoke-grant", {
    body: { client_id: clientId, property_id: propertyId },
    headers: { Authorization: `Bearer ${env.OPS_TOKEN}` },
  });
}
