// A local stand-in for Stripe, so `npm start` and the tests take payments with no Stripe account
// and no network: the API calls the Worker makes through the official SDK (connected accounts and
// their onboarding links, customers, PaymentIntents and SetupIntents on a connected account through
// `Stripe-Account`, refunds), what Stripe.js sends from the browser (confirming with the publishable
// key and the client secret), a stand-in Stripe.js at /v3/ with its card frame and 3-D Secure
// challenge, and signed events posted to the Worker's endpoint (events.mjs).
//
//   const standin = await startStripeStandin({ secretKey, publishableKey, webhookSecret });
//   standin.url        the API's base (STRIPE_API_BASE), standin.jsUrl (STRIPE_JS_URL)
//   standin.target(u)  where events go; standin.events.take() hands over those that went nowhere
//   adoptAccounts: true  a connected account of an earlier run (npm start's) is taken as onboarded
//
// Control routes for tests (never part of Stripe's API): GET /__standin/requests (every API call
// with its account, idempotency key and parameters), GET /__standin/events, POST
// /__standin/events/take, PUT /__standin/webhook {url}, POST /__standin/3ds/<intent> {client_secret,
// outcome: "complete" | "fail"}, POST /__standin/onboard/<account>.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createEvents } from "./events.mjs";
import { parseForm } from "./form.mjs";
import * as moves from "./moves.mjs";
import {
  accountOf,
  createState,
  expanded,
  invalid,
  newAccount,
  newCustomer,
  newPaymentIntent,
  newSetupIntent,
  notFound,
  StripeError,
} from "./objects.mjs";

/** The keys `npm start` and the tests use: Stripe's test-mode shapes, no account behind them. */
export const STANDIN_KEYS = {
  secretKey: "sk_test_standin_0000000000000000",
  publishableKey: "pk_test_standin_0000000000000000",
  webhookSecret: "whsec_standin0000000000000000000000",
};

const BROWSER = {
  "/v3/": ["browser/stripe.js", "text/javascript; charset=utf-8"],
  "/elements/payment.html": ["browser/payment.html", "text/html; charset=utf-8"],
  "/elements/challenge.html": ["browser/challenge.html", "text/html; charset=utf-8"],
};

