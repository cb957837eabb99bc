/**
 * The guest's path: where the restaurant is, its texts per language, the
 * cancellation policy before confirming, "next available", a full preferred service, history and
 * reload, field errors at their field, the city's time, text on the accent, the action bar at
 * 320 px, "Book again" and the embedded manage link. In English and Italian; axe on each new state.
 */
import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import { setViewport } from "@web/test-runner-commands";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import type { BookingCreatedDetail } from "../../widget/events.js";
import { addDays, formatDate, formatTime, minusMinutes } from "../../widget/format.js";
import type { DateGrid } from "../../widget/parts/date-grid.js";
import {
  bookAsGuest,
  bookAsStaff,
  freeTime,
  itAnyTime,
  ownAddress,
  profile,
  restaurant,
  slots,
  staff,
  until,
  useRestaurant,
} from "./env.js";
import { allInShadow, bookPageWithTimes, chooseDate, deepText, inShadow, settled } from "./helpers.js";

type Tables = Record<string, { id: number }>;
let tables: Tables;
/** A light accent: white text on it would read at about 1.7:1. */
const LIGHT = "#f5c211";

before(async () => {
  const r = (await useRestaurant({ accent_color: LIGHT })) as unknown as { tables: Tables };
  tables = r.tables;
});

const mount = (o: { page?: string; locale?: string; extra?: string } = {}) => {
  const host = document.createElement("div");
  host.innerHTML = `<booking-engine api="${ownAddress()}" property="${restaurant().publicKey}" page="${o.page ?? "book"}" locale="${o.locale ?? "en"}" ${o.extra ?? ""}></booking-engine>`;
  return fixture<HTMLDivElement>(html`${host}`).then(
    (d) => d.querySelector("booking-engine") as BookingEngine,
  );
};

const times = (page: HTMLElement, name = "time") =>
  allInShadow<HTMLInputElement>(page, `input[name="${name}"]`);
const buttonNamed = (root: HTMLElement, name: RegExp) =>
  allInShadow<HTMLButtonElement>(root, "button").find((b) => name.test(b.textContent!));
const heading = (page: HTMLElement) => page.shadowRoot!.querySelector("h2")?.textContent?.trim();

async function choosePax(page: HTMLElement, pax: number) {
  const select = await inShadow<HTMLSelectElement>(page, "#pax");
  select.value = String(pax);
  select.dispatchEvent(new Event("change"));
  await settled(page);
}

async function fill(page: HTMLElement, guest: Record<string, string>) {
  for (const [name, value] of Object.entries(guest)) {
    const input = await inShadow<HTMLInputElement>(page, `#${name}`);
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  }
}

/** The first free time of `date` chosen, then Continue: the details step. */
async function toDetails(page: HTMLElement, date?: string) {
  if (date) await chooseDate(page, date);
  const time = await until(() => times(page)[0]);
  time.click();
  await until(() => time.checked);
  buttonNamed(page, /Continue|Continua/)!.click();
  await inShadow(page, "form");
  return time.value;
}

/** A day of the booking window, k days after its first, whatever today is. */
const day = async (k: number) => addDays((await profile()).first_date, k);

afterEach(() => setViewport({ width: 800, height: 600 }));

describe("where the restaurant is (profile contact fields)", () => {
  itAnyTime(
    "the welcome page shows the address, a map link and the phone, in English and Italian",
    async () => {
      for (const [locale, map] of [
        ["en", "Map and directions"],
        ["it", "Mappa e indicazioni"],
      ] as const) {
        const el = await mount({ page: "welcome", locale });
        const welcome = await inShadow(el, "be-welcome-page");
        const address = await inShadow(welcome, 'address[part="contact"]');
        expect(address.textContent).to.include("Via Roma 1");
        expect(address.textContent).to.include("20121 Milano");
        const link = await inShadow<HTMLAnchorElement>(welcome, 'a[part="map-link"]');
        expect(link.textContent!.trim()).to.equal(map);
        expect(link.href).to.include("mlat=45.4642&mlon=9.19");
        expect((await inShadow<HTMLAnchorElement>(welcome, 'a[part="phone"]')).href).to.equal(
          "tel:+39021234567",
        );
        await expect(el).to.be.accessible();
        el.remove();
      }
    },
  );

  itAnyTime("the booking page gives the number to call for a larger party", async () => {
    const el = await mount({ locale: "it" });
    const page = await bookPageWithTimes(el);
    const hint = await inShadow(page, "#pax-hint");
    expect(hint.textContent).to.match(/Fino a 8 persone online.*Chiama il ristorante/s);
    expect(hint.querySelector<HTMLAnchorElement>('a[part="phone"]')!.href).to.equal("tel:+39021234567");
  });
});

