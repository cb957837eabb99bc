// One Worker for the browser suites of a run (wrangler dev on a fresh local D1), and the lease of
// its clock. The Worker has one clock (worker/lib/clock.ts, pinned through the operator door), so
// whatever uses the Worker (a component test file, an end-to-end file, one instant of a file)
// holds it at a clock of its own: the real clock, an ISO instant, or a shift ("+3600000").
// Holders at the same clock run side by side; a holder at another clock waits until they are
// done, and the lease pins the Worker's clock before it lets it in. A holder that moves the clock
// itself meanwhile (`pin`) waits until it is the only one, and holds the Worker alone until it
// gives the clock back; one that will move it asks to hold the Worker alone from the start
// (`alone`), so its moves never wait on other files in the middle of a test.
//
// `npm test` starts the Worker once (startSharedWorker) and names its lease in BE_SHARED_WORKER;
// a file run on its own starts one for itself (holdWorker), the same way.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrate, startDevOnFreePort } from "../../scripts/dev-server.mjs";
import { STANDIN_KEYS, startStripeStandin } from "../../scripts/stripe-standin/server.mjs";

/** How a holder names the real clock in a lease (the operator door's null). */
const REAL = "";
/** How long the Worker stays at a clock for the next file at it, once the last one left (ms). */
const GRACE = 500;

/** The lease of one Worker's clock; `pin(at)` sets the Worker's clock (null: the real one). */
export class ClockLease {
  constructor(pin) {
    this.pin = pin;
    /** the clock the Worker stands at: a holder's, or undefined once a holder moved it */
    this.current = REAL;
    this.holders = new Map();
    /** waiting holds (first come, first in) and, ahead of them, holders waiting to be alone */
    this.queue = [];
    this.chain = Promise.resolve();
    this.ids = 0;
    this.lastLeft = 0;
  }

  /**
   * A hold in line at `clock` (`alone`: once no one else holds the Worker, and no one else until
   * it is released): its id, and `granted`, which resolves once the Worker stands there for it.
   */
  hold(clock, alone = false) {
    const request = { kind: "hold", clock, alone, id: ++this.ids };
    const granted = new Promise((grant, refuse) => Object.assign(request, { grant, refuse }));
    this.queue.push(request);
    this.wake();
    return { id: request.id, granted };
  }

  /** Gives up a hold, or a hold still waiting (`grant` of its request). */
  release(id) {
    const holder = this.holders.get(id);
    // a holder that moved the clock and left it there: the next one pins it again
    if (holder?.alone && this.current !== holder.clock) this.current = undefined;
    if (holder) this.lastLeft = Date.now();
    this.holders.delete(id);
    this.queue = this.queue.filter((r) => r.id !== id);
    this.wake();
  }

  /** A holder moves the clock to `at` (then holds alone), or gives it back (null). */
  move(id, at) {
    const holder = this.holders.get(id);
    if (!holder) return Promise.reject(new Error(`no holder ${id}`));
    if (at === null) {
      if (!holder.alone) return Promise.resolve();
      const back = this.serial(async () => {
        await this.pin(holder.clock || null);
        this.current = holder.clock;
        holder.alone = holder.exclusive;
      });
      this.wake();
      return back;
    }
    // two holders moving the clock at once would each wait for the other to leave
    if (this.queue.some((r) => r.kind === "alone" && r.id !== id))
      return Promise.reject(new Error("another holder is moving the Worker's clock"));
    return new Promise((grant, refuse) => {
      this.queue.unshift({ kind: "alone", id, at, grant, refuse });
      this.wake();
    });
  }

  wake() {
    this.serial(() => this.admit());
  }

  serial(work) {
    const next = this.chain.then(work);
    this.chain = next.catch(() => {});
    return next;
  }

