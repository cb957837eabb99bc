import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../widget/index.js";
import type { PublicProfile, PublicSlotDay } from "../../widget/api.js";
import { PublicApiError } from "../../widget/api.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import { setClock } from "../../widget/clock.js";
import type { BookingCreatedDetail } from "../../widget/events.js";
import { bookingError } from "../../widget/pages/book-steps.js";
import {
  bookAsStaff,
  env,
  itAnyTime,
  ownAddress,
  profile,
  restaurant,
  slots,
  until,
  useRestaurant,
} from "./env.js";
import { allInShadow, bookPageWithTimes, chooseDate, deepText, inShadow, settled } from "./helpers.js";

// each mount a guest of its own address: its bookings spend a write budget of their own
const mount = (page = "book", locale = "en") =>
  fixture<BookingEngine>(
    html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page=${page} locale=${locale}></booking-engine>`,
  );

const check = async (input: HTMLInputElement) => {
  input.click();
  await until(() => input.checked);
};

async function fill(page: HTMLElement, guest: Record<string, string>) {
  for (const [name, value] of Object.entries(guest)) {
    const input = await inShadow<HTMLInputElement>(page, `#${name}`);
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  }
}

const button = (page: HTMLElement, name: RegExp) =>
  [...page.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")].find((b) => name.test(b.textContent!))!;
const times = (page: HTMLElement, name = "time") =>
  allInShadow<HTMLInputElement>(page, `input[name="${name}"]`);
const selectedDate = async (page: HTMLElement) =>
  (await inShadow(await inShadow(page, "be-date-grid"), 'td[aria-selected="true"]')).dataset.date!;

/**
 * The selected day, or the next one, with a free time for the party: late in the day, today's
 * last times may seat a small party and not the largest.
 */
async function dayWithTimes(page: HTMLElement, pax: number) {
  if (times(page).length) return;
  const days = await slots(await selectedDate(page), pax, 14);
  await chooseDate(page, days.find((d) => d.services.some((s) => s.times.length))!.date);
}

/**
 * The selected day, or the next one, whose first service with free times for the party spans
 * two hours (more than the largest party's 90-minute stay): once its first time is taken, later
 * ones stay free.
 */
async function dayWithLaterTimes(page: HTMLElement, pax: number) {
  const minutes = (h: string) => Number(h.slice(0, 2)) * 60 + Number(h.slice(3, 5));
  const spans = (d: PublicSlotDay) => {
    const first = d.services.find((s) => s.times.length)?.times ?? [];
    return first.length > 0 && minutes(first.at(-1)!) - minutes(first[0]!) >= 120;
  };
  const selected = await selectedDate(page);
  const day = (await slots(selected, pax, 14)).find(spans)!;
  if (day.date !== selected) await chooseDate(page, day.date);
}

async function choosePax(page: HTMLElement, pax: number) {
  const select = await inShadow<HTMLSelectElement>(page, "#pax");
  select.value = String(pax);
  select.dispatchEvent(new Event("change"));
  await settled(page);
}

/** Picks a date as the date grid does (its change event), whatever month it shows. */

before(() => useRestaurant());

describe("<booking-engine page=book>", () => {
  itAnyTime("is accessible once the times are shown", async () => {
    const el = await mount();
    await bookPageWithTimes(el);
    await expect(el).to.be.accessible();
  });

  it("preselects the first date with a free time and lists its times as the restaurant's wall clock", async () => {
    // The premise: this browser is far from the restaurant's zone.
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).to.equal(env.browserZone);
    const p = await profile();
    expect(p.timezone).to.equal("Europe/Rome");
    const days = await slots(p.first_date, 2, 14);
    const first = days.find((d) => d.services.some((s) => s.times.length))!;
    const el = await mount("book", "it");
    const page = await bookPageWithTimes(el);
    const grid = await inShadow(page, "be-date-grid");
    const selected = await inShadow(grid, 'td[aria-selected="true"]');
    expect(selected.dataset.date).to.equal(first.date);
    const service = first.services.find((s) => s.times.length)!;
    const labels = allInShadow(page, 'input[name="time"] + span').map((s) => s.textContent!.trim());
    // Italian, 24 hours, never shifted into the browser's zone: "19:00:00" reads "19:00".
    expect(labels).to.deep.equal(service.times.map((t) => t.slice(0, 5)));
    // The status region tells a screen reader how many times the day has.
    const count = first.services.reduce((n, s) => n + s.times.length, 0);
    expect((await inShadow(page, '[role="status"]')).textContent!.trim()).to.equal(
      `Orari liberi in questo giorno: ${count}`,
    );
    // Labelled with the restaurant's city, never the raw IANA zone.
    const legend = allInShadow(page, "legend").map((l) => l.textContent!.trim());
    expect(legend).to.include("Orario di Milano");
    expect(deepText(el)).not.to.include(p.timezone);
  });

  it("offers Continue once a time is chosen, and books: booking-created carries the manage link", async () => {
    const el = await mount();
    const page = await bookPageWithTimes(el);
    expect(page.shadowRoot!.querySelector('[part="action-bar"]')).to.equal(null);
    const times = allInShadow<HTMLInputElement>(page, 'input[name="time"]');
    await check(times.at(-1)!);
    (await inShadow<HTMLButtonElement>(page, "button.btn:not(.secondary)")).click();
    await inShadow(page, "form");
    await expect(el).to.be.accessible();
    await fill(page, { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" });
    const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const { detail } = await created;
    expect(detail.reservation.status).to.equal("ACCEPTED");
    expect(detail.reservation.guest.first_name).to.equal("Grace");
    // The widget sent its locale: the manage page opens in it.
    expect(detail.manage_url).to.match(
      new RegExp(`/p/${restaurant().publicKey}/manage/[\\w-]{20,}\\?locale=en$`),
    );
    expect(detail).not.to.have.property("manage_token");
    // Embedded without booking-manage: the hosted manage page, in a new tab (the accent is the restaurant's own here).
    const link = await inShadow<HTMLAnchorElement>(page, 'a[part="manage-link"]');
    expect(link.href).to.equal(detail.manage_url);
    expect(link.target).to.equal("_blank");
    expect(page.shadowRoot!.activeElement?.tagName).to.equal("H2");
    await expect(el).to.be.accessible();
    // And another booking, from the start.
    [...page.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")]
      .find((b) => /another table/.test(b.textContent!))!
      .click();
    await inShadow(page, 'input[name="time"]');
    expect(allInShadow<HTMLInputElement>(page, 'input[name="time"]').some((i) => i.checked)).to.equal(false);
  });

  itAnyTime(
    "asks for an occasion, allergies and a special request, optional and in the page's language, and shows them in the confirmation",
    async () => {
      const el = await mount("book", "it");
      const page = await bookPageWithTimes(el);
      await check(times(page).at(-1)!);
      button(page, /Continua/).click();
      const form = await inShadow(page, "form");
      const label = (id: string) => form.querySelector(`label[for="${id}"]`)!.textContent!.trim();
      expect([label("occasion"), label("allergies"), label("special_request")]).to.deep.equal([
        "Occasione (facoltativo)",
        "Allergie o esigenze alimentari (facoltativo)",
        "Richieste particolari (facoltativo)",
      ]);
      for (const id of ["occasion", "allergies", "special_request"])
        expect(form.querySelector(`#${id}`)!.hasAttribute("required")).to.equal(false);
      await expect(el).to.be.accessible();
      await fill(page, {
        first_name: "Rita",
        last_name: "Levi",
        email: "rita@example.com",
        allergies: "arachidi",
        special_request: "una torta alle 21",
      });
      const occasion = await inShadow<HTMLSelectElement>(page, "#occasion");
      expect([...occasion.options].map((o) => o.textContent!.trim())).to.include("Compleanno");
      occasion.value = "birthday";
      occasion.dispatchEvent(new Event("change", { bubbles: true }));
      const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
      (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
      const { detail } = await created;
      expect(detail.reservation).to.include({
        occasion: "birthday",
        allergies: "arachidi",
        special_request: "una torta alle 21",
      });
      const summary = await inShadow(page, '[part="summary"]');
      const rows = Object.fromEntries(
        [...summary.querySelectorAll("dt")].map((dt) => [
          dt.textContent!.trim(),
          dt.nextElementSibling!.textContent!.trim(),
        ]),
      );
      expect(rows).to.include({
        Occasione: "Compleanno",
        Allergie: "arachidi",
        "Richieste particolari": "una torta alle 21",
      });
      await expect(el).to.be.accessible();
    },
  );

  it("offers the nearest free times when the chosen one is taken meanwhile (409)", async () => {
    const p = await profile();
    const pax = p.max_online_pax;
    const el = await mount();
    const page = await bookPageWithTimes(el);
    await choosePax(page, pax);
    // a day with later times to offer once the first is taken (late in the evening, today has none)
    await dayWithLaterTimes(page, pax);
    const times = allInShadow<HTMLInputElement>(page, 'input[name="time"]');
    // The first time of the day: a large party holds the one table that fits it for a while,
    // and later times stay free.
    const chosen = times[0]!;
    await check(chosen);
    const date = (await inShadow(await inShadow(page, "be-date-grid"), 'td[aria-selected="true"]')).dataset
      .date!;
    (await inShadow<HTMLButtonElement>(page, "button.btn:not(.secondary)")).click();
    await inShadow(page, "form");
    await fill(page, { first_name: "Late", last_name: "Guest", email: "late@example.com" });
    // The staff gives the very table to a walk-in meanwhile.
    const service = (await slots(date, pax))[0]!.services.find((s) => s.times.includes(chosen.value))!;
    await bookAsStaff({ date, hour: chosen.value, pax, service_id: service.service_id });
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const alert = await inShadow(page, '[role="alert"] .message.error');
    expect(alert.textContent).to.match(/just taken/);
    const alternatives = allInShadow<HTMLInputElement>(page, 'input[name="alternative"]');
    expect(alternatives.length).to.be.greaterThan(0);
    expect(alternatives.map((a) => a.value)).not.to.include(chosen.value);
    await expect(el).to.be.accessible();
    await check(alternatives[0]!);
    const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const { detail } = await created;
    expect(detail.reservation.hour).to.equal(alternatives[0]!.value);
  });

  it("after a 409 with no other free time: the focus goes to the explanation, and Back and another time book", async () => {
    const pax = (await profile()).max_online_pax;
    const el = await mount();
    const page = await bookPageWithTimes(el);
    await choosePax(page, pax);
    await dayWithTimes(page, pax);
    const date = await selectedDate(page);
    const chosen = times(page)[0]!;
    const hour = chosen.value;
    await check(chosen);
    button(page, /Continue/).click();
    await inShadow(page, "form");
    await fill(page, { first_name: "Stuck", last_name: "Guest", email: "stuck@example.com" });
    // Meanwhile the staff fills that service for the party: no other time of it stays free.
    const serviceId = (await slots(date, pax))[0]!.services.find((s) => s.times.includes(hour))!.service_id;
    for (let i = 0; i < 12; i++) {
      const free = (await slots(date, pax))[0]!.services.find((s) => s.service_id === serviceId)?.times ?? [];
      if (!free.length) break;
      await bookAsStaff({ date, hour: free.includes(hour) ? hour : free[0]!, pax, service_id: serviceId });
    }
    const submit = await inShadow<HTMLButtonElement>(page, 'button[type="submit"]');
    submit.focus();
    submit.click();
    const failure = await inShadow(page, "#failure");
    expect(failure.textContent).to.match(/just taken/);
    expect(failure.textContent).to.match(/No other time is free/);
    expect(page.shadowRoot!.querySelector('button[type="submit"]')).to.equal(null);
    // The focused button is gone: the focus is on the explanation, not lost to <body>.
    await until(() => page.shadowRoot!.activeElement === failure);
    await expect(el).to.be.accessible();

    button(page, /Back/).click();
    await until(() => page.shadowRoot!.querySelector("#pax"));
    await settled(page);
    if (!times(page).length) {
      // Nothing else that day: the next day with a free time.
      const other = (await slots(date, pax, 14)).find(
        (d) => d.date !== date && d.services.some((s) => s.times.length),
      )!;
      await chooseDate(page, other.date);
    }
    const another = times(page)[0]!;
    expect(another.value === hour && (await selectedDate(page)) === date).to.equal(false);
    await check(another);
    button(page, /Continue/).click();
    await inShadow(page, "form");
    expect(page.shadowRoot!.querySelector("#failure")).to.equal(null);
    expect(deepText(page)).not.to.match(/just taken/);
    const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const { detail } = await created;
    expect(detail.reservation.status).to.equal("ACCEPTED");
    expect(detail.reservation.hour).to.equal(another.value);
    expect(detail.reservation.guest.first_name).to.equal("Stuck");
  });

  it("fetches a day's times again when the guest comes back to it a minute later", async () => {
    const p = await profile();
    const pax = p.max_online_pax;
    const el = await mount();
    const page = await bookPageWithTimes(el);
    await choosePax(page, pax);
    const first = await selectedDate(page);
    // Another day: the guest looks at it, and its first time is shown free.
    const other = (await slots(p.first_date, pax, 14)).find(
      (d) => d.date !== first && d.services.some((s) => s.times.length),
    )!;
    const service = other.services.find((s) => s.times.length)!;
    const hour = service.times[0]!;
    await chooseDate(page, other.date);
    expect(times(page).map((t) => t.value)).to.include(hour);
    // The staff gives that time away meanwhile; the guest looks at the first day, then comes back a minute later.
    await bookAsStaff({ date: other.date, hour, pax, service_id: service.service_id });
    await chooseDate(page, first);
    try {
      // The widget's own clock, a minute on (at a fixed instant the browser's stands still).
      const start = Date.now();
      setClock(() => start + 61_000);
      await chooseDate(page, other.date);
      await until(() => times(page).length || times(page, "waiting").length);
      // If that service has no free time left, the page may lead with another: back to it.
      const serviceChoice = times(page, "service").find((r) => r.value === String(service.service_id));
      if (serviceChoice && !serviceChoice.checked) await check(serviceChoice);
      expect(times(page).map((t) => t.value)).not.to.include(hour);
      // That time is full now: the waiting list offers it.
      expect(times(page, "waiting").map((t) => t.value)).to.include(hour);
    } finally {
      setClock();
    }
  });

  it("offers a full time for the waiting list; the confirmation says the party is waiting, never booked", async () => {
    const p = await profile();
    const pax = p.max_online_pax;
    // The service of the look ahead with the most free times: the staff takes its last one.
    const [day, service] = (await slots(p.first_date, pax, 14))
      .flatMap((d) => d.services.map((s) => [d, s] as const))
      .sort((a, b) => b[1].times.length - a[1].times.length)[0]!;
    const hour = service.times.at(-1)!;
    await bookAsStaff({ date: day.date, hour, pax, service_id: service.service_id });

    const el = await mount();
    const page = await bookPageWithTimes(el);
    await choosePax(page, pax);
    await chooseDate(page, day.date);
    const serviceChoice = times(page, "service").find((r) => r.value === String(service.service_id));
    if (serviceChoice && !serviceChoice.checked) await check(serviceChoice);
    expect(times(page).length).to.be.greaterThan(0);
    const disclosure = await inShadow<HTMLDetailsElement>(page, 'details[part="waiting-list"]');
    // Free times that day: the waiting list waits behind its disclosure.
    expect(disclosure.open).to.equal(false);
    const summary = disclosure.querySelector("summary")!;
    expect(summary.textContent).to.match(/Join the waiting list/);
    summary.click();
    await until(() => disclosure.open);
    // One story with the emails: an offer by email when a table frees at that time, not "the restaurant decides".
    expect(disclosure.textContent).to.match(
      /If one frees up at the time you chose, we email you an offer to claim/,
    );
    expect(disclosure.textContent).not.to.match(/decides later/);
    await expect(el).to.be.accessible();
    const full = times(page, "waiting").find((t) => t.value === hour)!;
    await check(full);
    expect(times(page).some((t) => t.checked)).to.equal(false);
    button(page, /Join the waiting list/).click();
    await inShadow(page, "form");
    expect(deepText(page)).to.match(/joining the waiting list/);
    await fill(page, { first_name: "Patient", last_name: "Guest", email: "patient@example.com" });
    const submit = await inShadow<HTMLButtonElement>(page, 'button[type="submit"]');
    expect(submit.textContent).to.match(/Join the waiting list/);
    const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
    submit.click();
    const { detail } = await created;
    expect(detail.reservation.status).to.equal("WAITING");
    expect(detail.reservation.hour).to.equal(hour);
    await inShadow(page, 'a[part="manage-link"]');
    expect(page.shadowRoot!.querySelector("h2")!.textContent).to.match(/You are on the waiting list/);
    expect(deepText(page)).not.to.match(/booked/i);
    expect(deepText(page)).to.match(/On the waiting list/);
    expect(deepText(page)).to.contain(
      `If one frees up at this time, we email you an offer, valid for ${p.offer_minutes} minutes: claim it and the table is yours if it is still free.`,
    );
    await expect(el).to.be.accessible();
  });
});

describe("a refused booking, as the guest reads it", () => {
  itAnyTime(
    "over the restaurant's per-guest limit: cancel one, or call the number it shows, naming no booking",
    async () => {
      const limit = new PublicApiError(403, "guest_booking_limit", "this email or phone already holds ...");
      const shown = async (profile: Partial<PublicProfile>) =>
        (await fixture(html`<p>${bookingError(limit, profile as PublicProfile)}</p>`)) as HTMLElement;
      const withPhone = await shown({ phone: "+39 02 1234 567" });
      expect(withPhone.textContent).to.match(/already have as many upcoming online bookings here/);
      expect(withPhone.textContent).to.match(/cancel one of them to book another\./);
      expect(withPhone.textContent).to.match(/Please call the restaurant: \+39 02 1234 567/);
      expect(withPhone.querySelector('a[part="phone"]')!.getAttribute("href")).to.equal("tel:+39021234567");
      expect((await shown({ phone: null })).textContent).to.match(/Please call the restaurant\./);
      expect(
        String(bookingError(new PublicApiError(403, "service_not_available", "x"), {} as PublicProfile)),
      ).to.match(/could not be made/);
    },
  );
});

describe("<booking-engine> pages", () => {
  itAnyTime("welcome: is accessible and its button opens the booking page", async () => {
    const el = await mount("welcome");
    const welcome = await inShadow(el, "be-welcome-page");
    await inShadow(welcome, "h2");
    await expect(el).to.be.accessible();
    expect(deepText(el)).to.include(restaurant().name);
    (await inShadow<HTMLButtonElement>(welcome, "button")).click();
    const book = await bookPageWithTimes(el);
    expect(el.page).to.equal("book");
    // The focus follows the guest to the new page's heading.
    expect(book.shadowRoot!.activeElement?.tagName).to.equal("H2");
  });

  it("services: is accessible, lists the services, and books one of them", async () => {
    const el = await mount("services");
    const services = await inShadow(el, "be-services-page");
    await inShadow(services, "li");
    await expect(el).to.be.accessible();
    const names = allInShadow(services, "li h4").map((h) => h.textContent);
    expect(names).to.deep.equal(["Pranzo", "Cena"]);
    allInShadow<HTMLButtonElement>(services, "li button")[1]!.click();
    const page = await bookPageWithTimes(el);
    expect(el.service).to.be.a("number");
    expect(deepText(page)).to.include("Cena");
  });

  itAnyTime("says so when the restaurant is unknown", async () => {
    const el = await fixture<BookingEngine>(
      html`<booking-engine api=${env.api} property="pk_nope"></booking-engine>`,
    );
    const alert = await inShadow(el, '[role="alert"]');
    expect(alert.textContent).to.match(/cannot be booked online/);
    await expect(el).to.be.accessible();
  });

  itAnyTime("says so when the server cannot be reached (a closed port, no stub)", async () => {
    const el = await fixture<BookingEngine>(
      html`<booking-engine api="http://127.0.0.1:9" property=${restaurant().publicKey}></booking-engine>`,
    );
    const alert = await inShadow(el, '[role="alert"]');
    expect(alert.textContent).to.match(/could not be loaded/);
  });

  itAnyTime(
    "without a locale attribute, speaks the host page's lang if it can, else the restaurant's locale",
    async () => {
      const root = document.documentElement;
      const bare = () =>
        fixture<BookingEngine>(
          html`<booking-engine api=${env.api} property=${restaurant().publicKey}></booking-engine>`,
        );
      try {
        root.lang = "de-CH";
        let el = await bare();
        let page = await bookPageWithTimes(el);
        await until(() => page.shadowRoot!.querySelector("h2")?.textContent?.includes("Tisch reservieren"));
        el.remove();
        // Dutch is not one of the widget's: the restaurant's locale (English) then.
        root.lang = "nl";
        el = await bare();
        page = await bookPageWithTimes(el);
        await until(() => page.shadowRoot!.querySelector("h2")?.textContent?.includes("Book a table"));
        el.remove();
      } finally {
        root.lang = "en";
      }
    },
  );

  itAnyTime("speaks Italian, French, German and Spanish", async () => {
    const expected = {
      it: "Prenota un tavolo",
      fr: "Réserver une table",
      de: "Tisch reservieren",
      es: "Reservar una mesa",
    };
    for (const [locale, title] of Object.entries(expected)) {
      const el = await mount("book", locale);
      const page = await bookPageWithTimes(el);
      await until(() => page.shadowRoot!.querySelector("h2")?.textContent?.includes(title));
      el.remove();
    }
  });
});
