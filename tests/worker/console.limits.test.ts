/**
 * Guessing a restaurant's password is limited without handing strangers its lock: wrong guesses
 * from many addresses leave the owner able to sign in, a device that signed in before keeps a
 * budget of its own, and a signed-in console's password change is limited like the sign-in.
 */
import { describe, expect, it } from "vitest";
import { ConsoleBrowser } from "./console.helpers";
import { expectProblem, freshIp } from "./helpers";
import { restaurant } from "./oauth.fixtures";

/** Wrong guesses, each from an address (and a browser) of its own, until one is refused; answers how many were made. */
async function guessUntilRefused(username: string, most: number) {
  for (let i = 1; i <= most; i++) {
    const res = await new ConsoleBrowser(freshIp()).signIn(username, "a-wrong-guess");
    if (res.status === 429) return i;
    expect(res.status, res.text).toBe(401);
  }
  return undefined;
}

describe("the sign-in's limits", () => {
  it("let the owner in from a fresh address after a stranger's wrong guesses from many", async () => {
    const r = await restaurant("Limits One");
    expect(await guessUntilRefused(r.username, 15)).toBeUndefined();
    const owner = new ConsoleBrowser(freshIp());
    expect((await owner.signIn(r.username, r.password)).status).toBe(200);
  });

  it("keep a device that signed in before on its own budget when strangers spent the account's", async () => {
    const r = await restaurant("Limits Two");
    const tablet = new ConsoleBrowser(freshIp());
    expect((await tablet.signIn(r.username, r.password)).status).toBe(200);
    expect((await tablet.fetch("/console/session", { method: "DELETE" })).status).toBe(204);
    // The account's budget for unknown devices, spent by strangers (a minute's start may split it).
    const made = await guessUntilRefused(r.username, 250);
    expect(made, "the account's budget ran out").toBeDefined();
    expect(made!).toBeGreaterThan(11);
    const stranger = await new ConsoleBrowser(freshIp()).signIn(r.username, r.password);
    expectProblem(stranger, 429, "too many requests");
    expect((await tablet.signIn(r.username, r.password)).status).toBe(200);
  });

  it("give a known device a budget of its own, which its own wrong guesses spend", async () => {
    const r = await restaurant("Limits Three");
    const tablet = new ConsoleBrowser(freshIp());
    expect((await tablet.signIn(r.username, r.password)).status).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 21 && !statuses.includes(429); i++)
      statuses.push((await tablet.signIn(r.username, "a-wrong-guess")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Strangers' budgets are not the device's: another browser signs in.
    expect((await new ConsoleBrowser(freshIp()).signIn(r.username, r.password)).status).toBe(200);
  });
});

describe("POST /console/password", () => {
  it("limits guesses of the current password like the sign-in: 429 with Retry-After, the right one included", async () => {
    const r = await restaurant("Limits Four");
    const tablet = new ConsoleBrowser(freshIp());
    expect((await tablet.signIn(r.username, r.password)).status).toBe(200);
    const change = (old_password: string) =>
      tablet.fetch("/console/password", { body: { old_password, new_password: "a-new-password-2" } });
    const statuses: number[] = [];
    for (let i = 0; i < 21 && !statuses.includes(429); i++)
      statuses.push((await change("a-wrong-guess")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(403));
    expect(statuses.at(-1)).toBe(429);
    const right = await change(r.password);
    expectProblem(right, 429, "too many requests");
    expect(right.headers.get("Retry-After")).toBe("60");
    expect((await new ConsoleBrowser(freshIp()).signIn(r.username, r.password)).status).toBe(200);
  });
});
