import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { shardCount, shardD1 } from "../../worker/shards/shards";
import {
  basic,
  createClient,
  expireSandbox,
  expireToken,
  flatClientBody,
  formToken,
  nestedClientBody,
  revoke,
} from "./auth.fixtures";
import { AUTH, call, expectProblem, freshIp, newClient, unique } from "./helpers";

const paths = (res: { json: any }) => (res.json.errors as { path: string }[]).map((e) => e.path).sort();

describe("POST /auth/api/v2/api-account/oauth2/client", () => {
  it("refuses a username that is taken with 409 username taken", async () => {
    const first = flatClientBody();
    expect((await createClient(first)).status).toBe(200);

    const again = await createClient(flatClientBody({ username: first.username }));
    expectProblem(again, 409, "username taken");
    expect(again.json.code).toBe("username_taken");
  });

  it("refuses a username taken by a client created with the other shape", async () => {
    const nested = nestedClientBody();
    expect((await createClient(nested)).status).toBe(200);
    expectProblem(
      await createClient(flatClientBody({ username: nested.sandbox_property.username })),
      409,
      "username taken",
    );
  });

  it("creates nothing when it refuses a taken username", async () => {
    const first = flatClientBody();
    await createClient(first);
    const name = unique("Should Not Exist");
    const again = await createClient(flatClientBody({ username: first.username, name }));
    expectProblem(again, 409, "username taken");
    expect(again.text).not.toContain("client_secret");
    // Neither a client in the control database nor a property in any shard.
    for (const db of [env.DB, ...Array.from({ length: shardCount(env) }, (_, k) => shardD1(env, k))]) {
      const table = db === env.DB ? "api_clients" : "properties";
      const row = await db
        .prepare(`SELECT count(*) AS n FROM ${table} WHERE name = ?`)
        .bind(name)
        .first<{ n: number }>();
      expect(row!.n).toBe(0);
    }
  });

  it("names every missing field of the flat shape", async () => {
    const { email, password, ...rest } = flatClientBody();
    void email;
    void password;
    const res = await createClient(rest);
    expectProblem(res, 400, "invalid input data");
    expect(paths(res)).toEqual(["email", "password"]);
  });

  it("names a single missing field of the flat shape", async () => {
    const { redirect_uri, ...rest } = flatClientBody();
    void redirect_uri;
    const res = await createClient(rest);
    expectProblem(res, 400, "invalid input data");
    expect(paths(res)).toEqual(["redirect_uri"]);
  });

  it("names every missing field of the nested shape", async () => {
    const body = nestedClientBody();
    const { username, password, ...property } = body.sandbox_property;
    void username;
    void password;
    const res = await createClient({ redirect_uri: body.redirect_uri, sandbox_property: property });
    expectProblem(res, 400, "invalid input data");
    expect(paths(res)).toEqual(["sandbox_property.password", "sandbox_property.username"]);
  });

  it("names a missing redirect_uri next to sandbox_property", async () => {
    const { sandbox_property } = nestedClientBody();
    const res = await createClient({ sandbox_property });
    expectProblem(res, 400, "invalid input data");
    expect(paths(res)).toEqual(["redirect_uri"]);
  });

  it("refuses an empty body object", async () => {
    const res = await createClient({});
    expectProblem(res, 400, "invalid input data");
    expect(paths(res)).toEqual(["email", "name", "password", "redirect_uri", "username"]);
  });

  it("refuses a malformed email, short password and a redirect_uri that is not a URL", async () => {
    const res = await createClient(
      flatClientBody({ email: "not-an-email", password: "short", redirect_uri: "integrator" }),
    );
    expectProblem(res, 400, "invalid input data");
    expect(paths(res)).toEqual(["email", "password", "redirect_uri"]);
  });

  it("refuses a redirect_uri with a fragment, a user part, no host, plain http to another machine, or a space", async () => {
    const refused = [
      "https://integrator.example/cb#frag",
      "https://integrator.example/cb#",
      "https://user:pass@integrator.example/cb",
      "https://user@integrator.example/cb",
      "https:///cb",
      "http://integrator.example/cb",
      "http://10.0.0.1/cb",
      "https://integrator.example/c b",
      " https://integrator.example/cb",
    ];
    for (const redirect_uri of refused) {
      const flat = await call(`${AUTH}/client`, {
        body: flatClientBody({ redirect_uri }),
        headers: { "CF-Connecting-IP": freshIp() },
      });
      expect(flat.status, redirect_uri).toBe(400);
      expectProblem(flat, 400, "invalid input data");
      expect(paths(flat), redirect_uri).toEqual(["redirect_uri"]);
      const { redirect_uri: _, ...property } = flatClientBody();
      const nested = await call(`${AUTH}/client`, {
        body: { redirect_uri, sandbox_property: property },
        headers: { "CF-Connecting-IP": freshIp() },
      });
      expect(paths(nested), redirect_uri).toEqual(["redirect_uri"]);
    }
  });

  it("registers https and plain http to the integrator's own machine", async () => {
    for (const redirect_uri of [
      "https://integrator.example/cb?app=1",
      "http://localhost:8080/cb",
      "http://127.0.0.1/cb",
      "http://[::1]:3000/cb",
    ]) {
      const res = await call(`${AUTH}/client`, {
        body: flatClientBody({ redirect_uri }),
        headers: { "CF-Connecting-IP": freshIp() },
      });
      expect(res.status, `${redirect_uri}: ${res.text}`).toBe(200);
      expect(res.json.data[0].redirect_uri).toBe(redirect_uri);
    }
  });

  it("refuses malformed JSON with 400, never 5xx", async () => {
    const res = await call(`${AUTH}/client`, { body: "{not json" });
    expectProblem(res, 400, "invalid input data");
  });

  it("refuses a body that is not JSON with 415", async () => {
    const res = await call(`${AUTH}/client`, { body: "name=x", headers: { "Content-Type": "text/plain" } });
    expectProblem(res, 415, "unsupported media type");
  });
});

