import { expect } from "@open-wc/testing";
import * as de from "../../widget/locales/de.js";
import * as es from "../../widget/locales/es.js";
import * as fr from "../../widget/locales/fr.js";
import * as it_ from "../../widget/locales/it.js";

describe("the locale tables (lit-localize build from widget/xliff)", () => {
  it("translate the same messages in Italian, French, German and Spanish", () => {
    const keys = (t: Record<string, unknown>) => Object.keys(t).sort();
    const italian = keys(it_.templates);
    expect(italian.length).to.be.greaterThan(70);
    for (const [name, table] of Object.entries({ fr, de, es })) expect(keys(table.templates), name).to.deep.equal(italian);
  });
});
