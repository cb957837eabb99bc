/**
 * The sender of the reserved subscription kind SEARCHENGINE_BOOKING (worker/webhooks/delivery.ts
 * picks a sender by the subscription's type): a change of a search-engine booking made outside
 * the booking server, as PATCH <notification URL>/v1alpha/notification/partners/{partner}/bookings/{id}
 * ?updateMask=..., authorised by an OAuth 2 access token that a service-account JWT (RS256,
 * lib/jwt.ts) buys at the key's token_uri. The webhook machinery around it stays as it is: the
 * outbox row, the queue, the retry schedule and every attempt recorded.
 */
import { z } from "zod";
import { isTimeZone } from "../../shared/schemas";
import type { Bindings } from "../env";
import { signRs256 } from "../lib/jwt";
import { type Outcome, send } from "../webhooks/transport";
import { type EventRow, fixPayload } from "../webhooks/webhooks.repo";
import { type ServiceAccountKey, searchengineConfig } from "./config";
import { type NotificationSnapshot, notificationBody, notificationMask } from "./google";

export const MAPSBOOKING_SCOPE = "https://www.googleapis.com/auth/mapsbooking";
/** A token is used until this long before it expires, so none expires on the way. */
const EARLY_MS = 60_000;

const TokenAnswer = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive().default(3600),
});

interface Cached {
  token: Promise<{ value: string; until: number }>;
}
/** Per isolate, by key: an access token (or the request for one under way), kept until it nearly expires. */
const tokens = new Map<string, Cached>();
const keyName = (key: ServiceAccountKey) => `${key.client_email} ${key.token_uri}`;

/** The signed assertion of RFC 7523: the key's account asks for the mapsbooking scope at its token_uri. */
async function assertion(key: ServiceAccountKey): Promise<string> {
  // Real time, not the Worker's (maybe shifted) clock: the token endpoint checks it against its own.
  const iat = Math.floor(Date.now() / 1000);
  const header = { alg: "RS256", typ: "JWT", ...(key.private_key_id && { kid: key.private_key_id }) };
  const claims = {
    scope: MAPSBOOKING_SCOPE,
    iss: key.client_email,
    aud: key.token_uri,
    iat,
    exp: iat + 3600,
  };
  return signRs256(header, claims, key.private_key);
}

async function exchange(
  key: ServiceAccountKey,
  timeoutMs: number,
  fetcher: typeof fetch,
): Promise<{ value: string; until: number }> {
  const res = await fetcher(key.token_uri, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: await assertion(key),
    }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`the token endpoint answered ${res.status}: ${text.slice(0, 200)}`);
  const answer = TokenAnswer.safeParse(JSON.parse(text || "{}"));
  if (!answer.success) throw new Error("the token endpoint answered no access_token");
  return { value: answer.data.access_token, until: Date.now() + answer.data.expires_in * 1000 - EARLY_MS };
}

/** An access token for the key: the cached one while it lasts, else a new one (one request at a time per key). */
export async function accessToken(
  key: ServiceAccountKey,
  timeoutMs: number,
  fetcher: typeof fetch = fetch,
): Promise<string> {
  const name = keyName(key);
  const cached = tokens.get(name);
  if (cached) {
    const t = await cached.token.catch(() => undefined);
    if (t && t.until > Date.now()) return t.value;
    if (tokens.get(name) === cached) tokens.delete(name);
  }
  const entry: Cached = { token: exchange(key, timeoutMs, fetcher) };
  tokens.set(name, entry);
  entry.token.catch(() => tokens.get(name) === entry && tokens.delete(name));
  return (await entry.token).value;
}

/** Drops the key's token (the API refused it: revoked, or the clock of either side is off). */
export function forgetToken(key: ServiceAccountKey): void {
  tokens.delete(keyName(key));
}

/** One attempt at a SEARCHENGINE_BOOKING event: its booking's change, PATCHed to the notification API. */
export async function sendNotification(
  env: Bindings,
  d1: D1Database,
  event: EventRow,
  timeoutMs: number,
): Promise<Outcome> {
  const started = Date.now();
  const failed = (error: string): Outcome => ({
    status: null,
    error,
    excerpt: null,
    retryAfter: undefined,
    latencyMs: Date.now() - started,
  });
  const { serviceAccount: key, partnerId, notificationUrl } = searchengineConfig(env);
  if ("problem" in key) return failed(key.problem);
  if (!partnerId)
    return failed("SEARCHENGINE_PARTNER_ID is not set: the notification API's paths name the partner");
  const snapshot = JSON.parse(event.snapshot) as NotificationSnapshot;
  const timeZone = snapshot.timezone && isTimeZone(snapshot.timezone) ? snapshot.timezone : "UTC";
  const mask = notificationMask(snapshot);
  if (!mask.length) mask.push("status");
  // The first attempt fixes the body: every retry sends the same bytes.
  const body =
    event.payload ??
    (await fixPayload(
      d1,
      event.id,
      JSON.stringify(notificationBody(partnerId, snapshot, mask, timeZone)),
      event.snapshot,
    ));
  if (body === undefined)
    return failed("the event was rewritten (an erasure) while its body was built; built again next attempt");
  let token: string;
  try {
    token = await accessToken(key, timeoutMs);
  } catch (err) {
    return failed(`no access token: ${(err as Error)?.message ?? String(err)}`);
  }
  const url = `${notificationUrl}/v1alpha/notification/partners/${encodeURIComponent(partnerId)}/bookings/${snapshot.id}?updateMask=${mask.join(",")}`;
  const outcome = await send(
    url,
    { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body,
    timeoutMs,
    "PATCH",
  );
  if (outcome.status === 401) forgetToken(key);
  return outcome;
}
