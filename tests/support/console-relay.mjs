// The console in the component tests: the test page (web-test-runner's origin) reaches the
// Worker's /console/... through this relay, so the console's cookie and CSRF header travel as they
// would on the Worker's own origin. While the Worker has no session routes yet (GET /console/session
// answers 404), the relay stands in for them with the same answers (sign-in with the restaurant's
// username and password, the session cookie, the CSRF header on writes) over the integrator API.
import { randomBytes } from "node:crypto";
import { request, RESTAURANT_PASSWORD } from "../../scripts/restaurant.mjs";

const PASS_HEADERS = ["content-type", "accept", "cookie", "x-csrf-token", "origin"];

/** `origin()`: the Worker's origin; `accounts`: username -> { propertyId, token } of the fixture restaurants. */
export function consoleRelay(origin, accounts) {
  let native;
  const sessions = new Map();
  return async function relay(ctx, body) {
    native ??= (await fetch(`${origin()}/console/session`)).status !== 404;
    if (native) return forward(ctx, origin(), body);
    return standIn(ctx, body, accounts, sessions);
  };
}

async function forward(ctx, origin, body) {
  const headers = {};
  for (const h of PASS_HEADERS) if (ctx.get(h)) headers[h] = ctx.get(h);
  if (headers.origin) headers.origin = origin;
  const res = await fetch(`${origin}${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ""}`, { method: ctx.method, headers, body, redirect: "manual" });
  ctx.status = res.status;
  for (const [k, v] of res.headers) if (/^(content-type|location|retry-after)$/i.test(k)) ctx.set(k, v);
  const cookies = res.headers.getSetCookie?.() ?? [];
  if (cookies.length) ctx.set("Set-Cookie", cookies.map((c) => c.replace(/;\s*Secure/i, "")));
  ctx.body = Buffer.from(await res.arrayBuffer());
}

const problem = (ctx, status, code) => {
  ctx.status = status;
  ctx.type = "application/problem+json";
  ctx.body = JSON.stringify({ status, code, title: code.replace(/_/g, " ") });
};

async function standIn(ctx, body, accounts, sessions) {
  const token = /(?:^|;\s*)console_session=([^;]+)/.exec(ctx.get("cookie") ?? "")?.[1];
  const session = token ? sessions.get(token) : undefined;
  if (ctx.path === "/console/session" && ctx.method === "POST") {
    const { username, password } = JSON.parse(body || "{}");
    const account = accounts.get(username);
    if (!account || password !== RESTAURANT_PASSWORD) return problem(ctx, 401, "invalid_credentials");
    const fresh = randomBytes(16).toString("hex");
    sessions.set(fresh, { ...account, csrf: randomBytes(16).toString("hex") });
    ctx.set("Set-Cookie", `console_session=${fresh}; Path=/console; HttpOnly; SameSite=Strict`);
    return sessionAnswer(ctx, sessions.get(fresh));
  }
  if (!session) return problem(ctx, 401, "unauthorized");
  const write = !["GET", "HEAD"].includes(ctx.method);
  if (write && ctx.get("x-csrf-token") !== session.csrf) return problem(ctx, 403, "csrf_token_invalid");
  if (ctx.path === "/console/session" && ctx.method === "GET") return sessionAnswer(ctx, session);
  if (ctx.path === "/console/session" && ctx.method === "DELETE") {
    sessions.delete(token);
    ctx.set("Set-Cookie", "console_session=; Path=/console; Max-Age=0");
    ctx.status = 204;
    return;
  }
  const api = ctx.path.match(/^\/console\/api\/v2\/(.*)$/);
  if (!api) return problem(ctx, 404, "not_found");
  const res = await request(session.origin, `/api/v2/${api[1]}${ctx.querystring ? `?${ctx.querystring}` : ""}`, {
    method: ctx.method,
    token: session.token,
    property: session.propertyId,
    body: body ? JSON.parse(body) : undefined,
  });
  ctx.status = res.status;
  ctx.type = "application/json";
  ctx.body = res.status === 204 ? "" : JSON.stringify(res.json ?? null);
}

async function sessionAnswer(ctx, s) {
  const p = (await request(s.origin, `/api/v2/properties/${s.propertyId}`, { token: s.token, property: s.propertyId })).json.data[0];
  ctx.type = "application/json";
  ctx.body = JSON.stringify({
    data: [{ property: { id: p.id, name: p.name, timezone: p.settings.timezone, locale: p.settings.locale }, csrf_token: s.csrf, locale: p.settings.locale, expires_at: new Date(Date.now() + 12 * 3600e3).toISOString() }],
  });
}
