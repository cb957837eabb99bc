/**
 * createApp(): the one place routers are mounted, docs served and errors mapped. Each area of the
 * Worker is mounted by a function of its own below, with the middleware that guards it, in the
 * order the requests meet them.
 */
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import { clientsRouter } from "./auth/clients.routes";
import { bearerAuth, propertyHeaderId, requireProperty } from "./auth/middleware";
import { bookingsRouter } from "./availability/availability.routes";
import { slotsPreload } from "./availability/listing";
import { config } from "./config";
import { CONSOLE_API, consoleAuth } from "./console/api";
import { consoleRouter } from "./console/console.routes";
import { consoleLinksRouter } from "./console/links.routes";
import { sameOriginWrites } from "./console/origin";
import { customersRouter } from "./customers/customers.routes";
import { docsRouter } from "./docs/docs.routes";
import type { AppEnv } from "./env";
import { ApiError, onError } from "./errors";
import { background } from "./lib/background";
import { idempotency } from "./lib/idempotency";
import {
  callerKey,
  clientIp,
  database,
  jsonBodyOnly,
  limitBody,
  MAX_BODY_BYTES,
  noStore,
  rateLimit,
} from "./lib/middleware";
import { documentMiddlewareAnswers } from "./lib/openapi";
import { createRouter } from "./lib/router";
import { methodNotAllowed } from "./lib/routes";
import { reservationMessagesRouter } from "./messages/messages.routes";
import { appsRouter } from "./oauth/apps.routes";
import { authorizeRouter } from "./oauth/authorize.routes";
import { authBodyTooLarge } from "./oauth/errors";
import { grantsRouter } from "./oauth/grants.routes";
import { metadataRouter } from "./oauth/metadata.routes";
import { tokenRouter } from "./oauth/token.routes";
import { opsRouter } from "./ops/ops.routes";
import { dispatchAfterWrite } from "./outbox/dispatch";
import { stripeEventsRouter } from "./payments/events.routes";
import { paymentAccountRouter, reservationPaymentRouter } from "./payments/payments.routes";
import { authoriseProperty } from "./properties/authorise";
import { shardBookmark } from "./properties/binding";
import { closuresRouter } from "./properties/closures.routes";
import { propertiesRouter } from "./properties/properties.routes";
import { roomsRouter } from "./properties/rooms.routes";
import { servicesRouter } from "./properties/services.routes";
import { tablesRouter } from "./properties/tables.routes";
import { calendarRouter } from "./public/calendar.routes";
import { waitlistRouter } from "./public/offers.routes";
import { pagesRouter } from "./public/pages";
import { payRouter } from "./public/pay.routes";
import { publicRouter } from "./public/public.routes";
import { reservationPreload } from "./reservations/preload";
import { reservationsRouter } from "./reservations/reservations.routes";
import { bookedAtDesk } from "./restaurant/desk";
import { partnerAuth } from "./searchengine/partner";
import { searchengineRouter } from "./searchengine/searchengine.routes";
import { searchengineSwitchRouter } from "./searchengine/switch.routes";
import { notesRouter } from "./shift/notes.routes";
import { reportsRouter } from "./shift/reports.routes";
import { walkInsRouter } from "./shift/walk-ins.routes";
import { auditRouter } from "./staff/audit.routes";
import { staffRouter } from "./staff/staff.routes";
import { registerWebhookEvents, webhooksRouter } from "./webhooks/webhooks.routes";
import { wire } from "./wiring";

export const API_BASE = "/api/v2";
export const AUTH_BASE = "/auth/api/v2/api-account/oauth2";

type App = ReturnType<typeof createRouter>;
type Middleware = MiddlewareHandler<AppEnv>;

export function createApp() {
  wire();
  const app = createRouter();
  app.use("*", ...everyRequest());
  mountAuthArea(app);
  mountIntegratorApi(app);
  mountPublicApi(app);
  mountSearchEngine(app);
  mountStripeEvents(app);
  mountHostedPages(app);
  mountConsole(app);
  mountOpenApiDocument(app);
  app.route("/", docsRouter);
  mountOps(app);
  app.notFound(unrouted(app));
  app.onError(onError);
  return app;
}

function everyRequest(): Middleware[] {
  return [
    requestId({ headerName: "X-Request-Id", limitLength: 200 }),
    secureHeaders({ crossOriginResourcePolicy: false, xFrameOptions: false }),
    database(),
    // The bindings and waitUntil of work after the answer (the consoles' live feed).
    background(),
    // Whichever shard served the request: its D1 bookmark, for the caller's next read.
    shardBookmark(),
  ];
}

