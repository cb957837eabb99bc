// npm start's payments: the local Stripe stand-in, unless .dev.vars names real Stripe keys (then
// Stripe itself, docs/payments.md). Writes what the Worker reads into .dev.vars: the stand-in's
// address (STRIPE_API_BASE), its Stripe.js (STRIPE_JS_URL), the test keys and the webhook secret.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { DEV_VARS, devVar } from "../ops-door.mjs";
import { STANDIN_KEYS, startStripeStandin } from "./server.mjs";

/** Sets KEY in .dev.vars (replaced, added, or removed when `value` is undefined). */
export function setDevVar(key, value) {
  const lines = existsSync(DEV_VARS) ? readFileSync(DEV_VARS, "utf8").split("\n") : [];
  const kept = lines.filter((l) => !l.startsWith(`${key}=`));
  if (value !== undefined)
    kept.splice(kept.at(-1) === "" ? kept.length - 1 : kept.length, 0, `${key}=${value}`);
  writeFileSync(DEV_VARS, `${kept.join("\n").replace(/\n*$/, "")}\n`);
}

/** Real Stripe test keys in .dev.vars: npm start leaves them, and starts no stand-in. */
export function usesRealStripe() {
  const key = devVar("STRIPE_SECRET_KEY");
  return !!key && key !== STANDIN_KEYS.secretKey;
}

/** Starts the stand-in and writes its address and keys into .dev.vars; undefined with real Stripe keys. */
export async function startLocalStripe(log) {
  if (usesRealStripe()) {
    setDevVar("STRIPE_API_BASE", undefined);
    setDevVar("STRIPE_JS_URL", undefined);
    return undefined;
  }
  const standin = await startStripeStandin({ adoptAccounts: true, log });
  setDevVar("STRIPE_SECRET_KEY", STANDIN_KEYS.secretKey);
  setDevVar("STRIPE_PUBLISHABLE_KEY", STANDIN_KEYS.publishableKey);
  setDevVar("STRIPE_WEBHOOK_SECRET", STANDIN_KEYS.webhookSecret);
  setDevVar("STRIPE_API_BASE", standin.url);
  setDevVar("STRIPE_JS_URL", standin.jsUrl);
  return standin;
}
