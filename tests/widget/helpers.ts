/** Reaching into the element's shadow roots the way a guest's assistive technology would see them. */
import type { BookingEngine } from "../../widget/booking-engine.js";
import { until } from "./env.js";

/** The element inside `host`'s shadow root matching `selector`, once it is there. */
export const inShadow = <T extends Element = HTMLElement>(
  host: Element,
  selector: string,
  timeout?: number,
) => until(() => host.shadowRoot?.querySelector<T>(selector as string) as T | null, timeout);

export const allInShadow = <T extends Element = HTMLElement>(host: Element, selector: string) =>
  [...(host.shadowRoot?.querySelectorAll<T>(selector as string) ?? [])] as T[];

/** The booking page of a <booking-engine>, once its times are shown. */
export async function bookPageWithTimes(el: BookingEngine) {
  const page = await inShadow(el, "be-book-page");
  await inShadow(page, 'input[name="time"]', 15_000);
  return page;
}

/** Text of the element's rendered tree, shadow roots included. */
export function deepText(node: Node): string {
  let out = "";
  const walk = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) out += n.textContent;
    if (n instanceof Element && n.shadowRoot) walk(n.shadowRoot);
    for (const c of n.childNodes) walk(c);
  };
  walk(node);
  return out.replace(/\s+/g, " ");
}

/** Once the page's day has its times (no "Looking for free tables…", in English or Italian). */
export async function settled(page: HTMLElement) {
  const updated = () => (page as unknown as { updateComplete: Promise<boolean> }).updateComplete;
  await updated();
  await until(
    () =>
      !deepText(page).includes("Looking for free tables") && !deepText(page).includes("Cerco tavoli liberi"),
  );
  await updated();
}

/** Chooses `date` in the page's date grid and waits for its times. */
export async function chooseDate(page: HTMLElement, date: string) {
  const grid = await inShadow<HTMLInputElement>(page, "be-date-grid");
  grid.value = date;
  grid.dispatchEvent(new Event("change", { bubbles: true }));
  await settled(page);
}
