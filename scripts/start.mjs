// npm start: build, migrate the local D1, serve with wrangler dev, ensure the demo, print the URLs.
import { mkdirSync, renameSync } from "node:fs";
import { ensureDemo } from "./demo.mjs";
import { build, defaultPersistDir, migrate, PortTakenError, startDev } from "./dev-server.mjs";
import { isSingleDatabaseState } from "./migrate.mjs";
import { devVar, door, ensureLocalSecrets } from "./ops-door.mjs";
import { RESTAURANT_PASSWORD } from "./restaurant.mjs";
import { ensureDeps } from "./setup.mjs";
import { startLocalStripe } from "./stripe-standin/local.mjs";

const started = performance.now();
const port = Number(process.env.PORT ?? 8787);
const persistTo = defaultPersistDir();
mkdirSync(persistTo, { recursive: true });

ensureDeps();
build();
// A local state from before the shards (one database) is kept aside, not overwritten.
if (await isSingleDatabaseState(persistTo)) {
  const aside = `${persistTo}.single-database-${Date.now()}`;
  renameSync(persistTo, aside);
  mkdirSync(persistTo, { recursive: true });
  console.log(`the local state in ${persistTo} predates the shards: kept as ${aside}; starting afresh`);
}
// In .dev.vars, which wrangler dev reads: the operator's token for `npm run ops` (shards, moves),
// the key of the manage and offer links in emails (kept, so links in old .eml files keep working),
// and the search engine partner's credentials (docs/searchengine.md).
const partner = ensureLocalSecrets();
// Payments with no Stripe account: the local stand-in (scripts/stripe-standin/), its address and
// test keys in .dev.vars; real Stripe test keys written there instead are used as they are.
const stripe = await startLocalStripe((line) => console.log(`[stripe] ${line}`));
const applied = await migrate(persistTo);
console.log(
  applied
    ? `applied ${applied} migration(s) to the local databases (control and shards)`
    : "local D1 is up to date",
);

// Cron triggers are documented in docs/operations.md ("The cron"); wrangler's reminder about them
// is noise here. Emails go through wrangler's local send_email, which keeps each as an .eml file
// and logs its path at the info level: those paths are printed, the rest of the info level (one
// line per request) is not.
let quiet = 0;
const log = (line) => {
  const eml = /(\/\S+\.eml)\b/.exec(line);
  if (eml) console.log(`[email] ${new Date().toISOString().slice(11, 19)} ${eml[1]}`);
  else if (/Scheduled Workers are not automatically triggered/.test(line)) quiet = 3;
  else if (quiet > 0) quiet--;
  else if (!/\[wrangler:info\]|send_email binding called/.test(line)) console.log(`[wrangler] ${line}`);
};
// with the devtools inspector, as `wrangler dev` has it (tests and the bench run without)
const server = await startDev({ port, persistTo, log, logLevel: "info", inspector: true }).catch((err) => {
  if (!(err instanceof PortTakenError)) throw err;
  console.error(
    `npm start: port ${port} is already in use. Stop what listens on it, or start on another: PORT=8788 npm start`,
  );
  process.exit(1);
});
// The stand-in posts its signed events to the Worker's endpoint, as Stripe would.
stripe?.target(`${server.url}/payments/stripe/events`);
// Properties made before the directory kept their sign-in get it now (a no-op afterwards).
await door(server.url, devVar("OPS_TOKEN"))("POST", "/sync-usernames");
const demo = await ensureDemo(server.url, persistTo, devVar("OPS_TOKEN"));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const u = server.url;

console.log(`
Ready in ${seconds} s on ${u}

  API docs            ${u}/docs
  OpenAPI document    ${u}/api/v2/openapi.json
  Welcome page        ${u}/p/${demo.public_key}
  Services page       ${u}/p/${demo.public_key}/services
  Booking page        ${u}/p/${demo.public_key}/book

  Demo API client     client_id     ${demo.client_id}
                      client_secret ${demo.client_secret}
  Demo restaurant     property id   ${demo.property_id} ("Trattoria Demo"${demo.production ? "" : ", sandbox"})
${
  demo.production
    ? `  Sandbox property    property id   ${demo.sandbox_property_id} ("Trattoria Demo (sandbox)")
`
    : ""
}
  Restaurant console  ${u}/console
${
  demo.username
    ? `                      username      ${demo.username}
                      password      ${RESTAURANT_PASSWORD}
                      OAuth apps    ${u}/auth/api/v2/api-account/oauth2/connected-apps (the same sign-in)
`
    : ""
}
  Devtools            inspector on 127.0.0.1:${server.inspectorPort} (chrome://inspect, Configure, add it)
  Emails              kept as .eml files by wrangler's local send_email; each one's path is printed as "[email] <time> <path>"

  Search engine       booking server  ${u}/searchengine (Reserve with Google v3; feeds under /searchengine/feeds)
                      partner user      ${partner.user}
                      partner password  ${partner.password}
  Payments            ${
    stripe
      ? `local Stripe stand-in on ${stripe.url} (no Stripe account needed; docs/payments.md)
                      card 4242 4242 4242 4242 pays, 4000 0000 0000 9995 declines, 4000 0027 6000 3184 asks for 3-D Secure
                      the demo's "Tasting menu" asks parties of five or more a deposit of 20 EUR a guest`
      : "real Stripe test keys from .dev.vars (docs/payments.md)"
  }
${process.env.DEV_CLOCK ? `  Worker's clock      DEV_CLOCK=${process.env.DEV_CLOCK} (local only)\n` : ""}
  Get a token:
    curl -s -X POST ${u}/auth/api/v2/api-account/oauth2/token \\
      -d grant_type=client_credentials -d client_id=${demo.client_id} -d client_secret=${demo.client_secret}

Press Ctrl+C to stop.`);

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    await server.stop();
    await stripe?.close();
    process.exit(0);
  });
}
server.child.on("exit", (code) => process.exit(code ?? 1));
