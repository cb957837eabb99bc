/** An app connected to a restaurant, as the API shows it (GET /properties/{property_id}/apps). */
import { z } from "@hono/zod-openapi";
import { pathSegment } from "../lib/openapi";
import type { grantsOf } from "../shards/directory.repo";

export const ConnectedAppSchema = z
  .object({
    client_id: z.string().openapi({ description: "the app's OAuth client_id", example: "cl_3f9a..." }),
    name: z
      .string()
      .openapi({ description: "the app's name, as its maker registered it", example: "Table Planner" }),
    connected_at: z
      .string()
      .openapi({ description: "when the restaurant connected it", example: "2030-01-01T12:00:00.000Z" }),
  })
  .openapi("ConnectedApp");

export const ClientIdParam = z.object({
  client_id: pathSegment(200).openapi({ param: { name: "client_id", in: "path" }, example: "cl_3f9a..." }),
});

type Grant = Awaited<ReturnType<typeof grantsOf>>[number];

export const toConnectedAppDto = (g: Grant): z.infer<typeof ConnectedAppSchema> => ({
  client_id: g.clientId,
  name: g.name,
  connected_at: g.grantedAt,
});