/**
 * Unauthenticated: client creation, the OAuth token endpoints, and the hosted pages where a
 * restaurant connects an integrator (authorize) and sees or disconnects them (connected-apps).
 * The token router comes first: its per-address limit covers the whole area.
 */
function mountAuthArea(app: App) {
  app.use(`${AUTH_BASE}/*`, limitBody(MAX_BODY_BYTES, authBodyTooLarge));
  app.route(AUTH_BASE, tokenRouter);
  app.route(AUTH_BASE, clientsRouter);
  app.route(AUTH_BASE, authorizeRouter);
  app.route(AUTH_BASE, appsRouter);
  app.route("/", metadataRouter);
}

/** The integrator API's guards before a write's Idempotency-Key: bearer token, per-client rate limit, JSON bodies. */
function integratorGuards(): Middleware[] {
  return [
    noStore(),
    limitBody(),
    bearerAuth(),
    rateLimit({ binding: "API_RATE_LIMITER", key: (c) => `client:${c.get("client").id}` }),
    jsonBodyOnly(),
  ];
}

/**
 * Idempotent writes of a client. A stored answer is replayed only to a request that may still
 * act: the property-scoped routes authorise the Property header before this runs, and before a
 * replay elsewhere the property the request names (its path /properties/{id}, or its Property
 * header) is authorised too, as the handler would.
 */
function integratorIdempotency(): Middleware {
  return idempotency({
    scope: (c) => `client:${c.get("client").id}`,
    beforeReplay: async (c) => {
      if (c.get("property") || (await checkPendingProperty(c))) return;
      const inPath = /\/properties\/(\d{1,15})(?:\/|$)/.exec(c.req.path)?.[1];
      const named = inPath !== undefined ? Number(inPath) : propertyHeaderId(c.req.header("Property"));
      if (named !== undefined) await authoriseProperty(c, named, { allowExpired: true });
    },
  });
}

/**
 * A booking leaves its property's row to the restaurant's desk (authorisePropertyLater), which a
 * replay skips: the row is read and checked here instead. Answers whether there was one.
 */
async function checkPendingProperty(c: Context<AppEnv>): Promise<boolean> {
  const pending = c.get("pendingProperty");
  if (pending === undefined || c.get("property")) return false;
  await authoriseProperty(c, pending);
  return true;
}

/** The console's guards: the same, with its session (and CSRF token on writes) for the bearer token, limited per property. */
function consoleGuards(): Guards {
  return {
    before: [
      noStore(),
      limitBody(),
      ...consoleAuth(),
      rateLimit({ binding: "API_RATE_LIMITER", key: (c) => `console:${c.get("client").propertyId}` }),
      jsonBodyOnly(),
    ],
    // A session reaches its own property only, and an ended session stops at consoleAuth: only a booking's row is left to check before a replay.
    idempotent: idempotency({
      scope: (c) => `console:${c.get("client").propertyId}`,
      beforeReplay: async (c) => void (await checkPendingProperty(c)),
    }),
  };
}

/** A door's guards: those before a write's Idempotency-Key, and the idempotency step itself (after the property is authorised). */
interface Guards {
  before: Middleware[];
  idempotent: Middleware;
}

/** The routers of the integrator API that act on the property of the Property header, by path. */
const PROPERTY_SCOPED = [
  ["rooms", roomsRouter],
  ["tables", tablesRouter],
  ["services", servicesRouter],
  ["closures", closuresRouter],
  ["reservations", reservationsRouter],
  ["bookings", bookingsRouter],
  ["customers", customersRouter],
] as const;

function mountIntegratorApi(app: App) {
  const guards: Guards = { before: integratorGuards(), idempotent: integratorIdempotency() };
  mountApiRouters(app, API_BASE, guards);
  mountWebhooks(app, [...guards.before, guards.idempotent]);
  // A platform's sign-in link into a restaurant's console: not in mountApiRouters, so the console's own API has no such route.
  app.use(`${API_BASE}/console/*`, ...guards.before, requireProperty(), guards.idempotent);
  app.route(`${API_BASE}/console`, consoleLinksRouter);
}

