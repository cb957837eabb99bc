// wtr: alone (the card is typed into the stand-in Stripe.js's frame, another origin's: with two
// pages at once the focus did not always follow a Tab out of it)
/**
 * The guest's payment step (<booking-engine page="pay">) in Chromium, against the shared Worker and
 * the local Stripe stand-in with its stand-in Stripe.js: the card frame mounted in the light DOM
 * (Stripe's Elements refuse a shadow root), typed with the keyboard; a declined card said, then a
 * good one; 3-D Secure failed, then completed; "confirmed" without a reload; the step's texts in
 * the five languages. Axe first. And the manage page of a booking cancelled while Stripe could not
 * refund: the refund owed, on its way, in the five languages.
 */
import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import { addDays } from "../../widget/format.js";
import {
  bookAsGuest,
  env,
  freeTime,
  ownAddress,
  profile,
  restaurant,
  slots,
  staff,
  until,
  useRestaurant,
} from "./env.js";
import { inShadow } from "./helpers.js";
import {
  account,
  CARDS,
  confirmCard,
  connectStripe,
  DEPOSIT,
  payStep,
  reservationWhen,
  setPolicy,
} from "./payments-env.js";

let bookings = 0;

/** A guest's new booking of two, owing a deposit of €40.00; answers its manage token. */
async function owing(): Promise<{ id: number; manage_token: string }> {
  const slot = await freeTime(2, bookings);
  // a guest of their own each (one guest holds a few upcoming bookings at most)
  const r = await bookAsGuest({ ...slot, pax: 2 }, `Payer${bookings++}`);
  if (r.status !== 201) throw new Error(`booking failed: ${r.status} ${JSON.stringify(r.body)}`);
  const token = (r.body.data![0] as unknown as { manage_token: string }).manage_token;
  // the pay step names the reservation (the guest's answer does not)
  return { id: (await payStep(token)).reservation_id, manage_token: token };
}

const mount = (token: string, locale = "en") =>
  fixture<BookingEngine>(
    html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="pay" token=${token} locale=${locale}></booking-engine>`,
  );

/** The card frames that said they are ready (stand-in Stripe.js's frame posts "ready" once loaded). */
const readyFrames = new WeakSet<object>();
window.addEventListener("message", (e) => {
  if (e.data?.type === "ready" && e.source) readyFrames.add(e.source);
});

/** `promise`, or a failure that says what had the focus when `what` did not come within 20 s. */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => {
        const focused = document.activeElement;
        const inner = focused?.shadowRoot?.activeElement;
        reject(new Error(`no ${what} within 20 s (focus: ${focused?.tagName} ${inner?.tagName ?? ""})`));
      }, 20_000),
    ),
  ]);
}

/** Resolves once Stripe.js's next 3-D Secure challenge frame has loaded (watched from before it is added). */
function nextChallenge(): Promise<HTMLIFrameElement> {
  return new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      const frame = document.querySelector<HTMLIFrameElement>("iframe[data-stripe-challenge]");
      if (!frame) return;
      watch.disconnect();
      frame.addEventListener("load", () => resolve(frame), { once: true });
    });
    watch.observe(document.body, { childList: true });
  });
}

/** The pay page, once the card frame is in place (a light-DOM child of <booking-engine>) and loaded. */
async function payPage(el: BookingEngine) {
  const page = await inShadow(el, "be-pay-page", 15_000);
  const frame = await until(
    () => el.querySelector<HTMLIFrameElement>(':scope > [slot="payment"] iframe'),
    15_000,
  );
  await inShadow(page, "button.btn", 15_000);
  await until(() => frame.contentWindow && readyFrames.has(frame.contentWindow), 15_000);
  return { page, frame };
}

/** What the card frames said of their focus, in order ("number", "expiry", "cvc"; "blur": it left). */
const focusLog: string[] = [];
window.addEventListener("message", (e) => {
  if (e.data?.type === "focus") focusLog.push(e.data.field);
  if (e.data?.type === "blur") focusLog.push("blur");
});

/** Waits until the card frame says `field` took the focus (or "blur": the focus left the frame). */
async function focused(field: string) {
  await until(() => focusLog.at(-1) === field, 15_000).catch(() => {
    throw new Error(`the card frame's focus did not reach ${field}: ${focusLog.slice(-8).join(" > ")}`);
  });
}

