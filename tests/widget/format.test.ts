import { expect } from "@open-wc/testing";
import {
  addDays,
  addMonths,
  firstDayOfWeek,
  formatDate,
  formatTime,
  isoWeekday,
} from "../../widget/format.js";
import { env } from "./env.js";

describe("wall-clock dates and times (widget/format.ts)", () => {
  it("formats the restaurant's HH:MM:SS as written, whatever the browser's zone", () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).to.equal(env.browserZone);
    expect(formatTime("19:30:00", "it")).to.equal("19:30");
    expect(formatTime("00:15:00", "de")).to.equal("0:15");
    expect(formatTime("19:30:00", "en")).to.match(/^7:30\sPM$/);
  });

  it("formats a date as that calendar day, never the day before or after", () => {
    expect(formatDate("2026-03-29", "en")).to.equal("Sunday, March 29, 2026");
    expect(formatDate("2026-01-01", "it")).to.equal("giovedì 1 gennaio 2026");
    expect(isoWeekday("2026-03-29")).to.equal(7);
  });

  it("steps over month ends, leap days and daylight-saving changes", () => {
    expect(addDays("2026-03-28", 2)).to.equal("2026-03-30");
    expect(addDays("2028-02-28", 1)).to.equal("2028-02-29");
    expect(addMonths("2026-01-31", 1)).to.equal("2026-02-28");
    expect(addMonths("2026-12-15", 1)).to.equal("2027-01-15");
  });

  it("starts the week on Monday in Europe's languages", () => {
    for (const l of ["it", "fr", "de", "es"]) expect(firstDayOfWeek(l), l).to.equal(1);
  });
});