/** The integrator API's routers under `base`, behind the integrator's guards or the console's. */
function mountApiRouters(app: Hono<AppEnv>, base: string, { before, idempotent }: Guards) {
  const guards = [...before, idempotent];
  // The slot listing reads its days in the round trip of the property row, a request about one
  // reservation that reservation; a booking leaves the row to the restaurant's desk.
  const preloads: Partial<Record<string, Parameters<typeof requireProperty>[0]>> = {
    bookings: { preload: slotsPreload },
    reservations: { later: bookedAtDesk, preload: reservationPreload },
  };
  // A write that changed reservations queues its webhook deliveries once it has answered.
  app.use(`${base}/reservations/*`, dispatchAfterWrite());
  // Merging and erasing customers change their reservations too.
  app.use(`${base}/customers/*`, dispatchAfterWrite());
  app.use(`${base}/properties/*`, ...guards);
  app.route(`${base}/properties`, propertiesRouter);
  // The apps a restaurant connected: the console's restaurant view, or a client about itself.
  app.route(`${base}/properties`, grantsRouter);
  // The restaurant's Stripe account (the console's restaurant view, or an integrator).
  app.route(`${base}/properties`, paymentAccountRouter);
  // The evening's tools: the walk-in waiting list, the shift notes and the reports.
  app.route(`${base}/properties`, walkInsRouter);
  app.route(`${base}/properties`, notesRouter);
  app.route(`${base}/properties`, reportsRouter);
  // Its staff and who changed what.
  app.route(`${base}/properties`, staffRouter);
  app.route(`${base}/properties`, auditRouter);
  for (const [path, router] of PROPERTY_SCOPED) {
    app.use(`${base}/${path}/*`, ...before, requireProperty(preloads[path]), idempotent);
    app.route(`${base}/${path}`, router);
  }
  // A reservation's emails and the search-engine switch, behind the same middleware as the reservations.
  app.route(`${base}/reservations`, reservationMessagesRouter);
  app.route(`${base}/reservations`, searchengineSwitchRouter);
  // Refunds and no-show fees.
  app.route(`${base}/reservations`, reservationPaymentRouter);
}

/**
 * The restaurant's console: its pages and session, and the integrator API again under
 * /console/api/v2 (webhooks aside: they belong to an integrator). Those routes hang on a plain
 * Hono app, so the OpenAPI document describes the API once, under /api/v2.
 */
function mountConsole(app: App) {
  // Every write from the console's own pages only, its API's and its sign-in's alike.
  app.use("/console/*", sameOriginWrites());
  const api = new Hono<AppEnv>();
  mountApiRouters(api, "", consoleGuards());
  app.route(CONSOLE_API, api);
  app.use("/console/*", limitBody(), jsonBodyOnly());
  app.route("/console", consoleRouter);
}

/**
 * Webhook subscriptions: the API's documented paths, with the singular `webhook` in PUT and
 * DELETE. Only creation names a property (the Property header).
 */
function mountWebhooks(app: App, guards: Middleware[]) {
  app.use(`${API_BASE}/webhooks/*`, ...guards);
  app.use(`${API_BASE}/webhook/*`, ...guards);
  app.on("POST", `${API_BASE}/webhooks/subscription`, requireProperty());
  app.route(API_BASE, webhooksRouter);
}

/** The public widget API's guards: no token, any origin, per-IP limits, idempotent writes per IP and property. */
function publicGuards(): Middleware[] {
  return [
    cors({
      origin: "*",
      allowMethods: ["GET", "POST", "PATCH", "DELETE", "OPTIONS"],
      allowHeaders: ["Content-Type", "Idempotency-Key", "X-D1-Bookmark"],
      exposeHeaders: ["X-Request-Id", "Retry-After", "Idempotent-Replayed", "X-D1-Bookmark"],
      maxAge: 86400,
    }),
    limitBody(),
    rateLimit({ binding: "PUBLIC_RATE_LIMITER", key: (c) => `public:${callerKey(c)}` }),
    // Bookings and cancellations have a much smaller budget of their own: reads are cheap, a flood
    // of WAITING entries is not.
    rateLimit({
      binding: "PUBLIC_WRITE_RATE_LIMITER",
      key: (c) => `public-write:${callerKey(c)}`,
      methods: ["POST", "PATCH", "DELETE"],
    }),
    jsonBodyOnly(),
    idempotency({ scope: (c) => `public:${clientIp(c)}:${c.req.path.split("/")[4] ?? ""}` }),
    // A guest's booking or cancellation queues its webhook deliveries once it has answered.
    dispatchAfterWrite(),
  ];
}