describe("the restaurant's texts per language (settings.translations)", () => {
  itAnyTime(
    "shows the welcome message and the service names in the page's language, the defaults in others",
    async () => {
      const cena = restaurant().services.find((s) => s.name === "Cena")!;
      const put = await staff(`properties/${restaurant().propertyId}`, {
        method: "PUT",
        body: {
          settings: {
            translations: {
              it: {
                welcome_message: "Benvenuti in trattoria!",
                services: { [cena.id]: { name: "Cena al forno" } },
              },
            },
          },
        },
      });
      expect(put.status).to.equal(200);
      const it_ = await mount({ page: "welcome", locale: "it" });
      await until(() => deepText(it_).includes("Benvenuti in trattoria!"));
      it_.remove();
      const en = await mount({ page: "welcome", locale: "en" });
      await until(() => deepText(en).includes("Fresh pasta every day"));
      en.remove();
      const book = await mount({ locale: "it", extra: `service="${cena.id}"` });
      const page = await bookPageWithTimes(book);
      await until(() => deepText(page).includes("Cena al forno"));
    },
  );
});

describe("the cancellation policy before confirming", () => {
  it("states the deadline (start minus the notice) in the restaurant's time (the confirmation repeats it: see the manage link's tests)", async () => {
    for (const locale of ["en", "it"] as const) {
      const el = await mount({ locale });
      const page = await bookPageWithTimes(el);
      const date = await day(8);
      const hour = await toDetails(page, date);
      const until_ = minusMinutes(date, hour, 120);
      const policy = await inShadow(page, "#policy");
      const when = `${formatDate(until_.date, locale)}, ${formatTime(until_.hour, locale)}`;
      expect(policy.textContent!.replace(/\s+/g, " ").trim()).to.equal(
        locale === "en"
          ? `You can cancel online until ${when} (time in Milano).`
          : `Puoi cancellare online fino a ${when} (ora di Milano).`,
      );
      await expect(el).to.be.accessible();
      el.remove();
      // A new visit: no draft to come back to.
      sessionStorage.clear();
    }
  });
});

describe("next available, and the date grid per party size", () => {
  it("a day with no time offers the three nearest dates with their first free time, one tap from the details", async () => {
    const closed = await day(4);
    expect(
      (await staff("closures", { method: "POST", body: { start_date: closed, reason: "private party" } }))
        .status,
    ).to.equal(201);
    await setViewport({ width: 320, height: 640 });
    const el = await mount();
    const page = await bookPageWithTimes(el);
    await chooseDate(page, closed);
    const next = await inShadow(page, '[part="next-available"]');
    const options = await until(() =>
      next.querySelectorAll("button").length
        ? [...next.querySelectorAll<HTMLButtonElement>("button")]
        : undefined,
    );
    expect(options.length).to.equal(3);
    const later = (await slots(addDays(closed, 1), 2, 3)).filter((d) =>
      d.services.some((s) => s.times.length),
    );
    const first = later[0]!;
    const firstTime = first.services.find((s) => s.times.length)!.times[0]!;
    expect(options[0]!.textContent).to.include(formatDate(first.date, "en"));
    expect(options[0]!.textContent).to.include(formatTime(firstTime, "en"));
    await expect(el).to.be.accessible();
    options[0]!.click();
    await until(() => heading(page) === "Your details");
    const summary = await inShadow(page, '[part="summary"]');
    expect(summary.textContent).to.include(formatDate(first.date, "en"));
    expect(summary.textContent).to.include(formatTime(firstTime, "en"));
  });

  it("a new party size marks the date grid again", async () => {
    const date = await day(2);
    // Every table that seats 8 closed that day: a party of 2 still finds one.
    const body = { start_date: date, table_ids: [tables.S5!.id, tables["S3+S4"]!.id], reason: "refit" };
    expect((await staff("closures", { method: "POST", body })).status).to.equal(201);
    const el = await mount();
    const page = await bookPageWithTimes(el);
    const grid = await inShadow<DateGrid>(page, "be-date-grid");
    expect(grid.full.has(date)).to.equal(false);
    await choosePax(page, 8);
    await until(() => grid.full.has(date));
    await choosePax(page, 2);
    await until(() => !grid.full.has(date));
  });
});

