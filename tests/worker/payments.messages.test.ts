/**
 * What the guest of a booking that pays is told, by email through the outbox: what is owed, until
 * when, with the pay link (online and for staff bookings); the confirmation once paid, with the
 * amount, the refund rule and the calendar entry; a refund; a no-show fee; an unpaid expiry.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { config } from "../../worker/config";
import { attemptMessages } from "../../worker/messages/delivery";
import { expireUnpaidPayments } from "../../worker/payments/expiry";
import { shardDb } from "../../worker/shards/shards";
import { unique } from "./helpers";
import { calendarOf, captureMail, linksIn, mailsTo, messagesOf } from "./messages.helpers";
import {
  CARDS,
  confirmInBrowser,
  deliverEvents,
  type PayingRestaurant,
  payingRestaurant,
  setPolicy,
} from "./payments.helpers";
import { GUEST } from "./public.fixtures";

let capture: ReturnType<typeof captureMail> | undefined;
afterEach(() => {
  capture?.stop();
  capture = undefined;
});

const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "EUR", refund_until: 1440 };

async function bookOnline(r: PayingRestaurant, email: string, locale = "en") {
  const guest = { ...GUEST, email };
  const res = await r.guest.book({
    service_id: r.service.id,
    date: r.date,
    hour: "19:00",
    pax: 2,
    guest,
    locale,
  });
  expect(res.status, res.text).toBe(201);
  return res.json.data[0];
}

async function payWith(r: PayingRestaurant, token: string, card: string) {
  const step = (await r.guest.call(`/pay/${token}`)).json.data[0];
  await confirmInBrowser(step, card);
  await deliverEvents();
  return step;
}

/** A message's words with the no-break spaces Intl writes in amounts ("50,00 €") made plain. */
const plain = (text: string | undefined) => (text ?? "").replace(/[\u00a0\u202f]/g, " ");

const templates = async (r: PayingRestaurant, id: number) =>
  (await messagesOf(r.client, id)).filter((m) => m.recipient === "guest").map((m) => m.template);

