// The demo API client and restaurant of `npm start`, made through the public API itself.
// Idempotent: the credentials are kept beside the local D1 and reused while they work.
// The demo restaurant is a production property (the operator door enables the client, as the
// vendor would), so everything works on it, the search engine included; the sandbox property
// that comes with every client stays beside it.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { door } from "./ops-door.mjs";
import {
  createClient,
  DEMO_CATALOG,
  RESTAURANT_PASSWORD,
  request,
  seedCatalog,
  token,
} from "./restaurant.mjs";

export { token };

const NAME = "Trattoria Demo";
/** Where the demo restaurant is: its welcome page, confirmation and emails show it, with a map link. */
export const DEMO_POSITION = {
  address: "Via Solferino 12",
  zip: "20121",
  city: "Milano",
  country: "IT",
  latitude: 45.4768,
  longitude: 9.1873,
};
const unique = (name) => `${name}-${Date.now().toString(36)}`;

/** Ensures the demo client, its sandbox and its production restaurant; returns what a newcomer needs. */
export async function ensureDemo(url, persistTo, opsToken) {
  const file = join(persistTo, "demo-client.json");
  let saved = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
  let access = saved && (await token(url, saved.client_id, saved.client_secret));
  if (!access) ({ saved, access } = await newClient(url));
  if (!saved.production && opsToken) saved = await productionRestaurant(url, access, saved, opsToken);
  writeFileSync(file, JSON.stringify(saved, null, 2));
  // both get the demo's rooms, tables and services, and its address (a state made before it had one too)
  await ensureDemoPayments(url, access, saved.property_id).catch((err) =>
    console.error(`the demo's payments could not be set up: ${err.message}`),
  );
  // both get the demo's rooms, tables and services: the sandbox is where local webhooks go (http)
  for (const property_id of new Set([saved.property_id, saved.sandbox_property_id])) {
    const rooms = await request(url, "/api/v2/rooms", { token: access, property: property_id });
    if (rooms.status === 200 && rooms.json.data.length === 0)
      await seedCatalog(url, { token: access, property_id }, DEMO_CATALOG);
    await ensurePosition(url, access, property_id);
  }
  return { ...saved, token: access };
}

async function ensurePosition(url, access, property_id) {
  const path = `/api/v2/properties/${property_id}`;
  const property = await request(url, path, { token: access });
  if (property.status !== 200 || property.json.data[0].position?.city) return;
  const put = await request(url, path, { token: access, method: "PUT", body: { position: DEMO_POSITION } });
  if (put.status !== 200) throw new Error(`demo address: ${put.status} ${JSON.stringify(put.json)}`);
}

/** A new demo client; its sandbox property is the demo restaurant until the production one exists. */
async function newClient(url) {
  const demo = (username) =>
    createClient(url, {
      name: `${NAME} (sandbox)`,
      username,
      description: "The sandbox property of npm start's demo client",
    });
  let created = await demo("demo-sandbox");
  // the name is taken (a credentials file lost): another one
  if (created.status === 409) created = await demo(unique("demo-sandbox"));
  if (created.status !== 200)
    throw new Error(`demo client creation failed: ${created.status} ${JSON.stringify(created.problem)}`);
  const { client_id, client_secret, property_id, public_key, username } = created;
  const saved = {
    client_id,
    client_secret,
    property_id,
    public_key,
    username,
    sandbox_property_id: property_id,
  };
  return { saved, access: created.token };
}

/** Enables production for the demo client through the operator door and makes "Trattoria Demo" there. */
async function productionRestaurant(url, access, saved, opsToken) {
  await door(url, opsToken)("POST", "/production", { client_id: saved.client_id, enabled: true });
  const make = (username) =>
    request(url, "/api/v2/properties", {
      token: access,
      body: {
        name: NAME,
        username,
        password: RESTAURANT_PASSWORD,
        email: "demo@trattoria.example",
        description: "The demo restaurant of npm start",
        website: "https://trattoria.example",
        phone: "+39 02 1234567",
      },
    });
  let made = await make("demo");
  if (made.status === 409) made = await make(unique("demo"));
  if (made.status !== 201 && made.status !== 200)
    throw new Error(`demo restaurant creation failed: ${made.status} ${JSON.stringify(made.json)}`);
  const p = made.json.data[0];
  return {
    ...saved,
    sandbox_property_id: saved.sandbox_property_id ?? saved.property_id,
    property_id: p.id,
    public_key: p.public_key,
    username: p.username,
    production: true,
  };
}

/**
 * The demo restaurant takes payments at once: its Stripe account connected (the stand-in completes
 * the onboarding link at once) and a tasting menu asking a deposit per guest, made once.
 */
export async function ensureDemoPayments(url, access, property_id) {
  const path = `/api/v2/properties/${property_id}/payments/account`;
  let account = await request(url, path, { token: access });
  if (account.status !== 200 || !account.json.data[0].charges_enabled) {
    const link = await request(url, path, { method: "POST", token: access, body: {} });
    if (link.status !== 200)
      throw new Error(`connecting the demo's Stripe account: ${link.status} ${JSON.stringify(link.json)}`);
    await fetch(link.json.data[0].url, { redirect: "manual" });
    // the stand-in's account.updated event reaches the Worker in a moment; a busy machine takes longer
    for (let i = 0; i < 300 && !account.json?.data?.[0]?.charges_enabled; i++) {
      await new Promise((r) => setTimeout(r, 100));
      account = await request(url, path, { token: access });
    }
    if (!account.json?.data?.[0]?.charges_enabled)
      throw new Error("the demo's Stripe account could not take charges within 30 s");
  }
  const services = await request(url, "/api/v2/services", { token: access, property: property_id });
  if (services.json.data.some((s) => s.payment)) return;
  const made = await request(url, "/api/v2/services", {
    method: "POST",
    token: access,
    property: property_id,
    body: {
      name: "Tasting menu",
      description: "Seven courses; parties of five or more leave a deposit of 20 EUR a guest",
      start_hour: "19:30",
      end_hour: "21:00",
      // large parties only, as restaurants ask: the docs' scripts book two and need not pay
      payment: {
        mode: "deposit",
        amount: 2000,
        per: "guest",
        currency: "EUR",
        from_pax: 5,
        refund_until: 1440,
      },
    },
  });
  if (made.status !== 201)
    throw new Error(`the demo's tasting menu was refused: ${made.status} ${JSON.stringify(made.json)}`);
}
