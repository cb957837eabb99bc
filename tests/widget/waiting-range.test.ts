/**
 * The waiting list's range: joining it from a full time, the guest may take any time until a
 * later one of the service; the booking sends that range, and the details and the confirmation
 * show it, with how long an offer holds.
 */
import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../widget/index.js";
import type { PublicApi, PublicOffer } from "../../widget/api.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import type { BookingCreatedDetail } from "../../widget/events.js";
import { OfferPage } from "../../widget/pages/offer-page.js";
import { bookAsStaff, ownAddress, profile, restaurant, slots, until, useRestaurant } from "./env.js";
import { allInShadow, bookPageWithTimes, chooseDate, deepText, inShadow, settled } from "./helpers.js";

before(() => useRestaurant());

const radios = (page: HTMLElement, name: string) =>
  allInShadow<HTMLInputElement>(page, `input[name="${name}"]`);

/** Every POST body the page sends to the public reservations route, while the test runs. */
function recordBookings() {
  const sent: Record<string, unknown>[] = [];
  const original = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (init?.method === "POST" && url.endsWith("/reservations") && typeof init.body === "string")
      sent.push(JSON.parse(init.body) as Record<string, unknown>);
    return original(input, init);
  };
  return { sent, stop: () => (window.fetch = original) };
}

describe("<booking-engine page=book>, the waiting list's range", () => {
  it("offers the service's later times as 'until' (the chosen time alone by default), sends waiting_until and shows the range", async () => {
    const p = await profile();
    const pax = p.max_online_pax;
    // A service with at least three free times: the staff takes its first, which the guest waits for.
    const [day, service] = (await slots(p.first_date, pax, 14))
      .flatMap((d) => d.services.map((s) => [d, s] as const))
      .find(([, s]) => s.times.length >= 3)!;
    const hour = service.times[0]!;
    await bookAsStaff({ date: day.date, hour, pax, service_id: service.service_id });
    const later = [...service.times, ...service.full_times].filter((h) => h > hour).sort();
    const last = later.at(-1)!;

    const el = await fixture<BookingEngine>(
      html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="book" locale="en"></booking-engine>`,
    );
    const page = await bookPageWithTimes(el);
    const paxSelect = await inShadow<HTMLSelectElement>(page, "#pax");
    paxSelect.value = String(pax);
    paxSelect.dispatchEvent(new Event("change"));
    await settled(page);
    await chooseDate(page, day.date);
    const serviceChoice = radios(page, "service").find((r) => r.value === String(service.service_id));
    if (serviceChoice && !serviceChoice.checked) serviceChoice.click();
    await until(() => radios(page, "waiting").some((t) => t.value === hour));
    const disclosure = await inShadow<HTMLDetailsElement>(page, 'details[part="waiting-list"]');
    if (!disclosure.open) disclosure.querySelector("summary")!.click();
    const full = radios(page, "waiting").find((t) => t.value === hour)!;
    full.click();
    await until(() => full.checked);
    [...page.shadowRoot!.querySelectorAll<HTMLButtonElement>(".bar button")]
      .find((b) => /Join the waiting list/.test(b.textContent!))!
      .click();

    const select = await inShadow<HTMLSelectElement>(page, "select#until");
    // The chosen time alone by default, then every later time of the service.
    expect(select.value).to.equal("");
    expect([...select.options].map((o) => o.value)).to.deep.equal(["", ...later]);
    expect(select.options[0]!.textContent).to.match(/only$/);
    expect(deepText(page)).to.match(
      /we email you an offer for the earliest time that fits, valid for \d+ minutes/,
    );
    await expect(el).to.be.accessible();
    select.value = last;
    select.dispatchEvent(new Event("change"));
    // The details' summary shows the range.
    await until(() => /–/.test(page.shadowRoot!.querySelector('[part="summary"]')!.textContent!));

    for (const [id, value] of Object.entries({
      first_name: "Rangy",
      last_name: "Guest",
      email: "rangy@example.com",
    })) {
      const input = await inShadow<HTMLInputElement>(page, `#${id}`);
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    }
    const record = recordBookings();
    try {
      const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
      (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
      const { detail } = await created;
      expect(record.sent).to.have.length(1);
      expect(record.sent[0]).to.include({ hour, waiting_list: true, waiting_until: last });
      expect(detail.reservation).to.include({ status: "WAITING", hour, waiting_until: last });
    } finally {
      record.stop();
    }
    await inShadow(page, 'a[part="manage-link"]');
    const text = deepText(page);
    const fmt = (h: string) =>
      new Intl.DateTimeFormat("en", { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(
        Date.parse(`2000-01-01T${h}Z`),
      );
    expect(text).to.contain(
      `If one frees up at any time from ${fmt(hour)} to ${fmt(last)}, we email you an offer for the earliest time that fits, valid for ${p.offer_minutes} minutes`,
    );
    expect(text).to.contain(`${fmt(hour)}–${fmt(last)}`);
    await expect(el).to.be.accessible();
  });
});

describe("<be-offer-page>, an offer within a range", () => {
  it("names the time offered, not the earliest of the range, and until when it holds", async () => {
    if (!customElements.get("be-offer-page")) customElements.define("be-offer-page", OfferPage);
    const offer: PublicOffer = {
      state: "open",
      expires_at: "2030-05-04T18:15:00.000Z",
      hour: "20:15:00",
      reservation: {
        status: "WAITING",
        date: "2030-05-04",
        hour: "19:30:00",
        waiting_until: "21:00:00",
        pax: 2,
        service: { id: 1, name: "Dinner" },
        guest: { first_name: "Rangy", last_name: "Guest", email: "rangy@example.com", phone: null },
        notes: null,
        special_request: null,
        occasion: null,
        allergies: null,
        restaurant: { name: "Trattoria", timezone: "UTC" },
        cancellable_until: null,
        arrived: false,
        payment: null,
      },
    };
    const api = { offer: async () => offer } as unknown as PublicApi;
    const el = await fixture<OfferPage>(
      html`<be-offer-page .api=${api} token="t" locale="en"></be-offer-page>`,
    );
    const summary = await inShadow(el, '[part="summary"]');
    expect(summary.textContent).to.match(/8:15\sPM/);
    expect(summary.textContent).not.to.match(/7:30\sPM/);
    expect(deepText(el)).to.match(/Claim it before .*6:15\sPM/);
  });
});
