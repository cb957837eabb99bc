/**
 * Which addresses a webhook may be sent to. Pure: checked when a subscription is
 * written and again before every attempt (a property may have left the sandbox meanwhile).
 * Sandbox subscriptions may also target http://localhost; production ones need https and a
 * public address. Before each production attempt the name's DNS answers are checked too
 * (resolvedProblem), so a public name pointing at a private address is refused. In local
 * development every property may use a loopback receiver (`loopback`: the config says so).
 */

const LOCAL_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

function ipv4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

/**
 * Loopback, private, link-local, carrier-grade NAT, "this network", IETF protocol assignments,
 * documentation (TEST-NET), benchmarking, multicast and reserved IPv4 ranges.
 */
function privateV4([a, b, c]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    a! >= 224 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113)
  );
}

/** The eight 16-bit groups of an IPv6 literal (URL() has already normalised it), or undefined. */
function groups(v6: string): number[] | undefined {
  let text = v6;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4(dotted[1]!);
    if (!v4) return undefined;
    text =
      text.slice(0, -dotted[1]!.length) +
      `${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const [head, tail] = text.split("::");
  const parse = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = parse(tail);
  const out = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill(0), ...t];
  return out.length === 8 && out.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? out : undefined;
}

/** Anything but plain global unicast: also every form that embeds an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo). */
function privateV6(literal: string): boolean {
  const g = groups(literal.replace(/^\[|\]$/g, "").toLowerCase());
  if (!g) return true;
  const [g0, g1] = g as [number, number];
  if (g.slice(0, 6).every((x) => x === 0)) return true; // ::, ::1, ::a.b.c.d (compatible)
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return true; // ::ffff:a.b.c.d (mapped)
  if (g0 === 0x64 && g1 === 0xff9b) return true; // NAT64
  if (g0 === 0x2002) return true; // 6to4
  if (g0 === 0x2001 && g1 === 0) return true; // Teredo
  if (g0 === 0x2001 && g1 === 0xdb8) return true; // documentation
  if (g0 === 0x100 && g1 === 0) return true; // discard-only
  if ((g0 & 0xfe00) === 0xfc00) return true; // unique local
  if ((g0 & 0xffc0) === 0xfe80 || (g0 & 0xffc0) === 0xfec0) return true; // link-local, site-local
  if ((g0 & 0xff00) === 0xff00) return true; // multicast
  return false;
}

function internalName(host: string): boolean {
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host.endsWith(".local") ||
    host.endsWith(".internal") ||
    host.endsWith(".lan") ||
    host.endsWith(".home.arpa") ||
    !host.includes(".")
  );
}

/** Whether an address (IPv4 dotted, or IPv6 with or without brackets) is not a public one. */
export function privateAddress(address: string): boolean {
  const v4 = ipv4(address);
  if (v4) return privateV4(v4);
  return privateV6(address);
}

/** An http(s) URL on this machine's loopback names (localhost, 127.0.0.1, [::1]), without credentials. */
export function loopbackEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  // "localhost." is "localhost": the root's dot must not slip a name past the rules.
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  return (
    (LOCAL_NAMES.has(host) || host.endsWith(".localhost")) &&
    (url.protocol === "http:" || url.protocol === "https:") &&
    !url.username &&
    !url.password
  );
}

/**
 * Why `endpoint` may not receive webhooks of a (sandbox or production) property, or undefined.
 * `loopback`: loopback receivers are allowed whatever the property (local development only).
 */
export function endpointProblem(endpoint: string, sandbox: boolean, loopback = false): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "endpoint is not a URL";
  }
  if (url.username || url.password) return "endpoint must not carry credentials";
  if ((sandbox || loopback) && loopbackEndpoint(endpoint)) return undefined;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (url.protocol !== "https:") {
    return sandbox
      ? "endpoint must use https (sandbox properties may also use http://localhost)"
      : "endpoint must use https";
  }
  const literal = ipv4(host) !== undefined || host.startsWith("[");
  if ((literal && privateAddress(host)) || (!literal && internalName(host))) {
    return sandbox
      ? "endpoint must be a public address (sandbox properties may also use localhost)"
      : "endpoint must be a public address: private, loopback and link-local targets are refused";
  }
  return undefined;
}

/** A name's addresses (A and AAAA), as a DNS resolver answers them. */
export type Resolve = (name: string) => Promise<string[]>;

/**
 * Why a production endpoint's name may not be used right now: it resolves to a private address,
 * or (transient: worth a retry) it cannot be resolved. Literal addresses were checked by
 * endpointProblem already.
 */
export async function resolvedProblem(
  endpoint: string,
  resolve: Resolve,
): Promise<{ reason: string; transient: boolean } | undefined> {
  const host = new URL(endpoint).hostname.toLowerCase().replace(/\.$/, "");
  if (ipv4(host) || host.startsWith("[")) return undefined;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch (err) {
    return { reason: `could not resolve ${host}: ${(err as Error)?.message ?? err}`, transient: true };
  }
  if (addresses.length === 0) return { reason: `${host} has no address`, transient: true };
  const bad = addresses.find(privateAddress);
  return bad ? { reason: `${host} resolves to a private address (${bad})`, transient: false } : undefined;
}
