// The demo API client and restaurant of `npm start`, made through the public API itself.
// Idempotent: the credentials are kept beside the local D1 and reused while they work.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const AUTH = "/auth/api/v2/api-account/oauth2";

async function request(url, path, { method = "GET", token, property, body, form } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (property) headers.Property = String(property);
  let payload;
  if (form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await fetch(url + path, { method: body || form ? (method === "GET" ? "POST" : method) : method, headers, body: payload });
  const text = await res.text();
  const json = text ? JSON.parse(text) : undefined;
  return { status: res.status, json };
}

export async function token(url, clientId, clientSecret) {
  const res = await request(url, `${AUTH}/token`, { form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret } });
  return res.status === 200 ? res.json.access_token : undefined;
}

const DEMO_SETTINGS = {
  timezone: "Europe/Rome",
  locale: "en",
  average_stay: 90,
  turn_times: [
    { max_pax: 2, minutes: 75 },
    { max_pax: 4, minutes: 90 },
  ],
  slot_interval: 15,
  min_notice: 60,
  max_days_ahead: 60,
  cancel_notice: 120,
  max_online_pax: 8,
  welcome_message: "Benvenuti! Fresh pasta every day, wood-fired oven at night.",
  accent_color: "#9c2f2f",
};

/** Ensures the demo client and its restaurant exist; returns what a newcomer needs. */
export async function ensureDemo(url, persistTo) {
  const file = join(persistTo, "demo-client.json");
  let saved = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined;
  let access = saved && (await token(url, saved.client_id, saved.client_secret));
  if (!access) {
    const create = (username) => request(url, `${AUTH}/client`, {
      body: {
        redirect_uri: "https://integrator.example",
        sandbox_property: {
          name: "Trattoria Demo",
          username,
          password: "demo-password",
          email: "demo@trattoria.example",
          description: "The demo restaurant of npm start",
          website: "https://trattoria.example",
          phone: "+39 02 1234567",
          position: { latitude: 45.4642, longitude: 9.19, country: "IT", address: "Via Roma 1", city: "Milano", zip: "20121" },
        },
      },
    });
    let created = await create("demo");
    // "demo" exists but its credentials file is gone: make another demo client.
    if (created.status === 409) created = await create(`demo-${Date.now().toString(36)}`);
    if (created.status !== 200) throw new Error(`demo client creation failed: ${created.status} ${JSON.stringify(created.json)}`);
    const c = created.json.data[0];
    saved = { client_id: c.client_id, client_secret: c.client_secret, property_id: c.properties[0].id, public_key: c.properties[0].public_key };
    writeFileSync(file, JSON.stringify(saved, null, 2));
    access = await token(url, saved.client_id, saved.client_secret);
  }
  const as = (path, o = {}) => request(url, `/api/v2${path}`, { token: access, property: saved.property_id, ...o });
  const rooms = await as("/rooms");
  if (rooms.status === 200 && rooms.json.data.length === 0) {
    await as(`/properties/${saved.property_id}`, { method: "PUT", body: { settings: DEMO_SETTINGS } });
    const sala = (await as("/rooms", { body: { name: "Sala" } })).json.data[0];
    const terrazza = (await as("/rooms", { body: { name: "Terrazza" } })).json.data[0];
    const tables = [];
    for (const [room, name, min, max] of [
      [sala, "S1", 1, 2],
      [sala, "S2", 1, 2],
      [sala, "S3", 2, 4],
      [sala, "S4", 2, 4],
      [sala, "S5", 4, 6],
      [terrazza, "T1", 1, 2],
      [terrazza, "T2", 2, 4],
      [terrazza, "T3", 2, 4],
    ]) {
      tables.push((await as("/tables", { body: { name, room_id: room.id, guests_min: min, guests_max: max } })).json.data[0]);
    }
    await as("/tables", { body: { name: "S3+S4", room_id: sala.id, group: true, guests_min: 5, guests_max: 8, table_ids: [tables[2].id, tables[3].id] } });
    await as("/services", {
      body: { name: "Pranzo", description: "Lunch: the daily menu and à la carte", start_hour: "12:00", end_hour: "14:30", weekdays: [1, 2, 3, 4, 5, 6, 7] },
    });
    await as("/services", {
      body: { name: "Cena", description: "Dinner from the wood-fired oven", start_hour: "19:00", end_hour: "22:30", weekdays: [2, 3, 4, 5, 6, 7] },
    });
  }
  return { ...saved, token: access };
}
