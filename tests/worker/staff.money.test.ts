/**
 * Money steps name who took them: a manager's refund from the console is theirs on the
 * reservation's history and in the audit log; a host may neither refund nor charge a no-show fee (403
 * role_required manager), a manager may not touch the Stripe account (owner); the
 * Stripe account's connection is in the audit log with the app that asked for it.
 */
import { describe, expect, it } from "vitest";
import { ConsoleBrowser } from "./console.helpers";
import { expectProblem, ORIGIN, unique } from "./helpers";
import { captureMail, linksIn, mailsTo } from "./messages.helpers";
import { CARDS, confirmInBrowser, deliverEvents, payingRestaurant, setPolicy } from "./payments.helpers";
import { GUEST } from "./public.fixtures";

type Paying = Awaited<ReturnType<typeof payingRestaurant>>;

const DEPOSIT = { mode: "deposit", amount: 2000, per: "guest", currency: "eur", refund_until: 1440 };

/** A member with `role` invited by the restaurant's app, accepted and signed in in a browser of their own. */
async function member(r: Paying, role: string, name: string) {
  const email = `${unique("money")}@staff.example`;
  const capture = captureMail();
  let token: string;
  let id: number;
  try {
    const res = await r.client.call(`/api/v2/properties/${r.client.propertyId}/staff`, {
      body: { email, role },
      property: undefined,
    });
    expect(res.status, res.text).toBe(201);
    id = res.json.data[0].id;
    const [mail] = await mailsTo(capture, email, 1);
    token = linksIn(mail!.text, `${ORIGIN}/console/invite/`)[0]!.slice(`${ORIGIN}/console/invite/`.length);
  } finally {
    capture.stop();
  }
  const browser = new ConsoleBrowser();
  const accepted = await browser.fetch(`/console/invite/${token}`, {
    body: { name, password: "member-password-1" },
  });
  expect(accepted.status, accepted.text).toBe(200);
  browser.csrf = accepted.json.data[0].csrf_token;
  return { id, browser };
}

describe("a money step from the console", () => {
  it("is the manager's on the history and in the audit log; a host may not take it", async () => {
    const r = await payingRestaurant();
    await setPolicy(r, DEPOSIT);
    const booked = await r.guest.book({
      service_id: r.service.id,
      date: r.date,
      hour: "19:00",
      pax: 2,
      guest: GUEST,
    });
    expect(booked.status, booked.text).toBe(201);
    const step = (await r.guest.call(`/pay/${booked.json.data[0].manage_token}`)).json.data[0];
    await confirmInBrowser(step, CARDS.visa);
    await deliverEvents();
    const manager = await member(r, "manager", "Marta Bianchi");
    const host = await member(r, "host", "Hugo Neri");
    const path = `/console/api/v2/reservations/${step.reservation_id}/payment/refund`;
    const refused = await host.browser.fetch(path, { body: { amount: 500 } });
    expectProblem(refused, 403, "role required");
    expect(refused.json.role).toBe("manager");
    const fee = await host.browser.fetch(
      `/console/api/v2/reservations/${step.reservation_id}/payment/no-show-fee`,
      { method: "POST" },
    );
    expectProblem(fee, 403, "role required");
    expect(fee.json.role).toBe("manager");
    // the Stripe account is the owner's: a manager neither reads it nor asks for its onboarding link
    const account = `/console/api/v2/properties/${r.client.propertyId}/payments/account`;
    for (const method of ["GET", "POST"]) {
      const denied = await manager.browser.fetch(account, method === "POST" ? { body: {} } : {});
      expectProblem(denied, 403, "role required");
      expect(denied.json.role).toBe("owner");
    }
    const refunded = await manager.browser.fetch(path, { body: { amount: 500 } });
    expect(refunded.status, refunded.text).toBe(200);
    const history = await manager.browser.fetch(
      `/console/api/v2/reservations/${step.reservation_id}/history`,
    );
    const refund = history.json.data.find((h: { action: string }) => h.action === "refund");
    expect(refund.actor).toBe(`staff:${manager.id}`);
    expect(refund.by).toEqual({ kind: "staff", id: manager.id, name: "Marta Bianchi" });
    const entries = async (actor: string) => {
      const res = await manager.browser.fetch(
        `/console/api/v2/properties/${r.client.propertyId}/audit?actor=${actor}`,
      );
      expect(res.status, res.text).toBe(200);
      return res.json.data.map(
        (e: { action: string; subject: { type: string; id: number } }) =>
          `${e.action} ${e.subject.type}:${e.subject.id}`,
      );
    };
    expect(await entries(`staff:${manager.id}`)).toContain(`refund reservation:${step.reservation_id}`);
    // the app that connected the Stripe account is its actor in the audit too
    expect(await entries("app")).toContain(`connected property:${r.client.propertyId}`);
  });
});
