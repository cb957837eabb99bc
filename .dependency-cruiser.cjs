/**
 * How the code may depend on itself, checked by `npm test` (docs/architecture.md draws it).
 * From the top: composition (the Worker's doors and wiring) -> surfaces (HTTP areas of their own)
 * -> reactions (what follows a reservation's change) -> features -> kernel. Arrows point down.
 */
const COMPOSITION = "^worker/(index|app|cron|wiring)\\.ts$";
const KERNEL = "^worker/((env|config|errors)\\.ts$|lib/|db/|shards/|outbox/)";
const FEATURES = "^worker/(restaurant|reservations|customers|availability|properties|audit)/";
const REACTIONS = "^worker/(messages|webhooks|waitlist|payments)/";
const SURFACES = "^worker/(auth|oauth|public|searchengine|ops|docs|console|shift|staff)/";
/** Pure modules: rules and formats, tested without a database or a request. */
const PURE = [
  "^worker/availability/(engine|rules)\\.ts$",
  "^worker/reservations/machine\\.ts$",
  "^worker/webhooks/signing\\.ts$",
  "^worker/messages/(texts|ical|plan)\\.ts$",
  "^worker/waitlist/pick\\.ts$",
  "^worker/searchengine/google\\.ts$",
  "^worker/payments/outcomes\\.ts$",
  "^worker/shift/quote\\.ts$",
  "^worker/audit/actor\\.ts$",
  "^worker/staff/roles\\.ts$",
  "^worker/lib/(localtime|zone)\\.ts$",
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      severity: "error",
      scope: "folder",
      comment: "folders form a directed graph without cycles",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-module-cycle",
      severity: "error",
      comment: "modules form a directed graph without cycles (type-only imports included)",
      from: {},
      to: { circular: true },
    },
    {
      name: "kernel-imports-no-feature",
      severity: "error",
      comment:
        "env.ts, config.ts, errors.ts, lib/, db/, shards/ and outbox/ serve every feature and know none",
      from: { path: KERNEL },
      to: { path: "^worker/", pathNot: KERNEL },
    },
    {
      name: "features-import-no-reaction-nor-surface",
      severity: "error",
      comment: "a feature never names what reacts to it or who calls it: reactions register themselves",
      from: { path: FEATURES },
      to: { path: [REACTIONS, SURFACES, COMPOSITION] },
    },
    {
      name: "reactions-import-no-surface",
      severity: "error",
      comment: "a reaction imports the features it reacts to, never an HTTP area",
      from: { path: REACTIONS },
      to: { path: [SURFACES, COMPOSITION] },
    },
    {
      name: "only-composition-imports-composition",
      severity: "error",
      from: { pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: "routes-are-mounted-not-imported",
      severity: "error",
      comment:
        "a route file holds an HTTP contract; only the composition mounts it (schemas live in *.schemas.ts)",
      from: { pathNot: COMPOSITION },
      to: { path: "\\.routes\\.ts$" },
    },
    {
      name: "repositories-import-no-domain",
      severity: "error",
      comment:
        "routes -> domain -> repositories -> database: a repository imports repositories, the schema and the kernel only",
      from: { path: "\\.repo\\.ts$" },
      to: { path: "^worker/", pathNot: ["\\.repo\\.ts$", KERNEL, ...PURE, "/types\\.ts$"] },
    },
    {
      name: "sql-only-in-repositories",
      severity: "error",
      comment:
        "queries are built in *.repo.ts (and the schema); elsewhere drizzle is only a type or the D1 driver",
      from: { path: "^worker/", pathNot: ["\\.repo\\.ts$", "^worker/db/"] },
      to: {
        path: "node_modules/drizzle-orm",
        pathNot: "node_modules/drizzle-orm/d1/",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "pure-modules-do-no-io",
      severity: "error",
      comment:
        "the engine, rules, machine, signing, texts, calendars, the offer pick and the search engine's formats are pure",
      from: { path: PURE },
      to: {
        path: [
          "node_modules/(hono|@hono|drizzle-orm)",
          "\\.repo\\.ts$",
          "^worker/(env|config)\\.ts$",
          "^worker/db/(control|shard)\\.schema",
          "cloudflare:",
        ],
      },
    },
    {
      name: "widget-never-imports-worker",
      severity: "error",
      from: { path: "^widget/" },
      to: { path: "^worker/" },
    },
    {
      name: "shared-imports-neither-side",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: "^(worker|widget)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    exclude: { path: "^widget/(locales|xliff)/" },
  },
};