describe("a full preferred service", () => {
  it("says so, leads with the service that has room, and keeps its waiting list second", async () => {
    const date = await day(6);
    const [pranzo, cena] = [
      restaurant().services.find((s) => s.name === "Pranzo")!,
      restaurant().services.find((s) => s.name === "Cena")!,
    ];
    // Only the group seats 8: held at 20:00 and 22:00, every dinner time is full for 8.
    await bookAsStaff({ date, hour: "20:00:00", pax: 8, service_id: cena.id });
    await bookAsStaff({ date, hour: "22:00:00", pax: 8, service_id: cena.id });
    const dinner = (await slots(date, 8))[0]!.services.find((s) => s.service_id === cena.id)!;
    expect(dinner.times).to.deep.equal([]);
    expect(dinner.full_times.length).to.be.greaterThan(0);
    const el = await mount({ extra: `service="${cena.id}" pax="8"` });
    const page = await bookPageWithTimes(el);
    await chooseDate(page, date);
    const note = await inShadow(page, "#service-full");
    expect(note.textContent).to.match(/Cena is full for 8 on this day\. Pranzo still has free tables\./);
    expect(times(page, "service").find((r) => r.checked)!.value).to.equal(String(pranzo.id));
    expect(times(page).length).to.be.greaterThan(0);
    await expect(el).to.be.accessible();
    buttonNamed(page, /Join the waiting list for Cena/)!.click();
    await until(() => times(page, "service").find((r) => r.checked)?.value === String(cena.id));
    const waiting = await inShadow<HTMLDetailsElement>(page, 'details[part="waiting-list"]');
    expect(waiting.open).to.equal(true);
  });
});

describe("history and reload", () => {
  it("Back and Forward move between the steps; on a hosted page the address carries the step", async () => {
    const start = location.href;
    try {
      const el = await mount({ extra: "hosted" });
      const page = await bookPageWithTimes(el);
      const hour = await toDetails(page, await day(9));
      expect(new URL(location.href).searchParams.get("step")).to.equal("details");
      history.back();
      await until(() => heading(page) === "Book a table");
      expect(new URL(location.href).searchParams.get("step")).to.equal(null);
      await until(() => times(page).find((t) => t.checked)?.value === hour);
      history.forward();
      await until(() => heading(page) === "Your details");
    } finally {
      history.replaceState(null, "", start);
    }
  });

  it("the entry the page opened on says its page and step, the host's own state kept", async () => {
    const start = location.href;
    try {
      history.replaceState({ host: "kept" }, "");
      const el = await mount();
      await bookPageWithTimes(el);
      await until(
        () => (history.state as { bookingEngineStep?: string } | null)?.bookingEngineStep === "choose",
      );
      expect(history.state).to.deep.equal({
        host: "kept",
        bookingEnginePage: "book",
        bookingEngineStep: "choose",
      });
    } finally {
      history.replaceState(null, "", start);
    }
  });

  it("a reload keeps what was typed, and never the manage token", async () => {
    let el = await mount({ locale: "it" });
    let page = await bookPageWithTimes(el);
    const hour = await toDetails(page, await day(10));
    await fill(page, { first_name: "Rita", last_name: "Levi", email: "rita@example.com" });
    el.remove();
    // The same page loaded again: the details step, as the guest left it.
    el = await mount({ locale: "it" });
    page = await inShadow(el, "be-book-page");
    await until(() => heading(page) === "I tuoi dati");
    expect((await inShadow<HTMLInputElement>(page, "#first_name")).value).to.equal("Rita");
    expect((await inShadow(page, '[part="summary"]')).textContent).to.include(formatTime(hour, "it"));
    const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const { detail } = await created;
    const token = new URL(detail.manage_url).pathname.split("/").pop()!;
    await inShadow(page, 'a[part="manage-link"]');
    const stored = JSON.stringify({ ...sessionStorage });
    expect(stored).not.to.include(token);
    expect(stored).not.to.include("Rita");
  });
});

