/**
 * The console's live sockets live no longer than their session: signing out, a password change
 * (in the console, through the API, by a reset link) and the property's deletion close them. And
 * one session keeps a few sockets at most: the oldest closes when another opens.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { restaurantObject } from "../../worker/lib/restaurant-object";
import { SOCKETS_PER_SESSION } from "../../worker/restaurant/restaurant";
import { ConsoleBrowser, type LiveSocket, until } from "./console.helpers";
import { restaurant } from "./oauth.fixtures";

async function signedIn(r: { username: string; password: string }) {
  const browser = new ConsoleBrowser();
  expect((await browser.signIn(r.username, r.password)).status).toBe(200);
  return browser;
}

const open = (s: LiveSocket) => s.closed === undefined;

/** A frame announced to the restaurant's consoles now: which sockets hear it. */
async function announce(propertyId: number) {
  return restaurantObject(env, propertyId).announce({
    type: "reservation",
    id: 1,
    date: "2031-01-01",
    version: 1,
  });
}

describe("the live sockets of a console session", () => {
  it("close when the session signs out, and the restaurant's other sessions keep theirs", async () => {
    const r = await restaurant("Sockets One");
    const [leaving, staying] = [await signedIn(r), await signedIn(r)];
    const mine = [await leaving.openLive(), await leaving.openLive()];
    const theirs = await staying.openLive();
    expect((await leaving.fetch("/console/session", { method: "DELETE" })).status).toBe(204);
    await until(() => mine.every((s) => !open(s)), "the signed-out session's sockets closed");
    expect(mine.map((s) => s.closed!.code)).toEqual([4001, 4001]);
    expect(await announce(r.propertyId)).toBe(1);
    await until(() => theirs.frames.some((f) => f.includes('"reservation"')), "the other session hears on");
    expect(open(theirs)).toBe(true);
  });

  it("close for every session when the password changes in the console, the changer's old one included", async () => {
    const r = await restaurant("Sockets Two");
    const [elsewhere, changer] = [await signedIn(r), await signedIn(r)];
    const sockets = [await elsewhere.openLive(), await changer.openLive()];
    const changed = await changer.fetch("/console/password", {
      body: { old_password: r.password, new_password: "a-new-password-2" },
    });
    expect(changed.status, changed.text).toBe(204);
    await until(() => sockets.every((s) => !open(s)), "both sockets closed");
    expect(await restaurantObject(env, r.propertyId).consoles()).toBe(0);
    // The changer's browser is signed in afresh and opens a socket again.
    expect((await changer.fetch("/console/session")).status).toBe(200);
    await changer.openLive();
    expect(await restaurantObject(env, r.propertyId).consoles()).toBe(1);
  });

  it("close when the integrator API changes the password or deletes the property", async () => {
    const r = await restaurant("Sockets Three");
    const socket = await (await signedIn(r)).openLive();
    const put = await r.owner.call(`/api/v2/properties/${r.propertyId}`, {
      method: "PUT",
      property: r.propertyId,
      body: { password: "a-new-password-2" },
    });
    expect(put.status, put.text).toBe(200);
    await until(() => !open(socket), "the socket closed on the password change");
    const again = await (await signedIn({ ...r, password: "a-new-password-2" })).openLive();
    const gone = await r.owner.call(`/api/v2/properties/${r.propertyId}`, {
      method: "DELETE",
      property: r.propertyId,
    });
    expect(gone.status, gone.text).toBe(200);
    await until(() => !open(again), "the socket closed on the deletion");
  });

  it(`are ${SOCKETS_PER_SESSION} at most: the oldest closes when another opens`, async () => {
    const r = await restaurant("Sockets Four");
    const browser = await signedIn(r);
    const sockets: LiveSocket[] = [];
    for (let i = 0; i < SOCKETS_PER_SESSION + 3; i++) sockets.push(await browser.openLive());
    await until(() => sockets.filter(open).length === SOCKETS_PER_SESSION, "the oldest closed");
    expect(sockets.slice(0, 3).map((s) => s.closed?.code)).toEqual([4008, 4008, 4008]);
    expect(sockets.slice(3).every(open)).toBe(true);
    expect(await restaurantObject(env, r.propertyId).consoles()).toBe(SOCKETS_PER_SESSION);
    // Another session of the restaurant has a budget of its own.
    await (await signedIn(r)).openLive();
    expect(await restaurantObject(env, r.propertyId).consoles()).toBe(SOCKETS_PER_SESSION + 1);
  });
});
