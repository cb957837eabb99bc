/**
 * The booking page's first screen, prepared while the restaurant's profile loads: each piece in a
 * task of its own, so that the task drawing the page does not do them all at once (a phone's main
 * thread then answers a tap in between). The first use of sessionStorage (where the draft waits)
 * is a synchronous round trip to the browser; the first date formatter of a locale loads the
 * browser's data for it. Both cost tens of milliseconds on a phone.
 */
import { firstDayOfWeek, formatDate, formatMonth, formatTime, weekdayName } from "./format.js";

/** A task of its own: what follows runs after the browser has had the main thread back. */
export const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/** Runs `step` in a task of its own. */
async function inTask(step: () => unknown) {
  await nextTask();
  try {
    step();
  } catch {
    // storage off (private modes, sandboxed frames): the page copes when it reads
  }
}

/**
 * What the booking page's first screen reads and formats: its draft, then the month, weekdays,
 * days and times (the first formatter of a locale is the costly one, the others take little).
 */
export async function prepareBookPage(locale: string): Promise<void> {
  await inTask(() => sessionStorage.length);
  await inTask(() => {
    formatTime("12:00", locale);
    formatMonth("2024-01-01", locale);
    weekdayName(1, locale, "short");
    weekdayName(1, locale);
    formatDate("2024-01-01", locale);
    firstDayOfWeek(locale);
  });
}
