/**
 * Production webhook endpoints are resolved when subscribed, not only before each attempt: a
 * name that resolves to a private, loopback or link-local address is refused at once. The
 * resolver is a table here (setResolver), so the test runs offline.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setResolver } from "../../worker/webhooks/transport";
import { expectInvalid, newClient, type TestClient } from "./helpers";

const DNS: Record<string, string[]> = {
  "127.0.0.1.nip.io": ["127.0.0.1"],
  "169.254.169.254.nip.io": ["169.254.169.254"],
  "localtest.me": ["127.0.0.1", "::1"],
  "mixed.example.com": ["93.184.216.34", "10.1.2.3"],
  "v6-private.example.com": ["fd00::1"],
  "hooks.public.example.com": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
};

let previous: ReturnType<typeof setResolver>;
beforeEach(() => {
  previous = setResolver(async (name) => {
    const answer = DNS[name];
    if (!answer) throw new Error("SERVFAIL");
    return answer;
  });
});
afterEach(() => {
  setResolver(previous);
});

async function productionProperty(): Promise<{ client: TestClient; propertyId: number }> {
  const client = await newClient();
  await env.DB.prepare("UPDATE api_clients SET production_enabled = 1 WHERE id = ?").bind(client.id).run();
  const property = (await client.call("/api/v2/properties", { body: { name: "Live" }, property: undefined }))
    .json.data[0];
  expect(property.sandbox).toBe(false);
  return { client, propertyId: property.id };
}

const subscribe = (client: TestClient, propertyId: number, endpoint: string) =>
  client.call("/api/v2/webhooks/subscription", {
    body: { endpoint, webhook_type: "RESERVATION_CREATED" },
    property: propertyId,
  });

describe("production webhook endpoints named by a host", () => {
  it("are refused at subscription when the name resolves to a private, loopback or link-local address", async () => {
    const { client, propertyId } = await productionProperty();
    for (const host of [
      "127.0.0.1.nip.io",
      "169.254.169.254.nip.io",
      "localtest.me",
      "mixed.example.com",
      "v6-private.example.com",
    ]) {
      const res = await subscribe(client, propertyId, `https://${host}/hook`);
      expectInvalid(res, "endpoint");
      expect(res.json.errors[0].message).toContain(`${host} resolves to a private address`);
    }
    const list = await client.call("/api/v2/webhooks/subscriptions");
    expect(list.json.data).toEqual([]);
  });

  it("are refused when a PUT points an existing subscription at such a name", async () => {
    const { client, propertyId } = await productionProperty();
    const created = await subscribe(client, propertyId, "https://hooks.public.example.com/hook");
    expect(created.status, created.text).toBe(201);
    const id = created.json.data[0].id;
    expectInvalid(
      await client.call(`/api/v2/webhook/subscription/${id}`, {
        method: "PUT",
        body: { endpoint: "https://169.254.169.254.nip.io/latest/meta-data" },
      }),
      "endpoint",
    );
    expect((await client.call(`/api/v2/webhooks/subscription/${id}`)).json.data[0].endpoint).toBe(
      "https://hooks.public.example.com/hook",
    );
  });

  it("are taken when the name resolves to public addresses only, or cannot be resolved right now (each attempt checks again)", async () => {
    const { client, propertyId } = await productionProperty();
    expect((await subscribe(client, propertyId, "https://hooks.public.example.com/hook")).status).toBe(201);
    expect((await subscribe(client, propertyId, "https://not-yet-in-dns.example.com/hook")).status).toBe(201);
  });

  it("of a sandbox property keep the sandbox rules (localhost allowed, names not resolved)", async () => {
    const client = await newClient();
    expect(
      (
        await client.call("/api/v2/webhooks/subscription", {
          body: { endpoint: "http://localhost:3000/hook", webhook_type: "RESERVATION_CREATED" },
        })
      ).status,
    ).toBe(201);
  });
});
