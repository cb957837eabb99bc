import { expect } from "@open-wc/testing";
import * as de from "../../widget/locales/de.js";
import * as es from "../../widget/locales/es.js";
import * as fr from "../../widget/locales/fr.js";
import * as it_ from "../../widget/locales/it.js";

describe("the locale tables (lit-localize build from widget/xliff)", () => {
  it("translate exactly the messages the widget's code asks for, in Italian, French, German and Spanish", async () => {
    // The ids of every msg() call in widget/**/*.ts, read by web-test-runner.config.mjs.
    const { ids, calls, named } = (await (await fetch("/fixture/msg-ids")).json()) as {
      ids: string[];
      calls: number;
      named: number;
    };
    expect(ids.length).to.be.greaterThan(70);
    // Every msg() call names its id, so none is missed by the list above.
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
