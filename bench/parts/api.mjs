// A small client of the Worker's API for the benchmark's setup (not for the measured load).
export const AUTH = "/auth/api/v2/api-account/oauth2";
export const API = "/api/v2";

/**
 * fetch, tried once more when the connection fails before an answer: a pooled keep-alive
 * socket may have been closed by wrangler dev meanwhile (the request never reached it).
 */
export async function fetchRetry(input, init) {
  try {
    return await fetch(input, init);
  } catch (err) {
    if (!(err instanceof TypeError)) throw err;
    await new Promise((r) => setTimeout(r, 200));
    return await fetch(input, init);
  }
}

/** One request; throws on an unexpected status so a broken setup stops the benchmark early. */
export async function call(url, path, { method, token, property, body, form, expect = [200, 201] } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (property !== undefined) headers.Property = String(property);
  let payload;
  if (form) {
    headers["Content-Type"] = "application/x-www-form-urlencoded";
    payload = new URLSearchParams(form).toString();
  } else if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const verb = method ?? (payload === undefined ? "GET" : "POST");
  const res = await fetchRetry(url + path, { method: verb, headers, body: payload });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (expect && !expect.includes(res.status)) {
    throw new Error(`${verb} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  }
  return { status: res.status, json, text };
}

/** Creates an API client (with its sandbox property) and gets it a token. */
export async function createClient(url, username) {
  const created = await call(url, `${AUTH}/client`, {
    body: {
      redirect_uri: "https://bench.example",
      sandbox_property: {
        name: "Osteria Benchmark",
        username,
        password: "bench-password-1",
        email: `${username}@bench.example`,
      },
    },
  });
  const c = created.json.data[0];
  const tokenRes = await call(url, `${AUTH}/token`, {
    form: { grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret },
  });
  return {
    clientId: c.client_id,
    clientSecret: c.client_secret,
    propertyId: c.properties[0].id,
    token: tokenRes.json.access_token,
  };
}