  /**
   * Lets in what may come in now, pinning the clock first. While the Worker stands at a clock,
   * holds at that clock come in ahead of the line (what runs at one clock runs together); the line
   * goes on once none is left, GRACE ms after the last one went (the next file of a run asks a
   * moment after its previous one is done).
   */
  async admit() {
    while (this.queue.length) {
      const next = this.pick();
      if (!next) return;
      if (next === "later") {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.wake(), GRACE - (Date.now() - this.lastLeft) + 1);
        return;
      }
      this.queue.splice(this.queue.indexOf(next), 1);
      const alone = next.kind === "alone";
      const at = alone ? next.at : next.clock;
      if (alone || this.current !== at) {
        this.current = undefined;
        try {
          await this.pin(at || null);
        } catch (err) {
          next.refuse(err);
          continue;
        }
      }
      const holder = this.holders.get(next.id);
      if (alone && holder) holder.alone = true;
      if (!alone) {
        this.current = next.clock;
        const exclusive = Boolean(next.alone);
        this.holders.set(next.id, { id: next.id, clock: next.clock, alone: exclusive, exclusive });
      }
      next.grant(next.id);
    }
  }

  /** The request to let in now, "later" (in the grace after the last holder left), or none. */
  pick() {
    const holders = [...this.holders.values()];
    const head = this.queue[0];
    if (head.kind === "alone") return holders.some((h) => h.id !== head.id) ? undefined : head;
    if (holders.some((h) => h.alone)) return undefined;
    const here = this.queue.find((r) => r.kind === "hold" && !r.alone && r.clock === this.current);
    if (here) return here;
    if (holders.length) return undefined;
    return Date.now() - this.lastLeft < GRACE && this.current !== undefined ? "later" : head;
  }
}

/** The raw emails sent to `to` among the .eml files `files`, oldest first. */
function mailsTo(files, to) {
  const address = to.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return files
    .map((file) => readFileSync(file, "utf8"))
    .filter((text) => new RegExp(`^To:.*<${address}>`, "mi").test(text));
}

/**
 * wrangler dev on a fresh local D1, with secrets of its own (never the developer's .dev.vars), the
 * local Stripe stand-in (its events posted to the Worker, as npm start does), and its lease on a
 * local port. Answers { url, opsToken, stripe (the stand-in's URL), lease (the lease's URL), mails(to), stop() }.
 */
