// The stand-in's events: each move of an object becomes a Stripe event, signed with the webhook
// secret as Stripe signs (`Stripe-Signature: t=<seconds>,v1=<HMAC-SHA256 of "t.payload">`, through
// the SDK's own header helper) and posted, in order, to the endpoint set with `target(url)`, retried
// a few times while it fails. With no endpoint the events wait in `take()` (the Worker's tests, whose
// Worker has no address of its own, hand them over themselves).
import { randomBytes } from "node:crypto";
import Stripe from "stripe";

const API_VERSION = "2026-10-28.endive";
const webhooks = Stripe.webhooks;

export function createEvents(secret, log = () => {}) {
  const all = [];
  let url;
  let chain = Promise.resolve();

  function sign(payload) {
    return webhooks.generateTestHeaderString({ payload, secret });
  }

  async function post(event) {
    for (let attempt = 1; attempt <= 6; attempt++) {
      event.attempts = attempt;
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: {
            "content-type": "application/json; charset=utf-8",
            "stripe-signature": sign(event.payload),
            "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          },
          body: event.payload,
          signal: AbortSignal.timeout(10_000),
        });
        event.answered = res.status;
        await res.arrayBuffer();
        if (res.ok) {
          event.delivered = true;
          return;
        }
      } catch (err) {
        event.answered = String(err?.message ?? err);
      }
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
    log(`event ${event.id} (${event.type}) not delivered to ${url}: ${event.answered}`);
  }

  return {
    /** A new event of `object`, on connected account `account` (null: the platform's own). */
    emit(type, object, account) {
      const body = {
        id: `evt_${randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`,
        object: "event",
        api_version: API_VERSION,
        created: Math.floor(Date.now() / 1000),
        data: { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: url ? 1 : 0,
        request: { id: null, idempotency_key: null },
        type,
        ...(account && { account }),
      };
      const event = {
        id: body.id,
        type,
        account,
        payload: JSON.stringify(body),
        delivered: false,
        taken: false,
      };
      all.push(event);
      if (url) {
        const target = url;
        chain = chain.then(() => (url === target ? post(event) : undefined));
      }
      return event;
    },
    target(next) {
      url = next || undefined;
    },
    sign,
    list: () => all,
    /** Events not yet delivered nor taken, each with a fresh signature, marked taken. */
    take() {
      const out = all.filter((e) => !e.delivered && !e.taken);
      for (const e of out) e.taken = true;
      return out.map((e) => ({ id: e.id, type: e.type, payload: e.payload, signature: sign(e.payload) }));
    },
    /** Resolves once every event queued so far was posted (or given up on). */
    settled: () => chain,
  };
}
