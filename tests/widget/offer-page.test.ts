import { expect, fixture, html } from "@open-wc/testing";
import { render } from "lit";
import "../../widget/index.js";
import type { PublicBooking } from "../../shared/public.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import { confirmation } from "../../widget/pages/book-steps.js";
import { env, freeTime, ownAddress, publicBase, restaurant, staff, useRestaurant } from "./env.js";
import { deepText, inShadow } from "./helpers.js";

before(() => useRestaurant({ offer_minutes: 30 }));

const unique = (name: string) =>
  `${name.toLowerCase()}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@guest.example`;

async function guestBooking(slot: { date: string; hour: string }, email: string, waiting_list = false) {
  // relayed from an address of its own (web-test-runner.config.mjs): the widget's bookings keep the budget
  const res = await fetch(`/guest/${restaurant().publicKey}/reservations`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      date: slot.date,
      hour: slot.hour,
      pax: 2,
      guest: { first_name: "Wanda", last_name: "Waiting", email },
      waiting_list,
      locale: "en",
    }),
  });
  const body = await res.json();
  if (res.status !== 201) throw new Error(`booking failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data[0] as PublicBooking;
}

/** A raw email's base64 parts, decoded (the Worker writes its text and HTML as base64). */
function decoded(raw: string): string {
  const blocks = raw.split(/\r?\n\r?\n/).filter((b) => /^[A-Za-z0-9+/=\r\n]{16,}$/.test(b.trim()));
  return blocks
    .map((b) => new TextDecoder().decode(Uint8Array.from(atob(b.replace(/\s/g, "")), (c) => c.charCodeAt(0))))
    .join("\n");
}

/** The emails sent to `to` (wrangler's .eml files, through the test runner's Node side). */
const mailTo = (to: string) =>
  fetch(`/fixture/mail?to=${encodeURIComponent(to)}`).then((r) => r.json() as Promise<string[]>);

describe("Add to calendar and where the email went", () => {
  it("the confirmation names the address the email went to and links the reservation's calendar entry", async () => {
    const booking = await guestBooking(await freeTime(2, 3), unique("Cal"));
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const url = `${publicBase()}/manage/${booking.manage_token}/calendar.ics`;
    const profile = (await (await fetch(publicBase())).json()).data[0];
    render(
      confirmation(booking, "en", () => {}, profile, { hosted: true, here: false, accent: undefined }, url),
      host,
    );
    expect(host.querySelector('[part="email-sent"]')!.textContent).to.include(booking.guest.email);
    const link = host.querySelector<HTMLAnchorElement>('[part="calendar-link"]')!;
    expect(link.textContent!.trim()).to.equal("Add to calendar");
    const ics = await fetch(link.href);
    expect(ics.headers.get("Content-Type")).to.match(/^text\/calendar/);
    expect(await ics.text()).to.match(/^BEGIN:VCALENDAR\r\n[\s\S]*DTSTART;TZID=Europe\/Rome:/);
  });

  it("the manage page links the calendar entry of a booked table", async () => {
    const booking = await guestBooking(await freeTime(2, 5), unique("Manage"));
    const el = await fixture<BookingEngine>(
      html`<booking-engine api=${env.api} property=${restaurant().publicKey} page="manage" token=${booking.manage_token}></booking-engine>`,
    );
    const page = await inShadow(el, "be-manage-page");
    const link = await inShadow<HTMLAnchorElement>(page, '[part="calendar-link"]');
    expect(link.href).to.equal(`${publicBase()}/manage/${booking.manage_token}/calendar.ics`);
    await expect(el).to.be.accessible();
  });
});

describe("<booking-engine page=offer>", () => {
  it("is accessible, and the guest on the waiting list takes the table the offer's email links", async () => {
    const slot = await freeTime(2, 40);
    // Staff fill every table that seats two at that time; a guest joins the waiting list.
    const tables = ["S1", "S2", "S3", "S4", "T1", "T2", "T3"];
    const all = (await staff("tables")).body.data as { id: number; name: string }[];
    const held: number[] = [];
    for (const name of tables) {
      const table = all.find((t) => t.name === name)!;
      const res = await staff("reservations", {
        method: "POST",
        body: {
          start_date: slot.date,
          start_hour: slot.hour,
          pax: 2,
          service_id: slot.service_id,
          table_ids: [table.id],
          notify: false,
          customer: { first_name: "Staff", last_name: name, phone: "+39 06 000000" },
        },
      });
      // A table another test of this file holds then is full already.
      if (res.status === 403 && res.body.code === "table_not_available") continue;
      if (res.status !== 201) throw new Error(`staff booking: ${res.status} ${JSON.stringify(res.body)}`);
      held.push(res.body.data[0].id);
    }
    const email = unique("Wanda");
    const waiting = await guestBooking(slot, email, true);
    expect(waiting.status).to.equal("WAITING");
    // A table frees: the offer goes to Wanda.
    expect((await staff(`reservations/${held[0]}`, { method: "DELETE" })).status).to.equal(200);
    let offerMail: string | undefined;
    for (let waited = 0; !offerMail && waited < 20_000; waited += 200) {
      offerMail = (await mailTo(email)).map(decoded).find((text) => text.includes("/offer/"));
      if (!offerMail) await new Promise((r) => setTimeout(r, 200));
    }
    const token = /\/offer\/([\w-]+)\?locale=en/.exec(offerMail!)![1]!;
    const el = await fixture<BookingEngine>(
      html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="offer" token=${token}></booking-engine>`,
    );
    const page = await inShadow(el, "be-offer-page");
    const claim = await inShadow<HTMLButtonElement>(page, '[part~="claim"]');
    await expect(el).to.be.accessible();
    // the page and the email say the same: a deadline in the restaurant's time, and no table held
    expect(deepText(page)).to.match(
      /Claim it before .+ \(time in Milano\): the table is yours if it is still free then\. The offer holds no table\./,
    );
    expect(deepText(page)).not.to.match(/waits for you/);
    expect(offerMail!.replace(/\s+/g, " ")).to.match(
      /Claim it before .+ \(Milano\): the table is yours if it is still free then \(the offer holds no table\)/,
    );
    claim.click();
    const claimed = await inShadow(page, '[part="claimed"]');
    // A boolean: a failed equal of two elements makes the runner serialize the DOM.
    expect(page.shadowRoot!.activeElement === claimed, "the answer has the focus").to.equal(true);
    const read = await fetch(`${publicBase()}/manage/${waiting.manage_token}`).then((r) => r.json());
    expect(read.data[0].status).to.equal("ACCEPTED");
  });

  it("says so when the link is wrong", async () => {
    const el = await fixture<BookingEngine>(
      html`<booking-engine api=${env.api} property=${restaurant().publicKey} page="offer" token="nope"></booking-engine>`,
    );
    const page = await inShadow(el, "be-offer-page");
    const alert = await inShadow(page, '[role="alert"]');
    expect(alert.textContent).to.match(/not found/);
    await expect(el).to.be.accessible();
  });
});
