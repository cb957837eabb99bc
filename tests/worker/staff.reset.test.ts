/**
 * A member's forgotten password: POST /console/password/forgot with their email mails them a
 * single-use link (one for each restaurant they are staff of); POST /console/password/reset sets
 * that member's password, ends the sessions their old one opened and leaves everyone else's.
 */
import { describe, expect, it } from "vitest";
import { ConsoleBrowser, until } from "./console.helpers";
import { expectProblem, ORIGIN } from "./helpers";
import { captureMail, linksIn, mailsTo } from "./messages.helpers";
import { addMember, type Member, signInByEmail, staffedRestaurant } from "./staff.helpers";

const RESET = `${ORIGIN}/console/reset/`;

/** Asks for a link by the member's email and answers the token the mail to it carries. */
async function memberResetToken(m: Member) {
  const capture = captureMail();
  try {
    const asked = await new ConsoleBrowser().fetch("/console/password/forgot", {
      body: { username: m.email },
    });
    expect(asked.status, asked.text).toBe(202);
    const [mail] = await mailsTo(capture, m.email, 1);
    const link = linksIn(mail!.text, RESET)[0];
    expect(link, mail!.text).toBeDefined();
    return link!.slice(RESET.length);
  } finally {
    capture.stop();
  }
}

const reset = (token: string, password: string) =>
  new ConsoleBrowser().fetch("/console/password/reset", { body: { token, password } });

describe("a member's forgotten password", () => {
  it("mails the member a link that sets their password once and ends the sessions the old one opened", async () => {
    const r = await staffedRestaurant("Staff Reset");
    const m = await addMember(r, "host");
    const [theirs, owners] = [await m.browser.openLive(), await r.ownerBrowser.openLive()];
    const token = await memberResetToken(m);
    const done = await reset(token, "member-password-2");
    expect(done.status, done.text).toBe(200);
    expect(done.json.data[0].username).toBe(m.email);
    await until(() => theirs.closed !== undefined, "the member's socket closed");
    expectProblem(await m.browser.fetch("/console/session"), 401, "authentication required");
    expect((await signInByEmail(m.email, m.password)).res.status).toBe(401);
    expect((await signInByEmail(m.email, "member-password-2")).res.status).toBe(200);
    // the owner's session and the property's own password are untouched
    expect(owners.closed).toBeUndefined();
    expect((await r.ownerBrowser.fetch("/console/session")).status).toBe(200);
    expect((await new ConsoleBrowser().signIn(r.username, r.password)).status).toBe(200);
    expectProblem(await reset(token, "member-password-3"), 410);
  });

  it("outlives the owner's password change, and ends with the member's own change and their deactivation", async () => {
    const r = await staffedRestaurant("Staff Reset Ends");
    const m = await addMember(r, "host");
    const first = await memberResetToken(m);
    const owners = await r.ownerBrowser.fetch("/console/password", {
      body: { old_password: r.password, new_password: "owner-password-2" },
    });
    expect(owners.status, owners.text).toBe(204);
    expect((await reset(first, "member-password-2")).status).toBe(200);
    const second = await memberResetToken(m);
    const signedIn = (await signInByEmail(m.email, "member-password-2")).browser;
    const own = await signedIn.fetch("/console/password", {
      body: { old_password: "member-password-2", new_password: "member-password-3" },
    });
    expect(own.status, own.text).toBe(204);
    expectProblem(await reset(second, "member-password-4"), 410);
    const third = await memberResetToken(m);
    const off = await r.owner.call(`/api/v2/properties/${r.propertyId}/staff/${m.id}`, {
      method: "DELETE",
      property: r.propertyId,
    });
    expect(off.status, off.text).toBe(200);
    expectProblem(await reset(third, "member-password-5"), 410);
    expect((await signInByEmail(m.email, "member-password-3")).res.status).toBe(401);
  });
});