/**
 * Types a card into the frame with the keyboard, as a guest does: from the step's heading a Tab into
 * the frame, then number, expiry and code, and a Tab on to "Pay". (Focusing another origin's frame
 * from the page, `frame.focus()`, left the keys with the page now and then after a 3-D Secure
 * challenge had closed.)
 */
async function typeCard(page: HTMLElement, frame: HTMLIFrameElement, number: string) {
  page.shadowRoot!.querySelector<HTMLElement>("#pay-h")!.focus();
  const fields: [string, string][] = [
    ["number", number],
    ["expiry", "1234"],
    ["cvc", "123"],
  ];
  for (const [field, keys] of fields) {
    await sendKeys({ press: "Tab" });
    // the frame is another origin's: its focus moves a moment after the Tab, not with it
    await focused(field);
    await sendKeys({ press: "Control+A" });
    await sendKeys({ type: keys });
  }
  await sendKeys({ press: "Tab" });
  await focused("blur");
  await until(() => document.activeElement !== frame, 15_000);
}

const status = async (id: number) => (await staff(`reservations/${id}`)).body.data[0].status as string;

before(async () => {
  await useRestaurant();
  await connectStripe();
  for (const s of restaurant().services) await setPolicy(s.id, DEPOSIT);
});

describe("<booking-engine page=pay>", () => {
  it("is accessible, shows the amount and the refund rule, and mounts the card frame in the light DOM", async () => {
    const booking = await owing();
    const el = await mount(booking.manage_token);
    const { page, frame } = await payPage(el);
    await expect(el).to.be.accessible();
    expect(frame.getRootNode()).to.equal(document);
    const text = page.shadowRoot!.textContent!.replace(/\s+/g, " ");
    expect(text).to.include("Deposit €40.00, taken now.");
    expect(text).to.match(/Full refund if you cancel before .+; later it is kept\./);
    expect(page.shadowRoot!.querySelector("button.btn")!.textContent!.trim()).to.equal("Pay €40.00");
  });

  it("says a declined card, then takes another one with the keyboard and confirms without a reload", async () => {
    const booking = await owing();
    const el = await mount(booking.manage_token);
    const { page, frame } = await payPage(el);
    const button = page.shadowRoot!.querySelector<HTMLButtonElement>("button.btn")!;
    await typeCard(page, frame, CARDS.declined);
    expect(page.shadowRoot!.activeElement).to.equal(button);
    await sendKeys({ press: "Enter" });
    const failure = await inShadow(page, "#failure", 15_000);
    expect(failure.textContent).to.match(/insufficient funds\. Try another card\./);
    expect(page.shadowRoot!.activeElement).to.equal(failure);
    await expect(el).to.be.accessible();
    expect(await status(booking.id)).to.equal("PREPAY");
    const paid = oneEvent(el, "booking-paid");
    await typeCard(page, frame, CARDS.visa);
    await sendKeys({ press: "Enter" });
    await within(paid, "payment");
    const heading = await inShadow(page, "#paid-h", 15_000);
    expect(page.shadowRoot!.activeElement).to.equal(heading);
    expect(page.shadowRoot!.textContent).to.include("Paid: your table is confirmed.");
    expect(await status(booking.id)).to.equal("ACCEPTED");
    await expect(el).to.be.accessible();
  });

  it("asks for 3-D Secure: a failed challenge is said, a completed one confirms", async () => {
    const booking = await owing();
    const el = await mount(booking.manage_token);
    const { page, frame } = await payPage(el);
    await typeCard(page, frame, CARDS.threeDS);
    // Stripe.js's challenge over the page, its "Complete" focused: Tab to "Fail"
    let challenge = nextChallenge();
    await sendKeys({ press: "Enter" });
    await within(challenge, "3-D Secure challenge");
    await sendKeys({ press: "Tab" });
    await sendKeys({ press: "Enter" });
    await inShadow(page, "#failure", 15_000);
    expect(await status(booking.id)).to.equal("PREPAY");
    await typeCard(page, frame, CARDS.threeDS);
    challenge = nextChallenge();
    await sendKeys({ press: "Enter" });
    await within(challenge, "3-D Secure challenge");
    await sendKeys({ press: "Enter" });
    await inShadow(page, "#paid-h", 15_000);
    expect(await status(booking.id)).to.equal("ACCEPTED");
  });

  it("speaks Italian, French, German and Spanish", async () => {
    const booking = await owing();
    // the heading, what booking pays, and the button (Intl's currency format: "40,00 €" with a no-break space)
    const words: Record<string, RegExp[]> = {
      it: [/Pagamento/, /Deposito 40,00\s€, addebitato ora\./, /Paga 40,00\s€/],
      fr: [/Paiement/, /Acompte de 40,00\s€, prélevé maintenant\./, /Payer 40,00\s€/],
      de: [/Zahlung/, /Anzahlung 40,00\s€, jetzt fällig\./, /40,00\s€ bezahlen/],
      es: [/Pago/, /Depósito de 40,00\s€, cobrado ahora\./, /Pagar 40,00\s€/],
    };
    for (const [locale, expected] of Object.entries(words)) {
      const el = await mount(booking.manage_token, locale);
      const { page } = await payPage(el);
      const text = page.shadowRoot!.textContent!.replace(/\s+/g, " ");
      for (const e of expected) expect(text, locale).to.match(e);
      el.remove();
    }
  });
});

