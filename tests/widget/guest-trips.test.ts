/**
 * Where diners tripped on the guest's path, second pass: a party over the online maximum, the
 * restaurant's own city on the times, the action bar (shown once a time is chosen, never over the
 * focus or the service chips), "next available" for the chosen service, the services page's own
 * address, long words and addresses at 320 px, the country by name, the phone in the accent,
 * `heading="none"`, and the shape of the times while a slow network brings them. axe on each new state.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { setViewport } from "@web/test-runner-commands";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import { addDays } from "../../widget/format.js";
import {
  bookAsStaff,
  itAnyTime,
  ownAddress,
  profile,
  restaurant,
  staff,
  until,
  useRestaurant,
} from "./env.js";
import { allInShadow, bookPageWithTimes, chooseDate, inShadow, settled } from "./helpers.js";

before(() => useRestaurant());
afterEach(() => setViewport({ width: 800, height: 600 }));

const mount = (o: { page?: string; locale?: string; extra?: string } = {}) => {
  const host = document.createElement("div");
  host.innerHTML = `<booking-engine api="${ownAddress()}" property="${restaurant().publicKey}" page="${o.page ?? "book"}" locale="${o.locale ?? "en"}" ${o.extra ?? ""}></booking-engine>`;
  return fixture<HTMLDivElement>(html`${host}`).then(
    (d) => d.querySelector("booking-engine") as BookingEngine,
  );
};
const day = async (k: number) => addDays((await profile()).first_date, k);
const radios = (page: HTMLElement, name = "time") =>
  allInShadow<HTMLInputElement>(page, `input[name="${name}"]`);
const buttonNamed = (root: HTMLElement, name: RegExp) =>
  allInShadow<HTMLButtonElement>(root, "button").find((b) => name.test(b.textContent!));
const service = (name: string) => restaurant().services.find((s) => s.name === name)!;
const rectsMeet = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

async function pick(input: HTMLInputElement) {
  input.click();
  await until(() => input.checked);
}

/** A day with no free time for 8 (only the group seats 8: held at both services' times), full times left for the waiting list. */
let fullDay: Promise<string> | undefined;
function fullForEight() {
  fullDay ??= (async () => {
    const date = await day(8);
    for (const [name, hour] of [
      ["Pranzo", "12:00:00"],
      ["Pranzo", "13:30:00"],
      ["Cena", "20:00:00"],
      ["Cena", "22:00:00"],
    ] as const)
      await bookAsStaff({ date, hour, pax: 8, service_id: service(name).id });
    return date;
  })();
  return fullDay;
}

describe("a party over the online maximum", () => {
  itAnyTime(
    "the party list ends with 'More than 8', which leads to the phone instead of the times",
    async () => {
      const el = await mount();
      const page = await bookPageWithTimes(el);
      const select = await inShadow<HTMLSelectElement>(page, "#pax");
      expect(select.options[select.options.length - 1]!.textContent!.trim()).to.equal("More than 8");
      select.value = "9";
      select.dispatchEvent(new Event("change"));
      const over = await inShadow(page, '[role="status"] #pax-over');
      expect(over.textContent).to.match(
        /Parties of more than 8 cannot book online\. Please call the restaurant: \+39 02 1234567/,
      );
      expect(over.querySelector<HTMLAnchorElement>('a[part="phone"]')!.href).to.equal("tel:+39021234567");
      expect(radios(page).length).to.equal(0);
      expect(page.shadowRoot!.querySelector("be-date-grid")).to.equal(null);
      await expect(el).to.be.accessible();
      select.value = "4";
      select.dispatchEvent(new Event("change"));
      await until(() => radios(page).length);
    },
  );

  itAnyTime(
    "says so when a link asks for more (pax=9 with a maximum of 8), rather than booking 8",
    async () => {
      const el = await mount({ locale: "it", extra: 'pax="9"' });
      const page = await inShadow(el, "be-book-page", 15_000);
      const over = await inShadow(page, "#pax-over");
      expect(over.textContent).to.match(/I gruppi di più di 8 persone non possono prenotare online\./);
      expect((await inShadow<HTMLSelectElement>(page, "#pax")).value).to.equal("9");
      expect(radios(page).length).to.equal(0);
    },
  );
});

describe("the city on the times", () => {
  itAnyTime(
    "is the restaurant's own (its address says Milano, its zone Rome), in the page's language",
    async () => {
      for (const [locale, label] of [
        ["en", "Time in Milano"],
        ["it", "Orario di Milano"],
      ] as const) {
        const el = await mount({ locale });
        const page = await bookPageWithTimes(el);
        const legend = await inShadow(page, 'fieldset[part="time-group"] legend');
        expect(legend.textContent!.trim()).to.equal(label);
        el.remove();
      }
    },
  );
});

