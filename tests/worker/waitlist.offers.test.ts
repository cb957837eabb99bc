/**
 * Waiting-list offers: a cancellation offers the freed table to the first waiting
 * party by email; claiming it accepts the reservation; an offer that runs out or is declined
 * passes to the next party.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { setClock } from "../../worker/lib/clock";
import { freshIp, ORIGIN, unique } from "./helpers";
import { captureMail, linksIn, mailsTo } from "./messages.helpers";
import { guestOf, smallRestaurant } from "./public.fixtures";
import { merchant, newToken, romeSec, SAMPLES, v3 } from "./searchengine.fixtures";

let capture: ReturnType<typeof captureMail> | undefined;
afterEach(() => {
  capture?.stop();
  capture = undefined;
  setClock(undefined);
});

async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(
    createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

/** One table of two booked at 19:00 by a guest, and `waiting` more parties on the waiting list for it. */
async function fullTime(waiting: number) {
  const r = await smallRestaurant({ timezone: "Europe/Rome", offer_minutes: 15 });
  const book = (first: string, waitingList: boolean) => {
    const email = `${unique(first.toLowerCase())}@example.com`;
    const g = guestOf(r.publicKey, freshIp());
    return g
      .book({
        date: r.date,
        hour: "19:00",
        pax: 2,
        guest: { first_name: first, last_name: "Test", email },
        waiting_list: waitingList,
        locale: "en",
      })
      .then((res) => ({ res, email, guest: g }));
  };
  const holder = await book("Holder", false);
  expect(holder.res.json.data[0].status).toBe("ACCEPTED");
  const parties = [];
  for (const name of ["Bea", "Carl", "Dora"].slice(0, waiting)) {
    const p = await book(name, true);
    expect(p.res.status, p.res.text).toBe(201);
    expect(p.res.json.data[0].status).toBe("WAITING");
    parties.push(p);
  }
  return { r, holder, parties };
}

/**
 * One table of two, stays of 30 minutes, held at 19:00 and 19:30; Bea waits for any time
 * 19:00-19:45, then Carl for 19:30 alone.
 */
async function rangeDay() {
  const r = await smallRestaurant({ timezone: "UTC", offer_minutes: 15 });
  expect(
    (await r.client.call(`/api/v2/services/${r.service.id}`, { method: "PUT", body: { average_stay: 30 } }))
      .status,
  ).toBe(200);
  const book = (first: string, hour: string, extra: Record<string, unknown> = {}) => {
    const email = `${unique(first.toLowerCase())}@example.com`;
    const guest = guestOf(r.publicKey, freshIp());
    return guest
      .book({
        date: r.date,
        hour,
        pax: 2,
        guest: { first_name: first, last_name: "Test", email },
        locale: "en",
        ...extra,
      })
      .then((res) => ({ res, email, guest }));
  };
  const holders = [];
  for (const hour of ["19:00", "19:30"]) {
    const h = await book("Holder", hour);
    expect(h.res.json.data[0]?.status, h.res.text).toBe("ACCEPTED");
    holders.push(h);
  }
  const bea = await book("Bea", "19:00", { waiting_list: true, waiting_until: "19:45" });
  expect(bea.res.status, bea.res.text).toBe(201);
  expect(bea.res.json.data[0]).toMatchObject({
    status: "WAITING",
    hour: "19:00:00",
    waiting_until: "19:45:00",
  });
  const carl = await book("Carl", "19:30", { waiting_list: true });
  expect(carl.res.json.data[0]).toMatchObject({ status: "WAITING", waiting_until: null });
  return { r, holders, bea, carl };
}

/** The offer link of the last offer email to `to`, and its token. */
async function offerLink(to: string, n = 1) {
  const mails = await mailsTo(capture!, to, n);
  const offer = mails.find((m) => /A table is free/.test(m.subject ?? ""));
  expect(offer, `an offer to ${to}`).toBeDefined();
  const [link] = linksIn(offer!.text, `${ORIGIN}/p/`).filter((l) => l.includes("/offer/"));
  return { link: link!, token: link!.split("/offer/")[1]!.split("?")[0]! };
}

