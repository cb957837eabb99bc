/**
 * The unauthenticated doors are limited per caller: an IPv4 address, or the /64 network of an
 * IPv6 one (a subscriber holds a whole /64, so counting single addresses gives it 2^64 budgets).
 * vitest.config.ts gives PUBLIC_RATE_LIMITER 120 requests a minute per key, as wrangler.toml does.
 */
import { describe, expect, it } from "vitest";
import { direct as call } from "./direct";
import { AUTH, expectProblem, newClient } from "./helpers";

/** A random /64 of the documentation prefix, and its n-th address (all different). */
function network() {
  const group = () => Math.floor(Math.random() * 0xffff).toString(16);
  const prefix = `2001:db8:${group()}:${group()}`;
  return {
    prefix,
    address: (n: number) =>
      `${prefix}:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}:${group()}:${group()}`,
  };
}

/**
 * At most this many requests in a flood: the limiters count in fixed minutes (Miniflare's as
 * Cloudflare's), so a flood that crosses a minute's start is split between two; twice the largest
 * budget (150, vitest.config.ts) and one more always spends one minute's.
 */
const FLOOD = 301;

/**
 * Sends requests in parallel waves of 50, each from another address of one /64 (or all from `ip`),
 * until one answers 429 or FLOOD were sent; the answers.
 */
async function flood(send: (ip: string) => ReturnType<typeof call>, ip?: string) {
  const net = network();
  const answers: Awaited<ReturnType<typeof call>>[] = [];
  for (let i = 0; i < FLOOD && !answers.some((res) => res.status === 429); i += 50) {
    answers.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(50, FLOOD - i) }, (_, k) => send(ip ?? net.address(i + k + 1))),
      )),
    );
  }
  return { answers, net };
}

describe("per-caller limits count IPv6 per /64", () => {
  it("token endpoint: wrong secrets from one /64 meet 429 slow_down in RFC 6749's shape", async () => {
    const client = await newClient();
    const wrong = (ip: string) =>
      call(`${AUTH}/token`, {
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: client.clientId,
          client_secret: "wrong",
        }).toString(),
        headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": ip },
      });
    const { answers, net } = await flood(wrong);
    const limited = answers.filter((res) => res.status === 429);
    expect(limited.length, `no 429 after ${answers.length} wrong secrets from one /64`).toBeGreaterThan(0);
    for (const res of answers) expect([401, 429]).toContain(res.status);
    expect(limited[0]!.json).toEqual({ error: "slow_down", error_description: expect.any(String) });
    expect(limited[0]!.headers.get("Retry-After")).toMatch(/^\d+$/);
    // Another /64 of the same /48 is another subscriber: its own budget.
    const neighbour = `${net.prefix.replace(/:[0-9a-f]+$/, (g) => `:${((parseInt(g.slice(1), 16) + 1) % 0xffff).toString(16)}`)}::1`;
    expect((await wrong(neighbour)).status).toBe(401);
  });

  it("client creation: attempts from one /64 meet 429", async () => {
    const { answers } = await flood((ip) =>
      call(`${AUTH}/client`, { body: { name: "x" }, headers: { "CF-Connecting-IP": ip } }),
    );
    const limited = answers.filter((res) => res.status === 429);
    expect(limited.length, `no 429 after ${answers.length} creations from one /64`).toBeGreaterThan(0);
    for (const res of answers) expect([400, 429]).toContain(res.status);
    expectProblem(limited[0]!, 429, "too many requests");
  });

  it("bad bearer tokens: guesses from one /64 meet 429", async () => {
    const { answers } = await flood((ip) =>
      call("/api/v2/properties", {
        token: `guess-${ip.replace(/:/g, "-")}`,
        headers: { "CF-Connecting-IP": ip },
      }),
    );
    const limited = answers.filter((res) => res.status === 429);
    expect(limited.length, `no 429 after ${answers.length} bad tokens from one /64`).toBeGreaterThan(0);
    for (const res of answers) expect([401, 429]).toContain(res.status);
    expectProblem(limited[0]!, 429, "too many requests");
  });

  it("search engine partner credentials: wrong guesses from one /64 meet 429", async () => {
    const wrong = `Basic ${btoa("guess:wrong")}`;
    const { answers } = await flood((ip) =>
      call("/searchengine/v3/HealthCheck", { headers: { Authorization: wrong, "CF-Connecting-IP": ip } }),
    );
    const limited = answers.filter((res) => res.status === 429);
    expect(
      limited.length,
      `no 429 after ${answers.length} wrong partner credentials from one /64`,
    ).toBeGreaterThan(0);
    for (const res of answers) expect([401, 429]).toContain(res.status);
    expectProblem(limited[0]!, 429, "too many requests");
  });

  it("an IPv4 caller written as IPv6 (::ffff:a.b.c.d) counts as that IPv4 address, not as one shared /64", async () => {
    // Spend the budget of one IPv4-mapped caller; a different IPv4-mapped caller is untouched.
    const octet = () => Math.floor(Math.random() * 256);
    const base = `198.51.${octet()}`;
    const { answers } = await flood(
      (ip) => call("/api/v2/properties", { token: "guess", headers: { "CF-Connecting-IP": ip } }),
      `::ffff:${base}.7`,
    );
    expect(answers.some((res) => res.status === 429)).toBe(true);
    expect(
      (
        await call("/api/v2/properties", {
          token: "guess",
          headers: { "CF-Connecting-IP": `::ffff:${base}.8` },
        })
      ).status,
    ).toBe(401);
    expect(
      (await call("/api/v2/properties", { token: "guess", headers: { "CF-Connecting-IP": `${base}.7` } }))
        .status,
    ).toBe(429);
  });
});
