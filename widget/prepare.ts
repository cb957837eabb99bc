/**
 * The booking page's first screen, prepared while the restaurant's profile loads: each piece in a
 * task of its own, so that the task drawing the page does not do them all at once (a phone's main
 * thread then answers a tap in between). The first use of sessionStorage (where the draft waits)
 * is a synchronous round trip to the browser; the first date formatter of a page loads the
 * browser's date data. Both cost tens of milliseconds on a phone.
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

/** How a warm-up ended: its worker answered, could not start, or took longer than the page waits. */
export type Warmed = "worker" | "unavailable" | "late";

/**
 * Has a worker build a date formatter, off the main thread: the data it loads is the browser's,
 * shared by the page's threads, so the page's own first formatter then takes a millisecond.
 * Answers when it has (or could not, or `within` ms passed: the page then loads the data itself).
 */
export function warmDateFormats(locale: string, within = 300): Promise<Warmed> {
  return new Promise((resolve) => {
    let url = "";
    let worker: Worker | undefined;
    const end = (how: Warmed) => {
      clearTimeout(timer);
      worker?.terminate();
      if (url) URL.revokeObjectURL(url);
      resolve(how);
    };
    const timer = setTimeout(end, within, "late");
    try {
      url = URL.createObjectURL(
        new Blob(["onmessage=e=>postMessage(new Intl.DateTimeFormat(e.data).format())"]),
      );
      worker = new Worker(url);
      worker.onmessage = () => end("worker");
      worker.onerror = () => end("unavailable");
      worker.postMessage(locale);
    } catch {
      end("unavailable");
    }
  });
}

/**
 * What the booking page's first screen reads and formats: its draft, then the month, weekdays,
 * days and times (the first formatter of a page is the costly one, the others take little).
 * `inWorker`: the date data is first loaded by a worker (our hosted pages, whose policy allows
 * one; a restaurant's own site may not, and would log the refusal).
 */
export async function prepareBookPage(locale: string, inWorker = false): Promise<void> {
  const warmed = inWorker ? warmDateFormats(locale) : undefined;
  await inTask(() => sessionStorage.length);
  await warmed;
  await inTask(() => {
    formatTime("12:00", locale);
    formatMonth("2024-01-01", locale);
    weekdayName(1, locale, "short");
    weekdayName(1, locale);
    formatDate("2024-01-01", locale);
    firstDayOfWeek(locale);
  });
}
