/**
 * The console's payment screens against the shared Worker and the local Stripe stand-in: the
 * owner connects the restaurant's Stripe account (Restaurant, Payments), a service's policy set in
 * its form (the API's refusal while the account cannot charge shown at its field), and a
 * reservation's payment: a manager's partial refund and a declined no-show fee, each asked once
 * more; a host sees the payment but no money step. At 1280 and 768 px, axe first.
 */
import { expect } from "@open-wc/testing";
import { sendKeys, setViewport } from "@web/test-runner-commands";
import {
  byText,
  openConsole,
  settled,
  shown,
  signIn,
  signOut,
  type,
  useConsoleRestaurant,
  viewOf,
} from "./console-env.js";
import { bookAsGuest, profile, restaurant, slots, staff, until } from "./env.js";
import {
  answerChallenge,
  CARDS,
  confirmCard,
  connectStripe,
  DEPOSIT,
  onboard,
  payStep,
  reservationWhen,
  setPolicy,
} from "./payments-env.js";

const serviceId = (name: string) => restaurant().services.find((s) => s.name === name)!.id;

/** An element inside the view's shadow tree, once it rendered `selector` in its own. */
async function inner(view: HTMLElement, tag: string, selector = "h2"): Promise<HTMLElement> {
  const el = await until(() => view.shadowRoot?.querySelector<HTMLElement>(tag), 15_000);
  await until(() => el.shadowRoot?.querySelector(selector), 15_000);
  return el;
}

/** A free time of `service` for `pax`, from the first bookable date on, skipping `skip` of them. */
async function timeOf(service: string, pax: number, skip: number) {
  const id = serviceId(service);
  const days = await slots((await profile()).first_date, pax, 14);
  const times = days.flatMap((d) =>
    d.services
      .filter((s) => s.service_id === id)
      .flatMap((s) => s.times.map((hour) => ({ date: d.date, hour }))),
  );
  if (!times[skip]) throw new Error(`no free time of ${service} in two weeks`);
  return { ...times[skip], service_id: id };
}

/** A guest's paid booking of `service` (`card` through the stand-in, 3-D Secure completed when asked). */
async function paidBooking(service: string, pax: number, card: string, skip: number) {
  const booked = await bookAsGuest({ ...(await timeOf(service, pax, skip)), pax }, "Paola");
  if (booked.status !== 201) throw new Error(`booking: ${booked.status} ${JSON.stringify(booked.body)}`);
  const manage = booked.body.data![0] as unknown as { id: number; manage_token: string };
  const step = await payStep(manage.manage_token);
  const confirmed = await confirmCard(step, card);
  if (confirmed.body.status === "requires_action") await answerChallenge(step, "complete");
  return reservationWhen(step.reservation_id, (r) => r.status === "ACCEPTED");
}

before(async () => {
  await useConsoleRestaurant();
});

