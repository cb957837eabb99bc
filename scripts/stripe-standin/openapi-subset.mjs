// Writes shared/stripe-openapi.json: the part of Stripe's published OpenAPI description
// (github.com/stripe/openapi, openapi/spec3.json) that the stand-in answers for: the paths the
// Worker and Stripe.js call, their request bodies and answers, the error body, and the objects of
// the events the Worker reads, with every schema they refer to. The stand-in's test validates its
// answers and the SDK's requests against it (tests/e2e/stripe-openapi.test.mjs).
//
//   node scripts/stripe-standin/openapi-subset.mjs <spec3.json> <commit>
//
// The spec's source commit is kept in the file. Stripe's newest spec3.json is larger than the
// repository snapshots we read carry; the commit named is the newest whose spec3.json they hold.
import { readFileSync, writeFileSync } from "node:fs";

const PATHS = {
  "/v1/accounts": ["post"],
  "/v1/accounts/{account}": ["get"],
  "/v1/account_links": ["post"],
  "/v1/customers": ["post"],
  "/v1/payment_intents": ["post"],
  "/v1/payment_intents/{intent}": ["get"],
  "/v1/payment_intents/{intent}/confirm": ["post"],
  "/v1/payment_intents/{intent}/cancel": ["post"],
  "/v1/setup_intents": ["post"],
  "/v1/setup_intents/{intent}": ["get"],
  "/v1/setup_intents/{intent}/confirm": ["post"],
  "/v1/setup_intents/{intent}/cancel": ["post"],
  "/v1/refunds": ["post"],
};
/** the objects of the events the Worker reads, and the event and error envelopes */
const SCHEMAS = ["event", "payment_intent", "setup_intent", "charge", "account", "refund", "error"];

const [file, commit] = process.argv.slice(2);
if (!file || !commit) throw new Error("usage: openapi-subset.mjs <spec3.json> <commit>");
const spec = JSON.parse(readFileSync(file, "utf8"));

const wanted = new Set(SCHEMAS);
/** Every component schema `node` refers to, and theirs. */
function collect(node) {
  if (Array.isArray(node)) return node.forEach(collect);
  if (!node || typeof node !== "object") return;
  const ref = node.$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    const name = ref.slice("#/components/schemas/".length);
    if (!wanted.has(name)) {
      wanted.add(name);
      collect(spec.components.schemas[name]);
    }
  }
  for (const value of Object.values(node)) collect(value);
}

const paths = {};
for (const [path, methods] of Object.entries(PATHS)) {
  const item = spec.paths[path];
  if (!item) throw new Error(`${path}: not in the spec`);
  paths[path] = {};
  for (const method of methods) {
    const op = item[method];
    if (!op) throw new Error(`${method} ${path}: not in the spec`);
    paths[path][method] = op;
    collect(op);
  }
}
for (const name of SCHEMAS) collect(spec.components.schemas[name]);
const schemas = {};
for (const name of [...wanted].sort()) {
  if (!spec.components.schemas[name]) throw new Error(`schema ${name}: not in the spec`);
  schemas[name] = spec.components.schemas[name];
}

/** The prose goes (a string `description` is documentation; a property named description stays). */
function withoutProse(node) {
  if (Array.isArray(node)) return node.map(withoutProse);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "description" && typeof value === "string"))
      .map(([key, value]) => [key, withoutProse(value)]),
  );
}

const out = {
  source: { repository: "https://github.com/stripe/openapi", path: "openapi/spec3.json", commit },
  openapi: spec.openapi,
  info: { title: spec.info.title, version: spec.info.version },
  paths: withoutProse(paths),
  components: { schemas: withoutProse(schemas) },
};
writeFileSync(
  new URL("../../shared/stripe-openapi.json", import.meta.url),
  `${JSON.stringify(out, null, 2)}\n`,
);
console.log(`paths: ${Object.keys(paths).length}, schemas: ${Object.keys(schemas).length}`);
