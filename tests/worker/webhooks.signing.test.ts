/** The pure parts of webhooks: signing (checked by the standardwebhooks library), endpoint rules, retry schedule. */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { config } from "../../worker/config";
import type { Bindings } from "../../worker/env";
import { parseRetryAfter, RETRY_SCHEDULE, retryDelay } from "../../worker/outbox/retry";
import { endpointProblem, resolvedProblem } from "../../worker/webhooks/endpoint";
import { generateSecret, webhookHeaders } from "../../worker/webhooks/signing";

describe("signing", () => {
  it("makes Standard Webhooks headers the library verifies", async () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = JSON.stringify({
      id: "msg_1",
      type: "RESERVATION_CREATED",
      data: { reservation: { id: 1 } },
    });
    const headers = await webhookHeaders([secret], "msg_1", body);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("signs with every secret given, so both the new and the previous secret verify during a rotation", async () => {
    const [previous, next, stranger] = [generateSecret(), generateSecret(), generateSecret()];
    const body = '{"a":1}';
    const headers = await webhookHeaders([next, previous], "msg_2", body);
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(new Webhook(next).verify(body, headers)).toEqual({ a: 1 });
    expect(new Webhook(previous).verify(body, headers)).toEqual({ a: 1 });
    expect(() => new Webhook(stranger).verify(body, headers)).toThrow();
  });

  it("is refused by the library when the body, id or timestamp changed, or the timestamp is stale", async () => {
    const secret = generateSecret();
    const headers = await webhookHeaders([secret], "msg_3", '{"a":1}');
    const wh = new Webhook(secret);
    expect(() => wh.verify('{"a":2}', headers)).toThrow();
    expect(() => wh.verify('{"a":1}', { ...headers, "webhook-id": "msg_4" })).toThrow();
    expect(() =>
      wh.verify('{"a":1}', {
        ...headers,
        "webhook-timestamp": String(Number(headers["webhook-timestamp"]) + 1),
      }),
    ).toThrow();
    const old = await webhookHeaders([secret], "msg_3", '{"a":1}', Date.now() - 3_600_000);
    expect(() => wh.verify('{"a":1}', old)).toThrow();
  });
});

describe("endpoints", () => {
  it.each([
    ["https://hooks.example.com/reservations", false, undefined],
    ["https://93.184.216.34/hook", false, undefined],
    ["https://[2606:4700::1111]/hook", false, undefined],
    ["http://hooks.example.com/reservations", false, "endpoint must use https"],
    ["http://localhost:3000/hook", false, "endpoint must use https"],
    ["https://localhost/hook", false, "private"],
    ["https://127.0.0.1/hook", false, "private"],
    ["https://10.1.2.3/hook", false, "private"],
    ["https://172.16.0.1/hook", false, "private"],
    ["https://192.168.1.1/hook", false, "private"],
    ["https://169.254.169.254/latest/meta-data", false, "private"],
    ["https://100.64.0.1/hook", false, "private"],
    ["https://0.0.0.0/hook", false, "private"],
    ["https://[::1]/hook", false, "private"],
    ["https://[fd00::1]/hook", false, "private"],
    ["https://[fe80::1]/hook", false, "private"],
    ["https://[::ffff:10.0.0.1]/hook", false, "private"],
    ["https://db.internal/hook", false, "private"],
    ["https://printer.local/hook", false, "private"],
    ["https://intranet/hook", false, "private"],
    ["https://user:pass@hooks.example.com/", false, "credentials"],
    // Names and numbers URL() normalises: a trailing root dot, decimal, hex, octal and short IPv4.
    ["https://localhost./hook", false, "private"],
    ["https://metadata.google.internal./", false, "private"],
    ["https://intranet./hook", false, "private"],
    ["https://2130706433/hook", false, "private"],
    ["https://0x7f.1/hook", false, "private"],
    ["https://0177.0.0.1/hook", false, "private"],
    ["https://127.1/hook", false, "private"],
    ["https://192.0.2.10/hook", false, "private"],
    ["https://203.0.113.7/hook", false, "private"],
    // IPv6 forms that embed an IPv4 address, and other non-global ranges.
    ["https://[::7f00:1]/hook", false, "private"],
    ["https://[::ffff:8.8.8.8]/hook", false, "private"],
    ["https://[2002:7f00:1::]/hook", false, "private"],
    ["https://[2001:0:4136:e378::1]/hook", false, "private"],
    ["https://[64:ff9b::7f00:1]/hook", false, "private"],
    ["https://[fec0::1]/hook", false, "private"],
    ["https://[100::1]/hook", false, "private"],
    ["https://[2001:db8::1]/hook", false, "private"],
    ["https://[ff02::1]/hook", false, "private"],
    ["http://localhost:3000/hook", true, undefined],
    ["http://127.0.0.1:3000/hook", true, undefined],
    ["http://[::1]:3000/hook", true, undefined],
    ["http://app.localhost/hook", true, undefined],
    ["https://hooks.example.com/", true, undefined],
    ["http://hooks.example.com/", true, "http://localhost"],
    ["https://10.0.0.1/", true, "public address"],
    ["ftp://hooks.example.com/", true, "https"],
  ])("%s (sandbox %s)", (endpoint, sandbox, problem) => {
    const found = endpointProblem(endpoint, sandbox);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});

describe("endpoints in local development (npm start: loopback receivers for every property)", () => {
  it.each([
    ["http://localhost:3000/hook", undefined],
    ["http://127.0.0.1:3000/hook", undefined],
    ["http://[::1]:3000/hook", undefined],
    ["https://localhost/hook", undefined],
    ["http://user:pass@localhost:3000/", "credentials"],
    ["http://10.0.0.8/hook", "https"],
    ["https://10.0.0.8/hook", "public address"],
    ["https://127.0.0.1.nip.io/hook", undefined],
  ])("%s (a production property)", (endpoint, problem) => {
    const found = endpointProblem(endpoint, false, true);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });

  it.each([
    ["development", "http://127.0.0.1:8787", true],
    ["development", "http://localhost:8788", true],
    ["development", "https://api.test", false],
    [undefined, "http://127.0.0.1:8787", false],
    ["production", "https://book.example.com", false],
  ])("are on with ENVIRONMENT %s and PUBLIC_ORIGIN %s: %s", (environment, origin, on) => {
    const env = { ENVIRONMENT: environment, PUBLIC_ORIGIN: origin, LINK_SECRET: "a-link-secret-of-16+" };
    expect(config(env as unknown as Bindings).loopbackWebhooks).toBe(on);
  });
});

describe("endpoint names at delivery", () => {
  // A table of DNS answers stands in for the resolver: what is tested is the decision on them.
  const dns: Record<string, string[]> = {
    "hooks.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    "127.0.0.1.nip.io": ["127.0.0.1"],
    "sneaky.example.com": ["93.184.216.34", "10.0.0.5"],
    "v6.example.com": ["fd12::1"],
    "nothing.example.com": [],
  };
  const resolve = async (name: string) => {
    if (!(name in dns)) throw new Error("SERVFAIL");
    return dns[name]!;
  };

  it.each([
    ["https://hooks.example.com/h", undefined],
    ["https://hooks.example.com./h", undefined],
    [
      "https://127.0.0.1.nip.io/h",
      { reason: "127.0.0.1.nip.io resolves to a private address (127.0.0.1)", transient: false },
    ],
    [
      "https://sneaky.example.com/h",
      { reason: "sneaky.example.com resolves to a private address (10.0.0.5)", transient: false },
    ],
    [
      "https://v6.example.com/h",
      { reason: "v6.example.com resolves to a private address (fd12::1)", transient: false },
    ],
    ["https://nothing.example.com/h", { reason: "nothing.example.com has no address", transient: true }],
    [
      "https://down.example.com/h",
      { reason: "could not resolve down.example.com: SERVFAIL", transient: true },
    ],
    ["https://93.184.216.34/h", undefined],
  ])("%s", async (endpoint, expected) => {
    expect(await resolvedProblem(endpoint, resolve)).toEqual(expected);
  });
});

describe("retry schedule", () => {
  it("follows the documented schedule: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up", () => {
    expect(RETRY_SCHEDULE).toEqual([0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n, 1))).toEqual([
      5, 300, 1800, 7200, 18000, 36000, 36000,
    ]);
    expect(retryDelay(8, 1)).toBeUndefined();
  });

  it("scales with one setting, and a Retry-After only ever asks for more time (capped at a day)", () => {
    expect(retryDelay(2, 0.001)).toBeCloseTo(0.3);
    expect(retryDelay(1, 1, 60)).toBe(60);
    expect(retryDelay(2, 1, 60)).toBe(300);
    expect(retryDelay(1, 1, 10_000_000)).toBe(86_400);
    expect(retryDelay(8, 1, 5)).toBeUndefined();
  });

  it("reads Retry-After as seconds or as an HTTP date", () => {
    const now = Date.parse("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