function mountPublicApi(app: App) {
  app.use(`${API_BASE}/public/*`, ...publicGuards());
  app.route(`${API_BASE}/public`, publicRouter);
  // The calendar entry of a guest's reservation, and waiting-list offers.
  app.route(`${API_BASE}/public`, calendarRouter);
  app.route(`${API_BASE}/public`, waitlistRouter);
  // What the guest's payment step needs (the intent's client secret, the publishable key).
  app.route(`${API_BASE}/public`, payRouter);
}

/** Stripe's events: no token (the signature is checked); a change's webhooks and emails go at once. */
function mountStripeEvents(app: App) {
  app.use("/payments/*", noStore(), limitBody(), dispatchAfterWrite());
  app.route("/", stripeEventsRouter);
}

/**
 * The search engine's booking server and feeds: its partner's Basic credentials, JSON bodies; a
 * booking queues its webhook deliveries once it has answered. Its answers name diners, refusals
 * included: nothing keeps them.
 */
function mountSearchEngine(app: App) {
  app.use("/searchengine/*", noStore(), limitBody(), partnerAuth(), jsonBodyOnly(), dispatchAfterWrite());
  app.route("/searchengine", searchengineRouter);
}

/** The hosted pages: HTML shells around the widget, with a per-IP budget of their own. */
function mountHostedPages(app: App) {
  app.use("/p/*", rateLimit({ binding: "PUBLIC_RATE_LIMITER", key: (c) => `page:${callerKey(c)}` }));
  app.route("/p", pagesRouter);
}

const API_DESCRIPTION =
  "Properties, rooms, tables, services, availability, reservations and webhooks for restaurants. " +
  'Every success is `{"data": [...]}`; every error is RFC 9457 problem+json whose `title` is the reason phrase. ' +
  "Answers that read or wrote a restaurant's data carry `X-D1-Bookmark`: send it back on the next request to read " +
  "at least what you wrote (reads may be served by a read replica). While a restaurant's data moves between " +
  "databases, its writes answer 503 with `Retry-After`.";

function mountOpenApiDocument(app: App) {
  registerSecuritySchemes(app);
  registerWebhookEvents(app);
  app.get(`${API_BASE}/openapi.json`, (c) => c.json(openApiDocument(app, config(c.env).publicOrigin)));
}

/**
 * The API's OpenAPI document as `origin` serves it: generated from the routes, with the statuses
 * the middleware above answers. The build writes the console's API types from it (scripts/api-types.mjs).
 */
export function openApiDocument(app: App, origin: string) {
  const doc = app.getOpenAPI31Document({
    openapi: "3.1.0",
    info: { title: "Restaurant reservation API", version: "2.0.0", description: API_DESCRIPTION },
    servers: [{ url: origin, description: "this server" }],
  });
  return documentMiddlewareAnswers(doc, {
    unlimited: (path) => path.startsWith("/.well-known/") || path === "/payments/stripe/events",
    // The areas behind jsonBodyOnly(): the integrator and widget APIs, the search engine's, client creation.
    jsonOnly: (path) =>
      path.startsWith(`${API_BASE}/`) || path.startsWith("/searchengine/") || path === `${AUTH_BASE}/client`,
  });
}

function registerSecuritySchemes(app: App) {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "an access token from POST /auth/api/v2/api-account/oauth2/token",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "partner", {
    type: "http",
    scheme: "basic",
    description: "the search engine partner's credentials (secrets SEARCHENGINE_USER, SEARCHENGINE_PASSWORD)",
  });
}

function mountOps(app: App) {
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  // The operator's door (npm run ops): only with the OPS_TOKEN secret, never in the OpenAPI document.
  app.use("/__ops/*", limitBody());
  app.route("/__ops", opsRouter);
}

/** 405 with Allow for a known path asked with another method, 404 for anything else. */
function unrouted(app: App) {
  return function notFound(c: Context<AppEnv>) {
    const allowed = methodNotAllowed(app.routes, c.req.method, c.req.path);
    if (allowed.length) {
      return onError(
        new ApiError("method_not_allowed", `${c.req.method} is not allowed here; use ${allowed.join(", ")}`, {
          headers: { Allow: allowed.join(", ") },
        }),
        c,
      );
    }
    return onError(new ApiError("not_found", `no route for ${c.req.method} ${c.req.path}`), c);
  };
}
