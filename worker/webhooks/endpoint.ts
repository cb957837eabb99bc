/**
 * Which addresses a webhook may be sent to (CONTRACT 9). Pure: checked when a subscription is
 * written and again before every attempt (a property may have left the sandbox meanwhile).
 * Sandbox subscriptions may also target http://localhost; production ones need https and a
 * public address. Names are checked as written: Workers cannot resolve DNS before fetch, and
 * Cloudflare's own egress does not reach private networks.
 */

const LOCAL_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

function ipv4(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  return parts.every((p) => p <= 255) ? parts : undefined;
}

/** Loopback, private, link-local, carrier-grade NAT, "this network", multicast and reserved v4 ranges. */
function privateV4([a, b]: number[]): boolean {
  return (
    a === 0 || a === 10 || a === 127 || a! >= 224 ||
    (a === 100 && b! >= 64 && b! <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19))
  );
}

/** IPv6 literals other than global unicast: loopback, unspecified, unique-local, link-local, mapped v4. */
function privateV6(host: string): boolean {
  const h = host.slice(1, -1).toLowerCase();
  if (h === "::1" || h === "::") return true;
  if (/^f[cd]/.test(h) || /^fe[89ab]/.test(h) || /^ff/.test(h)) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  if (mapped) return privateV4(ipv4(mapped[1]!)!);
  return h.startsWith("::ffff:") || h.startsWith("64:ff9b:");
}

function internalName(host: string): boolean {
  return (
    host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal") ||
    host.endsWith(".lan") || host.endsWith(".home.arpa") || !host.includes(".")
  );
}

/** Why `endpoint` may not receive webhooks of a (sandbox or production) property, or undefined. */
export function endpointProblem(endpoint: string, sandbox: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "endpoint is not a URL";
  }
  if (url.username || url.password) return "endpoint must not carry credentials";
  const host = url.hostname.toLowerCase();
  const local = LOCAL_NAMES.has(host) || host.endsWith(".localhost");
  if (sandbox && local && (url.protocol === "http:" || url.protocol === "https:")) return undefined;
  if (url.protocol !== "https:") {
    return sandbox ? "endpoint must use https (sandbox properties may also use http://localhost)" : "endpoint must use https";
  }
  const v4 = ipv4(host);
  if ((v4 && privateV4(v4)) || (host.startsWith("[") && privateV6(host)) || (!v4 && !host.startsWith("[") && internalName(host))) {
    return sandbox
      ? "endpoint must be a public address (sandbox properties may also use localhost)"
      : "endpoint must be a public address: private, loopback and link-local targets are refused";
  }
  return undefined;
}
