// Bodies over 64 KiB sent chunked (no Content-Length) against a real `wrangler dev`: every answer
// is a clean 413 (RFC 6749's shape on the OAuth token endpoint), never a 503 "worker restarted
// mid-request" nor a dropped connection, and the Worker keeps serving afterwards.
import "../support/fetch.mjs";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ROOT } from "../../scripts/dev-server.mjs";
import { holdWorker } from "../support/shared-worker.mjs";

const AUTH = "/auth/api/v2/api-account/oauth2";

/**
 * POSTs `bytes` bytes in 16 KiB chunks with node:http and no Content-Length (so Transfer-Encoding:
 * chunked); resolves with the answer once it is complete. The Worker may answer before the last
 * chunk: writing then stops.
 */
function chunkedPost(base, path, headers, bytes, fill = "x") {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      url,
      { method: "POST", headers: { ...headers, "Transfer-Encoding": "chunked", Connection: "close" } },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, text: body }));
        res.on("error", reject);
      },
    );
    req.on("error", (err) => (answered ? undefined : reject(err)));
    const chunk = Buffer.alloc(16 * 1024, fill);
    let sent = 0;
    const pump = () => {
      while (sent < bytes && !answered) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!req.write(piece)) return req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("bodies over 64 KiB sent chunked to wrangler dev", () => {
  let server;
  let client;
  let token;
  let property;

  before(async () => {
    mkdirSync(join(ROOT, "dist", "public"), { recursive: true });
    // the browser suites' Worker, on the real clock
    server = await holdWorker();
    const username = `chunky-${Date.now().toString(36)}`;
    const created = await fetch(`${server.url}${AUTH}/client`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: "Chunky",
        email: `${username}@example.com`,
        username,
        password: "a-long-password",
        redirect_uri: "https://chunky.example",
      }),
    });
    assert.equal(created.status, 200);
    client = (await created.json()).data[0];
    property = client.properties[0].id;
    const issued = await fetch(`${server.url}${AUTH}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: client.client_id,
        client_secret: client.client_secret,
      }),
    });
    token = (await issued.json()).access_token;
  });

  after(() => server?.release());

  it("answer 413 every time, on the integrator API, client creation and the token endpoint", async () => {
    const routes = [
      [
        "/api/v2/rooms",
        { "Content-Type": "application/json", Authorization: `Bearer ${token}`, Property: String(property) },
        "problem",
      ],
      [`${AUTH}/client`, { "Content-Type": "application/json" }, "problem"],
      [`${AUTH}/token`, { "Content-Type": "application/x-www-form-urlencoded" }, "oauth"],
    ];
    const seen = [];
    // Some sizes just over the limit, some far over it: each round sends all of them.
    for (let round = 0; round < 6; round++) {
      for (const [path, headers, shape] of routes) {
        for (const size of [64 * 1024 + 1, 100 * 1024, 1024 * 1024]) {
          const res = await chunkedPost(server.url, path, headers, size);
          seen.push(res.status);
          assert.equal(
            res.status,
            413,
            `${path}, ${size} bytes, round ${round}: ${res.status} ${res.text.slice(0, 200)}`,
          );
          const body = JSON.parse(res.text);
          if (shape === "oauth")
            assert.deepEqual(body, {
              error: "invalid_request",
              error_description: "request bodies are limited to 64 KiB",
            });
          else assert.equal(body.title, "payload too large");
        }
      }
    }
    assert.equal(seen.length, 54);
    assert.equal((await fetch(`${server.url}/healthz`)).status, 200);
  });

  it("read a chunked body within the limit as usual", async () => {
    const body = JSON.stringify({ name: "Chunked hall", pad: "y".repeat(50 * 1024) });
    const res = await new Promise((resolve, reject) => {
      const req = request(
        new URL("/api/v2/rooms", server.url),
        {
          method: "POST",
          headers: {
            "Content-Type": "application/json",
            Authorization: `Bearer ${token}`,
            Property: String(property),
            "Transfer-Encoding": "chunked",
          },
        },
        (r) => {
          let text = "";
          r.on("data", (d) => (text += d));
          r.on("end", () => resolve({ status: r.statusCode, text }));
        },
      );
      req.on("error", reject);
      for (let i = 0; i < body.length; i += 8192) req.write(body.slice(i, i + 8192));
      req.end();
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(JSON.parse(res.text).data[0].name, "Chunked hall");
  });
});
