/**
 * The console's writes come from its own pages only: a form on another site can neither sign a
 * browser in to the attacker's restaurant (JSON only, Origin and Sec-Fetch-Site checked) nor act
 * with a signed-in browser's cookie. And its menu's own addresses reload.
 */
import { describe, expect, it } from "vitest";
import { ConsoleBrowser } from "./console.helpers";
import { expectProblem } from "./helpers";
import { restaurant } from "./oauth.fixtures";

const ELSEWHERE = { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" };

describe("POST /console/session", () => {
  it("takes JSON only: a form's text/plain, urlencoded or multipart body signs nobody in (415)", async () => {
    const r = await restaurant("Login CSRF One");
    const multipart = new Request("https://form.example", {
      method: "POST",
      body: (() => {
        const form = new FormData();
        form.set("username", r.username);
        form.set("password", r.password);
        return form;
      })(),
    });
    const bodies: [string, BodyInit][] = [
      ["text/plain", JSON.stringify({ username: r.username, password: r.password })],
      [
        "application/x-www-form-urlencoded",
        new URLSearchParams({ username: r.username, password: r.password }).toString(),
      ],
      [multipart.headers.get("Content-Type")!, await multipart.arrayBuffer()],
    ];
    for (const [type, raw] of bodies) {
      const res = await new ConsoleBrowser().fetch("/console/session", {
        raw,
        headers: { "Content-Type": type },
      });
      expectProblem(res, 415, "unsupported media type");
      expect(res.headers.get("Set-Cookie"), type).toBeNull();
    }
  });

  it("refuses a sign-in another site's page sends, by its Origin or its Sec-Fetch-Site", async () => {
    const r = await restaurant("Login CSRF Two");
    const body = { username: r.username, password: r.password };
    const refused: Record<string, string>[] = [
      ELSEWHERE,
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    for (const headers of refused) {
      const browser = new ConsoleBrowser();
      const res = await browser.fetch("/console/session", { body, headers, bare: true });
      expectProblem(res, 403, "csrf token invalid");
      expect(res.headers.get("Set-Cookie"), JSON.stringify(headers)).toBeNull();
    }
    // The console's own page, and a client that is no browser (neither header), sign in.
    expect((await new ConsoleBrowser().signIn(r.username, r.password)).status).toBe(200);
    const bare = new ConsoleBrowser();
    const res = await bare.fetch("/console/session", { body, bare: true });
    expect(res.status, res.text).toBe(200);
  });

  it("refuses every other console write from another site, the signed-in browser's cookie and token notwithstanding", async () => {
    const r = await restaurant("Login CSRF Three");
    const browser = new ConsoleBrowser();
    expect((await browser.signIn(r.username, r.password)).status).toBe(200);
    const writes: [string, string, unknown][] = [
      ["POST", "/console/api/v2/rooms", { name: "Planted" }],
      ["POST", "/console/password", { old_password: r.password, new_password: "another-password-1" }],
      ["POST", "/console/password/forgot", { username: r.username }],
      ["POST", "/console/password/reset", { token: "x".repeat(40), password: "another-password-1" }],
      ["DELETE", "/console/session", undefined],
    ];
    for (const [method, path, body] of writes)
      expectProblem(
        await browser.fetch(path, { method, body, headers: ELSEWHERE }),
        403,
        "csrf token invalid",
      );
    expect((await browser.fetch("/console/session")).status).toBe(200);
    expect((await browser.fetch("/console/api/v2/rooms")).json.data).toEqual([]);
  });
});

describe("the console's addresses", () => {
  it("answer the shell at /console/day and /console/timeline (today), as the menu links them", async () => {
    for (const path of ["/console/day", "/console/timeline"]) {
      const res = await new ConsoleBrowser().fetch(path, { headers: { Accept: "text/html" } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      expect(res.text, path).toContain("<booking-console");
    }
  });
});