describe("the action bar", () => {
  itAnyTime(
    "is shown once a time is chosen, and the focused time is kept clear of it on a phone",
    async () => {
      await setViewport({ width: 320, height: 640 });
      const el = await mount();
      const page = await bookPageWithTimes(el);
      await chooseDate(page, await day(3));
      expect(page.shadowRoot!.querySelector('[part="action-bar"]')).to.equal(null);
      const times = radios(page);
      await pick(times[0]!);
      const bar = await inShadow(page, '[part="action-bar"]');
      expect(getComputedStyle(bar).position).to.equal("sticky");
      // A time just under the bar, then focused (as Tab does): it scrolls clear of the bar.
      window.scrollTo(0, 0);
      const barTop = bar.getBoundingClientRect().top;
      const hidden = times.find((t) => t.getBoundingClientRect().bottom > barTop)!;
      window.scrollBy(0, hidden.getBoundingClientRect().top - barTop - 4);
      expect(rectsMeet(hidden.getBoundingClientRect(), bar.getBoundingClientRect())).to.equal(true);
      hidden.focus();
      await until(() => !rectsMeet(hidden.getBoundingClientRect(), bar.getBoundingClientRect()));
      await expect(el).to.be.accessible();
    },
  );

  itAnyTime("never covers the service chips at 1280 px", async () => {
    await setViewport({ width: 1280, height: 500 });
    const el = await mount();
    const page = await bookPageWithTimes(el);
    await chooseDate(page, await day(3));
    await pick(radios(page)[0]!);
    const bar = await inShadow(page, '[part="action-bar"]');
    const chips = allInShadow(page, 'input[name="service"] + span');
    expect(chips.length).to.equal(2);
    // The service chips low on the screen, where a bar stuck to the bottom would sit.
    window.scrollBy(0, chips[0]!.getBoundingClientRect().bottom - innerHeight + 8);
    for (const chip of chips)
      expect(rectsMeet(chip.getBoundingClientRect(), bar.getBoundingClientRect())).to.equal(false);
    window.scrollTo(0, 0);
  });

  it("on a full day the waiting list is the main action", async () => {
    const date = await fullForEight();
    const el = await mount({ extra: 'pax="8"' });
    const page = await inShadow(el, "be-book-page", 15_000);
    await until(() => radios(page).length + radios(page, "waiting").length);
    await chooseDate(page, date);
    await until(() => radios(page, "waiting").length);
    expect(radios(page).length).to.equal(0);
    expect(page.shadowRoot!.querySelector('[part="action-bar"]')).to.equal(null);
    const waiting = await inShadow<HTMLDetailsElement>(page, 'details[part="waiting-list"]');
    expect(waiting.open).to.equal(true);
    await pick(radios(page, "waiting")[0]!);
    const bar = await inShadow(page, '[part="action-bar"]');
    expect(bar.querySelector("button")!.textContent!.trim()).to.equal("Join the waiting list");
    await expect(el).to.be.accessible();
  });
});

describe("next available", () => {
  it("keeps the service the guest came for", async () => {
    const date = await fullForEight();
    const el = await mount({ extra: `pax="8" service="${service("Cena").id}"` });
    const page = await inShadow(el, "be-book-page", 15_000);
    await until(() => radios(page).length + radios(page, "waiting").length);
    await chooseDate(page, date);
    const next = await inShadow(page, '[part="next-available"]');
    const options = await until(() =>
      next.querySelectorAll("button").length ? [...next.querySelectorAll("button")] : undefined,
    );
    expect(options.length).to.equal(3);
    for (const o of options) expect(o.textContent).to.match(/· Cena\s*$/);
    await expect(el).to.be.accessible();
  });

  it("says when the chosen service has no free table in the weeks ahead, and offers the others", async () => {
    const closed = await day(20);
    const cena = service("Cena");
    expect(
      (await staff("closures", { method: "POST", body: { start_date: closed, reason: "private party" } }))
        .status,
    ).to.equal(201);
    const dinners = {
      start_date: addDays(closed, 1),
      end_date: addDays(closed, 30),
      service_ids: [cena.id],
      reason: "kitchen works",
    };
    expect((await staff("closures", { method: "POST", body: dinners })).status).to.equal(201);
    const el = await mount({ extra: `service="${cena.id}"` });
    const page = await bookPageWithTimes(el);
    await chooseDate(page, closed);
    const next = await inShadow(page, '[part="next-available"]');
    await until(() => next.querySelector("#next-none"));
    expect(next.querySelector("#next-none")!.textContent).to.equal(
      "Cena has no free table for this party in the weeks ahead.",
    );
    const options = [...next.querySelectorAll("button")];
    expect(options.length).to.equal(3);
    for (const o of options) expect(o.textContent).to.match(/· Pranzo\s*$/);
  });
});

