import { expect } from "@open-wc/testing";
import { now, setClock } from "../../widget/clock.js";
import { env, profile, useRestaurant } from "./env.js";

const romeDate = (ms: number) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "Europe/Rome",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(ms);

before(() => useRestaurant({ min_notice: 60 }));

describe("the run's clock", () => {
  it("is the Worker's: the first bookable date is Rome's date an hour (the notice) from now", async () => {
    const before = Date.now();
    const p = await profile();
    const after = Date.now();
    if (env.clock) {
      // At a fixed instant the Worker and the browser stand still at it.
      expect(before).to.equal(Date.parse(env.clock));
      expect(p.first_date).to.equal(romeDate(Date.parse(env.clock) + 3_600_000));
    } else {
      expect([romeDate(before + 3_600_000), romeDate(after + 3_600_000)]).to.include(p.first_date);
    }
  });

  it("is injectable in the widget", () => {
    setClock(() => 42);
    try {
      expect(now()).to.equal(42);
    } finally {
      setClock();
    }
    expect(Math.abs(now() - Date.now())).to.be.lessThan(1000);
  });
});
