/**
 * The guest changes date, time or party size from the manage page: the form starts from the
 * reservation as it is and sends only what the guest touched; keyboard only, at 320 px and
 * desktop, in Italian and English; the old time is kept until the new one is taken.
 * The integrator's side (the moved reservation, RESERVATION_UPDATED with previous_attributes):
 * tests/worker/public.change.test.ts and tests/e2e.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys, setViewport } from "@web/test-runner-commands";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import { addDays, formatTime } from "../../widget/format.js";
import {
  bookAsGuest,
  bookAsStaff,
  env,
  ownAddress,
  profile,
  restaurant,
  until,
  useRestaurant,
} from "./env.js";
import { inShadow } from "./helpers.js";

before(() => useRestaurant());

const mount = (token: string, locale = "en") =>
  fixture<BookingEngine>(
    html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="manage" locale=${locale} token=${token}></booking-engine>`,
  );
const day = async (k: number) => addDays((await profile()).first_date, k);

afterEach(() => setViewport({ width: 800, height: 600 }));

describe("changing the reservation from the manage page (keyboard only)", () => {
  const press = (key: string) => sendKeys({ press: key });
  /** Tabs until `target` has the focus (inside the element's shadow roots). */
  async function tabTo(target: () => Element | null | undefined, max = 40) {
    for (let i = 0; i < max; i++) {
      await press("Tab");
      let active: Element | null = document.activeElement;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      if (active && active === target()) return active as HTMLElement;
    }
    throw new Error("not reached by Tab");
  }

  async function managed(pax: number, k: number, hour: string, name = "Pranzo") {
    const date = await day(k);
    const service = restaurant().services.find((s) => s.name === name)!;
    const r = await bookAsGuest({ date, hour, pax, service_id: service.id }, "Mover");
    expect(r.status).to.equal(201);
    return { date, token: r.body.data![0]!.manage_token };
  }
  const chips = (form: Element, name = "change-time") => [
    ...form.shadowRoot!.querySelectorAll<HTMLInputElement>(`input[name="${name}"]`),
  ];
  const checked = (form: Element) => chips(form).find((c) => c.checked)?.value;

  it("starts from the reservation as it is: a new party size alone keeps the dinner, and the page says what changed", async () => {
    const cena = restaurant().services.find((s) => s.name === "Cena")!;
    const { date, token } = await managed(2, 17, "20:00:00", "Cena");
    const el = await mount(token);
    const manage = await inShadow(el, "be-manage-page");
    (await inShadow<HTMLButtonElement>(manage, "#change")).click();
    const form = await inShadow(manage, "be-manage-change");
    // The time list is the booking page's chips, one group per service, the booked time chosen.
    await until(() => checked(form));
    expect(checked(form)).to.equal(`${cena.id}|20:00:00`);
    expect(form.shadowRoot!.querySelector("select#change-time")).to.equal(null);
    const legends = [...form.shadowRoot!.querySelectorAll("fieldset fieldset > legend")].map((l) =>
      l.textContent!.trim(),
    );
    expect(legends).to.deep.equal(["Pranzo", "Cena"]);
    expect(form.shadowRoot!.querySelector<HTMLInputElement>("#change-date")!.value).to.equal(date);
    await expect(el).to.be.accessible();
    const pax = await inShadow<HTMLSelectElement>(form, "#change-pax");
    pax.value = "3";
    pax.dispatchEvent(new Event("change"));
    await until(
      () => checked(form) === `${cena.id}|20:00:00` && !/Looking/.test(form.shadowRoot!.textContent!),
    );
    (await inShadow<HTMLButtonElement>(form, 'button[type="submit"]')).click();
    const done = await inShadow(manage, "#changed");
    expect(done.textContent!.replace(/\s+/g, " ").trim()).to.equal(
      "Your reservation is changed. Now 3 guests.",
    );
    const api = await (
      await fetch(`${env.api}/api/v2/public/${restaurant().publicKey}/manage/${token}`)
    ).json();
    expect(api.data[0]).to.include({ date, hour: "20:00:00", pax: 3 });
    expect(api.data[0].service.id).to.equal(cena.id);
    await expect(el).to.be.accessible();
  });

  it("moves the time by keyboard: the old one is kept until the new one is taken, and the change shows at once", async () => {
    await setViewport({ width: 320, height: 640 });
    const { date, token } = await managed(2, 15, "12:00:00");
    const el = await mount(token, "it");
    const manage = await inShadow(el, "be-manage-page");
    // the reservation is read first: Tab finds no Change button before it is shown
    await inShadow(manage, "#change");
    await tabTo(() => manage.shadowRoot!.querySelector("#change"));
    await press("Enter");
    const form = await inShadow(manage, "be-manage-change");
    await until(() => checked(form));
    await expect(el).to.be.accessible();
    // The booked time's chip is the group's tab stop; the arrow moves to the next time and chooses it.
    await tabTo(() => chips(form).find((c) => c.checked));
    await press("ArrowRight");
    const chosen = checked(form)!.split("|")[1]!;
    expect(chosen).to.not.equal("12:00:00");
    await tabTo(() => form.shadowRoot!.querySelector('button[type="submit"]'));
    await press("Enter");
    const done = await inShadow(manage, "#changed");
    expect(done.textContent).to.include("La tua prenotazione è stata modificata.");
    expect(done.textContent).to.include(formatTime(chosen, "it"));
    expect(manage.shadowRoot!.activeElement).to.equal(done);
    expect((await inShadow(manage, '[part="summary"]')).textContent).to.include(formatTime(chosen, "it"));
    const api = await (
      await fetch(`${env.api}/api/v2/public/${restaurant().publicKey}/manage/${token}`)
    ).json();
    expect(api.data[0]).to.include({ date, hour: chosen, pax: 2 });
    await expect(el).to.be.accessible();
  });

  it("a new time taken meanwhile: says so, offers the nearest free ones, and the reservation is unchanged", async () => {
    // Only the group seats 8: the guest holds it at 12:00, the staff takes it at 20:00 while the guest decides.
    const { date, token } = await managed(8, 16, "12:00:00");
    const cena = restaurant().services.find((s) => s.name === "Cena")!;
    const el = await mount(token);
    const manage = await inShadow(el, "be-manage-page");
    (await inShadow<HTMLButtonElement>(manage, "#change")).click();
    const form = await inShadow(manage, "be-manage-change");
    const wanted = `${cena.id}|20:00:00`;
    const chip = await until(() => chips(form).find((c) => c.value === wanted));
    chip.click();
    await bookAsStaff({ date, hour: "20:00:00", pax: 8, service_id: cena.id });
    (await inShadow<HTMLButtonElement>(form, 'button[type="submit"]')).click();
    const failure = await inShadow(form, "#change-failure");
    await until(() => /just taken/.test(failure.textContent!));
    // The nearest free times come first, above the day's list.
    await until(() => chips(form, "change-alternative")[0]?.value === `${cena.id}|21:30:00`);
    await until(() => form.shadowRoot!.activeElement === failure);
    await expect(el).to.be.accessible();
    const api = await (
      await fetch(`${env.api}/api/v2/public/${restaurant().publicKey}/manage/${token}`)
    ).json();
    expect(api.data[0]).to.include({ date, hour: "12:00:00", status: "ACCEPTED" });
  });
});
