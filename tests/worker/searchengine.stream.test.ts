/**
 * GET /searchengine/feeds/availability.json is written as it is worked out: one merchant's
 * booking window a day at a time, so the Worker never holds the whole feed (tens of megabytes a
 * merchant). Its peak memory for 1 and 50 merchants is measured by `npm run bench` (part feeds).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { controlDb } from "../../worker/db/handles";
import { allMerchants, availabilityFeedText } from "../../worker/searchengine/feeds";
import { ORIGIN } from "./helpers";
import { merchant, PARTNER_AUTH } from "./searchengine.fixtures";

async function chunksOf(path: string) {
  const res = await (exports as unknown as { default: Fetcher }).default.fetch(
    new Request(`${ORIGIN}/searchengine${path}`, { headers: { Authorization: PARTNER_AUTH } }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("Content-Type")).toContain("application/json");
  const reader = res.body!.getReader();
  const sizes: number[] = [];
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    sizes.push(value.byteLength);
    text += decoder.decode(value, { stream: true });
  }
  return { sizes, text: text + decoder.decode() };
}

describe("GET /searchengine/feeds/availability.json", () => {
  it("is worked out a day at a time: many pieces, none near the whole, together the JSON the route answers", async () => {
    const m = await merchant({ tables: [2, 4], settings: { max_days_ahead: 20 } });
    const merchants = await allMerchants(env, controlDb(env.DB), m.merchantId);
    const pieces: string[] = [];
    for await (const piece of availabilityFeedText(merchants, false)) pieces.push(piece);
    const total = pieces.reduce((n, p) => n + p.length, 0);
    expect(pieces.length).toBeGreaterThanOrEqual(20);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(total / 5);
    const built = JSON.parse(pieces.join(""));

    const { sizes, text } = await chunksOf(`/feeds/availability.json?merchant_id=${m.merchantId}`);
    expect(sizes.length).toBeGreaterThan(0);
    const feed = JSON.parse(text);
    expect(feed.service_availability).toEqual(built.service_availability);
    expect(feed.metadata).toMatchObject({
      processing_instruction: "PROCESS_AS_INCREMENTAL",
      total_shards: 1,
    });
    expect(feed.service_availability).toHaveLength(1);
    const slots = feed.service_availability[0].availability;
    const days = new Set(
      slots.map((s: { start_sec: number }) => new Date(s.start_sec * 1000).toISOString().slice(0, 10)),
    );
    expect(days.size).toBeGreaterThanOrEqual(20);
    for (const s of slots)
      expect(s).toMatchObject({
        merchant_id: m.merchantId,
        service_id: m.serviceId,
        confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
      });
  });
});