describe("POST /auth/api/v2/api-account/oauth2/token", () => {
  function expectOAuthError(res: Awaited<ReturnType<typeof call>>, status: number, error: string) {
    expect(res.status).toBe(status);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.json).toEqual({ error, error_description: expect.any(String) });
  }

  it("refuses a wrong secret with 401 invalid_client and a Basic challenge", async () => {
    const c = await newClient();
    const res = await formToken({
      grant_type: "client_credentials",
      client_id: c.clientId,
      client_secret: `${c.clientSecret}x`,
    });
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Basic realm=/);
  });

  it("refuses a wrong secret sent with HTTP Basic", async () => {
    const c = await newClient();
    const res = await formToken(
      { grant_type: "client_credentials" },
      { Authorization: basic(c.clientId, "cs_wrong") },
    );
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Basic realm=/);
  });

  it("refuses an unknown client with the same 401 invalid_client", async () => {
    const c = await newClient();
    const res = await formToken({
      grant_type: "client_credentials",
      client_id: "ci_doesnotexist0000000",
      client_secret: c.clientSecret,
    });
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Basic realm=/);
  });

  it("refuses a request without any client authentication", async () => {
    const res = await formToken({ grant_type: "client_credentials" });
    expectOAuthError(res, 401, "invalid_client");
  });

  it("refuses another grant_type with 400 unsupported_grant_type", async () => {
    const c = await newClient();
    const res = await formToken({
      grant_type: "password",
      client_id: c.clientId,
      client_secret: c.clientSecret,
      username: "u",
      password: "p",
    });
    expectOAuthError(res, 400, "unsupported_grant_type");
  });

  it("refuses a missing grant_type with 400 invalid_request", async () => {
    const c = await newClient();
    const res = await formToken({ client_id: c.clientId, client_secret: c.clientSecret });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("refuses a missing grant_type in a JSON body with 400 invalid_request", async () => {
    const c = await newClient();
    const res = await call(`${AUTH}/token`, {
      body: { client_id: c.clientId, client_secret: c.clientSecret },
    });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("refuses Basic and a body secret together with 400 invalid_request", async () => {
    const c = await newClient();
    const res = await formToken(
      { grant_type: "client_credentials", client_id: c.clientId, client_secret: c.clientSecret },
      { Authorization: basic(c.clientId, c.clientSecret) },
    );
    expectOAuthError(res, 400, "invalid_request");
  });

  it("refuses a text/plain body with 400 invalid_request", async () => {
    const c = await newClient();
    const res = await call(`${AUTH}/token`, {
      body: `grant_type=client_credentials&client_id=${c.clientId}&client_secret=${c.clientSecret}`,
      headers: { "Content-Type": "text/plain" },
    });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("refuses a JSON body that is not an object with 400 invalid_request", async () => {
    const res = await call(`${AUTH}/token`, { body: "[1,2]" });
    expectOAuthError(res, 400, "invalid_request");
  });

  it("answers unreadable JSON in RFC 6749's shape, on /token and /revoke alike", async () => {
    for (const path of ["token", "revoke"]) {
      const res = await call(`${AUTH}/${path}`, { body: '{"grant_type":' });
      expectOAuthError(res, 400, "invalid_request");
    }
  });

  it("refuses an Authorization header that is not Basic with 401 invalid_client", async () => {
    const c = await newClient();
    const res = await formToken({ grant_type: "client_credentials" }, { Authorization: `Bearer ${c.token}` });
    expectOAuthError(res, 401, "invalid_client");
  });
});

describe("POST /auth/api/v2/api-account/oauth2/revoke", () => {
  it("refuses a revocation without client authentication with 401 invalid_client", async () => {
    const c = await newClient();
    const res = await revoke({ token: c.token });
    expect(res.status).toBe(401);
    expect(res.json.error).toBe("invalid_client");
    // The token survives a refused revocation.
    expect((await call("/api/v2/properties", { token: c.token })).status).toBe(200);
  });

  it("refuses a revocation without the token parameter with 400 invalid_request", async () => {
    const c = await newClient();
    const res = await revoke({}, { Authorization: basic(c.clientId, c.clientSecret) });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe("invalid_request");
  });
});

describe("Bearer authentication (RFC 6750)", () => {
  it("asks for a token with 401 and a bare Bearer challenge when there is no Authorization header", async () => {
    const res = await call("/api/v2/properties");
    expectProblem(res, 401, "authentication required");
    expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
  });

  it("refuses a malformed Bearer header with 400", async () => {
    for (const header of ["Bearer", "Bearer ", "Bearer two words"]) {
      const res = await call("/api/v2/properties", { headers: { Authorization: header } });
      expectProblem(res, 400, "invalid request");
      expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_request"');
    }
  });

  it("answers another auth scheme like no credentials: 401 with a bare challenge (RFC 6750 3.1)", async () => {
    for (const header of ["Token abc", "Basic dXNlcjpwYXNz"]) {
      const res = await call("/api/v2/properties", { headers: { Authorization: header } });
      expectProblem(res, 401, "authentication required");
      expect(res.headers.get("WWW-Authenticate")).toBe('Bearer realm="api"');
    }
  });

  it("refuses an unknown token with 401 invalid_token", async () => {
    const res = await call("/api/v2/properties", { token: "at_unknown-token-value" });
    expectProblem(res, 401, "invalid token");
    expect(res.json.code).toBe("invalid_token");
    expect(res.headers.get("WWW-Authenticate")).toMatch(/^Bearer realm="api", error="invalid_token"/);
  });

  it("refuses an expired token with 401 invalid_token", async () => {
    const c = await newClient();
    expect((await call("/api/v2/properties", { token: c.token })).status).toBe(200);
    await expireToken(c.token);

    const res = await call("/api/v2/properties", { token: c.token });
    expectProblem(res, 401, "invalid token");
    expect(res.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
    expect(res.json.detail).toMatch(/expired/);
  });

  it("refuses a client_secret used as a bearer token", async () => {
    const c = await newClient();
    expectProblem(await call("/api/v2/properties", { token: c.clientSecret }), 401, "invalid token");
  });

  it("guards property-scoped routes too", async () => {
    const c = await newClient();
    const res = await call("/api/v2/rooms", { property: c.propertyId });
    expectProblem(res, 401, "authentication required");
  });
});

describe("Property header", () => {
  it("is required on property-scoped routes: 400 property header required", async () => {
    const c = await newClient();
    const res = await call("/api/v2/rooms", { token: c.token });
    expectProblem(res, 400, "property header required");
  });

  it("refuses an empty Property header like a missing one", async () => {
    const c = await newClient();
    expectProblem(
      await call("/api/v2/rooms", { token: c.token, property: " " }),
      400,
      "property header required",
    );
  });

  it("must be a positive integer: 400 invalid input data naming Property", async () => {
    const c = await newClient();
    for (const value of ["abc", "1.5", "-3", "0", `${c.propertyId}x`, "0x10"]) {
      const res = await call("/api/v2/rooms", { token: c.token, property: value });
      expectProblem(res, 400, "invalid input data");
      expect(res.json.errors).toEqual([{ path: "Property", message: expect.any(String) }]);
    }
  });

  it("answers 404 property not found for an id that does not exist", async () => {
    const c = await newClient();
    for (const id of ["999999999", "9999999999999999"]) {
      expectProblem(await call("/api/v2/rooms", { token: c.token, property: id }), 404, "property not found");
    }
  });

  it("answers 403 property forbidden for another client's property", async () => {
    const a = await newClient();
    const b = await newClient();
    const res = await call("/api/v2/rooms", { token: a.token, property: b.propertyId });
    expectProblem(res, 403, "property forbidden");
  });

  it("answers 403 sandbox expired once the sandbox period is over", async () => {
    const c = await newClient();
    expect((await c.call("/api/v2/rooms")).status).toBe(200);
    await expireSandbox(c.propertyId);

    const res = await c.call("/api/v2/rooms");
    expectProblem(res, 403, "sandbox expired");
    expect(res.json.code).toBe("sandbox_expired");
  });

  it("answers 404 property not found for a deleted property", async () => {
    const c = await newClient();
    expect((await c.call(`/api/v2/properties/${c.propertyId}`, { method: "DELETE" })).status).toBe(200);
    expectProblem(await c.call("/api/v2/rooms"), 404, "property not found");
  });
});
