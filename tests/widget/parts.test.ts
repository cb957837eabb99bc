import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import { definePage } from "../../widget/index.js";
import type { PhotoCarousel } from "../../widget/parts/carousel.js";
import { textOnAccent } from "../../widget/parts/contrast.js";
import type { DateGrid } from "../../widget/parts/date-grid.js";
import { inShadow } from "./helpers.js";

// The parts are defined with their pages, which load on demand.
before(() => Promise.all([definePage("book"), definePage("services")]));

const focused = (el: Element) => el.shadowRoot!.activeElement as HTMLElement | null;

describe("<be-date-grid>", () => {
  const mount = () =>
    fixture<DateGrid>(
      html`<be-date-grid value="2026-03-10" min="2026-03-05" max="2026-05-20" locale="en" label="Date"></be-date-grid>`,
    );

  it("is an accessible grid with one tab stop on the chosen day", async () => {
    const el = await mount();
    await expect(el).to.be.accessible();
    const grid = await inShadow(el, '[role="grid"]');
    expect(grid.getAttribute("aria-label")).to.equal("Date, March 2026");
    const stops = el.shadowRoot!.querySelectorAll('td[tabindex="0"]');
    expect(stops.length).to.equal(1);
    expect((stops[0] as HTMLElement).dataset.date).to.equal("2026-03-10");
    expect(stops[0]!.getAttribute("aria-selected")).to.equal("true");
    expect(
      el.shadowRoot!.querySelector('td[data-date="2026-03-04"]')!.getAttribute("aria-disabled"),
    ).to.equal("true");
  });

  it("moves by day, week and month with the keyboard and picks with Enter", async () => {
    const el = await mount();
    (await inShadow(el, 'td[tabindex="0"]')).focus();
    await sendKeys({ press: "ArrowRight" });
    expect(focused(el)?.dataset.date).to.equal("2026-03-11");
    await sendKeys({ press: "ArrowDown" });
    expect(focused(el)?.dataset.date).to.equal("2026-03-18");
    await sendKeys({ press: "PageDown" });
    expect(focused(el)?.dataset.date).to.equal("2026-04-18");
    expect(el.shadowRoot!.querySelector(".month")!.textContent).to.equal("April 2026");
    await sendKeys({ press: "ArrowUp" });
    const change = oneEvent(el, "change");
    await sendKeys({ press: "Enter" });
    await change;
    expect(el.value).to.equal("2026-04-11");
  });

  it("marks and announces the days known to have no free table", async () => {
    const el = await fixture<DateGrid>(
      html`<be-date-grid value="2026-03-10" min="2026-03-05" max="2026-05-20" locale="en" .full=${new Set(["2026-03-12"])}></be-date-grid>`,
    );
    const full = await inShadow(el, 'td[data-date="2026-03-12"]');
    expect(full.getAttribute("aria-label")).to.equal("Thursday, March 12, 2026, no free tables");
    expect(full.getAttribute("aria-disabled")).to.equal(null);
    expect(el.shadowRoot!.querySelector('td[data-date="2026-03-13"]')!.getAttribute("aria-label")).to.equal(
      "Friday, March 13, 2026",
    );
  });

  it("keeps past days quiet, marks the days not open yet apart and full days clearly, with a legend", async () => {
    const el = await fixture<DateGrid>(
      html`<be-date-grid value="2026-03-10" min="2026-03-05" max="2026-03-20" locale="en" .full=${new Set(["2026-03-12"])}></be-date-grid>`,
    );
    const cell = (d: string) => el.shadowRoot!.querySelector<HTMLElement>(`td[data-date="${d}"]`)!;
    const look = (d: string) => getComputedStyle(cell(d).querySelector(".day")!);
    await inShadow(el, 'td[data-date="2026-03-25"]');
    expect([
      cell("2026-03-04").className,
      cell("2026-03-25").className,
      cell("2026-03-12").className,
      cell("2026-03-13").className,
    ]).to.deep.equal(["past", "later", "full", ""]);
    expect(cell("2026-03-25").getAttribute("aria-label")).to.equal(
      "Wednesday, March 25, 2026, not open for booking yet",
    );
    expect(cell("2026-03-04").getAttribute("aria-label")).to.equal("Wednesday, March 4, 2026");
    expect(Number(look("2026-03-04").opacity)).to.be.below(1);
    expect(look("2026-03-25").borderTopStyle).to.equal("dotted");
    expect(look("2026-03-12").textDecorationLine).to.equal("line-through");
    expect(look("2026-03-04").textDecorationLine).to.equal("none");
    const legend = [...el.shadowRoot!.querySelectorAll(".legend li")].map((li) => [
      li.className,
      li.textContent!.trim(),
    ]);
    expect(legend).to.deep.equal([
      ["full", "no free tables"],
      ["later", "not open for booking yet"],
    ]);
    await expect(el).to.be.accessible();
  });

  it("does not go before the first bookable date", async () => {
    const el = await mount();
    (await inShadow(el, 'td[tabindex="0"]')).focus();
    for (let i = 0; i < 8; i++) await sendKeys({ press: "ArrowLeft" });
    expect(focused(el)?.dataset.date).to.equal("2026-03-05");
  });
});

