/**
 * Passkeys through the Worker alone (the browser's part, a real authenticator's signature, is the
 * end-to-end test's: tests/e2e/console-staff.test.mjs): the options of a sign-in and of a new
 * passkey, each challenge spent by the first answer, the sign-in's challenges limited per address,
 * and what a platform's session may not do.
 */
import { describe, expect, it } from "vitest";
import { ConsoleBrowser } from "./console.helpers";
import { expectProblem, freshIp } from "./helpers";
import { staffedRestaurant } from "./staff.helpers";

const forged = {
  response: { id: "AAAA", rawId: "AAAA", type: "public-key", response: {}, clientExtensionResults: {} },
};

/** An IPv6 /64 of the test's own, made from an IPv4 address no other test is given. */
function freshNetwork() {
  const [, b, c, d] = freshIp().split(".").map(Number);
  return `2001:db8:${((b! << 8) | c!).toString(16)}:${d!.toString(16)}`;
}

describe("passkeys", () => {
  it("offers a sign-in challenge for this site, and an answer it cannot verify is 401, once", async () => {
    const browser = new ConsoleBrowser();
    const options = await browser.fetch("/console/passkey/options", { body: {} });
    expect(options.status, options.text).toBe(200);
    expect(options.json.data[0]).toMatchObject({ rpId: "api.test", challenge: expect.any(String) });
    expect(browser.cookies.get("console_passkey")).toBeTruthy();
    expectProblem(await browser.fetch("/console/passkey", { body: forged }), 401, "invalid credentials");
    // the challenge went with the first answer
    expectProblem(await browser.fetch("/console/passkey", { body: forged }), 401, "invalid credentials");
    expect(browser.cookies.has("console_session")).toBe(false);
  });

  it("limits sign-in challenges per address, an IPv6 caller per /64, as the password's sign-in", async () => {
    const options = (ip: string) => new ConsoleBrowser(ip).fetch("/console/passkey/options", { body: {} });
    const network = freshNetwork();
    const statuses: number[] = [];
    for (let i = 1; i <= 21 && !statuses.includes(429); i++)
      statuses.push((await options(`${network}::${i}`)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.at(-1)).toBe(429);
    expect((await options(`${freshNetwork()}::1`)).status).toBe(200);
  });

  it("gives a signed-in member the options of a new passkey for their own account", async () => {
    const r = await staffedRestaurant("Passkeys Options");
    const options = await r.ownerBrowser.fetch("/console/passkeys/options", { body: {} });
    expect(options.status, options.text).toBe(200);
    expect(options.json.data[0]).toMatchObject({
      rp: { id: "api.test" },
      user: { name: r.username },
      authenticatorSelection: { residentKey: "required" },
    });
    expectProblem(
      await r.ownerBrowser.fetch("/console/passkeys", { body: forged }),
      401,
      "invalid credentials",
    );
    expect((await r.ownerBrowser.fetch("/console/passkeys")).json.data).toEqual([]);
  });

  it("refuses a platform's session, which has no account of its own", async () => {
    const r = await staffedRestaurant("Passkeys Platform");
    const link = await r.owner.call("/api/v2/console/links", { method: "POST", property: r.propertyId });
    const browser = new ConsoleBrowser();
    await browser.fetch(new URL(link.json.data[0].url).pathname);
    browser.csrf = (await browser.fetch("/console/session")).json.data[0].csrf_token;
    expect((await browser.fetch("/console/passkeys")).status).toBe(403);
    expect((await browser.fetch("/console/passkeys/options", { body: {} })).status).toBe(403);
  });
});
