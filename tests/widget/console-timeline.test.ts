import { expect } from "@open-wc/testing";
import { sendKeys } from "@web/test-runner-commands";
import type { ReservationListItem as Reservation } from "../../widget/console/api.js";
import { holdsOf, spanOf } from "../../widget/console/parts/timeline-model.js";
import { addDays } from "../../widget/format.js";
import { openConsole, settled, shown, signIn, useConsoleRestaurant, viewOf } from "./console-env.js";
import { freeTime, restaurant, staff, until } from "./env.js";

let slot: { date: string; hour: string; service_id: number };
const table = (name: string) =>
  (restaurant() as unknown as { tables: Record<string, { id: number }> }).tables[name]!.id;

async function book(
  first: string,
  tableName: string,
  at: { date: string; hour: string; service_id: number } = slot,
) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: at.date,
      start_hour: at.hour,
      pax: 2,
      service_id: at.service_id,
      table_ids: [table(tableName)],
      customer: { first_name: first, last_name: "Line", phone: "+39 333 0000001" },
    },
  });
  if (r.status !== 201) throw new Error(`booking: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data[0] as Reservation;
}

const saved = async (id: number) => (await staff(`reservations/${id}`)).body.data[0] as Reservation;

before(async () => {
  await useConsoleRestaurant();
  slot = await freeTime(2, 8);
});

describe("<booking-console>: the timeline", () => {
  beforeEach(async () => void (await signIn()));

  it("is accessible, shows each hold on its table, and moves one to the next table by keyboard", async () => {
    const r = await book("Mover", "T1");
    const el = await openConsole(`/console/timeline/${slot.date}`);
    const view = await viewOf(el, "bc-timeline-view");
    const bar = await shown<HTMLButtonElement>(view, `.hold[data-id="${r.id}"]`);
    expect(bar.closest<HTMLElement>(".track")!.dataset.table).to.equal(String(table("T1")));
    await expect(await settled(el)).to.be.accessible();
    bar.focus();
    await sendKeys({ press: "ArrowDown" });
    await until(() => /Move to T2/.test(view.shadowRoot!.querySelector('[role="status"]')!.textContent!));
    await sendKeys({ press: "Enter" });
    await until(() => /moved/.test(view.shadowRoot!.querySelector('[role="status"]')!.textContent!));
    expect((await saved(r.id)).tables.map((t) => t.name)).to.deep.equal(["T2"]);
    const moved = await shown<HTMLElement>(view, `.hold[data-id="${r.id}"]`);
    expect(moved.closest<HTMLElement>(".track")!.dataset.table).to.equal(String(table("T2")));
    expect(view.shadowRoot!.activeElement).to.equal(moved);
  });

  it("moves a hold a quarter hour later by keyboard", async () => {
    // Tomorrow's dinner at 20:00: a quarter hour later is inside the service whatever the hour now.
    const dinner = {
      date: addDays(slot.date, 1),
      hour: "20:00:00",
      service_id: restaurant().services.find((s) => s.name === "Cena")!.id,
    };
    const r = await book("Later", "S1", dinner);
    const el = await openConsole(`/console/timeline/${dinner.date}`);
    const view = await viewOf(el, "bc-timeline-view");
    (await shown<HTMLButtonElement>(view, `.hold[data-id="${r.id}"]`)).focus();
    await sendKeys({ press: "ArrowRight" });
    await sendKeys({ press: "Enter" });
    await until(() => /moved/.test(view.shadowRoot!.querySelector('[role="status"]')!.textContent!));
    expect((await saved(r.id)).start_hour).to.equal("20:15:00");
  });

  it("shows the engine's refusal in words when the table is taken", async () => {
    const a = await book("Stays", "S4");
    await book("Holder", "S5");
    const el = await openConsole(`/console/timeline/${slot.date}`);
    const view = await viewOf(el, "bc-timeline-view");
    (await shown<HTMLButtonElement>(view, `.hold[data-id="${a.id}"]`)).focus();
    await sendKeys({ press: "ArrowDown" });
    await sendKeys({ press: "Enter" });
    const alert = await shown(view, '[role="alert"]');
    // the table by its name, not its id
    expect(alert.textContent!.trim()).to.equal("Table S5 is taken at this time.");
    expect((await saved(a.id)).tables.map((t) => t.name)).to.deep.equal(["S4"]);
    await expect(await settled(el)).to.be.accessible();
    // and in the console's language
    el.locale = "it";
    await until(() => /Tempo|Cronologia|Sequenza|·/.test(view.shadowRoot!.querySelector("h1")!.textContent!));
    (await shown<HTMLButtonElement>(view, `.hold[data-id="${a.id}"]`)).focus();
    await sendKeys({ press: "ArrowDown" });
    await sendKeys({ press: "Enter" });
    await until(
      () =>
        /S5/.test(view.shadowRoot!.querySelector('[role="alert"]')?.textContent ?? "") &&
        !/Table S5/.test(view.shadowRoot!.querySelector('[role="alert"]')!.textContent!),
    );
    expect(view.shadowRoot!.querySelector('[role="alert"]')!.textContent!.trim()).to.equal(
      "Il tavolo S5 è occupato a quest'ora.",
    );
  });
});

describe("the timeline's geometry", () => {
  it("places holds in minutes of the day, past midnight beyond 1440, and spans whole hours", () => {
    const r = {
      id: 1,
      status: "ACCEPTED",
      start_hour: "23:30:00",
      end_date: "2031-01-02T01:00:00",
      tables: [{ id: 7 }],
    } as unknown as Reservation;
    const holds = holdsOf([r, { ...r, id: 2, status: "CANCELLED" }], "2031-01-01");
    expect(holds.map((h) => [h.tableId, h.start, h.end])).to.deep.equal([[7, 1410, 1500]]);
    expect(spanOf(holds, [])).to.deep.equal({ from: 1380, to: 1500 });
  });
});
