/**
 * The guest changes date, time or party size from the manage page: keyboard only,
 * at 320 px and desktop, in Italian and English; the old time is kept until the new one is taken.
 * The integrator's side (the moved reservation, RESERVATION_UPDATED with previous_attributes):
 * tests/worker/public.change.test.ts and tests/e2e.
 */
import { expect, fixture, html } from "@open-wc/testing";
import { sendKeys, setViewport } from "@web/test-runner-commands";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import { addDays, formatTime } from "../../widget/format.js";
import { bookAsGuest, bookAsStaff, env, ownAddress, profile, restaurant, until, useRestaurant } from "./env.js";
import { inShadow } from "./helpers.js";

before(() => useRestaurant());

const mount = (token: string, locale = "en") =>
  fixture<BookingEngine>(html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="manage" locale=${locale} token=${token}></booking-engine>`);
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

  async function managed(pax: number, k: number, hour: string) {
    const date = await day(k);
    const service = restaurant().services.find((s) => s.name === "Pranzo")!;
    const r = await bookAsGuest({ date, hour, pax, service_id: service.id }, "Mover");
    expect(r.status).to.equal(201);
    return { date, token: r.body.data![0]!.manage_token };
  }

  it("moves the time: the old one is kept until the new one is taken, and the change shows at once", async () => {
    await setViewport({ width: 320, height: 640 });
    const { date, token } = await managed(2, 15, "12:00:00");
    const el = await mount(token, "it");
    const manage = await inShadow(el, "be-manage-page");
    const change = await inShadow<HTMLButtonElement>(manage, "#change");
    await tabTo(() => manage.shadowRoot!.querySelector("#change"));
    await press("Enter");
    const form = await inShadow(manage, "be-manage-change");
    const time = await inShadow<HTMLSelectElement>(form, "select#change-time");
    await expect(el).to.be.accessible();
    await tabTo(() => form.shadowRoot!.querySelector("#change-time"));
    // The next free time of the day (12:00 is this party's own and not listed for it).
    await press("ArrowDown");
    const chosen = time.value.split("|")[1]!;
    expect(chosen).to.not.equal("12:00:00");
    await tabTo(() => form.shadowRoot!.querySelector('button[type="submit"]'));
    await press("Enter");
    const done = await inShadow(manage, "#changed");
    expect(done.textContent).to.equal("La tua prenotazione è stata modificata.");
    expect(manage.shadowRoot!.activeElement).to.equal(done);
    expect((await inShadow(manage, '[part="summary"]')).textContent).to.include(formatTime(chosen, "it"));
    const api = await (await fetch(`${env.api}/api/v2/public/${restaurant().publicKey}/manage/${token}`)).json();
    expect(api.data[0]).to.include({ date, hour: chosen });
    expect(change).to.exist;
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
    const time = await inShadow<HTMLSelectElement>(form, "select#change-time");
    const wanted = `${cena.id}|20:00:00`;
    expect([...time.options].map((o) => o.value)).to.include(wanted);
    time.value = wanted;
    time.dispatchEvent(new Event("change"));
    await bookAsStaff({ date, hour: "20:00:00", pax: 8, service_id: cena.id });
    (await inShadow<HTMLButtonElement>(form, 'button[type="submit"]')).click();
    const failure = await inShadow(form, "#change-failure");
    await until(() => /just taken/.test(failure.textContent!));
    // The nearest free times come first in the list.
    await until(() => form.shadowRoot!.querySelector<HTMLSelectElement>("select#change-time")?.options[0]?.value === `${cena.id}|21:30:00`);
    await until(() => form.shadowRoot!.activeElement === failure);
    await expect(el).to.be.accessible();
    const api = await (await fetch(`${env.api}/api/v2/public/${restaurant().publicKey}/manage/${token}`)).json();
    expect(api.data[0]).to.include({ date, hour: "12:00:00", status: "ACCEPTED" });
  });
});
