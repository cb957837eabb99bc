import { expect } from "@open-wc/testing";
import type { Reservation } from "../../widget/console/api.js";
import { addDays } from "../../widget/format.js";
import { openConsole, settled, shown, signIn, useConsoleRestaurant, viewOf } from "./console-env.js";
import { freeTime, restaurant, staff, until } from "./env.js";

let date = "";
let lunch = 0;

async function book(first: string, hour: string) {
  const r = await staff("reservations", {
    method: "POST",
    body: {
      start_date: date,
      start_hour: hour,
      pax: 2,
      service_id: lunch,
      customer: { first_name: first, last_name: "Offline", email: `${first.toLowerCase()}@offline.example` },
    },
  });
  if (r.status !== 201) throw new Error(`booking: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data[0] as Reservation;
}

/** The wifi drops for the console: its requests fail as a dropped connection does, and the browser says offline. */
const realFetch = window.fetch;
function dropConnection() {
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) =>
    String(input instanceof Request ? input.url : input).includes("/console/api/")
      ? Promise.reject(new TypeError("Failed to fetch"))
      : realFetch(input, init);
  Object.defineProperty(navigator, "onLine", { configurable: true, get: () => false });
  window.dispatchEvent(new Event("offline"));
}
function restoreConnection() {
  window.fetch = realFetch;
  delete (navigator as unknown as { onLine?: boolean }).onLine;
  window.dispatchEvent(new Event("online"));
}

before(async () => {
  await useConsoleRestaurant();
  lunch = restaurant().services.find((s) => s.name === "Pranzo")!.id;
  date = (await freeTime(2, 4)).date;
});
afterEach(() => {
  if (window.fetch !== realFetch) restoreConnection();
});

describe("<booking-console>: a dropped connection", () => {
  beforeEach(async () => void (await signIn()));

  it("keeps the day readable under a banner, refuses a write in words, and catches up when the connection returns", async () => {
    const first = await book("Stays", "12:00:00");
    const el = await openConsole(`/console/day/${date}`);
    const view = await viewOf(el, "bc-day-view");
    await shown(view, `tr[data-id="${first.id}"]`);
    dropConnection();
    const banner = await until(() => el.shadowRoot!.querySelector<HTMLElement>('[part="offline"]'));
    expect(banner.getAttribute("role")).to.equal("alert");
    expect(banner.textContent).to.match(/No connection/);
    await expect(await settled(el)).to.be.accessible();
    // a seat is refused before it is sent, in words, and nothing changes on the server
    (await shown<HTMLButtonElement>(view, `tr[data-id="${first.id}"] button`)).click();
    const refused = await shown(view, `tr[data-id="${first.id}"] [role="alert"]`);
    expect(refused.textContent).to.match(/No connection: nothing was sent/);
    // another day cannot load, and says so; the day read before is still readable
    const next = addDays(date, 1);
    history.pushState(null, "", `/console/day/${next}`);
    window.dispatchEvent(new PopStateEvent("popstate"));
    await until(() =>
      /this cannot load/.test(el.shadowRoot!.querySelector("bc-day-view")!.shadowRoot!.textContent!),
    );
    history.back();
    await until(() => location.pathname === `/console/day/${date}`);
    const again = el.shadowRoot!.querySelector<HTMLElement>("bc-day-view")!;
    await shown(again, `tr[data-id="${first.id}"]`);
    // booked elsewhere meanwhile; then the connection returns: banner and alert gone, the new party shown
    const meanwhile = await book("Meanwhile", "12:30:00");
    restoreConnection();
    await until(() => !el.shadowRoot!.querySelector('[part="offline"]'));
    await shown(again, `tr[data-id="${meanwhile.id}"]`);
    expect(again.shadowRoot!.querySelector(`tr[data-id="${first.id}"] [role="alert"]`)).to.equal(null);
    expect((await staff(`reservations/${first.id}`)).body.data[0].checkin_date).to.equal(undefined);
  });
});