describe("<booking-console>: payments", () => {
  beforeEach(async () => {
    await setViewport({ width: 1280, height: 900 });
    await signIn();
  });

  it("shows the API's refusal of a paying policy at its field while no Stripe account can charge", async () => {
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const form = (await byText(view, "h3", /Cena/)).closest("form")!;
    form.querySelector<HTMLSelectElement>('[name="pay_mode"]')!.value = "deposit";
    type(form.querySelector<HTMLInputElement>('[name="pay_amount"]')!, "20");
    form.requestSubmit();
    const mode = form.querySelector('[name="pay_mode"]')!;
    await until(() => mode.getAttribute("aria-invalid") === "true");
    const said = view.shadowRoot!.getElementById(mode.getAttribute("aria-describedby")!)!.textContent!;
    expect(said).to.match(/Stripe account/);
    await expect(await settled(el)).to.be.accessible();
  });

  it("lets the owner connect the Stripe account, at 1280 and 768 px, with the keyboard", async () => {
    const el = await openConsole("/console/restaurant");
    const section = await inner(await viewOf(el, "bc-restaurant-view"), "bc-payments-section");
    for (const width of [768, 1280]) {
      await setViewport({ width, height: 900 });
      await byText(section, "p", /No Stripe account is connected/);
      await expect(await settled(el)).to.be.accessible();
    }
    (await byText<HTMLButtonElement>(section, "button", /Connect a Stripe account/)).focus();
    await sendKeys({ press: "Enter" });
    // the onboarding link takes the focus: Enter follows it (here: the stand-in, which onboards at once)
    const link = await until(() => section.shadowRoot!.querySelector<HTMLAnchorElement>("#onboarding"));
    await until(() => section.shadowRoot!.activeElement === link);
    await onboard(link.href);
    (await byText<HTMLButtonElement>(section, "button", /Check again/)).click();
    await byText(section, "p", /Stripe account acct_\w+ takes payments/);
    await expect(await settled(el)).to.be.accessible();
  });

  it("sets a service's payment policy in its form", async () => {
    const el = await openConsole("/console/restaurant");
    const view = await viewOf(el, "bc-restaurant-view");
    const form = (await byText(view, "h3", /Cena/)).closest("form")!;
    form.querySelector<HTMLSelectElement>('[name="pay_mode"]')!.value = "deposit";
    type(form.querySelector<HTMLInputElement>('[name="pay_amount"]')!, "25.50");
    form.querySelector<HTMLInputElement>('[name="pay_per"][value="booking"]')!.checked = true;
    type(form.querySelector<HTMLInputElement>('[name="pay_from_pax"]')!, "4");
    type(form.querySelector<HTMLInputElement>('[name="pay_refund_until"]')!, "48");
    form.requestSubmit();
    await until(() => /Saved/.test(form.textContent!));
    const saved = (await staff(`services/${serviceId("Cena")}`)).body.data[0];
    expect(saved.payment).to.deep.equal({
      mode: "deposit",
      amount: 2550,
      per: "booking",
      currency: "EUR",
      from_pax: 4,
      refund_until: 2880,
      no_show_fee: null,
    });
    await setPolicy(serviceId("Cena"), null);
  });

  it("lets a manager refund part of a payment, asked once more; a host sees it without the button", async () => {
    await connectStripe();
    await setPolicy(serviceId("Cena"), DEPOSIT);
    const r = await paidBooking("Cena", 2, CARDS.visa, 0);
    const el = await openConsole(`/console/reservations/${r.id}`);
    const view = await viewOf(el, "bc-reservation-view");
    const pay = await inner(view, "bc-reservation-payment");
    await byText(pay, "dd", /^Paid$/);
    await byText(pay, "dd", /Visa •••• 4242/);
    for (const width of [768, 1280]) {
      await setViewport({ width, height: 900 });
      await expect(await settled(el)).to.be.accessible();
    }
    type(await shown<HTMLInputElement>(pay, 'input[name="amount"]'), "5");
    (await byText<HTMLButtonElement>(pay, "button", /^Refund$/)).click();
    await byText(pay, '[role="alertdialog"]', /Refund €5\.00 to the guest now\?/);
    // the safe answer has the focus: Enter there moves no money
    await until(() => pay.shadowRoot!.activeElement?.id === "pay-keep");
    expect((await staff(`reservations/${r.id}`)).body.data[0].payment.amount_refunded).to.equal(0);
    (await byText<HTMLButtonElement>(pay, "button", /Yes: refund it/)).click();
    await byText(pay, "dd", /Partly refunded/);
    await byText(pay, "dd", /€5\.00/);
    expect((await staff(`reservations/${r.id}`)).body.data[0].payment.amount_refunded).to.equal(500);
    await expect(await settled(el)).to.be.accessible();
    // a host: the payment, no refund
    await signOut();
    const link = await staff("console/links", { method: "POST", body: { role: "host" } });
    await fetch(new URL(link.body.data[0].url).pathname, { redirect: "manual" });
    const hostEl = await openConsole(`/console/reservations/${r.id}`);
    const hostPay = await inner(await viewOf(hostEl, "bc-reservation-view"), "bc-reservation-payment");
    await byText(hostPay, "dd", /Partly refunded/);
    expect(hostPay.shadowRoot!.querySelector("button, form")).to.equal(null);
  });

  it("says a declined no-show fee beside its button, asked once more before it charges", async () => {
    await setPolicy(serviceId("Pranzo"), {
      mode: "guarantee",
      amount: 0,
      currency: "EUR",
      no_show_fee: 3000,
      refund_until: 1440,
    });
    // a card that asks for 3-D Secure: saved once authenticated, declined off session
    const r = await paidBooking("Pranzo", 2, CARDS.threeDS, 2);
    expect(r.payment.status).to.equal("card_saved");
    const noShow = await staff(`reservations/${r.id}?status=expired`, { method: "PATCH" });
    expect(noShow.status).to.equal(200);
    const el = await openConsole(`/console/reservations/${r.id}`);
    const pay = await inner(await viewOf(el, "bc-reservation-view"), "bc-reservation-payment");
    await byText(pay, "dd", /Card saved/);
    (await byText<HTMLButtonElement>(pay, "button", /Charge no-show fee/)).click();
    await byText(pay, '[role="alertdialog"]', /Charge €60\.00 to Visa •••• 3184 now\?/);
    await expect(await settled(el)).to.be.accessible();
    (await byText<HTMLButtonElement>(pay, "button", /Yes: charge it/)).click();
    await byText(pay, '[role="alert"]', /declined/i);
    await expect(await settled(el)).to.be.accessible();
    expect((await staff(`reservations/${r.id}`)).body.data[0].payment.no_show_charged).to.equal(null);
  });
});
