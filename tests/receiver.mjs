// A real webhook receiver for the tests and the bench: a Node HTTP server the Worker posts to.
// Each hook name has a script of answers, consumed in order (then 200):
//   {status, headers?, body?, hangMs?}  ... hangMs holds the answer back (a hung receiver).
// Control (JSON):
//   PUT  /control/<name>        {answers: [...]}   sets the script and clears what was received
//   GET  /control/<name>                           what was received: [{at, headers, body, answered}]
//   POST /listener                                 a port nothing listens on yet (a receiver that is down)
//   POST /listener/<port>/up                       starts listening there
import { createServer } from "node:http";

export async function startReceiver() {
  const hooks = new Map(); // name -> {answers: [], received: []}
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
    let m;
    if ((m = /^\/control\/([\w-]+)$/.exec(url.pathname))) {
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
    if (req.method === "POST" && (m = /^\/listener\/(\d+)\/up$/.exec(url.pathname))) {
      const server = createServer(handle);
      server.keepAliveTimeout = 65_000;
      await new Promise((r) => server.listen(Number(m[1]), "127.0.0.1", r));
      server.unref();
      extra.set(Number(m[1]), server);
      return send(204);
    }
    if ((m = /^\/hook\/([\w-]+)$/.exec(url.pathname))) {
      const h = hook(m[1]);
      const answer = h.answers.shift() ?? { status: 200 };
      const entry = { at: Date.now(), headers: req.headers, body, answered: answer.status };
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
  return {
    url,
    hooks,
    close: () => Promise.all([server, ...extra.values()].map((s) => new Promise((r) => (s.closeAllConnections?.(), s.close(r))))),
  };
}
