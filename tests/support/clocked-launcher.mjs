// web-test-runner's Chromium for the component tests: a launcher per clock the files run at (the
// real clock, each fixed instant), all of them pages of one Chromium. A test file holds the shared
// Worker at its launcher's clock (tests/support/shared-worker.mjs) from the opening of its page
// to its end; its browser context stands in the launcher's zone, its clock fixed at the instant.
import { PlaywrightLauncher } from "@web/test-runner-playwright";
import { CHROMIUM, CHROMIUM_ARGS } from "../../scripts/setup.mjs";
import { guestAt } from "./guest.mjs";
import { holdWorker } from "./shared-worker.mjs";

/** The one Chromium of every launcher, once the first page needs it. */
let chromium;
/**
 * The hold of the file whose page was opened last (a file that moves the Worker's clock runs
 * alone, web-test-runner.config.mjs sees to it), and the Worker's origin.
 */
export const open = { hold: undefined, worker: undefined };
/** The files whose page was opened so far. */
let files = 0;

export class ClockedLauncher extends PlaywrightLauncher {
  /**
   * `run`: { clock: an ISO instant or null (the real clock), zone: the browser's time zone };
   * `concurrency`: how many of its files' pages are open at once; `alone`: each file holds the
   * Worker alone (the files that move its clock), so a move never waits on another file.
   */
  constructor(run, concurrency = 1, alone = false) {
    const context = async ({ browser }) => {
      const ctx = await browser.newContext({ timezoneId: run.zone, locale: "en-US" });
      // At a fixed instant the browser's clock shows it too (its timers keep running).
      if (run.clock) await ctx.clock.setFixedTime(new Date(run.clock));
      // Each file's page a guest of its own address (172.16.0.0/12) at the Worker.
      files++;
      await guestAt(
        ctx,
        open.worker,
        `172.${16 + ((files >> 16) & 15)}.${(files >> 8) & 255}.${files & 255}`,
      );
      return ctx;
    };
    const launch = { executablePath: CHROMIUM, args: CHROMIUM_ARGS };
    super("chromium", launch, context, ({ context: ctx }) => ctx.newPage(), false, concurrency);
    this.run = run;
    this.alone = alone;
    this.holds = new Map();
  }

  getOrStartBrowser() {
    chromium ??= super.getOrStartBrowser();
    return chromium;
  }

  async startSession(sessionId, url) {
    const hold = await holdWorker({ clock: this.run.clock, alone: this.alone });
    this.holds.set(sessionId, hold);
    open.hold = hold;
    try {
      await super.startSession(sessionId, url);
    } catch (err) {
      await this.release(sessionId);
      throw err;
    }
  }

  async stopSession(sessionId) {
    try {
      return await super.stopSession(sessionId);
    } finally {
      await this.release(sessionId);
    }
  }

  async release(sessionId) {
    const hold = this.holds.get(sessionId);
    this.holds.delete(sessionId);
    if (open.hold === hold) open.hold = undefined;
    await hold?.release();
  }

  /** Once its last file is done: its holds go, the Chromium stays for the next clock's files. */
  async stop() {
    for (const id of [...this.holds.keys()]) await this.release(id);
  }
}

/** Closes the one Chromium, after the last file. */
export async function closeChromium() {
  await (await chromium)?.close();
}
