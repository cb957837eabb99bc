/**
 * Headers that keep pages and personal data where they belong: the docs pages send a
 * Content-Security-Policy (the Swagger UI runs from this origin only), and no answer of the
 * integrator API may be stored by a browser, proxy or CDN (Cache-Control: no-store).
 */
import { describe, expect, it } from "vitest";
import { direct } from "./direct";
import { book, call, dateInDays, newClient, seedCatalog } from "./helpers";
import { operations, urlOf } from "./openapi-walk";

/** A CSP header as {directive: sources}. */
function policy(header: string | null): Record<string, string[]> {
  expect(header, "no Content-Security-Policy").toBeTruthy();
  return Object.fromEntries(
    header!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe("/docs", () => {
  it("sends a CSP: scripts, styles, images and fetches from this origin only, the start-up script by its nonce, no framing", async () => {
    const first = await call("/docs");
    expect(first.status).toBe(200);
    const csp = policy(first.headers.get("Content-Security-Policy"));
    expect(csp["default-src"]).toEqual(["'none'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["img-src"]).toEqual(["'self'", "data:"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["base-uri"]).toEqual(["'none'"]);
    expect(csp["object-src"] ?? csp["default-src"]).toEqual(["'none'"]);
    const scripts = csp["script-src"]!;
    expect(scripts).toContain("'self'");
    expect(scripts.join(" ")).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    const nonce = /^'nonce-([A-Za-z0-9_-]{16,})'$/.exec(scripts.find((s) => s.startsWith("'nonce-"))!)?.[1];
    expect(nonce).toBeTruthy();
    // Every inline script carries it; the Swagger UI bundle comes from this origin.
    const inline = [...first.text.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(inline.length).toBe(1);
    for (const [, attributes] of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(first.text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
    // A nonce is good for one answer only.
    const second = await call("/docs");
    expect(second.headers.get("Content-Security-Policy")).not.toBe(
      first.headers.get("Content-Security-Policy"),
    );
  });

  it("/docs/errors sends a CSP that allows no script at all", async () => {
    const res = await call("/docs/errors");
    expect(res.status).toBe(200);
    const csp = policy(res.headers.get("Content-Security-Policy"));
    expect(csp["default-src"]).toEqual(["'none'"]);
    expect(csp["script-src"]).toBeUndefined();
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(res.text).not.toContain("<script");
  });
});

describe("Cache-Control: no-store", () => {
  it("on every answer of every integrator API operation (and the search engine's), successes and refusals alike", async () => {
    const client = await newClient();
    const cat = await seedCatalog(client);
    const reservation = (await book(client, { start_date: dateInDays(5), service_id: cat.service.id })).json
      .data[0];
    const subscription = (
      await client.call("/api/v2/webhooks/subscription", {
        body: { endpoint: "https://hooks.example.com/", webhook_type: "RESERVATION_CREATED" },
      })
    ).json.data[0];
    const ids: Record<string, number> = {
      properties: client.propertyId,
      rooms: cat.room.id,
      tables: cat.t1.id,
      services: cat.service.id,
      closures: cat.closure.id,
      reservations: reservation.id,
      webhooks: subscription.id,
      webhook: subscription.id,
    };
    // The personal data in particular: a reservation with its guest, through the Worker's door.
    const read = await client.call(`/api/v2/reservations/${reservation.id}`);
    expect(read.json.data[0].customer.email).toBe("ada@example.com");
    expect(read.headers.get("Cache-Control")).toBe("no-store");
    expect((await call(`/api/v2/reservations/${reservation.id}`)).headers.get("Cache-Control")).toBe(
      "no-store",
    );
    // Reads first, so the deletions at the end do not turn them into 404s.
    const ops = (await operations()).ops
      .filter((o) => o.authenticated)
      .sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));
    expect(ops.length).toBeGreaterThan(40);
    const statuses = new Set<number>();
    for (const op of ops) {
      const res = await direct(urlOf(op, ids[op.path.split("/")[3]!] ?? 1), {
        method: op.method,
        token: client.token,
        property: client.propertyId,
        body: op.bodySchema ? {} : undefined,
      });
      statuses.add(res.status);
      expect(res.headers.get("Cache-Control"), `${op.method} ${op.path} (${res.status})`).toBe("no-store");
    }
    expect([...statuses]).toEqual(expect.arrayContaining([200, 400]));
  });
});