describe("field errors", () => {
  itAnyTime("puts the server's refusal at its field, in the widget's language", async () => {
    const el = await mount({ locale: "it" });
    const page = await bookPageWithTimes(el);
    await toDetails(page, await day(11));
    // The browser takes "rita@levi" as an email; the server wants a domain with a dot.
    await fill(page, { first_name: "Rita", last_name: "Levi", email: "rita@levi" });
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const error = await inShadow(page, "#email-error");
    expect(error.textContent).to.equal("Inserisci un indirizzo email valido, come nome@esempio.it.");
    const email = await inShadow<HTMLInputElement>(page, "#email");
    expect(email.getAttribute("aria-invalid")).to.equal("true");
    expect(email.getAttribute("aria-describedby")).to.equal("email-error");
    await until(() => page.shadowRoot!.activeElement === email);
    expect(deepText(page)).not.to.match(/invalid field/i);
    await expect(el).to.be.accessible();
    await fill(page, { email: "rita@levi.example" });
    await until(() => !page.shadowRoot!.querySelector("#email-error"));
  });
});

describe("text on the accent colour", () => {
  /** The Continue button's text colour (a time chosen), once it is `expected` (the choice is made after the first render). */
  const onAccent = async (el: BookingEngine, expected: string) => {
    const page = await bookPageWithTimes(el);
    const time = times(page)[0]!;
    time.click();
    await until(() => time.checked && buttonNamed(page, /Continue/));
    const button = buttonNamed(page, /Continue/)!;
    await until(() => getComputedStyle(button).color === expected, 5_000);
    return getComputedStyle(button).color;
  };

  itAnyTime("is black on a light accent, white on a dark one, and --be-on-accent wins", async () => {
    expect(await onAccent(await mount(), "rgb(0, 0, 0)")).to.equal("rgb(0, 0, 0)");
    expect(
      await onAccent(await mount({ extra: 'style="--be-accent: #1d5c8a"' }), "rgb(255, 255, 255)"),
    ).to.equal("rgb(255, 255, 255)");
    expect(
      await onAccent(await mount({ extra: 'style="--be-on-accent: rgb(1, 2, 3)"' }), "rgb(1, 2, 3)"),
    ).to.equal("rgb(1, 2, 3)");
  });
});

describe("times at 320 px", () => {
  itAnyTime("keep one width, and the action bar stays on screen when a time is chosen", async () => {
    await setViewport({ width: 320, height: 640 });
    const el = await mount();
    const page = await bookPageWithTimes(el);
    const chips = allInShadow(page, 'input[name="time"] + span');
    const widths = new Set(chips.map((c) => c.getBoundingClientRect().width));
    expect(widths.size).to.equal(1);
    const first = times(page)[0]!;
    first.click();
    await until(() => first.checked);
    await (page as unknown as { updateComplete: Promise<boolean> }).updateComplete;
    expect(chips[0]!.getBoundingClientRect().width).to.equal([...widths][0]);
    const bar = await inShadow(page, '[part="action-bar"]');
    expect(getComputedStyle(bar).position).to.equal("sticky");
    expect(bar.getBoundingClientRect().bottom).to.be.at.most(innerHeight + 1);
    expect(bar.textContent).to.include(formatTime(first.value, "en"));
    expect(document.documentElement.scrollWidth).to.be.at.most(320);
    await expect(el).to.be.accessible();
  });
});

