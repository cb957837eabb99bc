/**
 * The wire side of a webhook attempt: the POST with its timeout, what the receiver answered
 * (status, the first bytes, Retry-After), and name resolution for the endpoint checks. No D1.
 */
import { parseRetryAfter } from "../outbox/retry";

const EXCERPT_BYTES = 512;

/** A and AAAA records over DNS-over-HTTPS (Workers have no resolver API). */
export async function dohResolve(name: string): Promise<string[]> {
  const answers = await Promise.all(
    ["A", "AAAA"].map(async (type) => {
      const res = await fetch(
        `https://cloudflare-dns.com/dns-query?name=${encodeURIComponent(name)}&type=${type}`,
        {
          headers: { accept: "application/dns-json" },
          signal: AbortSignal.timeout(3000),
        },
      );
      if (!res.ok) throw new Error(`DNS over HTTPS answered ${res.status}`);
      const body = (await res.json()) as { Answer?: { type: number; data: string }[] };
      return (body.Answer ?? []).filter((a) => a.type === 1 || a.type === 28).map((a) => a.data);
    }),
  );
  return answers.flat();
}

let resolver: (name: string) => Promise<string[]> = dohResolve;

/** A name's A and AAAA addresses: over DNS-over-HTTPS, or what a test set with setResolver. */
export function resolveName(name: string): Promise<string[]> {
  return resolver(name);
}

/** Tests only: answer names from a table instead of the network (no argument: DNS over HTTPS again); answers the resolver it replaced. */
export function setResolver(
  resolve?: (name: string) => Promise<string[]>,
): (name: string) => Promise<string[]> {
  const previous = resolver;
  resolver = resolve ?? dohResolve;
  return previous;
}

/** Reads at most EXCERPT_BYTES of a response body, without waiting for the rest. */
async function excerpt(res: Response): Promise<string | null> {
  if (!res.body) return null;
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < EXCERPT_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
  }
  await reader.cancel().catch(() => {});
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  const text = new TextDecoder().decode(bytes.slice(0, EXCERPT_BYTES));
  return text === "" ? null : text;
}

export interface Outcome {
  status: number | null;
  error: string | null;
  excerpt: string | null;
  retryAfter: number | undefined;
  latencyMs: number;
}

/**
 * A pooled keep-alive connection the receiver closed meanwhile fails before any answer ("Network
 * connection lost"): the request is sent once more on a fresh connection, within the same timeout.
 */
async function post(
  endpoint: string,
  method: string,
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<Response> {
  const request = () => fetch(endpoint, { method, headers, body, redirect: "manual", signal });
  try {
    return await request();
  } catch (err) {
    if (signal.aborted || !/Network connection lost/i.test(String((err as Error)?.message))) throw err;
    return request();
  }
}

/** `method`: POST for webhooks; the search engine's notification API takes PATCH. */
export async function send(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  method = "POST",
): Promise<Outcome> {
  const started = Date.now();
  try {
    // redirect "manual": a 3xx is the receiver's answer, never followed (it could point anywhere).
    const res = await post(endpoint, method, headers, body, AbortSignal.timeout(timeoutMs));
    const text = await excerpt(res).catch(() => null);
    const latencyMs = Date.now() - started;
    const error =
      res.status >= 300 && res.status < 400
        ? `redirect to ${res.headers.get("location") ?? "?"} not followed`
        : null;
    return {
      status: res.status,
      error,
      excerpt: text,
      retryAfter: parseRetryAfter(res.headers.get("retry-after")),
      latencyMs,
    };
  } catch (err) {
    const e = err as Error;
    const error =
      e?.name === "TimeoutError" || e?.name === "AbortError"
        ? `no answer within ${timeoutMs} ms`
        : `could not connect: ${e?.message ?? String(err)}`;
    return { status: null, error, excerpt: null, retryAfter: undefined, latencyMs: Date.now() - started };
  }
}
