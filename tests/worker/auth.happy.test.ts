import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { now } from "../../worker/lib/clock";
import {
  basic,
  createClient,
  expectNoSecret,
  flatClientBody,
  formToken,
  nestedClientBody,
  POSITION,
  revoke,
  sha256Hex,
  tableDump,
} from "./auth.fixtures";
import { AUTH, call, expectProblem, newClient, shardOf, unique } from "./helpers";

describe("POST /auth/api/v2/api-account/oauth2/client", () => {
  it("creates a client and its sandbox property from the flat shape", async () => {
    const body = flatClientBody();
    const res = await createClient(body);

    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.json.data).toHaveLength(1);
    const client = res.json.data[0];
    expect(client.client_id).toMatch(/^ci_[A-Za-z0-9_-]{16,}$/);
    expect(client.client_secret).toMatch(/^cs_[A-Za-z0-9_-]{32,}$/);
    expect(Number.isInteger(client.id)).toBe(true);
    expect(client.username).toBe(body.username);
    expect(client.password).toBe(body.password);
    expect(client.redirect_uri).toBe(body.redirect_uri);
    expect(client.name).toBe(body.name);
    expect(client.email).toBe(body.email);
    expect(client.production_enabled).toBe(false);

    expect(client.properties).toHaveLength(1);
    const property = client.properties[0];
    expect(property).toMatchObject({
      name: body.name,
      sandbox: true,
      enabled: true,
      email: body.email,
      username: body.username,
    });
    expect(Number.isInteger(property.id)).toBe(true);
    expect(property).not.toHaveProperty("password");
    expect(property).not.toHaveProperty("password_hash");
    // The sandbox expires 90 days after creation.
    const days = (Date.parse(property.sandbox_expires_at) - Date.parse(property.created_at)) / 86_400_000;
    expect(days).toBe(90);
  });

  it("creates a client and its sandbox property from the nested sandbox_property shape", async () => {
    const body = nestedClientBody();
    const res = await createClient(body);

    expect(res.status).toBe(200);
    const client = res.json.data[0];
    const sp = body.sandbox_property;
    expect(client.client_id).toMatch(/^ci_/);
    expect(client.client_secret).toMatch(/^cs_/);
    expect(Number.isInteger(client.id)).toBe(true);
    expect(client.username).toBe(sp.username);
    expect(client.password).toBe(sp.password);
    expect(client.redirect_uri).toBe(body.redirect_uri);
    expect(client.name).toBe(sp.name);

    expect(client.properties).toHaveLength(1);
    expect(client.properties[0]).toMatchObject({
      name: sp.name,
      sandbox: true,
      enabled: true,
      position: POSITION,
      description: sp.description,
      email: sp.email,
      website: sp.website,
      phone: sp.phone,
      username: sp.username,
    });
  });

  it("issues a distinct client_id and client_secret to every client", async () => {
    const a = (await createClient(flatClientBody())).json.data[0];
    const b = (await createClient(flatClientBody())).json.data[0];
    expect(a.client_id).not.toBe(b.client_id);
    expect(a.client_secret).not.toBe(b.client_secret);
    expect(a.id).not.toBe(b.id);
    expect(a.properties[0].id).not.toBe(b.properties[0].id);
  });

  it("lists the sandbox property to the new client", async () => {
    const created = (await createClient(nestedClientBody())).json.data[0];
    const token = (
      await formToken({
        grant_type: "client_credentials",
        client_id: created.client_id,
        client_secret: created.client_secret,
      })
    ).json.access_token;
    const list = await call("/api/v2/properties", { token });
    expect(list.status).toBe(200);
    expect(list.json.data.map((p: { id: number }) => p.id)).toEqual([created.properties[0].id]);
    expect(list.json.data[0].position).toEqual(POSITION);
  });
});