describe("after cancelling, and the embedded manage link", () => {
  itAnyTime("Book again goes back to the booking page with the party size kept", async () => {
    const slot = await freeTime(3, 9);
    const booked = await bookAsGuest({ ...slot, pax: 3 }, "Again");
    expect(booked.status).to.equal(201);
    const el = await mount({
      page: "manage",
      locale: "it",
      extra: `token="${booked.body.data![0]!.manage_token}"`,
    });
    const manage = await inShadow(el, "be-manage-page");
    (await inShadow<HTMLButtonElement>(manage, "#cancel")).click();
    (await inShadow<HTMLButtonElement>(manage, "button.danger")).click();
    const again = await inShadow<HTMLButtonElement>(manage, "#again");
    expect(again.textContent!.trim()).to.equal("Prenota di nuovo");
    expect(deepText(manage)).to.include("Via Roma 1");
    await expect(el).to.be.accessible();
    again.click();
    const page = await bookPageWithTimes(el);
    expect((await inShadow<HTMLSelectElement>(page, "#pax")).value).to.equal("3");
  });

  itAnyTime("with booking-manage, the manage link opens the reservation in the same element", async () => {
    const start = location.href;
    try {
      const el = await mount({ extra: "booking-manage" });
      const page = await bookPageWithTimes(el);
      await toDetails(page, await day(12));
      await fill(page, { first_name: "Here", last_name: "Guest", email: "here@example.com" });
      const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
      (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
      const { detail } = await created;
      const token = new URL(detail.manage_url).pathname.split("/").pop()!;
      const link = await inShadow<HTMLAnchorElement>(page, 'a[part="manage-link"]');
      expect(link.getAttribute("href")).to.equal(`#booking-manage=${token}`);
      expect(link.target).to.equal("");
      link.click();
      const manage = await inShadow(el, "be-manage-page");
      await until(() => deepText(manage).includes("Here Guest"));
      expect(el.page).to.equal("manage");
    } finally {
      history.replaceState(null, "", start);
    }
  });

  itAnyTime("a #booking-manage hash in the host's address says the same as the attribute", async () => {
    const start = location.href;
    try {
      history.replaceState(null, "", "#booking-manage");
      const slot = await freeTime(2, 11);
      const booked = await bookAsGuest({ ...slot, pax: 2 }, "Hash");
      history.replaceState(null, "", `#booking-manage=${booked.body.data![0]!.manage_token}`);
      const el = await mount();
      const manage = await inShadow(el, "be-manage-page");
      await until(() => deepText(manage).includes("Hash Guest"));
      expect(el.page).to.equal("manage");
    } finally {
      history.replaceState(null, "", start);
    }
  });

  itAnyTime(
    "without it, the link opens the hosted manage page in a new tab, in the host's accent",
    async () => {
      const el = await mount({ extra: 'style="--be-accent: #225522"' });
      const page = await bookPageWithTimes(el);
      await toDetails(page, await day(13));
      await fill(page, { first_name: "Away", last_name: "Guest", email: "away@example.com" });
      const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
      (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
      const { detail } = await created;
      const link = await inShadow<HTMLAnchorElement>(page, 'a[part="manage-link"]');
      // The confirmation repeats the policy and says where the restaurant is.
      expect(deepText(page)).to.match(/You can cancel online until .* \(time in Milano\)/);
      expect(deepText(page)).to.include("Via Roma 1");
      await expect(el).to.be.accessible();
      expect(link.target).to.equal("_blank");
      expect(link.rel).to.equal("noopener");
      const url = new URL(link.href);
      expect(url.pathname).to.equal(new URL(detail.manage_url).pathname);
      expect(url.searchParams.get("accent")).to.equal("#225522");
    },
  );
});
