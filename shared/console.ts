/**
 * The console's own routes under /console (its session and password): private to its page, so
 * not in the OpenAPI document. The Worker validates their bodies and shapes their answers with
 * these; the console takes its types from them (types only: no zod in its bundle).
 */
import { z } from "zod";
import { LOCALES } from "./schemas";

/** A new password: what every password of the service must be. */
export const newPassword = z.string().min(8).max(200);

/** POST /console/session */
export const ConsoleSignIn = z.object({
  username: z.string().min(1).max(400),
  password: z.string().min(1).max(200),
});

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
});
export type ConsoleSession = z.output<typeof ConsoleSession>;