export async function startSharedWorker({ log = () => {} } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "be-shared-worker-"));
  await migrate(dir);
  const stripe = await startStripeStandin({ log });
  const opsToken = randomBytes(24).toString("base64url");
  /** the .eml files of the emails the Worker sent (wrangler's local send_email logs each path) */
  const emails = [];
  const server = await startDevOnFreePort({
    persistTo: dir,
    clock: "",
    logLevel: "info",
    vars: {
      OPS_TOKEN: opsToken,
      LINK_SECRET: randomBytes(24).toString("base64url"),
      STRIPE_SECRET_KEY: STANDIN_KEYS.secretKey,
      STRIPE_PUBLISHABLE_KEY: STANDIN_KEYS.publishableKey,
      STRIPE_WEBHOOK_SECRET: STANDIN_KEYS.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      STRIPE_JS_URL: stripe.jsUrl,
    },
    log: (line) => {
      const eml = /(\/\S+\.eml)\b/.exec(line);
      if (eml) emails.push(eml[1]);
      else if (!/\[wrangler:info\]/.test(line)) log(line);
    },
  }).catch(async (err) => {
    await stripe.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  stripe.target(`${server.url}/payments/stripe/events`);
  const lease = new ClockLease(async (at) => {
    const res = await fetch(`${server.url}/__ops/clock`, {
      method: "POST",
      headers: { Authorization: `Bearer ${opsToken}`, "Content-Type": "application/json" },
      body: JSON.stringify({ at }),
    });
    if (!res.ok) throw new Error(`the Worker's clock at ${at}: ${res.status} ${await res.text()}`);
  });
  const http = createServer((req, res) =>
    leaseDoor(req, res, { lease, server, opsToken, emails, stripe: stripe.url }),
  );
  await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: server.url,
    opsToken,
    stripe: stripe.url,
    lease: `http://127.0.0.1:${http.address().port}`,
    mails: (to) => mailsTo(emails, to),
    async stop() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
      await server.stop();
      stripe.server.closeAllConnections();
      await stripe.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The lease over HTTP: GET /hold?clock=...[&alone] answers at once with the holder's id (X-Holder), then
 * "granted" once the Worker stands at that clock for it (a blank line every 20 s meanwhile and
 * after, so that no client gives up on a quiet body); the hold lasts as long as the request. POST
 * /pin?holder=<id> {at} moves the clock (null: back to the hold's). GET /worker: its URL and the
 * operator's token and the Stripe stand-in's; GET /mail?to=<address>: the raw emails sent to that address, oldest first.
 */
async function leaseDoor(req, res, { lease, server, opsToken, emails, stripe }) {
  const url = new URL(req.url, "http://lease");
  const json = (status, body) => {
    res.writeHead(status, { "Content-Type": "application/json" });
    res.end(JSON.stringify(body));
  };
  if (url.pathname === "/worker") return json(200, { url: server.url, opsToken, stripe });
  if (url.pathname === "/mail") return json(200, mailsTo(emails, url.searchParams.get("to") ?? ""));
  if (url.pathname === "/pin" && req.method === "POST") {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const { at } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return lease.move(Number(url.searchParams.get("holder")), at ?? null).then(
      () => json(200, { at: at ?? null }),
      (err) => json(409, { error: String(err?.message ?? err) }),
    );
  }
  if (url.pathname !== "/hold") return json(404, { error: "no such door" });
  const { id, granted } = lease.hold(url.searchParams.get("clock") ?? REAL, url.searchParams.has("alone"));
  res.writeHead(200, { "Content-Type": "text/plain", "X-Holder": String(id) });
  const beat = setInterval(() => res.writable && res.write("\n"), 20_000);
  res.on("close", () => {
    clearInterval(beat);
    lease.release(id);
  });
  granted.then(
    () => res.write("granted\n"),
    (err) => res.end(`refused ${String(err?.message ?? err)}\n`),
  );
}

/**
 * Holds the Worker at `clock` (an ISO instant, "+/-ms", or null: the real clock; `alone`: with no
 * other holder, for a file that moves the clock): the run's shared
 * Worker when BE_SHARED_WORKER names its lease, else one started for this hold alone. Answers
 * { url, opsToken, pin(at), mails(to), release() }: `pin` moves the Worker's clock (holding it
 * alone meanwhile), `pin(null)` gives it back to `clock`.
 */
export async function holdWorker({ clock = null, alone = false, log } = {}) {
  const own = process.env.BE_SHARED_WORKER ? undefined : await startSharedWorker({ log });
  const base = own?.lease ?? process.env.BE_SHARED_WORKER;
  const controller = new AbortController();
  const res = await fetch(`${base}/hold?clock=${encodeURIComponent(clock ?? REAL)}${alone ? "&alone" : ""}`, {
    signal: controller.signal,
  });
  const holder = res.headers.get("X-Holder");
  const lines = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (let text = ""; !text.includes("granted"); ) {
    const { value, done } = await lines.read();
    if (done || value.includes("refused")) throw new Error(`no hold of the Worker at ${clock}: ${value}`);
    text += value;
  }
  // read on (the blank lines), so that the hold stays open until released
  (async () => {
    while (!(await lines.read()).done);
  })().catch(() => {});
  const worker = await (await fetch(`${base}/worker`)).json();
  return {
    url: worker.url,
    opsToken: worker.opsToken,
    async pin(at) {
      const moved = await fetch(`${base}/pin?holder=${holder}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ at }),
      });
      if (!moved.ok) throw new Error(`the Worker's clock at ${at}: ${moved.status} ${await moved.text()}`);
    },
    mails: async (to) => (await fetch(`${base}/mail?to=${encodeURIComponent(to)}`)).json(),
    async release() {
      controller.abort();
      await own?.stop();
    },
  };
}
