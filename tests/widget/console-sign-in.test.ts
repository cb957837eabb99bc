import { expect } from "@open-wc/testing";
import {
  openConsole,
  PASSWORD,
  settled,
  signOut,
  type,
  useConsoleRestaurant,
  viewOf,
} from "./console-env.js";
import { until } from "./env.js";

let username = "";
before(async () => (username = (await useConsoleRestaurant()).username));
beforeEach(() => signOut());

describe("<booking-console>: sign-in", () => {
  it("is accessible, refuses a wrong password in words at the fields, and opens the day once signed in", async () => {
    const el = await openConsole("/console/day/2031-03-04");
    const view = await viewOf(el, "bc-sign-in");
    await expect(await settled(el)).to.be.accessible();
    const [user, password] = [...view.shadowRoot!.querySelectorAll<HTMLInputElement>("input")];
    type(user!, username);
    type(password!, "not-the-password");
    view.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const alert = await until(() => view.shadowRoot!.querySelector('[role="alert"]'));
    expect(alert.textContent).to.match(/wrong username or password/i);
    expect(user!.getAttribute("aria-invalid")).to.equal("true");
    await expect(await settled(el)).to.be.accessible();
    type(password!, PASSWORD);
    view.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    // The address asked for is kept: after sign-in the day it named opens.
    const day = await viewOf(el, "bc-day-view");
    expect(day.shadowRoot!.querySelector("h1")!.textContent).to.match(/2031/);
    expect(location.pathname).to.equal("/console/day/2031-03-04");
    await expect(await settled(el)).to.be.accessible();
  });

  it("signs out and shows the sign-in again", async () => {
    const { signIn } = await import("./console-env.js");
    await signIn(username);
    const el = await openConsole("/console/day/2031-03-04");
    await viewOf(el, "bc-day-view");
    [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>("header button")]
      .find((b) => /sign out/i.test(b.textContent!))!
      .click();
    await viewOf(el, "bc-sign-in");
    expect(location.pathname).to.equal("/console/sign-in");
    expect((await fetch("/console/session")).status).to.equal(401);
  });

  it("offers the forgotten password form from the sign-in", async () => {
    const el = await openConsole("/console/sign-in");
    const view = await viewOf(el, "bc-sign-in");
    [...view.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")]
      .find((b) => /forgot/i.test(b.textContent!))!
      .click();
    await until(() => /forgotten password/i.test(view.shadowRoot!.querySelector("h1")?.textContent ?? ""));
    expect(view.shadowRoot!.activeElement?.tagName).to.equal("H1");
    await expect(await settled(el)).to.be.accessible();
  });

  it("asks the Worker for a link and says it is on its way, whatever the username", async () => {
    const el = await openConsole("/console/sign-in");
    const view = await viewOf(el, "bc-sign-in");
    [...view.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")]
      .find((b) => /forgot/i.test(b.textContent!))!
      .click();
    await until(() => /forgotten password/i.test(view.shadowRoot!.querySelector("h1")?.textContent ?? ""));
    type(view.shadowRoot!.querySelector<HTMLInputElement>('input[name="username"]')!, username);
    view.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const status = await until(() => view.shadowRoot!.querySelector('[role="status"]'));
    expect(status.textContent).to.match(/30 minutes/);
    expect(view.shadowRoot!.querySelector("h1")!.textContent).to.match(/check your email/i);
    await expect(await settled(el)).to.be.accessible();
  });

  it("on a reset link, refuses a short password at its field and a spent link in words", async () => {
    const el = await openConsole("/console/reset/not-a-real-token");
    const view = await viewOf(el, "bc-sign-in");
    expect(view.shadowRoot!.querySelector("h1")!.textContent).to.match(/choose a new password/i);
    const field = view.shadowRoot!.querySelector<HTMLInputElement>('input[name="password"]')!;
    type(field, "short");
    view.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await until(() => field.getAttribute("aria-invalid") === "true");
    expect(view.shadowRoot!.querySelector("#password-error")!.textContent!.trim()).not.to.equal("");
    type(field, "a-long-enough-password");
    view.shadowRoot!.querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    const alert = await until(() => view.shadowRoot!.querySelector('[role="alert"]'));
    expect(alert.textContent).to.match(/expired or was used already/i);
    expect(
      [...view.shadowRoot!.querySelectorAll("button")].some((b) =>
        /ask for a new link/i.test(b.textContent!),
      ),
    ).to.equal(true);
    await expect(await settled(el)).to.be.accessible();
  });
});
