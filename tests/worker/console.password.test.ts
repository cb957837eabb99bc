/**
 * The console's forgotten password: POST /console/password/forgot emails a single-use link (30
 * minutes) to the property's address through the messages outbox; POST /console/password/reset
 * sets the new password with it, once, and ends every session of the property.
 */
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { ConsoleBrowser, sessionCookie, until } from "./console.helpers";
import { expectInvalid, expectProblem, freshIp, ORIGIN, shardOf, unique } from "./helpers";
import { captureMail, linksIn, mailsTo } from "./messages.helpers";
import { restaurant } from "./oauth.fixtures";

const worker = () => (exports as unknown as { default: Fetcher }).default;

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await worker().fetch(
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp(), ...headers },
      body: JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

async function signIn(username: string, password: string) {
  const res = await worker().fetch(
    new Request(`${ORIGIN}/console/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
      body: JSON.stringify({ username, password }),
    }),
  );
  return { status: res.status, cookie: sessionCookie(res.headers) };
}

const sessionOf = (cookie: string) =>
  worker().fetch(new Request(`${ORIGIN}/console/session`, { headers: { Cookie: cookie } }));

/** A restaurant with a sign-in and an email address, in `locale`. */
async function owner(locale = "en") {
  const r = await restaurant("Trattoria Chiave");
  const email = `${unique("owner")}@chiave.example`;
  const put = await r.owner.call(`/api/v2/properties/${r.propertyId}`, {
    method: "PUT",
    property: r.propertyId,
    body: { email, settings: { locale } },
  });
  expect(put.status, put.text).toBe(200);
  return { ...r, email };
}

/** Asks for a link and answers the token the email carries. */
async function resetToken(
  capture: ReturnType<typeof captureMail>,
  r: { username: string; email: string },
  n = 1,
) {
  expect((await post("/console/password/forgot", { username: r.username })).status).toBe(202);
  const mails = await mailsTo(capture, r.email, n);
  const link = linksIn(mails[n - 1]!.text, `${ORIGIN}/console/reset/`)[0];
  expect(link, mails[n - 1]!.text).toBeDefined();
  return link!.slice(`${ORIGIN}/console/reset/`.length);
}

afterEach(() => setClock(undefined));

describe("POST /console/password/forgot", () => {
  it("answers an unknown username exactly as a known one", async () => {
    const r = await owner();
    const known = await post("/console/password/forgot", { username: r.username });
    const unknown = await post("/console/password/forgot", { username: unique("nobody") });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.text).toBe(known.text);
    expect(unknown.headers.get("Set-Cookie")).toBeNull();
  });

  it("emails the property's address a link to the reset page, in the restaurant's language", async () => {
    const capture = captureMail();
    try {
      const r = await owner("it");
      const token = await resetToken(capture, r);
      const [mail] = await mailsTo(capture, r.email, 1);
      expect(mail!.subject).toContain("password");
      expect(mail!.text).toContain("30 minuti");
      expect(mail!.html).toContain(`${ORIGIN}/console/reset/${token}`);
      // the outbox keeps no token, only the link's nonce and the token's hash
      const shard = await shardOf(r.propertyId);
      const rows = await shard
        .prepare(
          "SELECT reservation_id, template, recipient, state, snapshot FROM messages WHERE to_address = ?",
        )
        .bind(r.email)
        .all<any>();
      expect(rows.results).toEqual([
        expect.objectContaining({
          reservation_id: null,
          template: "password_reset",
          recipient: "restaurant",
        }),
      ]);
      expect(rows.results[0].snapshot).not.toContain(token);
    } finally {
      capture.stop();
    }
  });

  it("sends nothing to a property without an email address", async () => {
    const capture = captureMail();
    try {
      const r = await restaurant("Senza Posta");
      expect((await post("/console/password/forgot", { username: r.username })).status).toBe(202);
      await new Promise((res) => setTimeout(res, 300));
      expect(capture.all).toEqual([]);
    } finally {
      capture.stop();
    }
  });

  it("refuses a missing username with the field named", async () => {
    expectInvalid(await post("/console/password/forgot", {}), "username");
  });

  it("is limited per username like the sign-in, whatever the username", async () => {
    const name = unique("flood");
    const answers: number[] = [];
    for (let i = 0; i < 40 && !answers.includes(429); i++)
      answers.push((await post("/console/password/forgot", { username: name })).status);
    expect(answers).toContain(429);
    for (const status of answers) expect([202, 429]).toContain(status);
  });
});

describe("POST /console/password/reset", () => {
  it("sets the new password once, ends every session of the property and signs nobody in", async () => {
    const capture = captureMail();
    try {
      const r = await owner();
      const before = await signIn(r.username, r.password);
      expect(before.status).toBe(200);
      const token = await resetToken(capture, r);
      const res = await post("/console/password/reset", { token, password: "a-new-password-2" });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("Set-Cookie")).toBeNull();
      expect((await sessionOf(before.cookie)).status).toBe(401);
      expect((await signIn(r.username, r.password)).status).toBe(401);
      expect((await signIn(r.username, "a-new-password-2")).status).toBe(200);
      const again = await post("/console/password/reset", { token, password: "a-third-password-3" });
      expectProblem(again, 410);
      expect(again.json.code).toBe("link_expired");
      expect((await signIn(r.username, "a-new-password-2")).status).toBe(200);
    } finally {
      capture.stop();
    }
  });

  it("closes the live sockets of the sessions it ends", async () => {
    const capture = captureMail();
    try {
      const r = await owner();
      const browser = new ConsoleBrowser();
      expect((await browser.signIn(r.username, r.password)).status).toBe(200);
      const socket = await browser.openLive();
      const token = await resetToken(capture, r);
      expect((await post("/console/password/reset", { token, password: "a-new-password-2" })).status).toBe(
        200,
      );
      await until(() => socket.closed !== undefined, "the socket closed");
      expect(socket.closed!.code).toBe(4001);
    } finally {
      capture.stop();
    }
  });

  it("refuses a link used after its 30 minutes", async () => {
    const capture = captureMail();
    try {
      const r = await owner();
      setClock(new Date(now()).toISOString());
      const token = await resetToken(capture, r);
      setClock(new Date(now() + 30 * 60_000 + 1000).toISOString());
      const res = await post("/console/password/reset", { token, password: "a-new-password-2" });
      expect(res.status).toBe(410);
      expect(res.json.detail).toMatch(/expired/);
      setClock(undefined);
      expect((await signIn(r.username, r.password)).status).toBe(200);
    } finally {
      capture.stop();
    }
  });

  it("refuses an unknown token, and a short password at its field before spending the link", async () => {
    const capture = captureMail();
    try {
      const r = await owner();
      expect(
        (await post("/console/password/reset", { token: "nonsense", password: "a-new-password-2" })).status,
      ).toBe(410);
      const token = await resetToken(capture, r);
      expectInvalid(await post("/console/password/reset", { token, password: "short" }), "password");
      expect((await post("/console/password/reset", { token, password: "a-new-password-2" })).status).toBe(
        200,
      );
    } finally {
      capture.stop();
    }
  });

  it("makes the links sent before the reset useless", async () => {
    const capture = captureMail();
    try {
      const r = await owner();
      const first = await resetToken(capture, r, 1);
      const second = await resetToken(capture, r, 2);
      expect(
        (await post("/console/password/reset", { token: second, password: "a-new-password-2" })).status,
      ).toBe(200);
      expect(
        (await post("/console/password/reset", { token: first, password: "a-third-password-3" })).status,
      ).toBe(410);
    } finally {
      capture.stop();
    }
  });
});

describe("POST /console/password", () => {
  it("answers a wrong old password 403 invalid_credentials, and changes nothing", async () => {
    const r = await owner();
    const browser = new ConsoleBrowser();
    expect((await browser.signIn(r.username, r.password)).status).toBe(200);
    const res = await browser.fetch("/console/password", {
      body: { old_password: "not-the-password", new_password: "a-new-password-2" },
    });
    expectProblem(res, 403, "invalid credentials");
    expect(res.json.code).toBe("invalid_credentials");
    expect((await browser.fetch("/console/session")).status).toBe(200);
    expect((await signIn(r.username, r.password)).status).toBe(200);
  });

  it("ends every reset link asked before the change", async () => {
    const capture = captureMail();
    try {
      const r = await owner();
      const token = await resetToken(capture, r);
      const browser = new ConsoleBrowser();
      expect((await browser.signIn(r.username, r.password)).status).toBe(200);
      const changed = await browser.fetch("/console/password", {
        body: { old_password: r.password, new_password: "a-new-password-2" },
      });
      expect(changed.status, changed.text).toBe(204);
      expectProblem(await post("/console/password/reset", { token, password: "a-third-password-3" }), 410);
      expect((await signIn(r.username, "a-new-password-2")).status).toBe(200);
      expect((await signIn(r.username, "a-third-password-3")).status).toBe(401);
    } finally {
      capture.stop();
    }
  });
});
