// A real webhook receiver for the tests and the bench: a Node HTTP server the Worker posts to.
// Each hook name has a script of answers, consumed in order (then 200):
//   {status, headers?, body?, hangMs?}  ... hangMs holds the answer back (a hung receiver).
// Control (JSON):
//   PUT  /control/<name>        {answers: [...]}   sets the script and clears what was received
//   GET  /control/<name>                           what was received: [{at, headers, body, answered}]
//   POST /listener                                 a port nothing listens on yet (a receiver that is down)
//   POST /listener/<port>/up                       starts listening there
// It also plays the search engine's side of booking notifications (worker/searchengine/notify.ts),
// with `serviceAccount`, a key of its own (token_uri pointing here):
//   POST  /google/token                             OAuth 2 JWT-bearer grant: the assertion must verify
//                                                   against that key (hook "google-token" records them)
//   PATCH /google/v1alpha/notification/partners/<p>/bookings/<id>?updateMask=...
//                                                   needs a token issued above; hook "google-booking-<id>"
//                                                   scripts the answers and records what came
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { importSPKI, jwtVerify } from "jose";

export const MAPSBOOKING_SCOPE = "https://www.googleapis.com/auth/mapsbooking";

export async function startReceiver() {
  const hooks = new Map(); // name -> {answers: [], received: []}
  const google = googleSide();
  const hook = (name) => hooks.get(name) ?? hooks.set(name, { answers: [], received: [] }).get(name);
  const extra = new Map(); // port -> server

  const readBody = (req) =>
    new Promise((resolve) => {
      let data = "";
      req.setEncoding("utf8");
      req.on("data", (chunk) => (data += chunk));
      req.on("end", () => resolve(data));
    });

  async function handle(req, res) {
    const url = new URL(req.url, "http://receiver");
    const body = await readBody(req);
    const send = (status, value, headers = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(value === undefined ? "" : JSON.stringify(value));
    };
    let m = /^\/control\/([\w-]+)$/.exec(url.pathname);
    if (m) {
      if (req.method === "PUT") {
        hooks.set(m[1], { answers: JSON.parse(body || "{}").answers ?? [], received: [] });
        return send(204);
      }
      return send(200, hook(m[1]).received);
    }
    if (req.method === "POST" && url.pathname === "/listener") {
      const probe = createServer();
      await new Promise((r) => probe.listen(0, "127.0.0.1", r));
      const port = probe.address().port;
      await new Promise((r) => probe.close(r));
      return send(200, { port });
    }
    m = req.method === "POST" ? /^\/listener\/(\d+)\/up$/.exec(url.pathname) : null;
    if (m) {
      const server = createServer(handle);
      server.keepAliveTimeout = 65_000;
      await new Promise((r) => server.listen(Number(m[1]), "127.0.0.1", r));
      server.unref();
      extra.set(Number(m[1]), server);
      return send(204);
    }
    if (req.method === "POST" && url.pathname === "/google/token")
      return google.token(req, body, hook("google-token"), send);
    let name = /^\/hook\/([\w-]+)$/.exec(url.pathname)?.[1];
    m = /^\/google\/v1alpha\/notification\/partners\/[\w-]+\/bookings\/(\d+)$/.exec(url.pathname);
    if (m) {
      if (req.method !== "PATCH") return send(405, { error: "PATCH only" });
      if (!google.authorised(req.headers.authorization))
        return send(401, { error: { code: 401, status: "UNAUTHENTICATED" } });
      name = `google-booking-${m[1]}`;
    }
    if (name) {
      const h = hook(name);
      const answer = h.answers.shift() ?? { status: 200 };
      const entry = {
        at: Date.now(),
        method: req.method,
        url: req.url,
        headers: req.headers,
        body,
        answered: answer.status,
      };
      h.received.push(entry);
      if (answer.hangMs) await new Promise((r) => setTimeout(r, answer.hangMs));
      if (res.destroyed) return;
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      return res.end(answer.body ?? (answer.status < 300 ? "ok" : "nope"));
    }
    send(404, { error: "unknown" });
  }

  const server = createServer(handle);
  // Longer than a client's idle pool: a connection the Worker reuses is never one this side just
  // closed ("Network connection lost" before any answer). close() ends them all anyway.
  server.keepAliveTimeout = 65_000;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  server.unref();
  const url = `http://127.0.0.1:${server.address().port}`;
  google.tokenUri = `${url}/google/token`;
  return {
    url,
    hooks,
    /** a service-account key (the JSON Google hands out) whose token_uri is this receiver */
    serviceAccount: google.serviceAccount(),
    close: () =>
      Promise.all(
        [server, ...extra.values()].map(
          (s) =>
            new Promise((r) => {
              s.closeAllConnections?.();
              s.close(r);
            }),
        ),
      ),
  };
}

/** The search engine's token endpoint: RFC 7523 assertions signed by the key it handed out. */
function googleSide() {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const clientEmail = "booking-notifier@partner-test.iam.gserviceaccount.com";
  const issued = new Map(); // token -> expiry (ms)
  const side = {
    tokenUri: "",
    serviceAccount: () => ({
      type: "service_account",
      client_email: clientEmail,
      private_key_id: "test-key-1",
      private_key: privateKey,
      token_uri: side.tokenUri,
    }),
    authorised: (header) => {
      const token = /^Bearer (\S+)$/.exec(header ?? "")?.[1];
      return token !== undefined && (issued.get(token) ?? 0) > Date.now();
    },
    async token(req, body, h, send) {
      const form = new URLSearchParams(body);
      const entry = {
        at: Date.now(),
        method: req.method,
        url: req.url,
        headers: req.headers,
        body,
        answered: 0,
      };
      h.received.push(entry);
      const scripted = h.answers.shift();
      const answer = (status, value) => {
        entry.answered = status;
        return send(status, value);
      };
      if (scripted) return answer(scripted.status, { error: "scripted" });
      try {
        if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer")
          throw new Error("grant_type");
        const { payload, protectedHeader } = await jwtVerify(
          form.get("assertion") ?? "",
          await importSPKI(publicKey, "RS256"),
          {
            issuer: clientEmail,
            audience: side.tokenUri,
            algorithms: ["RS256"],
          },
        );
        if (
          payload.scope !== MAPSBOOKING_SCOPE ||
          protectedHeader.kid !== "test-key-1" ||
          payload.exp - payload.iat > 3600
        )
          throw new Error("claims");
      } catch (err) {
        return answer(400, {
          error: "invalid_grant",
          error_description: String(err?.message ?? err),
        });
      }
      const token = `ya29.test-${randomBytes(12).toString("hex")}`;
      issued.set(token, Date.now() + 3600_000);
      answer(200, { access_token: token, expires_in: 3600, token_type: "Bearer" });
    },
  };
  return side;
}
