/**
 * The console's own routes under /console (its session and password): private to its page, so
 * not in the OpenAPI document. The Worker validates their bodies and shapes their answers with
 * these; the console takes its types from them (types only: no zod in its bundle).
 */
import { z } from "zod";
import { LOCALES } from "./schemas";

/** A new password: what every password of the service must be. */
export const newPassword = z.string().min(8).max(200);

/** The console's roles, from the most trusted (worker/staff/roles.ts ranks them). */
export const CONSOLE_ROLES = ["owner", "manager", "host"] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

/** POST /console/session: a member's email, or the property's username (its first owner) */
export const ConsoleSignIn = z
  .object({
    username: z.string().min(1).max(400).optional(),
    email: z.string().min(1).max(254).optional(),
    password: z.string().min(1).max(200),
  })
  .refine((b) => (b.username === undefined) !== (b.email === undefined), {
    message: "send either email or username",
    path: ["email"],
  });

/** POST /console/invite/{token}: the invitee's name and password */
export const ConsoleInviteAccept = z.object({
  name: z.string().trim().min(1).max(100),
  password: newPassword,
});

/** POST /console/session/switch: the shared tablet taken by a member with their PIN */
export const ConsoleSwitch = z.object({
  staff_id: z.number().int().positive(),
  pin: z.string().regex(/^\d{4,6}$/, "4 to 6 digits"),
});

/** POST /console/passkey, /console/passkeys: the browser's answer to the WebAuthn ceremony */
export const ConsolePasskeyAnswer = z.object({ response: z.record(z.string(), z.unknown()) });

/** A member who can take the tablet (GET /console/session/switch) */
export interface ConsoleSwitchable {
  id: number;
  name: string | null;
  role: ConsoleRole;
}

/** A passkey of the member at the console (GET /console/passkeys) */
export interface ConsolePasskey {
  id: number;
  created_at: string;
  last_used_at: string | null;
}

/** POST /console/password (a session's write) */
export const ConsolePasswordChange = z.object({
  old_password: z.string().min(1).max(200),
  new_password: newPassword,
});

/** POST /console/password/forgot */
export const ConsolePasswordForgot = z.object({ username: z.string().min(1).max(400) });

/** POST /console/password/reset: the emailed link's token and the new password */
export const ConsolePasswordReset = z.object({ token: z.string().min(1).max(100), password: newPassword });

/** The signed-in restaurant, as GET and POST /console/session answer it (in `{"data": [session]}`). */
export const ConsoleSession = z.object({
  property: z.object({
    id: z.number().int(),
    name: z.string(),
    timezone: z.string(),
    locale: z.enum(LOCALES),
  }),
  /** every write sends it back in X-CSRF-Token */
  csrf_token: z.string(),
  locale: z.string(),
  expires_at: z.string(),
  /** the member at the console (a platform's session: null) */
  staff: z
    .object({ id: z.number().int(), name: z.string().nullable(), role: z.enum(CONSOLE_ROLES) })
    .nullable(),
  role: z.enum(CONSOLE_ROLES),
  /** who the audit log names for this session's changes */
  actor: z.object({
    kind: z.enum(["staff", "app"]),
    id: z.number().int().nullable(),
    name: z.string().nullable(),
  }),
});
export type ConsoleSession = z.output<typeof ConsoleSession>;
