// The console in the component tests: the test page (web-test-runner's origin) reaches the
// Worker's /console/... through this relay, so the console's cookie and CSRF header travel as they
// would on the Worker's own origin. Each restaurant's sign-in comes from an address of its own
// (CF-Connecting-IP, as Cloudflare sets it), so the test files' sign-ins do not share the per-address
// limit that one real guest's browser has.
import { createHash } from "node:crypto";

const PASS_HEADERS = ["content-type", "accept", "cookie", "x-csrf-token", "origin"];

/** `origin()`: the Worker's origin. */
export function consoleRelay(origin) {
  return (ctx, body) => forward(ctx, origin(), body);
}

/** An address of the benchmarking range (198.18.0.0/15) of its own for each username signing in. */
function addressOf(body) {
  let username = "";
  try {
    username = String(JSON.parse(body || "{}").username ?? "");
  } catch {}
  const h = createHash("sha256").update(username).digest();
  return `198.18.${h[0]}.${h[1]}`;
}

async function forward(ctx, origin, body) {
  const headers = {};
  for (const h of PASS_HEADERS) if (ctx.get(h)) headers[h] = ctx.get(h);
  if (headers.origin) headers.origin = origin;
  if (ctx.path === "/console/session" && ctx.method === "POST") headers["cf-connecting-ip"] = addressOf(body);
  const res = await fetch(`${origin}${ctx.path}${ctx.querystring ? `?${ctx.querystring}` : ""}`, {
    method: ctx.method,
    headers,
    body,
    redirect: "manual",
  });
  ctx.status = res.status;
  for (const [k, v] of res.headers) if (/^(content-type|location|retry-after)$/i.test(k)) ctx.set(k, v);
  const cookies = res.headers.getSetCookie?.() ?? [];
  if (cookies.length)
    ctx.set(
      "Set-Cookie",
      cookies.map((c) => c.replace(/;\s*Secure/i, "")),
    );
  ctx.body = Buffer.from(await res.arrayBuffer());
}