describe("a guest who books a table that pays", () => {
  it("is told what is owed with the pay link, then confirmed once paid with the amount and the refund rule", async () => {
    capture = captureMail();
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const email = `${unique("payer")}@example.com`;
    const booking = await bookOnline(r, email, "it");
    const [due] = await mailsTo(capture, email, 1);
    expect(plain(due!.subject)).toMatch(/^Per confermare il tuo tavolo da Small Trattoria/);
    expect(plain(due!.text)).toContain("40,00");
    expect(plain(due!.text)).toMatch(/il deposito di 40,00/);
    expect(plain(due!.text)).toMatch(/entro .+\(UTC\): dopo il tavolo viene liberato/);
    const pay = linksIn(due!.text, `${config(env).publicOrigin}/p/${r.publicKey}/pay/`);
    expect(pay[0]).toContain(`/pay/${booking.manage_token}?locale=it`);
    expect(plain(due!.html)).toContain(`/pay/${booking.manage_token}?locale=it`);
    expect(due!.attachments.filter((a) => a.mimeType.startsWith("text/calendar"))).toHaveLength(0);

    const { reservation_id: id } = await payWith(r, booking.manage_token, CARDS.visa);
    const [, confirmation] = await mailsTo(capture, email, 2);
    expect(plain(confirmation!.subject)).toMatch(/^Il tuo tavolo da Small Trattoria/);
    expect(plain(confirmation!.text)).toContain("Deposito pagato: 40,00");
    expect(plain(confirmation!.text)).toMatch(/Rimborso completo se cancelli prima di .+\(UTC\); dopo/);
    expect(plain(confirmation!.html)).toContain("Deposito pagato: 40,00");
    const ics = calendarOf(confirmation!);
    expect(ics.method).toBe("REQUEST");
    expect(await templates(r, id)).toEqual(["payment_due", "confirmation", "reminder"]);

    // A manager's partial refund is told, with what it gives back.
    const refund = await r.client.call(`/api/v2/reservations/${id}/payment/refund`, {
      body: { amount: 1500 },
    });
    expect(refund.status, refund.text).toBe(200);
    const [, , refunded] = await mailsTo(capture, email, 3);
    expect(plain(refunded!.subject)).toBe("Rimborso di 15,00 € da Small Trattoria");
    expect(plain(refunded!.text)).toContain("ti ha rimborsato 15,00 €");
    // Sent once: Stripe's charge.refunded event for the same refund tells nothing more.
    await deliverEvents();
    expect((await templates(r, id)).filter((t) => t === "payment_refund")).toHaveLength(1);
  });

  it("made by staff gets the pay link by email, even where staff bookings email nothing else", async () => {
    capture = captureMail();
    const r = await payingRestaurant();
    await r.client.call(`/api/v2/properties/${r.client.propertyId}`, {
      method: "PUT",
      property: undefined,
      body: { settings: { email_staff_bookings: false } },
    });
    await setPolicy(r, { ...DEPOSIT, per: "booking", amount: 5000 });
    const email = `${unique("staffpay")}@example.com`;
    const res = await r.client.call("/api/v2/reservations", {
      body: {
        start_date: r.date,
        start_hour: "19:00:00",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Grace", last_name: "Hopper", email },
        locale: "de",
      },
    });
    expect(res.status, res.text).toBe(201);
    const id = res.json.data[0].id;
    const [due] = await mailsTo(capture, email, 1);
    expect(plain(due!.subject)).toMatch(/^Um Ihren Tisch bei Small Trattoria zu bestätigen/);
    expect(plain(due!.text)).toContain("Anzahlung von 50,00 €");
    const api = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(plain(due!.text)).toContain(api.payment.pay_url);
    expect(await templates(r, id)).toEqual(["payment_due"]);
  });

  it("whose booking expires unpaid is told why, with no calendar entry to cancel", async () => {
    capture = captureMail();
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const email = `${unique("late")}@example.com`;
    const booking = await bookOnline(r, email, "fr");
    await mailsTo(capture, email, 1);
    const step = (await r.guest.call(`/pay/${booking.manage_token}`)).json.data[0];
    await r.client.d1
      .prepare("UPDATE reservations SET payment_due_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(step.reservation_id)
      .run();
    const c = config(env);
    expect(
      await expireUnpaidPayments(shardDb(r.client.d1), c.stripe, { linkSecret: c.linkSecret }),
    ).toContain(step.reservation_id);
    // The cron's own change: its messages go out with the cron's next round, sent here at once.
    const pending = (await messagesOf(r.client, step.reservation_id)).filter((m) => m.state === "pending");
    const { shard } = (await env.DB.prepare("SELECT shard FROM property_directory WHERE id = ?")
      .bind(r.client.propertyId)
      .first<{ shard: number }>())!;
    await attemptMessages(
      env,
      shard,
      pending.map((m) => m.id),
    );
    const [, expired] = await mailsTo(capture, email, 2);
    expect(plain(expired!.subject)).toBe("Votre réservation chez Small Trattoria a expiré faute de paiement");
    expect(plain(expired!.text)).toContain("elle n'a pas été réglée à temps");
    expect(expired!.attachments).toHaveLength(0);
    expect(await templates(r, step.reservation_id)).toEqual(["payment_due", "payment_expired"]);
  });

  it("who saved a card as a guarantee is told the no-show fee when it is charged", async () => {
    capture = captureMail();
    const r = await payingRestaurant();
    await setPolicy(r, { mode: "guarantee", amount: 0, currency: "EUR", no_show_fee: 2500 });
    const email = `${unique("noshow")}@example.com`;
    const booking = await bookOnline(r, email, "es");
    const [due] = await mailsTo(capture, email, 1);
    expect(plain(due!.text)).toContain("guarda una tarjeta como garantía");
    const step = await payWith(r, booking.manage_token, CARDS.visa);
    const [, saved] = await mailsTo(capture, email, 2);
    expect(plain(saved!.text)).toMatch(/no presentarse cuesta 50,00/);
    const fee = await r.client.call(`/api/v2/reservations/${step.reservation_id}/payment/no-show-fee`, {
      method: "POST",
    });
    expect(fee.status, fee.text).toBe(200);
    await deliverEvents();
    const [, , charged] = await mailsTo(capture, email, 3);
    expect(plain(charged!.subject)).toBe("Cargo por no presentarse de Small Trattoria");
    expect(plain(charged!.text)).toContain("el cargo de 50,00 €");
    expect((await templates(r, step.reservation_id)).filter((t) => t.startsWith("payment_"))).toEqual([
      "payment_due",
      "payment_no_show_fee",
    ]);
  });
});
