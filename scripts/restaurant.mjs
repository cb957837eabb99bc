// Builds a restaurant through the public API itself: an API client (with its sandbox property),
// settings, rooms, tables and services. Used by the demo of `npm start` and by every browser
// test file, each of which builds its own so that no test depends on another's bookings.
export const AUTH = "/auth/api/v2/api-account/oauth2";

/** One JSON (or form) request to the Worker at `url`; answers { status, json }. */
export async function request(url, path, { method, token, property, body, form, headers = {} } = {}) {
  const h = { ...headers };
  if (token) h.Authorization = `Bearer ${token}`;
  if (property) h.Property = String(property);
  let payload;
  if (form) {
    h["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    h["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await fetch(url + path, {
    method: method ?? (payload ? "POST" : "GET"),
    headers: h,
    body: payload,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** An access token for a client (client_credentials), or undefined when refused. */
export async function token(url, clientId, clientSecret) {
  const res = await request(url, `${AUTH}/token`, {
    form: { grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret },
  });
  return res.status === 200 ? res.json.access_token : undefined;
}

/** The demo's catalog: two rooms, eight tables and a group, lunch every day and dinner from Tuesday. */
export const DEMO_CATALOG = {
  settings: {
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
  },
  rooms: {
    Sala: [
      ["S1", 1, 2],
      ["S2", 1, 2],
      ["S3", 2, 4],
      ["S4", 2, 4],
      ["S5", 4, 6],
    ],
    Terrazza: [
      ["T1", 1, 2],
      ["T2", 2, 4],
      ["T3", 2, 4],
    ],
  },
  groups: [{ name: "S3+S4", room: "Sala", members: ["S3", "S4"], guests_min: 5, guests_max: 8 }],
  services: [
    {
      name: "Pranzo",
      description: "Lunch: the daily menu and à la carte",
      start_hour: "12:00",
      end_hour: "14:30",
      weekdays: [1, 2, 3, 4, 5, 6, 7],
    },
    {
      name: "Cena",
      description: "Dinner from the wood-fired oven",
      start_hour: "19:00",
      end_hour: "22:30",
      weekdays: [2, 3, 4, 5, 6, 7],
    },
  ],
};

/** The sandbox property's password of the clients made here: the restaurant's sign-in on the hosted pages. */
export const RESTAURANT_PASSWORD = "demo-password";

/** Creates an API client and its sandbox property; answers the credentials, a token and the property. */
export async function createClient(
  url,
  { name = "Test Restaurant", username, description = `${name}, a test restaurant`, headers } = {},
) {
  const created = await request(url, `${AUTH}/client`, {
    headers,
    body: {
      redirect_uri: "https://integrator.example",
      sandbox_property: {
        name,
        username,
        password: RESTAURANT_PASSWORD,
        email: "demo@trattoria.example",
        description,
        website: "https://trattoria.example",
        phone: "+39 02 1234567",
        position: {
          latitude: 45.4642,
          longitude: 9.19,
          country: "IT",
          address: "Via Roma 1",
          city: "Milano",
          zip: "20121",
        },
      },
    },
  });
  if (created.status !== 200) return { status: created.status, problem: created.json };
  const c = created.json.data[0];
  return {
    status: 200,
    client_id: c.client_id,
    client_secret: c.client_secret,
    property_id: c.properties[0].id,
    public_key: c.properties[0].public_key,
    username: c.properties[0].username,
    token: await token(url, c.client_id, c.client_secret),
  };
}

async function must(res, what) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.data[0];
}

/** Fills an empty property with `catalog` (settings, rooms, tables, groups, services); answers what it made. */
export async function seedCatalog(url, { token: access, property_id }, catalog = DEMO_CATALOG) {
  const as = (path, o = {}) => request(url, `/api/v2${path}`, { token: access, property: property_id, ...o });
  await must(
    as(`/properties/${property_id}`, { method: "PUT", body: { settings: catalog.settings } }),
    "settings",
  );
  const rooms = {};
  const tables = {};
  for (const [roomName, list] of Object.entries(catalog.rooms)) {
    rooms[roomName] = await must(as("/rooms", { body: { name: roomName } }), `room ${roomName}`);
    for (const [name, min, max] of list) {
      tables[name] = await must(
        as("/tables", { body: { name, room_id: rooms[roomName].id, guests_min: min, guests_max: max } }),
        `table ${name}`,
      );
    }
  }
  for (const g of catalog.groups ?? []) {
    const body = {
      name: g.name,
      room_id: rooms[g.room].id,
      group: true,
      guests_min: g.guests_min,
      guests_max: g.guests_max,
      table_ids: g.members.map((m) => tables[m].id),
    };
    tables[g.name] = await must(as("/tables", { body }), `group ${g.name}`);
  }
  const services = [];
  for (const s of catalog.services)
    services.push(await must(as("/services", { body: s }), `service ${s.name}`));
  return { rooms, tables, services };
}

/**
 * A restaurant of its own for a test file: a fresh client and property with `catalog` (the
 * demo's by default), under a unique username. Answers credentials, token, ids and the catalog.
 */
export async function createRestaurant(
  url,
  { name = "Trattoria Test", catalog = DEMO_CATALOG, headers } = {},
) {
  const username = `test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  const client = await createClient(url, { name, username, headers });
  if (client.status !== 200)
    throw new Error(`restaurant creation failed: ${client.status} ${JSON.stringify(client.problem)}`);
  return { ...client, name, ...(await seedCatalog(url, client, catalog)) };
}
