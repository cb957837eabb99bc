/** The properties a client acts on: list, find, create, update and delete. */

import type { Context } from "hono";
import { givenFields, recordChange } from "../audit/audit";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { namesNothing } from "../lib/crud";
import { decodeCursor, encodeCursor, idCursor } from "../lib/pagination";
import { endSessionSockets } from "../lib/restaurant-object";
import { authoriseProperty } from "./authorise";
import { changeCredentials, createProperty, deleteProperty, propertiesPage } from "./lifecycle";
import { toPropertyDto, updateProperty } from "./properties.repo";
import type { PropertyCreateBody, PropertyUpdateBody } from "./properties.schemas";

type Ctx = Context<AppEnv>;

export async function listProperties(c: Ctx, q: { limit: number; next_cursor?: string | undefined }) {
  const after = decodeCursor(q.next_cursor, idCursor);
  const client = c.get("client");
  const found = await propertiesPage(
    c.env,
    c.get("control"),
    client.id,
    q.limit,
    after?.id,
    client.propertyId,
  );
  const next = found.more && found.lastId !== undefined ? encodeCursor({ id: found.lastId }) : null;
  return { data: found.rows.map(toPropertyDto), next_cursor: next };
}

export async function getProperty(c: Ctx, id: number) {
  return { data: [toPropertyDto(await authoriseProperty(c, id))] };
}

export async function newProperty(c: Ctx, body: PropertyCreateBody) {
  const client = c.get("client");
  // A token from a restaurant's approval acts for that restaurant only, never for the client itself.
  if (client.propertyId !== null) {
    throw new ApiError(
      "insufficient_scope",
      "this token reaches one restaurant; create properties with a client_credentials token",
      {
        headers: { "WWW-Authenticate": 'Bearer realm="api", error="insufficient_scope"' },
      },
    );
  }
  const placement = { sandbox: !client.productionEnabled, sandboxDays: config(c.env).sandboxDays };
  const property = await createProperty(c.env, c.get("control"), client.id, body, placement);
  return { data: [toPropertyDto(property)] };
}

/** What only the client that created the property may do, never its console: delete it, or change its sign-in without the old password. */
function refuseConsole(c: Ctx, what: string) {
  if (c.get("client").console) throw new ApiError("property_forbidden", `the console cannot ${what}`);
}

export async function changeProperty(c: Ctx, id: number, { password, ...body }: PropertyUpdateBody) {
  const current = await authoriseProperty(c, id);
  if (password !== undefined || body.username !== undefined)
    refuseConsole(c, "change the sign-in here; use POST /console/password");
  // A PUT naming nothing ({}, unknown fields only, no body) answers the property as it is and writes nothing.
  if (password === undefined && namesNothing(body)) return { data: [toPropertyDto(current)] };
  const changed = await changeCredentials(c.get("control"), c.get("client").id, current, {
    username: body.username,
    password,
  });
  const updated = await updateProperty(c.get("db"), current, {
    ...body,
    ...(changed.passwordHash && { passwordHash: changed.passwordHash }),
  });
  // the console's sessions ended with the old password (by its stamp): their live sockets too
  if (changed.passwordHash) await endSessionSockets(c.env, id, "account");
  const fields = givenFields({ ...body, ...(password !== undefined && { password: true }) });
  await recordChange(c, { action: "updated", subject: "property", subjectId: id, fields });
  return { data: [toPropertyDto(updated)] };
}

export async function removeProperty(c: Ctx, id: number) {
  const property = await authoriseProperty(c, id, { allowExpired: true });
  refuseConsole(c, "delete its restaurant");
  await deleteProperty(c.get("db"), c.get("control"), c.get("client").id, property);
  await endSessionSockets(c.env, property.id, "all");
  return { data: [property.id] };
}
