import { describe, expect, it } from "vitest";
import { call, newClient, seedCatalog } from "./helpers";

describe("smoke", () => {
  it("creates a client, a token, and a catalog", async () => {
    const client = await newClient();
    const props = await client.call("/api/v2/properties", { property: undefined });
    expect(props.status).toBe(200);
    const cat = await seedCatalog(client);
    expect(cat.group.table_ids).toEqual([cat.t1.id, cat.t2.id]);
    const rooms = await client.call("/api/v2/rooms");
    expect(rooms.json.data[0].tables.length).toBe(3);
    const health = await call("/healthz");
    expect(health.status).toBe(200);
  });
});
