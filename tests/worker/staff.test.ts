/**
 * A restaurant's staff: invitations (single use, 7 days), each member's own sign-in, deactivation,
 * role and password changes taking effect at the next request and closing live sockets, the last
 * owner kept, the shared tablet's PIN (locked 15 minutes after 5 wrong tries), and one
 * restaurant's staff seeing nothing of another's.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { now, setClock } from "../../worker/lib/clock";
import { ConsoleBrowser, until } from "./console.helpers";
import { expectProblem, freshIp } from "./helpers";
import { addMember, inviteToken, signInByEmail, staffedRestaurant } from "./staff.helpers";

afterEach(() => setClock(undefined));

/** What the control database keeps of a member's invitation and PIN. */
const secretsOf = (id: number) =>
  env.DB.prepare("SELECT invite_hash, pin_hash FROM staff_members WHERE id = ?")
    .bind(id)
    .first<{ invite_hash: string | null; pin_hash: string | null }>();

const staffPath = (id: number) => `/console/api/v2/properties/${id}/staff`;

describe("invitations", () => {
  it("mails a link that signs the invitee in once, with their own name and role", async () => {
    const r = await staffedRestaurant("Staff Invite");
    const { token, member, mail } = await inviteToken(r, "host");
    expect(member).toMatchObject({ role: "host", active: true, account: false, name: null });
    expect(Date.parse(member.invite_expires_at) - now()).toBeGreaterThan(6.9 * 86_400_000);
    expect(mail.subject).toContain("Staff Invite");
    const kept = (await secretsOf(member.id))!.invite_hash;
    expect(kept, "the invitation is stored hashed").toBeTruthy();
    expect(kept).not.toContain(token);
    const browser = new ConsoleBrowser();
    const accepted = await browser.fetch(`/console/invite/${token}`, {
      body: { name: "Bea Host", password: "host-password-1" },
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.json.data[0]).toMatchObject({
      staff: { id: member.id, name: "Bea Host", role: "host" },
      role: "host",
      property: { id: r.propertyId },
    });
    const again = await new ConsoleBrowser().fetch(`/console/invite/${token}`, {
      body: { name: "Mallory", password: "other-password-1" },
    });
    expectProblem(again, 410, "link expired");
  });

  it("refuses a link after its 7 days, and a second invitation ends the first link", async () => {
    const r = await staffedRestaurant("Staff Invite Late");
    const first = await inviteToken(r, "manager", "late@staff.example");
    const second = await inviteToken(r, "manager", "late@staff.example");
    expect(second.member.id).toBe(first.member.id);
    const body = { name: "Late", password: "late-password-1" };
    expectProblem(
      await new ConsoleBrowser().fetch(`/console/invite/${first.token}`, { body }),
      410,
      "link expired",
    );
    setClock(new Date(now() + 7 * 86_400_000 + 60_000).toISOString());
    expectProblem(
      await new ConsoleBrowser().fetch(`/console/invite/${second.token}`, { body }),
      410,
      "link expired",
    );
  });

  it("answers 409 for an email already on the staff", async () => {
    const r = await staffedRestaurant("Staff Twice");
    const m = await addMember(r, "host");
    const res = await r.owner.call(`/api/v2/properties/${r.propertyId}/staff`, {
      property: r.propertyId,
      body: { email: m.email.toUpperCase(), role: "manager" },
    });
    expectProblem(res, 409, "staff member exists");
  });
});

describe("a member's own sign-in", () => {
  it("signs in by email and password, and answers a wrong password as an unknown email", async () => {
    const r = await staffedRestaurant("Staff Sign-in");
    const m = await addMember(r, "manager");
    const ok = await signInByEmail(m.email, m.password);
    expect(ok.res.status, ok.res.text).toBe(200);
    expect(ok.res.json.data[0].staff).toMatchObject({ id: m.id, role: "manager" });
    const wrong = await signInByEmail(m.email, "not-the-password");
    const unknown = await signInByEmail("nobody@staff.example", m.password);
    expectProblem(wrong.res, 401, "invalid credentials");
    expect(unknown.res.status).toBe(401);
    expect(unknown.res.json.detail).toBe(wrong.res.json.detail);
  });

  it("limits guesses by email as the username's sign-in: per address, the member still let in from another", async () => {
    const r = await staffedRestaurant("Staff Sign-in Limits");
    const m = await addMember(r, "host");
    const guesser = new ConsoleBrowser(freshIp());
    const guess = () =>
      guesser.fetch("/console/session", { body: { email: m.email, password: "a-wrong-guess" } });
    const statuses: number[] = [];
    for (let i = 0; i < 21 && !statuses.includes(429); i++) statuses.push((await guess()).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // the right password from that address waits too; from another it signs in
    const right = await guesser.fetch("/console/session", { body: { email: m.email, password: m.password } });
    expectProblem(right, 429, "too many requests");
    expect((await signInByEmail(m.email, m.password)).res.status).toBe(200);
  });
});

describe("deactivation, role and password changes", () => {
  it("a deactivated member's next request is 401 and their open socket closes", async () => {
    const r = await staffedRestaurant("Staff Deactivate");
    const m = await addMember(r, "host");
    const socket = await m.browser.openLive();
    const off = await r.ownerBrowser.fetch(`${staffPath(r.propertyId)}/${m.id}`, { method: "DELETE" });
    expect(off.status, off.text).toBe(200);
    expect(off.json.data[0].active).toBe(false);
    await until(() => socket.closed !== undefined, "the member's socket closed");
    expect(socket.closed!.code).toBe(4001);
    expectProblem(await m.browser.fetch("/console/api/v2/reservations"), 401, "authentication required");
    expect((await signInByEmail(m.email, m.password)).res.status).toBe(401);
  });

  it("a changed role takes effect at the next request and closes the member's socket", async () => {
    const r = await staffedRestaurant("Staff Role");
    const m = await addMember(r, "manager");
    expect((await m.browser.fetch(`/console/api/v2/properties/${r.propertyId}/audit`)).status).toBe(200);
    const socket = await m.browser.openLive();
    const demoted = await r.ownerBrowser.fetch(`${staffPath(r.propertyId)}/${m.id}`, {
      method: "PATCH",
      body: { role: "host" },
    });
    expect(demoted.status, demoted.text).toBe(200);
    await until(() => socket.closed !== undefined, "the member's socket closed");
    const refused = await m.browser.fetch(`/console/api/v2/properties/${r.propertyId}/audit`);
    expectProblem(refused, 403, "role required");
    expect(refused.json.role).toBe("manager");
    expect((await m.browser.fetch("/console/session")).json.data[0].role).toBe("host");
  });

  it("a member's password change ends the sessions it opened and their sockets, not the others'", async () => {
    const r = await staffedRestaurant("Staff Password");
    const m = await addMember(r, "host");
    const elsewhere = (await signInByEmail(m.email, m.password)).browser;
    const [theirs, owners] = [await elsewhere.openLive(), await r.ownerBrowser.openLive()];
    const changed = await m.browser.fetch("/console/password", {
      body: { old_password: m.password, new_password: "member-password-2" },
    });
    expect(changed.status, changed.text).toBe(204);
    await until(() => theirs.closed !== undefined, "the other session's socket closed");
    expectProblem(await elsewhere.fetch("/console/session"), 401, "authentication required");
    expect((await m.browser.fetch("/console/session")).status).toBe(200);
    expect(owners.closed).toBeUndefined();
    expect((await signInByEmail(m.email, "member-password-2")).res.status).toBe(200);
  });

  it("keeps the last owner: neither demoted nor deactivated", async () => {
    const r = await staffedRestaurant("Staff Last Owner");
    const list = await r.ownerBrowser.fetch(staffPath(r.propertyId));
    const account = list.json.data.find((s: { account: boolean }) => s.account);
    expect(account).toMatchObject({ role: "owner", name: r.username });
    const path = `${staffPath(r.propertyId)}/${account.id}`;
    expectProblem(
      await r.ownerBrowser.fetch(path, { method: "PATCH", body: { role: "manager" } }),
      409,
      "last owner",
    );
    expectProblem(await r.ownerBrowser.fetch(path, { method: "DELETE" }), 409, "last owner");
    const other = await addMember(r, "owner");
    const demoted = await other.browser.fetch(path, { method: "PATCH", body: { role: "manager" } });
    expect(demoted.status, demoted.text).toBe(200);
    const self = `${staffPath(r.propertyId)}/${other.id}`;
    expectProblem(await other.browser.fetch(self, { method: "DELETE" }), 409, "last owner");
  });
});

describe("the shared tablet's PIN", () => {
  it("switches who is at the console, keeping the device's session", async () => {
    const r = await staffedRestaurant("Staff PIN");
    const m = await addMember(r, "manager", "Carla Manager");
    const set = await m.browser.fetch(`${staffPath(r.propertyId)}/${m.id}`, {
      method: "PATCH",
      body: { pin: "4821" },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json.data[0].pin_set).toBe(true);
    const pinHash = (await secretsOf(m.id))!.pin_hash;
    expect(pinHash, "the PIN is stored hashed").toBeTruthy();
    expect(pinHash).not.toContain("4821");
    const tablet = r.ownerBrowser;
    const who = await tablet.fetch("/console/session/switch");
    expect(who.json.data.map((s: { name: string }) => s.name)).toEqual(["Carla Manager"]);
    const switched = await tablet.fetch("/console/session/switch", { body: { staff_id: m.id, pin: "4821" } });
    expect(switched.status, switched.text).toBe(200);
    expect(switched.json.data[0].staff).toMatchObject({ id: m.id, role: "manager" });
    // the tablet now acts as the manager: the staff list is an owner's
    expectProblem(await tablet.fetch(staffPath(r.propertyId)), 403, "role required");
  });

  it("locks a PIN for 15 minutes after five wrong tries", async () => {
    const r = await staffedRestaurant("Staff PIN Lock");
    const m = await addMember(r, "host");
    await m.browser.fetch(`${staffPath(r.propertyId)}/${m.id}`, { method: "PATCH", body: { pin: "112233" } });
    const tablet = r.ownerBrowser;
    const attempt = (pin: string) =>
      tablet.fetch("/console/session/switch", { body: { staff_id: m.id, pin } });
    for (let i = 0; i < 4; i++) expectProblem(await attempt("000000"), 403, "invalid credentials");
    const fifth = await attempt("000000");
    expectProblem(fifth, 429, "pin locked");
    expect(Number(fifth.headers.get("Retry-After"))).toBeGreaterThan(14 * 60);
    // locked: even the right PIN waits
    expectProblem(await attempt("112233"), 429, "pin locked");
    setClock(new Date(now() + 15 * 60_000 + 1000).toISOString());
    const after = await attempt("112233");
    expect(after.status, after.text).toBe(200);
  });

  it("lets a host set their own PIN, and no one else's nor anything else", async () => {
    const r = await staffedRestaurant("Staff PIN Self");
    const [a, b] = [await addMember(r, "host"), await addMember(r, "host")];
    const mine = `${staffPath(r.propertyId)}/${a.id}`;
    expect((await a.browser.fetch(mine, { method: "PATCH", body: { pin: "1234" } })).status).toBe(200);
    expectProblem(
      await a.browser.fetch(mine, { method: "PATCH", body: { role: "owner" } }),
      403,
      "role required",
    );
    const theirs = `${staffPath(r.propertyId)}/${b.id}`;
    expectProblem(
      await a.browser.fetch(theirs, { method: "PATCH", body: { pin: "9999" } }),
      403,
      "role required",
    );
  });
});

describe("one restaurant's staff and another's", () => {
  it("see and change nothing of the other", async () => {
    const [one, two] = [await staffedRestaurant("Staff Iso One"), await staffedRestaurant("Staff Iso Two")];
    const stranger = await addMember(two, "owner");
    const theirs = (await one.ownerBrowser.fetch(staffPath(one.propertyId))).json.data[0];
    expectProblem(await stranger.browser.fetch(staffPath(one.propertyId)), 403, "property forbidden");
    const patch = await stranger.browser.fetch(`${staffPath(one.propertyId)}/${theirs.id}`, {
      method: "PATCH",
      body: { role: "host" },
    });
    expectProblem(patch, 403, "property forbidden");
    // a member id of another restaurant named under one's own: not found
    const cross = await stranger.browser.fetch(`${staffPath(two.propertyId)}/${theirs.id}`, {
      method: "PATCH",
      body: { role: "host" },
    });
    expectProblem(cross, 404, "staff member not found");
    const sw = await stranger.browser.fetch("/console/session/switch", {
      body: { staff_id: theirs.id, pin: "1234" },
    });
    expectProblem(sw, 403, "invalid credentials");
    expectProblem(
      await stranger.browser.fetch(`/console/api/v2/properties/${one.propertyId}/audit`),
      403,
      "property forbidden",
    );
  });
});
