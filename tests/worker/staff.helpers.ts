/**
 * A restaurant with staff, for the Worker suites: its owner signed in with the property's own
 * username, and members invited by email (the invitation read from the email the outbox sent),
 * each accepted in a browser of their own and so signed in.
 */
import { expect } from "vitest";
import { ConsoleBrowser } from "./console.helpers";
import { ORIGIN, unique } from "./helpers";
import { captureMail, linksIn, mailsTo } from "./messages.helpers";
import { restaurant } from "./oauth.fixtures";

export type Restaurant = Awaited<ReturnType<typeof restaurant>>;

export interface Member {
  id: number;
  email: string;
  password: string;
  browser: ConsoleBrowser;
}

/** A restaurant with a room, a table and a service, and its owner's console signed in. */
export async function staffedRestaurant(name: string) {
  const r = await restaurant(name);
  const p = { property: r.propertyId };
  const room = (await r.owner.call("/api/v2/rooms", { ...p, body: { name: "Main" } })).json.data[0];
  const table = (
    await r.owner.call("/api/v2/tables", { ...p, body: { name: "T12", room_id: room.id, guests_max: 4 } })
  ).json.data[0];
  const service = (
    await r.owner.call("/api/v2/services", {
      ...p,
      body: { name: "Dinner", start_hour: "19:00", end_hour: "23:00" },
    })
  ).json.data[0];
  const owner = new ConsoleBrowser();
  const signed = await owner.signIn(r.username, r.password);
  expect(signed.status, signed.text).toBe(200);
  return { ...r, room, table, service, ownerBrowser: owner };
}

/** Invites `email` through the integrator API and answers the invitation's token, read from its email. */
export async function inviteToken(r: Restaurant, role: string, email = `${unique("staff")}@staff.example`) {
  const capture = captureMail();
  try {
    const res = await r.owner.call(`/api/v2/properties/${r.propertyId}/staff`, {
      property: r.propertyId,
      body: { email, role },
    });
    expect(res.status, res.text).toBe(201);
    const [mail] = await mailsTo(capture, email, 1);
    const link = linksIn(mail!.text, `${ORIGIN}/console/invite/`)[0];
    expect(link, mail!.text).toBeDefined();
    return {
      token: link!.slice(`${ORIGIN}/console/invite/`.length),
      member: res.json.data[0],
      email,
      mail: mail!,
    };
  } finally {
    capture.stop();
  }
}

/** A member with `role`, invited, accepted and signed in in a browser of their own. */
export async function addMember(r: Restaurant, role: string, name = "Ada Rossi"): Promise<Member> {
  const { token, member, email } = await inviteToken(r, role);
  const browser = new ConsoleBrowser();
  const password = "member-password-1";
  const res = await browser.fetch(`/console/invite/${token}`, { body: { name, password } });
  expect(res.status, res.text).toBe(200);
  browser.csrf = res.json.data[0].csrf_token;
  return { id: member.id, email, password, browser };
}

/** A browser signed in with a member's email. */
export async function signInByEmail(email: string, password: string) {
  const browser = new ConsoleBrowser();
  const res = await browser.fetch("/console/session", { body: { email, password } });
  if (res.status === 200) browser.csrf = res.json.data[0].csrf_token;
  return { browser, res };
}
