/** PATCH /public/{public_key}/manage/{token}: the guest moves their own reservation. */
import { describe, expect, it } from "vitest";
import { expectProblem } from "./helpers";
import { messagesOf } from "./messages.helpers";
import { GUEST, smallRestaurant } from "./public.fixtures";
import { receiverHook, subscribe, verified, waitFor } from "./webhooks.helpers";

async function booked(r: Awaited<ReturnType<typeof smallRestaurant>>, hour = "19:00", pax = 2) {
  const res = await r.guest.book({ service_id: r.service.id, date: r.date, hour, pax, guest: GUEST });
  expect(res.status, res.text).toBe(201);
  return res.json.data[0] as { manage_token: string };
}

const idOf = async (r: Awaited<ReturnType<typeof smallRestaurant>>, hour: string) =>
  (await r.client.call(`/api/v2/reservations?start_date=${r.date}&end_date=${r.date}&start_hour=${hour}`))
    .json.data[0].id as number;

describe("PATCH /public/{public_key}/manage/{token}", () => {
  it("moves the time in one step: the integrator API shows it and RESERVATION_UPDATED carries previous_attributes", async () => {
    const r = await smallRestaurant();
    const hook = await receiverHook();
    const sub = await subscribe(r.client, hook.url, "RESERVATION_UPDATED");
    const { manage_token } = await booked(r);
    const id = await idOf(r, "19:00:00");
    const res = await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { hour: "20:00" } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data[0]).toMatchObject({
      status: "ACCEPTED",
      date: r.date,
      hour: "20:00:00",
      pax: 2,
      service: { id: r.service.id, name: "Dinner" },
    });
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const stored = (await r.client.call(`/api/v2/reservations/${id}`)).json.data[0];
    expect(stored).toMatchObject({ start_day: r.date, start_hour: "20:00:00", pax: 2 });
    expect(stored.tables.map((t: { id: number }) => t.id)).toEqual([r.table.id]);
    const messages = await waitFor("the update's webhook", async () => {
      const got = await hook.received();
      return got.length >= 1 && got;
    });
    const payload = verified(sub.secret, messages[0]!);
    expect(payload.type).toBe("RESERVATION_UPDATED");
    expect(payload.data.reservation).toMatchObject({ id, start_hour: "20:00:00" });
    expect(payload.data.previous_attributes).toMatchObject({ start_hour: "19:00:00" });
    const history = (await r.client.call(`/api/v2/reservations/${id}/history`)).json.data;
    expect(history.at(-1)).toMatchObject({ actor: "guest" });
    // the guest hears of their own change too, in the change's own batch
    const templates = (await messagesOf(r.client, id)).map((m) =>
      `${m.template} ${m.recipient ?? ""}`.trim(),
    );
    expect(templates, templates.join()).toContain("change guest");
  });

  it("keeps the old time when the new one is taken: 409 with alternatives, nothing moved", async () => {
    const r = await smallRestaurant();
    const { manage_token } = await booked(r, "19:00");
    // The one table is someone else's from 20:00.
    expect(
      (
        await r.guest.book({
          service_id: r.service.id,
          date: r.date,
          hour: "20:00",
          pax: 2,
          guest: { ...GUEST, email: "other@example.com" },
        })
      ).status,
    ).toBe(201);
    const res = await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { hour: "20:00" } });
    expectProblem(res, 409, "time no longer available");
    expect(res.json.alternatives).toEqual(expect.any(Array));
    const mine = await r.guest.call(`/manage/${manage_token}`);
    expect(mine.json.data[0]).toMatchObject({ status: "ACCEPTED", hour: "19:00:00" });
    // And the old table is still held at the old time.
    expectProblem(
      await r.guest.book({
        service_id: r.service.id,
        date: r.date,
        hour: "19:00",
        pax: 2,
        guest: { ...GUEST, email: "third@example.com" },
      }),
      409,
      "time no longer available",
    );
  });

  it("moves the date and the party size by the rules of an online booking", async () => {
    const r = await smallRestaurant({ max_online_pax: 4 });
    const { manage_token } = await booked(r);
    const next = new Date(Date.parse(`${r.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const moved = await r.guest.call(`/manage/${manage_token}`, {
      method: "PATCH",
      body: { date: next, pax: 1 },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json.data[0]).toMatchObject({ date: next, hour: "19:00:00", pax: 1 });
    // Over the online limit: 400 naming pax; no table for 3: the time is not available for them.
    expectProblem(
      await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { pax: 5 } }),
      400,
      "invalid input data",
    );
    expectProblem(
      await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { pax: 3 } }),
      409,
      "time no longer available",
    );
    // Off the grid, or outside the service's hours.
    expect(
      (await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { hour: "21:30" } })).status,
    ).toBe(403);
    expect((await r.guest.call(`/manage/${manage_token}`)).json.data[0]).toMatchObject({
      date: next,
      pax: 1,
      hour: "19:00:00",
    });
  });

  it("refuses a change once online cancellation has closed, on a cancelled reservation, and bad input", async () => {
    const r = await smallRestaurant();
    const { manage_token } = await booked(r);
    expectProblem(
      await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: {} }),
      400,
      "invalid input data",
    );
    expectProblem(
      await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { hour: "19:15:30" } }),
      400,
      "invalid input data",
    );
    expectProblem(
      await r.guest.call(`/manage/not-a-token-00000000000000000000`, {
        method: "PATCH",
        body: { hour: "19:15" },
      }),
      404,
      "reservation not found",
    );
    expect((await r.guest.call(`/manage/${manage_token}`, { method: "DELETE" })).status).toBe(200);
    expectProblem(
      await r.guest.call(`/manage/${manage_token}`, { method: "PATCH", body: { hour: "19:15" } }),
      403,
      "reservation not available",
    );

    const late = await smallRestaurant({ cancel_notice: 60 * 24 * 30 });
    const t = await booked(late);
    expectProblem(
      await late.guest.call(`/manage/${t.manage_token}`, { method: "PATCH", body: { hour: "19:15" } }),
      403,
      "cancel notice passed",
    );
  });
});
