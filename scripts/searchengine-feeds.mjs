// `npm run ops -- searchengine-feeds DIR`: the search engine's three feeds (merchants, services,
// availability; worker/searchengine/feeds.ts) fetched from the Worker with the partner's
// credentials and written to DIR as files, for the upload to the partner portal
// (docs/searchengine.md, "Registering with the Actions Center"). Locally the running npm start
// (its credentials are in .dev.vars), else a wrangler dev started for the command; the deployed
// Worker with --url and SEARCHENGINE_USER / SEARCHENGINE_PASSWORD in the environment.
import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultPersistDir, startDevOnFreePort } from "./dev-server.mjs";
import { devVar } from "./ops-door.mjs";

export const FEEDS = [
  { name: "merchants", list: "merchant", what: "merchants" },
  { name: "services", list: "service", what: "services" },
  {
    name: "availability",
    list: "service_availability",
    what: "slots",
    count: (f) => f.service_availability.reduce((n, s) => n + s.availability.length, 0),
  },
];

/** Fetches the three feeds from `url` and writes DIR/<name>.json; answers what each holds. */
export async function writeFeeds(url, credentials, dir, log = console.log) {
  const out = resolve(dir);
  mkdirSync(out, { recursive: true });
  const auth = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString("base64")}`;
  const written = [];
  for (const feed of FEEDS) {
    const res = await fetch(`${url}/searchengine/feeds/${feed.name}.json`, {
      headers: { Authorization: auth },
    });
    const text = await res.text();
    if (!res.ok)
      throw new Error(`GET /searchengine/feeds/${feed.name}.json: ${res.status} ${text.slice(0, 200)}`);
    const body = JSON.parse(text);
    const file = join(out, `${feed.name}.json`);
    writeFileSync(file, JSON.stringify(body, null, 1));
    const count = feed.count ? feed.count(body) : body[feed.list].length;
    written.push({ file, count });
    log(
      `wrote ${file} (${count.toLocaleString("en")} ${feed.what}, ${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB)`,
    );
  }
  return written;
}

/**
 * Runs `work(url, credentials)` against the Worker: `url` (deployed; credentials from the
 * environment), else the local one on PORT when it answers (credentials from .dev.vars), else a
 * wrangler dev started on the local D1 for the command and stopped after it.
 */
export async function withPartner({ url, persistTo }, work) {
  const fromEnv =
    process.env.SEARCHENGINE_USER && process.env.SEARCHENGINE_PASSWORD
      ? { user: process.env.SEARCHENGINE_USER, password: process.env.SEARCHENGINE_PASSWORD }
      : undefined;
  const credentials =
    fromEnv ??
    (devVar("SEARCHENGINE_USER") && devVar("SEARCHENGINE_PASSWORD")
      ? { user: devVar("SEARCHENGINE_USER"), password: devVar("SEARCHENGINE_PASSWORD") }
      : undefined);
  if (url) {
    if (!fromEnv)
      throw new Error(
        "the deployed Worker needs SEARCHENGINE_USER and SEARCHENGINE_PASSWORD in the environment",
      );
    return work(url.replace(/\/$/, ""), fromEnv);
  }
  const local = `http://127.0.0.1:${process.env.PORT ?? 8787}`;
  if (
    await fetch(`${local}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  ) {
    if (!credentials)
      throw new Error(
        "npm start is running without SEARCHENGINE_USER in .dev.vars: restart it (it creates them)",
      );
    return work(local, credentials);
  }
  console.log("no Worker answers locally: starting one on the local D1 for this command...");
  const temporary = credentials ?? { user: "ops", password: randomBytes(18).toString("base64url") };
  const server = await startDevOnFreePort({
    persistTo: persistTo ?? defaultPersistDir(),
    vars: { SEARCHENGINE_USER: temporary.user, SEARCHENGINE_PASSWORD: temporary.password },
  });
  try {
    return await work(server.url, temporary);
  } finally {
    await server.stop();
  }
}
