import { describe, expect, it } from "vitest";
import { book, newClient, seedRestaurant } from "./helpers";
import { receiverHook, subscribe, verified, waitFor } from "./webhooks.helpers";

describe("webhook delivery", () => {
  it("delivers RESERVATION_CREATED, signed, to a real receiver", async () => {
    const client = await newClient();
    const { date, service } = await seedRestaurant(client);
    const hook = await receiverHook();
    const sub = await subscribe(client, hook.url, "RESERVATION_CREATED");
    const created = await book(client, { start_date: date, service_id: service.id });
    expect(created.status).toBe(201);
    const [message] = await waitFor("a delivery", async () => {
      const got = await hook.received();
      return got.length > 0 && got;
    });
    const payload = verified(sub.secret, message!);
    expect(payload.type).toBe("RESERVATION_CREATED");
    expect(payload.data.reservation.id).toBe(created.json.data[0].id);
  });
});
