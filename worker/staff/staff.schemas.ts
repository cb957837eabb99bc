/** A member of staff as the API shows them, and what an owner sends to invite or change one. */
import { z } from "@hono/zod-openapi";
import { emailField, pathId } from "../lib/openapi";
import { ROLES } from "./roles";
import type { StaffRow } from "./staff.repo";

export const StaffIdParams = z.object({ property_id: pathId("property_id"), staff_id: pathId("staff_id") });

const role = z.enum(ROLES).openapi({
  description:
    "host: the evening (bookings, walk-ins, seating, moves, guests' notes); manager: a host's, plus the catalog, guests, refunds, booking links, the audit; owner: a manager's, plus staff, apps, payments account, profile, password",
  example: "host",
});

export const StaffSchema = z
  .object({
    id: z.number().int(),
    name: z.string().nullable().openapi({ description: "null until an invitee with no name given accepts" }),
    email: z.string().nullable().openapi({ description: "null for the property's own account" }),
    role,
    active: z.boolean().openapi({ description: "false: deactivated, cannot sign in" }),
    account: z.boolean().openapi({
      description: "the property's own username and password (its first owner), not an invited person",
    }),
    pin_set: z
      .boolean()
      .openapi({ description: "whether the member has a PIN to switch to at a shared tablet" }),
    invite_expires_at: z
      .string()
      .nullable()
      .openapi({ description: "while an invitation waits to be accepted: when it expires" }),
    created_at: z.string(),
    last_sign_in_at: z.string().nullable(),
  })
  .openapi("StaffMember");

export const InviteBody = z
  .object({
    email: emailField,
    name: z.string().trim().min(1).max(100).optional(),
    role,
  })
  .openapi("StaffInvite");

export const StaffChangeBody = z
  .object({
    role: role.optional(),
    active: z
      .boolean()
      .optional()
      .openapi({ description: "false deactivates (as DELETE), true lets them back" }),
    pin: z
      .string()
      .regex(/^\d{4,6}$/, "4 to 6 digits")
      .nullable()
      .optional()
      .openapi({
        description:
          "4 to 6 digits (stored hashed); null removes it. Members may set their own in the console",
      }),
  })
  .openapi("StaffChange");

export function toStaffDto(s: StaffRow) {
  return {
    id: s.id,
    name: s.name,
    email: s.email,
    role: s.role,
    active: s.active,
    account: s.account,
    pin_set: s.pinHash !== null,
    invite_expires_at: s.passwordHash === null && !s.account ? s.inviteExpiresAt : null,
    created_at: s.createdAt,
    last_sign_in_at: s.lastSignInAt,
  };
}
