import { expect } from "@open-wc/testing";
import * as de from "../../widget/console/locales/de.js";
import * as es from "../../widget/console/locales/es.js";
import * as fr from "../../widget/console/locales/fr.js";
import * as it_ from "../../widget/console/locales/it.js";
import { openConsole, settled, useConsoleRestaurant, viewOf } from "./console-env.js";

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
});
