import { expect } from "@open-wc/testing";
import * as de from "../../widget/console/locales/de.js";
import * as es from "../../widget/console/locales/es.js";
import * as fr from "../../widget/console/locales/fr.js";
import * as it_ from "../../widget/console/locales/it.js";
import { setLocale } from "../../widget/console/localization.js";
import { openConsole, settled, signIn, useConsoleRestaurant, viewOf } from "./console-env.js";
import { until } from "./env.js";

describe("the console's locale tables (lit-localize build from widget/console/xliff)", () => {
  it("translate exactly the messages the console's code asks for, in Italian, French, German and Spanish", async () => {
    const { ids, calls, named } = (await (await fetch("/fixture/msg-ids?app=console")).json()) as {
      ids: string[];
      calls: number;
      named: number;
    };
    expect(ids.length).to.be.greaterThan(100);
    expect(named).to.equal(calls);
    for (const [name, table] of Object.entries({ it: it_, fr, de, es })) {
      const keys = Object.keys(table.templates).sort();
      expect(
        ids.filter((id) => !keys.includes(id)),
        `${name}: untranslated`,
      ).to.deep.equal([]);
      expect(
        keys.filter((id) => !ids.includes(id)),
        `${name}: unused`,
      ).to.deep.equal([]);
    }
  });
});

describe("<booking-console locale>", () => {
  before(() => useConsoleRestaurant());

  it("speaks the language it is given, on the sign-in too", async () => {
    const el = await openConsole("/console/sign-in");
    el.setAttribute("locale", "it");
    const view = await viewOf(el, "bc-sign-in");
    const h1 = () => view.shadowRoot!.querySelector("h1")!.textContent;
    for (let i = 0; i < 100 && h1() !== "Accedi al tuo ristorante"; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(h1()).to.equal("Accedi al tuo ristorante");
    await expect(await settled(el)).to.be.accessible();
    el.setAttribute("locale", "en");
  });

  it("has a language chooser of its own, kept by this browser, and defaulting to the restaurant's", async () => {
    localStorage.removeItem("booking-console.locale");
    await signIn();
    const el = await openConsole("/console/day");
    await viewOf(el, "bc-day-view");
    const nav = () => el.shadowRoot!.querySelector("nav")!.textContent!;
    const chooser = el.shadowRoot!.querySelector<HTMLSelectElement>("header select")!;
    // the restaurant speaks English: so does the console until someone chooses
    expect(chooser.value).to.equal("en");
    expect(nav()).to.match(/Day/);
    chooser.value = "de";
    chooser.dispatchEvent(new Event("change"));
    await until(() => /Tag/.test(nav()));
    await expect(await settled(el)).to.be.accessible();
    expect(localStorage.getItem("booking-console.locale")).to.equal("de");
    el.remove();
    // the next visit in this browser opens in German
    const again = await openConsole("/console/day");
    await viewOf(again, "bc-day-view");
    await until(() => /Tag/.test(again.shadowRoot!.querySelector("nav")!.textContent!));
    localStorage.removeItem("booking-console.locale");
    await setLocale("en");
  });
});