export async function startStripeStandin(options = {}) {
  const keys = { ...STANDIN_KEYS, ...options };
  const state = createState();
  state.adoptAccounts = !!options.adoptAccounts;
  const events = createEvents(keys.webhookSecret, options.log);
  const ctx = { state, emit: events.emit };
  const requests = [];
  const idempotent = new Map();
  events.target(options.webhookUrl);

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      options.log?.(`stand-in: ${err?.stack ?? err}`);
      if (!res.headersSent) send(res, 500, { error: { type: "api_error", message: "stand-in failure" } });
    });
  });

  async function handle(req, res) {
    const url = new URL(req.url, "http://standin");
    if (req.method === "OPTIONS") return send(res, 204);
    if (req.method === "GET" && BROWSER[url.pathname]) return sendFile(res, BROWSER[url.pathname]);
    if (req.method === "GET" && url.pathname.startsWith("/connect/onboard/")) return onboardLink(res, url);
    const raw = await readBody(req);
    if (url.pathname.startsWith("/__standin/")) return control(req, res, url, raw);
    const params =
      req.method === "GET" ? parseForm(url.search.slice(1)) : parseForm(raw, req.headers["content-type"]);
    const caller = authorise(req, params);
    const account = req.headers["stripe-account"] || null;
    const key = req.headers["idempotency-key"];
    requests.push({
      at: Date.now(),
      method: req.method,
      path: url.pathname,
      account,
      idempotencyKey: key ?? null,
      publishable: caller === "publishable",
      params,
    });
    if (key && req.method === "POST")
      return replayable(res, { key, account, params, url }, () => answer(req, url, params, caller, account));
    const [status, body] = await answer(req, url, params, caller, account);
    return send(res, status, body);
  }

  /** Stripe's idempotency: the same key replays the first answer; other parameters with it are refused. */
  async function replayable(res, { key, account, params, url }, run) {
    const scope = `${account ?? "platform"} ${key}`;
    const hash = createHash("sha256")
      .update(`${url.pathname} ${JSON.stringify(params)}`)
      .digest("hex");
    const kept = idempotent.get(scope);
    if (kept && kept.hash !== hash)
      return send(res, 400, {
        error: {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
        },
      });
    if (kept) return send(res, kept.status, kept.body, { "idempotent-replayed": "true" });
    const [status, body] = await run();
    if (status < 500) idempotent.set(scope, { hash, status, body });
    return send(res, status, body);
  }

  async function answer(req, url, params, caller, account) {
    try {
      return [200, route(req.method, url.pathname, params, caller, account)];
    } catch (err) {
      if (err instanceof StripeError) return [err.status, { error: err.error }];
      throw err;
    }
  }

  /** The API's routes: [method, path, what it answers, whether the secret key alone may call it]. */
  const ROUTES = [
    ["POST", /^\/v1\/accounts$/, (p) => newAccount(state, p), true],
    ["GET", /^\/v1\/accounts\/(acct_\w+)$/, (_p, m) => accountOf(state, m[1]), true],
    ["POST", /^\/v1\/account_links$/, (p) => accountLink(p), true],
    ["POST", /^\/v1\/customers$/, (p, _m, c) => newCustomer(state, connected(c.account), p), true],
    ["POST", /^\/v1\/payment_intents$/, (p, _m, c) => createPaymentIntent(p, c.account), true],
    ["POST", /^\/v1\/setup_intents$/, (p, _m, c) => createSetupIntent(p, c.account), true],
    ["POST", /^\/v1\/refunds$/, (p, _m, c) => moves.refund(ctx, connected(c.account), p), true],
    [
      null,
      /^\/v1\/payment_intents\/(pi_\w+)(\/confirm|\/cancel)?$/,
      (p, m, c) => paymentIntent(m, p, c),
      false,
    ],
    [
      null,
      /^\/v1\/setup_intents\/(seti_\w+)(\/confirm|\/cancel)?$/,
      (p, m, c) => setupIntent(m, p, c),
      false,
    ],
  ];

  function route(method, path, params, caller, account) {
    for (const [verb, pattern, run, secretOnly] of ROUTES) {
      const m = pattern.exec(path);
      if (!m || (verb && verb !== method)) continue;
      if (secretOnly && caller !== "secret")
        throw new StripeError(401, {
          type: "invalid_request_error",
          message: "This API call cannot be made with a publishable API key.",
        });
      return run(params, m, { method, caller, account });
    }
    throw new StripeError(404, {
      type: "invalid_request_error",
      message: `Unrecognized request URL (${method}: ${path}).`,
    });
  }

  function createPaymentIntent(params, account) {
    const pi = newPaymentIntent(state, connected(account), params);
    events.emit("payment_intent.created", pi, account);
    // A decline at creation still made the intent: the card error (402) names it.
    if (params.confirm === "true") moves.confirmPayment(ctx, state.paymentIntents.get(pi.id), params);
    return expanded(state, pi, params.expand);
  }

  function createSetupIntent(params, account) {
    const si = newSetupIntent(state, connected(account), params);
    events.emit("setup_intent.created", si, account);
    return si;
  }

  function connected(account) {
    if (!account)
      throw invalid(
        "Stripe-Account",
        "This stand-in keeps payments on connected accounts only: send Stripe-Account.",
      );
    accountOf(state, account);
    return account;
  }

  function accountLink(params) {
    accountOf(state, params.account);
    if (!params.return_url || !params.refresh_url)
      throw invalid("return_url", "return_url and refresh_url are required");
    const expires = Math.floor(Date.now() / 1000) + 300;
    const link = `${base()}/connect/onboard/${params.account}?return_url=${encodeURIComponent(params.return_url)}`;
    return { object: "account_link", created: expires - 300, expires_at: expires, url: link };
  }

  /** Stripe's onboarding, done at once: the account can charge, and the browser goes back. */
  function onboardLink(res, url) {
    const account = url.pathname.split("/").pop();
    try {
      moves.onboard(ctx, account);
    } catch (err) {
      if (err instanceof StripeError) return send(res, 404, { error: err.error });
      throw err;
    }
    res.writeHead(302, { location: url.searchParams.get("return_url") ?? "/" });
    res.end();
  }

  function paymentIntent([, id, action], params, { method, caller, account }) {
    const entry = state.paymentIntents.get(id);
    if (!entry) throw notFound("payment_intent", id);
    checkCaller(entry, caller, account, params, "payment_intent");
    if (method === "GET" && !action) return expanded(state, entry.pi, params.expand);
    if (method === "POST" && action === "/confirm")
      return expanded(state, moves.confirmPayment(ctx, entry, params), params.expand);
    if (method === "POST" && action === "/cancel") {
      if (caller !== "secret") throw notFound("payment_intent", id);
      return moves.cancelPayment(ctx, entry, params.cancellation_reason);
    }
    throw notFound("route", id);
  }

  function setupIntent([, id, action], params, { method, caller, account }) {
    const entry = state.setupIntents.get(id);
    if (!entry) throw notFound("setup_intent", id);
    checkCaller(entry, caller, account, params, "setup_intent");
    if (method === "GET" && !action) return expanded(state, entry.si, params.expand);
    if (method === "POST" && action === "/confirm") return moves.confirmSetup(ctx, entry, params);
    if (method === "POST" && action === "/cancel") {
      Object.assign(entry.si, {
        status: "canceled",
        cancellation_reason: params.cancellation_reason ?? null,
      });
      return entry.si;
    }
    throw notFound("route", id);
  }

  /** An intent is reached on its own account; with the publishable key, only with its client secret. */
  function checkCaller(entry, caller, account, params, kind) {
    const intent = entry.pi ?? entry.si;
    if (entry.account !== account) throw notFound(kind, intent.id);
    if (caller === "publishable" && params.client_secret !== intent.client_secret)
      throw notFound(kind, intent.id);
  }

  function authorise(req, params) {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1] ?? params.key;
    if (bearer === keys.secretKey) return "secret";
    if (bearer === keys.publishableKey) return "publishable";
    throw new StripeError(401, {
      type: "invalid_request_error",
      message: `Invalid API Key provided: ${String(bearer ?? "").slice(0, 12)}***`,
    });
  }

  async function control(req, res, url, raw) {
    const body = raw ? JSON.parse(raw) : {};
    const onboarding = /^\/__standin\/onboard\/(acct_\w+)$/.exec(url.pathname);
    const challenge = /^\/__standin\/3ds\/((?:pi|seti)_\w+)$/.exec(url.pathname);
    if (req.method === "GET" && url.pathname === "/__standin/requests") return send(res, 200, requests);
    if (req.method === "GET" && url.pathname === "/__standin/events")
      return send(
        res,
        200,
        events.list().map(({ payload, ...e }) => ({ ...e, body: JSON.parse(payload) })),
      );
    if (req.method === "POST" && url.pathname === "/__standin/events/take")
      return send(res, 200, events.take());
    if (req.method === "PUT" && url.pathname === "/__standin/webhook") {
      events.target(body.url);
      return send(res, 204);
    }
    if (req.method === "POST" && onboarding) return send(res, 200, moves.onboard(ctx, onboarding[1]));
    if (req.method === "POST" && challenge) {
      const entry = state.paymentIntents.get(challenge[1]) ?? state.setupIntents.get(challenge[1]);
      const intent = entry?.pi ?? entry?.si;
      if (!intent || intent.client_secret !== body.client_secret)
        return send(res, 404, { error: { message: "no such intent" } });
      try {
        return send(res, 200, moves.authenticate(ctx, entry, body.outcome));
      } catch (err) {
        if (err instanceof StripeError) return send(res, err.status, { error: err.error });
        throw err;
      }
    }
    return send(res, 404, { error: { message: "no such control route" } });
  }

  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const base = () => `http://127.0.0.1:${server.address().port}`;
  return {
    url: base(),
    jsUrl: `${base()}/v3/`,
    keys,
    state,
    events,
    requests,
    target: (url) => events.target(url),
    close: () => new Promise((resolve) => server.close(() => resolve())),
    server,
  };
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "authorization, content-type, stripe-account, idempotency-key",
    "access-control-allow-methods": "GET, POST, PUT, OPTIONS",
    "request-id": `req_${Date.now().toString(36)}`,
    ...(body === undefined ? {} : { "content-type": "application/json" }),
    ...headers,
  });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

const files = new Map();
function sendFile(res, [path, type]) {
  if (!files.has(path)) files.set(path, readFileSync(new URL(path, import.meta.url)));
  res.writeHead(200, {
    "content-type": type,
    "access-control-allow-origin": "*",
    "cache-control": "no-store",
  });
  res.end(files.get(path));
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => resolve(data));
    req.on("error", reject);
  });
}
