// The demo API client and restaurant of `npm start`, made through the public API itself.
// Idempotent: the credentials are kept beside the local D1 and reused while they work.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createClient, DEMO_CATALOG, request, seedCatalog, token } from "./restaurant.mjs";

export { token };

/** Ensures the demo client and its restaurant exist; returns what a newcomer needs (the restaurant's username among it). */
export async function ensureDemo(url, persistTo) {
  const file = join(persistTo, "demo-client.json");
  let saved = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
  let access = saved && (await token(url, saved.client_id, saved.client_secret));
  if (!access) {
    const demo = (username) => createClient(url, { name: "Trattoria Demo", username, description: "The demo restaurant of npm start" });
    let created = await demo("demo");
    // "demo" exists but its credentials file is gone: make another demo client.
    if (created.status === 409) created = await demo(`demo-${Date.now().toString(36)}`);
    if (created.status !== 200) throw new Error(`demo client creation failed: ${created.status} ${JSON.stringify(created.problem)}`);
    const { client_id, client_secret, property_id, public_key, username } = created;
    saved = { client_id, client_secret, property_id, public_key, username };
    writeFileSync(file, JSON.stringify(saved, null, 2));
    access = created.token;
  }
  if (!saved.username) {
    // A credentials file from before the restaurant's sign-in was kept: read it from the property.
    const property = await request(url, `/api/v2/properties/${saved.property_id}`, { token: access });
    saved = { ...saved, username: property.json?.data?.[0]?.username ?? undefined };
    if (saved.username) writeFileSync(file, JSON.stringify(saved, null, 2));
  }
  const rooms = await request(url, "/api/v2/rooms", { token: access, property: saved.property_id });
  if (rooms.status === 200 && rooms.json.data.length === 0) await seedCatalog(url, { token: access, property_id: saved.property_id }, DEMO_CATALOG);
  return { ...saved, token: access };
}
