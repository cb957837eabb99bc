/**
 * Usernames: one name whatever its case or Unicode form,
 * invisible characters refused, unique across clients and properties, enforced by the database.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { AUTH, call, expectInvalid, expectProblem, freshIp, newClient, shardOf, unique } from "./helpers";

const createClient = (username: string) =>
  call(`${AUTH}/client`, {
    body: {
      name: "Names",
      email: "names@example.com",
      username,
      password: "password-123",
      redirect_uri: "https://integrator.example",
    },
    headers: { "CF-Connecting-IP": freshIp() },
  });

/** A username of this run: lower-case ASCII, so the tests can vary its case and form. */
const fresh = (prefix: string) => unique(prefix).toLowerCase().replace(/_/g, "-");

describe("client usernames", () => {
  it("treats ALICE and alice as one username: 409 username taken", async () => {
    const name = fresh("alice");
    expect((await createClient(name.toUpperCase())).status).toBe(200);
    expectProblem(await createClient(name), 409, "username taken");
  });

  it("refuses a zero-width space, a soft hyphen, a bidi mark, a Hangul filler or an inner space with 400 naming username", async () => {
    const name = fresh("alice");
    for (const odd of [
      `${name}\u200b`,
      `${name}\u00ad`,
      `\u202e${name}`,
      `${name}\u3164`,
      `${name.slice(0, 4)} ${name.slice(4)}`,
      `${name}\u2060`,
    ]) {
      const res = await createClient(odd);
      expectInvalid(res, "username");
    }
    // None of them took the name: the plain one is still free.
    expect((await createClient(name)).status).toBe(200);
  });

  it("normalises to NFKC: full-width letters are the ASCII name, shown as normalised", async () => {
    const name = fresh("wide");
    const wide = [...name]
      .map((ch) => (/[a-z0-9]/.test(ch) ? String.fromCodePoint(ch.codePointAt(0)! + 0xfee0) : ch))
      .join("");
    expect(wide).not.toBe(name);
    const created = await createClient(wide);
    expect(created.status).toBe(200);
    expect(created.json.data[0].username).toBe(name);
    expect(created.json.data[0].properties[0].username).toBe(name);
    expectProblem(await createClient(name.toUpperCase()), 409, "username taken");
  });

  it("keeps the case as given and answers it", async () => {
    const name = `Trattoria-${fresh("case")}`;
    const created = await createClient(name);
    expect(created.json.data[0].username).toBe(name);
  });

  it("gives exactly one of two racing creations a name that differs only by case", async () => {
    const name = fresh("race");
    const results = await Promise.all([
      createClient(name),
      createClient(name.toUpperCase()),
      createClient(`${name[0]!.toUpperCase()}${name.slice(1)}`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe("property usernames", () => {
  it("are unique across properties and clients, whatever the case", async () => {
    const owner = await newClient();
    const name = fresh("prop");
    const first = await owner.call("/api/v2/properties", {
      body: { name: "One", username: name.toUpperCase(), password: "password-123" },
    });
    expect(first.status).toBe(201);
    expectProblem(
      await owner.call("/api/v2/properties", { body: { name: "Two", username: name } }),
      409,
      "username taken",
    );
    // A client's username is its sandbox property's: the same space of names.
    expectProblem(await createClient(name), 409, "username taken");
    const client = await createClient(fresh("client"));
    const clientName: string = client.json.data[0].username;
    expectProblem(
      await owner.call("/api/v2/properties", { body: { name: "Three", username: clientName.toUpperCase() } }),
      409,
      "username taken",
    );
  });

  it("refuses a taken username on PUT and keeps the old one", async () => {
    const owner = await newClient();
    const a = fresh("put");
    const b = fresh("put");
    const one = (await owner.call("/api/v2/properties", { body: { name: "One", username: a } })).json.data[0];
    await owner.call("/api/v2/properties", { body: { name: "Two", username: b } });
    expectProblem(
      await owner.call(`/api/v2/properties/${one.id}`, {
        method: "PUT",
        body: { username: b.toUpperCase() },
      }),
      409,
      "username taken",
    );
    expect((await owner.call(`/api/v2/properties/${one.id}`)).json.data[0].username).toBe(a);
    // Its own name in another case is no conflict.
    const renamed = await owner.call(`/api/v2/properties/${one.id}`, {
      method: "PUT",
      body: { username: a.toUpperCase() },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json.data[0].username).toBe(a.toUpperCase());
  });

  it("keeps the directory's sign-in and the shard's copy the same, the password only hashed", async () => {
    const owner = await newClient();
    const name = fresh("copy");
    const p = (
      await owner.call("/api/v2/properties", {
        body: { name: "Copy", username: name, password: "first-password" },
      })
    ).json.data[0];
    const read = async () => {
      const dir = await env.DB.prepare(
        "SELECT username, username_key, password_hash FROM property_directory WHERE id = ?",
      )
        .bind(p.id)
        .first<Record<string, string>>();
      const row = await (await shardOf(p.id))
        .prepare("SELECT username, password_hash FROM properties WHERE id = ?")
        .bind(p.id)
        .first<Record<string, string>>();
      return { dir: dir!, row: row! };
    };
    let { dir, row } = await read();
    expect(dir.username_key).toBe(name);
    expect(row.username).toBe(dir.username);
    expect(row.password_hash).toBe(dir.password_hash);
    expect(dir.password_hash).toMatch(/^pbkdf2-sha256\$/);
    const before = dir.password_hash;
    await owner.call(`/api/v2/properties/${p.id}`, {
      method: "PUT",
      body: { username: name.toUpperCase(), password: "second-password" },
    });
    ({ dir, row } = await read());
    expect(dir.password_hash).not.toBe(before);
    expect(row.password_hash).toBe(dir.password_hash);
    expect([dir.username, row.username, dir.username_key]).toEqual([
      name.toUpperCase(),
      name.toUpperCase(),
      name,
    ]);
    expect(JSON.stringify({ dir, row })).not.toContain("second-password");
  });

  it("lets only the creating client change the username or password", async () => {
    const owner = await newClient();
    const other = await newClient();
    await env.DB.prepare("INSERT INTO property_grants (client_id, property_id) VALUES (?, ?)")
      .bind(other.id, owner.propertyId)
      .run();
    for (const body of [{ password: "taken-over-1" }, { username: fresh("steal") }]) {
      expectProblem(
        await other.call(`/api/v2/properties/${owner.propertyId}`, { method: "PUT", body }),
        403,
        "property forbidden",
      );
    }
    // Other fields stay open to a granted client.
    expect(
      (
        await other.call(`/api/v2/properties/${owner.propertyId}`, {
          method: "PUT",
          body: { phone: "+39 1" },
        })
      ).status,
    ).toBe(200);
  });

  it("is enforced by the database, not only by the code", async () => {
    const owner = await newClient();
    const name = fresh("db");
    const p = (await owner.call("/api/v2/properties", { body: { name: "Db", username: name } })).json.data[0];
    const clash = env.DB.prepare("UPDATE property_directory SET username_key = ? WHERE id = ?")
      .bind(name, owner.propertyId)
      .run();
    await expect(clash).rejects.toThrow(/UNIQUE/);
    const clientClash = env.DB.prepare(
      "UPDATE api_clients SET username_key = (SELECT username_key FROM api_clients WHERE id <> ?1 LIMIT 1) WHERE id = ?1",
    )
      .bind(owner.id)
      .run();
    await expect(clientClash).rejects.toThrow(/UNIQUE/);
    expect(p.username).toBe(name);
  });
});