describe("the services page", () => {
  itAnyTime(
    "has its own address: Back returns to the welcome page, and a button leads back to it",
    async () => {
      const start = location.href;
      try {
        const el = await mount({ page: "welcome", extra: "hosted" });
        const welcome = await inShadow(el, "be-welcome-page");
        (await until(() => buttonNamed(welcome, /Our services/)))!.click();
        const services = await inShadow(el, "be-services-page", 15_000);
        await until(() => location.pathname === `/p/${restaurant().publicKey}/services`);
        await until(() => buttonNamed(services, /Back to the welcome page/));
        await expect(el).to.be.accessible();
        history.back();
        await inShadow(el, "be-welcome-page");
        await until(() => location.href === start);
        history.forward();
        const again = await inShadow(el, "be-services-page");
        (await until(() => buttonNamed(again, /Back to the welcome page/)))!.click();
        await inShadow(el, "be-welcome-page");
        expect(location.pathname).to.equal(`/p/${restaurant().publicKey}`);
      } finally {
        history.replaceState(null, "", start);
      }
    },
  );
});

describe("edges", () => {
  itAnyTime(
    "the address shows its country by name in the page's language, and the phone link in the accent",
    async () => {
      for (const [locale, country] of [
        ["en", "Italy"],
        ["it", "Italia"],
        ["de", "Italien"],
      ] as const) {
        const el = await mount({ page: "welcome", locale });
        const welcome = await inShadow(el, "be-welcome-page");
        const address = await inShadow(welcome, 'address[part="contact"]');
        expect(address.textContent).to.include(country);
        expect(address.textContent).not.to.match(/\bIT\b/);
        const phone = await inShadow<HTMLAnchorElement>(welcome, 'a[part="phone"]');
        const button = buttonNamed(welcome, /./)!;
        expect(getComputedStyle(phone).color).to.equal(getComputedStyle(button).backgroundColor);
        el.remove();
      }
    },
  );

  it("a long name and email do not make the German confirmation scroll sideways at 320 px", async () => {
    await setViewport({ width: 320, height: 640 });
    const el = await mount({ locale: "de" });
    const page = await bookPageWithTimes(el);
    await pick(radios(page)[0]!);
    buttonNamed(page, /Weiter/)!.click();
    const guest = {
      first_name: "Donaudampfschifffahrtsgesellschaftskapitän",
      last_name: "Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz",
      email: "maximilian.mustermann.rindfleischetikettierung@verwaltungsgemeinschaft-oberland.example",
    };
    for (const [id, value] of Object.entries(guest)) {
      const input = await inShadow<HTMLInputElement>(page, `#${id}`);
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    }
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    await inShadow(page, '[part="confirmation"]', 15_000);
    await (page as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    // The address breaks after the "@" and before its dots, not mid-word.
    const sent = await inShadow(page, '[part="email-sent"]');
    expect(sent.querySelectorAll("wbr").length).to.be.greaterThan(2);
    await expect(el).to.be.accessible();
  });
});

describe("for the web designer who embeds it", () => {
  itAnyTime(
    'heading="none" hides the restaurant\'s name and the page headings from view, not from screen readers',
    async () => {
      const el = await mount({ extra: 'heading="none"' });
      const page = await bookPageWithTimes(el);
      expect(el.shadowRoot!.querySelector('[part="header"]')).to.equal(null);
      const h2 = await inShadow(page, 'h2[part="heading"]');
      expect(h2.textContent!.trim()).to.equal("Book a table");
      expect(h2.getBoundingClientRect().height).to.be.at.most(1);
      await expect(el).to.be.accessible();
      const plain = await mount();
      await bookPageWithTimes(plain);
      expect(plain.shadowRoot!.querySelector('[part="header"]')).to.not.equal(null);
    },
  );
});

describe("on a slow network", () => {
  it("shows the shape of the times while they load, hidden from screen readers, which hear the words", async () => {
    const host = document.createElement("div");
    // every answer of the day's times held 1.5 s (web-test-runner.config.mjs relays /slow/<ms>)
    host.innerHTML = `<booking-engine api="${location.origin}/slow/1500" property="${restaurant().publicKey}" page="book" locale="en"></booking-engine>`;
    const el = (await fixture<HTMLDivElement>(html`${host}`)).querySelector(
      "booking-engine",
    ) as BookingEngine;
    const page = await inShadow(el, "be-book-page");
    const skeleton = await inShadow(page, '[part="skeleton"]');
    expect(skeleton.getAttribute("aria-hidden")).to.equal("true");
    expect(skeleton.querySelectorAll(".chip").length).to.equal(6);
    expect(skeleton.textContent!.trim()).to.equal("");
    // still: an endless pulse would keep the compositor drawing frames while the page loads
    expect(skeleton.getAnimations({ subtree: true })).to.have.length(0);
    expect(page.shadowRoot!.querySelector('[role="status"]')!.textContent).to.include(
      "Looking for free tables…",
    );
    await expect(el).to.be.accessible();
    await settled(page);
    expect(page.shadowRoot!.querySelector('[part="skeleton"]')).to.equal(null);
  });
});