describe("POST /auth/api/v2/api-account/oauth2/token", () => {
  async function freshClient() {
    const created = (await createClient(flatClientBody())).json.data[0];
    return {
      client_id: created.client_id as string,
      client_secret: created.client_secret as string,
      propertyId: created.properties[0].id as number,
    };
  }

  function expectBearer(res: Awaited<ReturnType<typeof call>>) {
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      access_token: expect.stringMatching(/^at_[A-Za-z0-9_-]{40,}$/),
      token_type: "Bearer",
      expires_in: 3600,
    });
  }

  async function expectTokenWorks(token: string, propertyId: number) {
    const res = await call("/api/v2/properties", { token });
    expect(res.status).toBe(200);
    expect(res.json.data.map((p: { id: number }) => p.id)).toContain(propertyId);
  }

  it("accepts HTTP Basic client authentication with a form body", async () => {
    const c = await freshClient();
    const res = await formToken(
      { grant_type: "client_credentials" },
      { Authorization: basic(c.client_id, c.client_secret) },
    );
    expectBearer(res);
    await expectTokenWorks(res.json.access_token, c.propertyId);
  });

  it("accepts client_id and client_secret in a form body", async () => {
    const c = await freshClient();
    const res = await formToken({
      grant_type: "client_credentials",
      client_id: c.client_id,
      client_secret: c.client_secret,
    });
    expectBearer(res);
    await expectTokenWorks(res.json.access_token, c.propertyId);
  });

  it("accepts client_id and client_secret in a JSON body", async () => {
    const c = await freshClient();
    const res = await call(`${AUTH}/token`, {
      body: { grant_type: "client_credentials", client_id: c.client_id, client_secret: c.client_secret },
    });
    expectBearer(res);
    await expectTokenWorks(res.json.access_token, c.propertyId);
  });

  it("issues a new token on every call, and earlier tokens stay valid", async () => {
    const c = await freshClient();
    const fields = {
      grant_type: "client_credentials",
      client_id: c.client_id,
      client_secret: c.client_secret,
    };
    const first = (await formToken(fields)).json.access_token;
    const second = (await formToken(fields)).json.access_token;
    expect(first).not.toBe(second);
    await expectTokenWorks(first, c.propertyId);
    await expectTokenWorks(second, c.propertyId);
  });

  it("stores the token to expire expires_in seconds from now", async () => {
    const c = await freshClient();
    const before = now();
    const token = (
      await formToken({
        grant_type: "client_credentials",
        client_id: c.client_id,
        client_secret: c.client_secret,
      })
    ).json.access_token;
    const row = await env.DB.prepare("SELECT expires_at FROM access_tokens WHERE token_hash = ?")
      .bind(await sha256Hex(token))
      .first<{ expires_at: string }>();
    const lifetime = (Date.parse(row!.expires_at) - before) / 1000;
    expect(lifetime).toBeGreaterThan(3590);
    expect(lifetime).toBeLessThanOrEqual(3610);
  });
});

