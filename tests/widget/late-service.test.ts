import { expect, fixture, html, oneEvent } from "@open-wc/testing";
import "../../widget/index.js";
import type { BookingEngine } from "../../widget/booking-engine.js";
import type { BookingCreatedDetail } from "../../widget/events.js";
import { addDays } from "../../widget/format.js";
import { ownAddress, restaurant, staff, until, useRestaurant } from "./env.js";
import { allInShadow, bookPageWithTimes, inShadow } from "./helpers.js";

/** A service of this file's restaurant past midnight: 23:00 to 01:30 every day. */
let late: { id: number };

before(async () => {
  await useRestaurant();
  const res = await staff("services", {
    method: "POST",
    body: { name: "Late", start_hour: "23:00", end_hour: "01:30" },
  });
  expect(res.status).to.equal(201);
  late = (res.body as { data: { id: number }[] }).data[0]!;
});

describe("<booking-engine> and a service past midnight", () => {
  it("lists its late times under the evening they belong to, and books them on the next calendar date", async () => {
    const el = await fixture<BookingEngine>(
      html`<booking-engine api=${ownAddress()} property=${restaurant().publicKey} page="book" service=${late.id}></booking-engine>`,
    );
    const page = await bookPageWithTimes(el);
    const afterMidnight = await until(() =>
      allInShadow<HTMLInputElement>(page, 'input[name="time"]').find((i) => i.value < "12:00"),
    );
    const evening = (await inShadow(await inShadow(page, "be-date-grid"), 'td[aria-selected="true"]')).dataset
      .date!;
    afterMidnight.click();
    await until(() => afterMidnight.checked);
    [...page.shadowRoot!.querySelectorAll<HTMLButtonElement>("button")]
      .find((b) => /Continue/.test(b.textContent!))!
      .click();
    await inShadow(page, "form");
    for (const [name, value] of Object.entries({
      first_name: "Nora",
      last_name: "Night",
      email: "nora@example.com",
    })) {
      const input = await inShadow<HTMLInputElement>(page, `#${name}`);
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
    }
    const created = oneEvent(el, "booking-created") as Promise<CustomEvent<BookingCreatedDetail>>;
    (await inShadow<HTMLButtonElement>(page, 'button[type="submit"]')).click();
    const { detail } = await created;
    expect(detail.reservation).to.include({
      date: addDays(evening, 1),
      hour: afterMidnight.value,
      status: "ACCEPTED",
    });
    expect(detail.reservation.service?.id).to.equal(late.id);
  });
});