describe("waiting-list offers", () => {
  it("a cancellation offers the table to the first waiting party, whose claim makes the reservation ACCEPTED", async () => {
    capture = captureMail();
    const { r, holder, parties } = await fullTime(2);
    const [bea, carl] = parties;
    expect(
      (await holder.guest.call(`/manage/${holder.res.json.data[0].manage_token}`, { method: "DELETE" }))
        .status,
    ).toBe(200);
    const { link, token } = await offerLink(bea!.email, 2);
    expect(link).toMatch(new RegExp(`^${ORIGIN}/p/${r.publicKey}/offer/[\\w-]{43}\\?locale=en$`));
    // Carl, who asked later, was not offered it.
    expect(capture.to(carl!.email).filter((m) => m.raw.includes("QSB0YWJsZSBpcyBmcmVl"))).toHaveLength(0);
    const read = await bea!.guest.call(`/offers/${token}`);
    expect(read.status, read.text).toBe(200);
    expect(read.json.data[0]).toMatchObject({
      state: "open",
      reservation: { status: "WAITING", date: r.date, hour: "19:00:00", pax: 2 },
    });
    // the guest as booked (stored once, in the customer record the reservation leans on)
    expect(read.json.data[0].reservation.guest).toMatchObject({
      first_name: "Bea",
      last_name: "Test",
      email: bea!.email,
    });
    const claimed = await bea!.guest.call(`/offers/${token}/claim`, { method: "POST" });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.json.data[0]).toMatchObject({ state: "claimed", reservation: { status: "ACCEPTED" } });
    // A claimed offer is claimed once.
    expect((await bea!.guest.call(`/offers/${token}/claim`, { method: "POST" })).json.code).toBe(
      "offer_not_available",
    );
    const [, , confirmation] = await mailsTo(capture, bea!.email, 3);
    expect(confirmation!.subject).toMatch(/^Your table at /);
  });

  it("an offer that runs out passes to the next party; a declined one too", async () => {
    capture = captureMail();
    const { holder, parties } = await fullTime(3);
    const [bea, carl, dora] = parties;
    expect(
      (await holder.guest.call(`/manage/${holder.res.json.data[0].manage_token}`, { method: "DELETE" }))
        .status,
    ).toBe(200);
    const first = await offerLink(bea!.email, 2);
    const offer = (await bea!.guest.call(`/offers/${first.token}`)).json.data[0];
    // Sixteen minutes later the cron finds it lapsed and offers the table to Carl.
    setClock(new Date(Date.parse(offer.expires_at) + 60_000).toISOString());
    await runCron();
    expect((await bea!.guest.call(`/offers/${first.token}`)).json.data[0].state).toBe("expired");
    expect((await bea!.guest.call(`/offers/${first.token}/claim`, { method: "POST" })).status).toBe(409);
    const second = await offerLink(carl!.email, 2);
    // Carl declines: Dora is offered it at once.
    const declined = await carl!.guest.call(`/offers/${second.token}/decline`, { method: "POST" });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.json.data[0]).toMatchObject({ state: "declined", reservation: { status: "WAITING" } });
    const third = await offerLink(dora!.email, 2);
    expect(
      (await dora!.guest.call(`/offers/${third.token}/claim`, { method: "POST" })).json.data[0].reservation
        .status,
    ).toBe("ACCEPTED");
    // Bea and Carl let theirs pass: they stay on the waiting list, each offered once.
    for (const p of [bea, carl])
      expect((await p!.guest.call(`/manage/${p!.res.json.data[0].manage_token}`)).json.data[0].status).toBe(
        "WAITING",
      );
    expect(
      capture
        .to(bea!.email)
        .filter((m) =>
          m.raw.includes("Subject: =?utf-8?B?QSB0YWJsZSBpcyBmcmVl"),
        ) /* "A table is free", base64 */,
    ).toHaveLength(1);
  });

  it("a cancellation through the search engine offers the table too", async () => {
    capture = captureMail();
    const m = await merchant({ tables: [2], settings: { offer_minutes: 15 } });
    const made = await v3(
      "CreateBooking",
      SAMPLES.createBooking(m.merchantId, m.serviceId, romeSec(m.date, "19:00"), newToken()).request,
    );
    expect(made.booking.status).toBe("CONFIRMED");
    const email = `${unique("wanda")}@example.com`;
    const waiting = await guestOf(m.merchantId, freshIp()).book({
      date: m.date,
      hour: "19:00",
      pax: 2,
      guest: { first_name: "Wanda", last_name: "Test", email },
      waiting_list: true,
      locale: "en",
    });
    expect(waiting.status, waiting.text).toBe(201);
    expect(waiting.json.data[0].status).toBe("WAITING");
    expect(
      (await v3("UpdateBooking", SAMPLES.cancelBooking(made.booking.booking_id).request)).booking.status,
    ).toBe("CANCELED");
    const { token } = await offerLink(email, 2);
    const read = await guestOf(m.merchantId, freshIp()).call(`/offers/${token}`);
    expect(read.status, read.text).toBe(200);
    expect(read.json.data[0]).toMatchObject({ state: "open", reservation: { status: "WAITING" } });
  });

  it("offers a waiting party with a range the earliest time of it that frees, before a later party, and its claim moves the booking there", async () => {
    capture = captureMail();
    const { r, holders, bea, carl } = await rangeDay();
    // The table frees at 19:30 only: Bea (19:00-19:45, asked first) is offered 19:30, Carl (19:30 alone, later) not.
    expect(
      (
        await holders[1]!.guest.call(`/manage/${holders[1]!.res.json.data[0].manage_token}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(200);
    const { token } = await offerLink(bea.email, 2);
    const [, offerMail] = await mailsTo(capture, bea.email, 2);
    expect(offerMail!.subject).toMatch(/A table is free at .*, 7:30\sPM$/);
    // the offer is of one time: its summary names it alone, not the range asked for
    expect(offerMail!.text).toMatch(/^Time: 7:30\sPM \(UTC\)$/m);
    expect(offerMail!.text).not.toContain("7:45");
    expect(capture.to(carl.email)).toHaveLength(1);
    const read = await bea.guest.call(`/offers/${token}`);
    expect(read.json.data[0]).toMatchObject({
      state: "open",
      hour: "19:30:00",
      reservation: { status: "WAITING", hour: "19:00:00", waiting_until: "19:45:00" },
    });
    const claimed = await bea.guest.call(`/offers/${token}/claim`, { method: "POST" });
    expect(claimed.status, claimed.text).toBe(200);
    // one write: accepted at the time offered, the range gone
    expect(claimed.json.data[0].reservation).toMatchObject({
      status: "ACCEPTED",
      date: r.date,
      hour: "19:30:00",
      waiting_until: null,
    });
    const list = (await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}`)).json
      .data;
    const beas = list.find((x: { customer?: { email?: string } }) => x.customer?.email === bea.email);
    expect(beas).toMatchObject({
      status: "ACCEPTED",
      start_hour: "19:30:00",
      end_date: `${r.date}T20:00:00`,
      tables: [expect.objectContaining({ id: r.table.id })],
    });
  });

  it("refuses a claim when the offered time was taken meanwhile, the party still waiting for its range", async () => {
    capture = captureMail();
    const { r, holders, bea } = await rangeDay();
    expect(
      (
        await holders[1]!.guest.call(`/manage/${holders[1]!.res.json.data[0].manage_token}`, {
          method: "DELETE",
        })
      ).status,
    ).toBe(200);
    const { token } = await offerLink(bea.email, 2);
    const staff = await r.client.call("/api/v2/reservations", {
      body: {
        start_date: r.date,
        start_hour: "19:30",
        pax: 2,
        service_id: r.service.id,
        customer: { first_name: "Walk", last_name: "In", email: `${unique("walkin")}@example.com` },
      },
    });
    expect(staff.status, staff.text).toBe(201);
    const claimed = await bea.guest.call(`/offers/${token}/claim`, { method: "POST" });
    expect(claimed.status).toBe(409);
    expect(claimed.json.code).toBe("offer_not_available");
    expect((await bea.guest.call(`/manage/${bea.res.json.data[0].manage_token}`)).json.data[0]).toMatchObject(
      { status: "WAITING", hour: "19:00:00", waiting_until: "19:45:00" },
    );
  });

  it("tells a waiting party its range and how long an offer holds", async () => {
    capture = captureMail();
    const { bea } = await rangeDay();
    const [mail] = await mailsTo(capture, bea.email, 1);
    expect(mail!.subject).toMatch(/^Waiting list at .*, 7:00\sPM–7:45\sPM$/);
    expect(mail!.text).toMatch(
      /You are on the waiting list for 2 people at .* any time 7:00\sPM–7:45\sPM \(UTC time\)\./,
    );
    expect(mail!.text).toMatch(
      /If a table for your party frees up at any time 7:00\sPM–7:45\sPM, we email you an offer for the earliest time that fits .*valid for 15 minutes/,
    );
    // and the summary's time is the range
    expect(mail!.text).toMatch(/Time: 7:00\sPM–7:45\sPM \(UTC\)/);
  });

  it("refuses a bad range (400) naming waiting_until", async () => {
    const { r } = await rangeDay();
    const g = guestOf(r.publicKey, freshIp());
    const body = {
      date: r.date,
      hour: "19:30",
      pax: 2,
      guest: { first_name: "Eve", last_name: "Test", email: `${unique("eve")}@example.com` },
      waiting_list: true,
      locale: "en",
    };
    for (const bad of [
      { waiting_until: "19:15" }, // before hour
      { waiting_until: "19:30" }, // not after it
      { waiting_until: "20:30" }, // after the service's last start
      { waiting_until: "19:40" }, // off the grid
      { waiting_until: "19:45", waiting_list: false }, // only for the waiting list
    ]) {
      const res = await g.book({ ...body, ...bad });
      expect(res.status, `${JSON.stringify(bad)}: ${res.text}`).toBe(400);
      expect(res.json.errors.map((e: { path: string }) => e.path)).toContain("waiting_until");
    }
    const malformed = await g.book({ ...body, waiting_until: "7pm" });
    expect(malformed.status).toBe(400);
  });

  it("an unknown offer link is a 404", async () => {
    const r = await smallRestaurant();
    const res = await guestOf(r.publicKey, freshIp()).call("/offers/nope");
    expect(res.status).toBe(404);
    expect(res.json.title).toBe("offer not found");
  });
});
