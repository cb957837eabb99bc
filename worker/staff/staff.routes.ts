/**
 * {base_url}/properties/{property_id}/staff: a restaurant's staff, each with a sign-in of their own
 * to its console and a role. In the console, the owner's (a member may set their own PIN).
 */
import { createRoute, type z } from "@hono/zod-openapi";
import {
  AUTHED,
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  listEnvelope,
  PropertyIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { changeMember, deactivateMember, inviteMember, listMembers } from "./staff.handlers";
import { InviteBody, StaffChangeBody, StaffIdParams, StaffSchema } from "./staff.schemas";

const tags = ["Staff"];
const security = bearerSecurity;
const scoped = ["property_not_found", "property_forbidden", "sandbox_expired", "role_required"] as const;
const body = <T extends z.ZodType>(schema: T) => ({
  content: { "application/json": { schema } },
  required: true,
});

const listRoute = createRoute({
  method: "get",
  path: "/{property_id}/staff",
  tags,
  security,
  summary: "List the restaurant's staff",
  description:
    "Every member, the property's own account (its first owner) first, deactivated ones and pending invitations included. One page: `next_cursor` is null.",
  request: { params: PropertyIdParam },
  responses: {
    200: json(listEnvelope(StaffSchema), "the members"),
    ...errorResponses(...AUTHED, ...scoped),
  },
});

const inviteRoute = createRoute({
  method: "post",
  path: "/{property_id}/staff",
  tags,
  security,
  summary: "Invite a member of staff",
  description:
    "Emails the person a single-use link (7 days) to the console, where they choose their name and password and are signed in. " +
    "Inviting an email that has not accepted yet sends a new link (the old one stops working); one already on the staff is 409.",
  request: { params: PropertyIdParam, body: body(InviteBody) },
  responses: {
    201: json(envelope(StaffSchema), "the member, with `invite_expires_at`"),
    ...errorResponses(
      ...AUTHED,
      ...scoped,
      "staff_exists",
      "idempotency_key_in_use",
      "idempotency_key_reused",
    ),
  },
});

const changeRoute = createRoute({
  method: "patch",
  path: "/{property_id}/staff/{staff_id}",
  tags,
  security,
  summary: "Change a member's role, PIN or standing",
  description:
    "A changed role takes effect at the member's next request and closes their console's live sockets; `active: false` ends their sessions at once. " +
    "The restaurant keeps one active owner who can sign in: demoting or deactivating the last is 409.",
  request: { params: StaffIdParams, body: body(StaffChangeBody) },
  responses: {
    200: json(envelope(StaffSchema), "the member"),
    ...errorResponses(...AUTHED, ...scoped, "staff_not_found", "last_owner"),
  },
});

const deleteRoute = createRoute({
  method: "delete",
  path: "/{property_id}/staff/{staff_id}",
  tags,
  security,
  summary: "Deactivate a member",
  description:
    "The member can no longer sign in; their sessions end and their live sockets close at once. They stay on the list (and in the history) and can be let back with `active: true`.",
  request: { params: StaffIdParams },
  responses: {
    200: json(envelope(StaffSchema), "the member, deactivated"),
    ...errorResponses(...AUTHED, ...scoped, "staff_not_found", "last_owner"),
  },
});

export const staffRouter = createRouter()
  .openapi(listRoute, async (c) => c.json(await listMembers(c, c.req.valid("param").property_id), 200))
  .openapi(inviteRoute, async (c) =>
    c.json(await inviteMember(c, c.req.valid("param").property_id, c.req.valid("json")), 201),
  )
  .openapi(changeRoute, async (c) => {
    const { property_id, staff_id } = c.req.valid("param");
    return c.json(await changeMember(c, property_id, staff_id, c.req.valid("json")), 200);
  })
  .openapi(deleteRoute, async (c) => {
    const { property_id, staff_id } = c.req.valid("param");
    return c.json(await deactivateMember(c, property_id, staff_id), 200);
  });
