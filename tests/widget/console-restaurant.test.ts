import { expect } from "@open-wc/testing";
import {
  byText,
  openConsole,
  settled,
  shown,
  signIn,
  type,
  useConsoleRestaurant,
  viewOf,
} from "./console-env.js";
import { restaurant, staff, until } from "./env.js";

before(() => useConsoleRestaurant());

describe("<booking-console>: the restaurant", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible and changes a service's hours", async () => {
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const title = await byText(view, "h3", /Pranzo/);
    await expect(await settled(el)).to.be.accessible();
    const form = title.closest("form")!;
    type(form.querySelector<HTMLInputElement>('[name="start_hour"]')!, "11:30");
    form.requestSubmit();
    await until(() => /Saved/.test(form.textContent!));
    const id = restaurant().services.find((s) => s.name === "Pranzo")!.id;
    expect((await staff(`services/${id}`)).body.data[0].start_hour).to.equal("11:30:00");
  });

  it("shows a refused setting in the API's words at its field", async () => {
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const form = (await byText(view, "h3", /Cena/)).closest("form")!;
    type(form.querySelector<HTMLInputElement>('[name="max_covers_per_interval"]')!, "0");
    form.requestSubmit();
    const field = form.querySelector('[name="max_covers_per_interval"]')!;
    await until(() => field.getAttribute("aria-invalid") === "true");
    expect(view.shadowRoot!.getElementById(field.getAttribute("aria-describedby")!)!.textContent).to.match(
      /\w/,
    );
    await expect(await settled(el)).to.be.accessible();
  });

  it("gives the embed snippet with the restaurant's public key", async () => {
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const snippet = await shown<HTMLTextAreaElement>(view, "textarea[readonly]");
    expect(snippet.value).to.include(`property="${restaurant().publicKey}"`);
  });
});
