import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import type { BookingCreatedDetail } from "../../widget/events.js";
import { bookAsGuest, env, profile, slots, until } from "./env.js";
import { allInShadow, bookPageWithTimes, deepText, inShadow } from "./helpers.js";

const mount = (page = "book", locale = "en") =>
  fixture<BookingEngine>(html`<booking-engine api=${env.api} property=${env.publicKey} page=${page} locale=${locale}></booking-engine>`);

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

describe("<booking-engine page=book>", () => {
  it("is accessible once the times are shown", async () => {
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
    expect((await inShadow(page, '[role="status"]')).textContent!.trim()).to.equal(`Orari liberi in questo giorno: ${count}`);
    const legend = allInShadow(page, "legend").map((l) => l.textContent);
    expect(legend.some((l) => l?.includes(p.timezone))).to.equal(true);
  });

  it("asks for a time before the guest's details, and books: booking-created carries the manage link", async () => {
    const el = await mount();
    const page = await bookPageWithTimes(el);
    (await inShadow<HTMLButtonElement>(page, "button.btn:not(.secondary)")).click();
    const alert = await inShadow(page, '#time-error[role="alert"]');
    expect(alert.textContent).to.match(/choose a time/i);
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
    expect(detail.manage_url).to.match(new RegExp(`/p/${env.publicKey}/manage/[\\w-]{20,}$`));
    expect(detail).not.to.have.property("manage_token");
    const link = await inShadow<HTMLAnchorElement>(page, 'a[part="manage-link"]');
    expect(link.href).to.equal(detail.manage_url);
    expect(page.shadowRoot!.activeElement?.tagName).to.equal("H2");
    await expect(el).to.be.accessible();
    // And another booking, from the start.
    [...page.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")].find((b) => /another table/.test(b.textContent!))!.click();
    await inShadow(page, 'input[name="time"]');
    expect(allInShadow<HTMLInputElement>(page, 'input[name="time"]').some((i) => i.checked)).to.equal(false);
  });

  it("offers the nearest free times when the chosen one is taken meanwhile (409)", async () => {
    const p = await profile();
    const pax = p.max_online_pax;
    const el = await mount();
    const page = await bookPageWithTimes(el);
    const select = await inShadow<HTMLSelectElement>(page, "#pax");
    select.value = String(pax);
    select.dispatchEvent(new Event("change"));
    await (page as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    await until(() => page.shadowRoot!.querySelector('input[name="time"]'));
    const times = allInShadow<HTMLInputElement>(page, 'input[name="time"]');
    // The first time of the day: a large party holds the one table that fits it for a while,
    // and later times stay free.
    const chosen = times[0]!;
    await check(chosen);
    const date = (await inShadow(await inShadow(page, "be-date-grid"), 'td[aria-selected="true"]')).dataset.date!;
    (await inShadow<HTMLButtonElement>(page, "button.btn:not(.secondary)")).click();
    await inShadow(page, "form");
    await fill(page, { first_name: "Late", last_name: "Guest", email: "late@example.com" });
    // Another guest takes the very table meanwhile, through the same public API.
    const taken = await bookAsGuest({ date, hour: chosen.value, pax });
    expect(taken.status).to.equal(201);
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
});

describe("<booking-engine> pages", () => {
  it("welcome: is accessible and its button opens the booking page", async () => {
    const el = await mount("welcome");
    const welcome = await inShadow(el, "be-welcome-page");
    await inShadow(welcome, "h2");
    await expect(el).to.be.accessible();
    expect(deepText(el)).to.include("Trattoria Demo");
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

  it("says so when the restaurant is unknown", async () => {
    const el = await fixture<BookingEngine>(html`<booking-engine api=${env.api} property="pk_nope"></booking-engine>`);
    const alert = await inShadow(el, '[role="alert"]');
    expect(alert.textContent).to.match(/cannot be booked online/);
    await expect(el).to.be.accessible();
  });

  it("says so when the server cannot be reached (a closed port, no stub)", async () => {
    const el = await fixture<BookingEngine>(html`<booking-engine api="http://127.0.0.1:9" property=${env.publicKey}></booking-engine>`);
    const alert = await inShadow(el, '[role="alert"]');
    expect(alert.textContent).to.match(/could not be loaded/);
  });

  it("without a locale attribute, speaks the host page's lang if it can, else the restaurant's locale", async () => {
    const root = document.documentElement;
    const bare = () => fixture<BookingEngine>(html`<booking-engine api=${env.api} property=${env.publicKey}></booking-engine>`);
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
  });

  it("speaks Italian, French, German and Spanish", async () => {
    const expected = { it: "Prenota un tavolo", fr: "Réserver une table", de: "Tisch reservieren", es: "Reservar una mesa" };
    for (const [locale, title] of Object.entries(expected)) {
      const el = await mount("book", locale);
      const page = await bookPageWithTimes(el);
      await until(() => page.shadowRoot!.querySelector("h2")?.textContent?.includes(title));
      el.remove();
    }
  });
});