describe("<be-carousel>", () => {
  const pixel = (colour: string) =>
    `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"><rect width="16" height="9" fill="${colour}"/></svg>`)}`;
  const slides = ["red", "green", "blue"].map((c) => ({ src: pixel(c), alt: `A ${c} room` }));

  it("is an accessible carousel whose buttons move between labelled slides", async () => {
    const el = await fixture<PhotoCarousel>(
      html`<be-carousel .slides=${slides} label="Photos"></be-carousel>`,
    );
    await expect(el).to.be.accessible();
    const visible = () => el.shadowRoot!.querySelector('[role="group"][aria-hidden="false"]')!;
    expect(visible().getAttribute("aria-label")).to.equal("1 of 3");
    const [prev, next] = el.shadowRoot!.querySelectorAll("button");
    next!.click();
    await el.updateComplete;
    expect(visible().getAttribute("aria-label")).to.equal("2 of 3");
    expect(visible().querySelector("img")!.alt).to.equal("A green room");
    prev!.click();
    prev!.click();
    await el.updateComplete;
    expect(visible().getAttribute("aria-label")).to.equal("3 of 3");
  });
});

describe("theming and motion", () => {
  it("writes black on a light accent and white on a dark one, and keeps a light accent from being text on white", () => {
    expect(textOnAccent([245, 194, 17])).to.deep.equal({ on: "#000", light: true });
    expect(textOnAccent([29, 92, 138])).to.deep.equal({ on: "#fff", light: false });
  });

  it("lets the host page style the parts and the accent through --be-accent", async () => {
    const { env, useRestaurant } = await import("./env.js");
    const { publicKey } = await useRestaurant();
    const style = document.createElement("style");
    style.textContent = `booking-engine.themed { --be-accent: rgb(0, 128, 0); } booking-engine.themed::part(selected-day) { outline: 4px dotted rgb(255, 0, 0); }`;
    document.head.append(style);
    const el = await fixture(
      html`<booking-engine class="themed" api=${env.api} property=${publicKey}></booking-engine>`,
    );
    const page = await inShadow(el, "be-book-page");
    const grid = await inShadow(page, "be-date-grid");
    const day = await inShadow(grid, 'td[aria-selected="true"]');
    expect(getComputedStyle(day).outlineStyle).to.equal("dotted");
    expect(getComputedStyle(day.querySelector(".day")!).backgroundColor).to.equal("rgb(0, 128, 0)");
    style.remove();
  });

  it("does not slide the carousel when the guest prefers reduced motion", async () => {
    const { emulateMedia } = await import("@web/test-runner-commands");
    const slides = [1, 2].map((i) => ({
      src: `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><text>${i}</text></svg>`)}`,
      alt: `Photo ${i}`,
    }));
    await emulateMedia({ reducedMotion: "reduce" });
    const still = await fixture<PhotoCarousel>(
      html`<be-carousel .slides=${slides} label="Photos"></be-carousel>`,
    );
    expect(getComputedStyle(still.shadowRoot!.querySelector(".track")!).transitionDuration).to.equal("0s");
    await emulateMedia({ reducedMotion: "no-preference" });
    const moving = await fixture<PhotoCarousel>(
      html`<be-carousel .slides=${slides} label="Photos"></be-carousel>`,
    );
    expect(getComputedStyle(moving.shadowRoot!.querySelector(".track")!).transitionDuration).to.equal(
      "0.35s",
    );
  });
});
