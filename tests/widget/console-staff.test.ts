import { expect } from "@open-wc/testing";
import {
  byText,
  openConsole,
  settled,
  shown,
  signIn,
  signOut,
  type,
  useConsoleRestaurant,
  viewOf,
} from "./console-env.js";
import { restaurant, staff, until } from "./env.js";

let username = "";
before(async () => {
  username = (await useConsoleRestaurant()).username;
});

/** A section element inside the restaurant view, once it rendered its heading. */
async function section(view: HTMLElement, tag: string): Promise<HTMLElement> {
  const el = await until(() => view.shadowRoot?.querySelector<HTMLElement>(tag), 15_000);
  await until(() => el.shadowRoot?.querySelector("h2"), 15_000);
  return el;
}

/** Signs this browser in as the platform, with `role`, through a sign-in link. */
async function signInAsPlatform(role: "host" | "manager") {
  const link = await staff("console/links", { method: "POST", body: { role } });
  expect(link.status).to.equal(201);
  const res = await fetch(new URL(link.body.data[0].url).pathname, { redirect: "manual" });
  expect([0, 200, 303]).to.include(res.status);
}

/** The base64 parts of a raw email, decoded (wrangler's .eml files). */
function decoded(raw: string): string {
  const blocks = raw.split(/\r?\n\r?\n/).filter((b) => /^[A-Za-z0-9+/=\r\n]{16,}$/.test(b.trim()));
  return blocks
    .map((b) => new TextDecoder().decode(Uint8Array.from(atob(b.replace(/\s/g, "")), (c) => c.charCodeAt(0))))
    .join("\n");
}

/** Invites `email` as `role`, accepts the emailed invitation (this browser signs in as them); answers the member's id. */
async function acceptedMember(email: string, name: string, role: string): Promise<number> {
  const invited = await staff(`properties/${restaurant().propertyId}/staff`, {
    method: "POST",
    body: { email, role },
  });
  expect(invited.status).to.equal(201);
  let mail = "";
  for (let waited = 0; !mail && waited < 15_000; waited += 200) {
    const raw = (await (await fetch(`/fixture/mail?to=${encodeURIComponent(email)}`)).json()) as string[];
    mail = raw.length ? decoded(raw[raw.length - 1]!) : "";
    if (!mail) await new Promise((r) => setTimeout(r, 200));
  }
  const token = /\/console\/invite\/([\w-]+)/.exec(mail)![1]!;
  const accepted = await fetch(`/console/invite/${token}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, password: "member-password-1" }),
  });
  expect(accepted.status).to.equal(200);
  return invited.body.data[0].id;
}

describe("<booking-console>: staff, the audit and the shared tablet", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible, lists the staff and invites a person by email", async () => {
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const staffSection = await section(view, "bc-staff-section");
    await byText(staffSection, "th", new RegExp(username));
    await expect(await settled(el)).to.be.accessible();
    const form = await shown<HTMLFormElement>(staffSection, 'form[aria-label="Invite a person"]');
    type(form.querySelector<HTMLInputElement>('[name="email"]')!, "bea.host@staff.example");
    type(form.querySelector<HTMLInputElement>('[name="name"]')!, "Bea Host");
    form.querySelector<HTMLSelectElement>('[name="role"]')!.value = "host";
    form.requestSubmit();
    await byText(staffSection, "th", /Bea Host.*invited/);
    const members = (await staff(`properties/${restaurant().propertyId}/staff`)).body.data;
    expect(members.find((m: { email: string }) => m.email === "bea.host@staff.example")).to.include({
      role: "host",
    });
  });

  it("shows who changed what in the audit, and filters by who", async () => {
    await staff("services/" + restaurant().services[0]!.id, { method: "PUT", body: { pax_min: 1 } });
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const audit = await section(view, "bc-audit-section");
    const row = await byText(audit, "tr", /Service/);
    expect(row.textContent).to.match(/changed/);
    await expect(await settled(el)).to.be.accessible();
    const form = await shown<HTMLFormElement>(audit, 'form[aria-label="Filter the audit"]');
    form.querySelector<HTMLSelectElement>('[name="actor"]')!.value = "guest";
    form.requestSubmit();
    await byText(audit, "p", /No change matches/);
  });

  it("switches the person at the tablet by PIN, without signing it out", async () => {
    const member = await acceptedMember("carla.manager@staff.example", "Carla Manager", "manager");
    expect(
      (
        await staff(`properties/${restaurant().propertyId}/staff/${member}`, {
          method: "PATCH",
          body: { pin: "2468" },
        })
      ).status,
    ).to.equal(200);
    await signIn();
    const el = await openConsole("/console/restaurant");
    await viewOf(el, "bc-restaurant-view");
    const open = [...el.shadowRoot!.querySelectorAll("header button")].find((b) =>
      /Switch user/.test(b.textContent!),
    );
    (open as HTMLButtonElement).click();
    const dialogHost = el.shadowRoot!.querySelector("bc-switch-user")!;
    const form = await until(
      () => dialogHost.shadowRoot?.querySelector<HTMLFormElement>("dialog[open] form"),
      15_000,
    );
    await expect(await settled(el)).to.be.accessible();
    form.querySelector<HTMLSelectElement>('[name="staff_id"]')!.value = String(member);
    type(form.querySelector<HTMLInputElement>('[name="pin"]')!, "0000");
    form.requestSubmit();
    await until(() => /Wrong PIN/.test(form.textContent!));
    type(form.querySelector<HTMLInputElement>('[name="pin"]')!, "2468");
    form.requestSubmit();
    await until(() => !dialogHost.shadowRoot!.querySelector("dialog[open]"));
    await until(() =>
      /Carla Manager · Manager/.test(el.shadowRoot!.querySelector("header")?.textContent ?? ""),
    );
    // the tablet is the manager's now: no staff list, the audit stays
    const view = await viewOf(el, "bc-restaurant-view");
    await until(() => view.shadowRoot!.querySelector("bc-audit-section"));
    await until(() => !view.shadowRoot!.querySelector("bc-staff-section"));
  });

  it("shows a host only what a host may do", async () => {
    await signOut();
    await signInAsPlatform("host");
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    await until(() => el.shadowRoot!.querySelector("header")!.textContent!.includes("Host"));
    await settled(el);
    expect(view.shadowRoot!.querySelector("bc-staff-section")).to.equal(null);
    expect(view.shadowRoot!.querySelector("bc-audit-section")).to.equal(null);
    expect(view.shadowRoot!.querySelector("#services-title")).to.equal(null);
    await expect(await settled(el)).to.be.accessible();
  });
});