/** Stripe down (503) for the restaurant's refunds, or back. */
async function refundsDown(down: boolean) {
  const res = await fetch(`${env.stripe}/__standin/outage`, {
    method: "PUT",
    body: JSON.stringify({ account: (await account())!.account_id, path: "/v1/refunds", down }),
  });
  if (res.status !== 204) throw new Error(`outage: ${res.status}`);
}

describe("<booking-engine page=manage>: a refund owed", () => {
  it("says a refund is on its way while Stripe has not made it, in the five languages", async () => {
    // days ahead: the guest's cancellation comes before the refund deadline (24 h) and the notice
    const days = await slots(addDays((await profile()).first_date, 3), 2, 7);
    const day = days.find((d) => d.services[0]?.times.length)!;
    const time = {
      date: day.date,
      hour: day.services[0]!.times[0]!,
      service_id: day.services[0]!.service_id,
    };
    const booked = await bookAsGuest({ ...time, pax: 2 }, "Refunded");
    const token = (booked.body.data![0] as unknown as { manage_token: string }).manage_token;
    const step = await payStep(token);
    await confirmCard(step, CARDS.visa);
    await reservationWhen(step.reservation_id, (r) => r.payment?.status === "paid");
    await refundsDown(true);
    try {
      await cancelOwing(token);
    } finally {
      await refundsDown(false);
    }
  });
});

/** The guest cancels on the manage page while Stripe cannot refund: the refund owed is said, in each language. */
async function cancelOwing(token: string) {
  const el = await fixture<BookingEngine>(
    html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="manage" token=${token} locale="en"></booking-engine>`,
  );
  const page = await inShadow(el, "be-manage-page", 15_000);
  (await inShadow<HTMLButtonElement>(page, "#cancel", 15_000)).click();
  expect((await inShadow(page, "#refund")).textContent).to.include("Cancelling now refunds €40.00.");
  (await inShadow<HTMLButtonElement>(page, "button.danger")).click();
  const owed = await inShadow(page, "#refund-owed", 15_000);
  expect(owed.textContent!.trim()).to.equal("A refund of €40.00 is on its way.");
  await expect(el).to.be.accessible();
  const words: Record<string, string> = {
    it: "Un rimborso di 40,00\u00a0€ è in arrivo.",
    fr: "Un remboursement de 40,00\u00a0€ est en cours.",
    de: "Eine Erstattung von 40,00\u00a0€ ist unterwegs.",
    es: "Un reembolso de 40,00\u00a0€ está en camino.",
  };
  for (const [locale, text] of Object.entries(words)) {
    const other = await fixture<BookingEngine>(
      html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="manage" token=${token} locale=${locale}></booking-engine>`,
    );
    const shown = await inShadow(await inShadow(other, "be-manage-page", 15_000), "#refund-owed", 15_000);
    expect(shown.textContent!.trim(), locale).to.equal(text);
    other.remove();
  }
}
