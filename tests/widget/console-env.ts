/**
 * The console under test: a restaurant of the file's own (tests/widget/env.ts), signed in through
 * the console's session route on the test page's origin (web-test-runner.config.mjs relays
 * /console/... to the Worker), and <booking-console> mounted at a view's address.
 */
import { fixture, html } from "@open-wc/testing";
import "../../widget/console/index.js";
import { setClock } from "../../widget/clock.js";
import type { BookingConsole } from "../../widget/console/booking-console.js";
import { type Restaurant, unpinWorkerClock, until, useRestaurant } from "./env.js";

export { romeInstant } from "./env.js";

export const PASSWORD = "demo-password";

let account: (Restaurant & { username: string }) | undefined;

/** This file's restaurant, with the username its console signs in with. */
export async function useConsoleRestaurant(): Promise<Restaurant & { username: string }> {
  account = (await useRestaurant()) as Restaurant & { username: string };
  return account;
}

/** Signs the browser in (the session cookie); answers the session. */
export async function signIn(username = account!.username, password = PASSWORD) {
  const res = await fetch("/console/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return (await res.json()).data[0] as { csrf_token: string; property: { id: number } };
}

/** Signs in unless this browser's session still answers (sign-ins are rate limited per restaurant). */
export async function signedIn() {
  if ((await fetch("/console/session")).status !== 200) await signIn();
}

export async function signOut() {
  const session = await fetch("/console/session");
  if (session.status !== 200) return;
  const { csrf_token } = (await session.json()).data[0];
  await fetch("/console/session", { method: "DELETE", headers: { "X-CSRF-Token": csrf_token } });
}

const start = location.pathname + location.search;
afterEach(async () => {
  history.replaceState(null, "", start);
  setClock();
  await unpinWorkerClock();
});

/** <booking-console> opened at `path` (an address under /console), without the live feed. */
export async function openConsole(path: string, live = "off"): Promise<BookingConsole> {
  history.replaceState(null, "", path);
  return fixture<BookingConsole>(html`<booking-console live=${live}></booking-console>`);
}

/**
 * `el` once the transitions running in its shadow trees have ended: a button re-rendered by a
 * click fades between colours for a moment, and an accessibility check then would measure the
 * contrast of a colour half way.
 */
export async function settled<T extends Element>(el: T): Promise<T> {
  const roots: ShadowRoot[] = [];
  const walk = (node: Element) => {
    if (node.shadowRoot) {
      roots.push(node.shadowRoot);
      node.shadowRoot.querySelectorAll("*").forEach(walk);
    }
  };
  walk(el);
  await Promise.all(roots.flatMap((r) => r.getAnimations()).map((a) => a.finished.catch(() => undefined)));
  return el;
}

/** The view element (`tag`) inside the console once it has rendered its heading. */
export async function viewOf(el: BookingConsole, tag: string, timeout = 15_000): Promise<HTMLElement> {
  const view = await until(() => el.shadowRoot?.querySelector<HTMLElement>(`main > ${tag}`), timeout);
  await until(() => view.shadowRoot?.querySelector("h1"), timeout);
  return view;
}

/** The first element in `view`'s shadow root matching `selector` whose text matches `text`. */
export async function byText<T extends HTMLElement = HTMLElement>(
  view: Element,
  selector: string,
  text: RegExp,
  timeout = 20_000,
): Promise<T> {
  try {
    return await until(
      () =>
        [...(view.shadowRoot?.querySelectorAll<T>(selector) ?? [])].find((e) =>
          text.test(e.textContent ?? ""),
        ),
      timeout,
    );
  } catch {
    // say what the view showed instead, so a failure far away (CI) can be read
    const shown = (view.shadowRoot?.textContent ?? "").replace(/\s+/g, " ").trim().slice(0, 400);
    throw new Error(`no ${selector} matching ${text} within ${timeout} ms; the view showed: ${shown}`);
  }
}

/** The first element in `view`'s shadow root matching `selector`, once rendered (on a timeout, what the view showed instead). */
export const shown = <T extends HTMLElement = HTMLElement>(
  view: Element,
  selector: string,
  timeout = 20_000,
) => byText<T>(view, selector, /^/, timeout);

/** Sets the field's value as typing would (input and change events). */
export function type(field: HTMLInputElement | HTMLTextAreaElement, value: string) {
  field.value = value;
  field.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true }));
  field.dispatchEvent(new Event("change", { bubbles: true, composed: true }));
}
