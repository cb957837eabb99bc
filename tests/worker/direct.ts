/**
 * The Worker's app called in the test's own request, without a request of its own in the runtime
 * (no `exports` round trip): the suites that send hundreds of requests use it. (The pool's
 * `exports` used to cost more with every request; patches/ mends that, see docs/testing.md.)
 */
import { env } from "cloudflare:workers";
import { createApp } from "../../worker/app";
import { type CallOptions, ORIGIN } from "./helpers";

const app = createApp();
const ctx = { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext;

export interface DirectOptions extends Omit<CallOptions, "body"> {
  /** JSON unless a string; a ReadableStream is sent as is (chunked: no Content-Length) */
  body?: unknown;
}

export async function direct(path: string, o: DirectOptions = {}) {
  const headers = new Headers(o.headers);
  if (o.token) headers.set("Authorization", `Bearer ${o.token}`);
  if (o.property !== undefined) headers.set("Property", String(o.property));
  let body: BodyInit | undefined;
  if (o.body instanceof ReadableStream) body = o.body;
  else if (o.body !== undefined) body = typeof o.body === "string" ? o.body : JSON.stringify(o.body);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const res = await app.fetch(
    new Request(`${ORIGIN}${path}`, {
      method: o.method ?? (body !== undefined ? "POST" : "GET"),
      headers,
      body,
    }),
    env,
    ctx,
  );
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** A body of `bytes` bytes sent in 4 KiB chunks, without a Content-Length. */
export function chunked(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 4096));
      at += 4096;
    },
  });
}