describe("POST /auth/api/v2/api-account/oauth2/revoke", () => {
  it("revokes a token so that it then fails with 401 invalid_token", async () => {
    const client = await newClient();
    expect((await call("/api/v2/properties", { token: client.token })).status).toBe(200);

    const res = await revoke(
      { token: client.token },
      { Authorization: basic(client.clientId, client.clientSecret) },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");

    const after = await call("/api/v2/properties", { token: client.token });
    expectProblem(after, 401, "invalid token");
    expect(after.headers.get("WWW-Authenticate")).toContain('error="invalid_token"');
  });

  it("revokes with client credentials in the body too, leaving the client's other tokens valid", async () => {
    const client = await newClient();
    const other = (
      await formToken({
        grant_type: "client_credentials",
        client_id: client.clientId,
        client_secret: client.clientSecret,
      })
    ).json.access_token;

    const res = await revoke({
      token: client.token,
      token_type_hint: "access_token",
      client_id: client.clientId,
      client_secret: client.clientSecret,
    });
    expect(res.status).toBe(200);
    expectProblem(await call("/api/v2/properties", { token: client.token }), 401, "invalid token");
    expect((await call("/api/v2/properties", { token: other })).status).toBe(200);
  });

  it("answers 200 to an unknown token (RFC 7009 2.2)", async () => {
    const client = await newClient();
    const res = await revoke(
      { token: "at_not-a-real-token" },
      { Authorization: basic(client.clientId, client.clientSecret) },
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
  });

  it("answers 200 to revoking an already revoked token", async () => {
    const client = await newClient();
    const auth = { Authorization: basic(client.clientId, client.clientSecret) };
    expect((await revoke({ token: client.token }, auth)).status).toBe(200);
    expect((await revoke({ token: client.token }, auth)).status).toBe(200);
    expectProblem(await call("/api/v2/properties", { token: client.token }), 401, "invalid token");
  });
});

describe("secrets at rest", () => {
  it("stores neither the client_secret, the password nor the access_token in clear", async () => {
    const body = nestedClientBody();
    const created = (await createClient(body)).json.data[0];
    const token = (
      await formToken({
        grant_type: "client_credentials",
        client_id: created.client_id,
        client_secret: created.client_secret,
      })
    ).json.access_token;
    const password = body.sandbox_property.password;

    for (const table of ["api_clients", "access_tokens", "properties"] as const) {
      const dump = await tableDump(table);
      expectNoSecret(dump, created.client_secret, `client_secret in ${table}`);
      expectNoSecret(dump, password, `password in ${table}`);
      expectNoSecret(dump, token, `access_token in ${table}`);
    }
  });

  it("keeps the client secret as its SHA-256, the token as its SHA-256 and the password as a salted slow hash", async () => {
    const body = flatClientBody();
    const created = (await createClient(body)).json.data[0];
    const token = (
      await formToken({
        grant_type: "client_credentials",
        client_id: created.client_id,
        client_secret: created.client_secret,
      })
    ).json.access_token;

    const client = await env.DB.prepare("SELECT secret_hash, password_hash FROM api_clients WHERE id = ?")
      .bind(created.id)
      .first<{ secret_hash: string; password_hash: string }>();
    expect(client!.secret_hash).toBe(await sha256Hex(created.client_secret));
    expect(client!.password_hash).toMatch(/^pbkdf2-sha256\$\d+\$/);
    expect(client!.password_hash).not.toContain(await sha256Hex(body.password));

    const property = await (await shardOf(created.properties[0].id))
      .prepare("SELECT password_hash FROM properties WHERE id = ?")
      .bind(created.properties[0].id)
      .first<{ password_hash: string }>();
    expect(property!.password_hash).toMatch(/^pbkdf2-sha256\$\d+\$/);
    // Salted: the same password hashed twice gives another string.
    const other = await call(`${AUTH}/client`, { body: { ...body, username: unique("salt") } });
    const otherRow = await env.DB.prepare("SELECT password_hash FROM api_clients WHERE id = ?")
      .bind(other.json.data[0].id)
      .first<{ password_hash: string }>();
    expect(otherRow!.password_hash).not.toBe(client!.password_hash);

    const tokenRow = await env.DB.prepare("SELECT client_id FROM access_tokens WHERE token_hash = ?")
      .bind(await sha256Hex(token))
      .first<{ client_id: number }>();
    expect(tokenRow!.client_id).toBe(created.id);
  });

  it("never returns the client_secret or password again", async () => {
    const body = flatClientBody();
    const created = (await createClient(body)).json.data[0];
    const token = (
      await formToken({
        grant_type: "client_credentials",
        client_id: created.client_id,
        client_secret: created.client_secret,
      })
    ).json.access_token;
    const list = await call("/api/v2/properties", { token });
    const one = await call(`/api/v2/properties/${created.properties[0].id}`, { token });
    for (const res of [list, one]) {
      expect(res.status).toBe(200);
      expectNoSecret(res.text, created.client_secret, "client_secret in a response");
      expectNoSecret(res.text, body.password, "password in a response");
      expect(res.text).not.toContain("pbkdf2");
    }
  });
});
