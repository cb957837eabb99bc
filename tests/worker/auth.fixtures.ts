/** Shared fixtures of the auth.*.test.ts files: request bodies, token calls and direct D1 access. */
import { env } from "cloudflare:workers";
import { shardCount, shardD1 } from "../../worker/shards/shards";
import { AUTH, call, shardOf, unique } from "./helpers";

export const FORM = { "Content-Type": "application/x-www-form-urlencoded" };

export function flatClientBody(overrides: Record<string, unknown> = {}) {
  const username = unique("flat");
  return {
    name: "Trattoria Flat",
    email: `${username}@example.com`,
    username,
    password: "flat-password-123",
    redirect_uri: "https://integrator.example/flat",
    ...overrides,
  };
}

export const POSITION = {
  latitude: 45.4642,
  longitude: 9.19,
  country: "IT",
  address: "Via Roma 1",
  city: "Milano",
  zip: "20121",
};

export function nestedClientBody(overrides: Record<string, unknown> = {}) {
  const username = unique("nested");
  return {
    redirect_uri: "https://integrator.example/nested",
    sandbox_property: {
      name: "Osteria Nested",
      username,
      password: "nested-password-123",
      description: "the sandbox restaurant",
      email: `${username}@example.com`,
      website: "https://osteria.example",
      phone: "+39 02 1234567",
      position: POSITION,
      ...overrides,
    },
  };
}

export const createClient = (body: unknown) => call(`${AUTH}/client`, { body });

export const basic = (clientId: string, secret: string) => `Basic ${btoa(`${clientId}:${secret}`)}`;

export function formToken(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(`${AUTH}/token`, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { ...FORM, ...headers },
  });
}

export function revoke(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return call(`${AUTH}/revoke`, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { ...FORM, ...headers },
  });
}

export async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every row of a table (in the control database, or in every shard for properties), serialised, so a test can assert a secret appears nowhere in it. */
export async function tableDump(table: "api_clients" | "access_tokens" | "properties") {
  const dbs =
    table === "properties" ? Array.from({ length: shardCount(env) }, (_, k) => shardD1(env, k)) : [env.DB];
  const rows = await Promise.all(
    dbs.map(async (db) => (await db.prepare(`SELECT * FROM ${table}`).all()).results),
  );
  return JSON.stringify(rows.flat());
}

export async function expireToken(token: string) {
  const r = await env.DB.prepare(
    "UPDATE access_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE token_hash = ?",
  )
    .bind(await sha256Hex(token))
    .run();
  if (r.meta.changes !== 1) throw new Error("no such token row");
}

export async function expireSandbox(propertyId: number) {
  const r = await (await shardOf(propertyId))
    .prepare("UPDATE properties SET sandbox_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
    .bind(propertyId)
    .run();
  if (r.meta.changes !== 1) throw new Error("no such property");
}

/** What `npm run ops -- enable-production <client_id>` runs. */
export async function enableProduction(clientId: string) {
  const r = await env.DB.prepare("UPDATE api_clients SET production_enabled = 1 WHERE client_id = ?")
    .bind(clientId)
    .run();
  if (r.meta.changes !== 1) throw new Error("no such client");
}

/** What `npm run ops -- grant <client_id> <property_id>` inserts. */
export async function grant(clientRowId: number, propertyId: number) {
  await env.DB.prepare("INSERT INTO property_grants (client_id, property_id) VALUES (?, ?)")
    .bind(clientRowId, propertyId)
    .run();
}

export async function revokeGrant(clientRowId: number, propertyId: number) {
  await env.DB.prepare("DELETE FROM property_grants WHERE client_id = ? AND property_id = ?")
    .bind(clientRowId, propertyId)
    .run();
}

export function expectNoSecret(haystack: string, secret: string, what: string) {
  if (secret.length < 8) throw new Error(`${what}: too short to search for`);
  if (haystack.includes(secret)) throw new Error(`${what}: found in clear`);
}
