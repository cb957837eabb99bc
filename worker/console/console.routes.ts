/**
 * The restaurant's console (docs/console.md): its pages, its session and a platform's link.
 * Private to the console's own page (JSON, same origin, cookie session), so not in the OpenAPI
 * document; the console's data comes from the integrator API served again at /console/api/v2.
 *   POST   /console/session      sign in {email | username, password}
 *   GET    /console/session      the session (401 when signed out)
 *   DELETE /console/session      sign out (X-CSRF-Token)
 *   GET    /console/session/switch  who can take the tablet: active members with a PIN
 *   POST   /console/session/switch  {staff_id, pin}: that member at this console from now on
 *   POST   /console/password     {old_password, new_password}: one's own (X-CSRF-Token)
 *   POST   /console/invite/:token  {name, password}: an invitation accepted, signed in
 *   /console/passkeys, /console/passkey  a member's passkeys, and signing in with one (passkeys.ts)
 *   POST   /console/password/forgot  {username}: a reset link to the property's email (202)
 *   POST   /console/password/reset   {token, password}: the link's new password (no session)
 *   GET    /console/link/:token  a platform's single-use link
 *   GET    /console/live         the live feed (WebSocket)
 */
import { Hono } from "hono";
import { every } from "hono/combine";
import type { AppEnv } from "../env";
import { CONSOLE_RULES } from "../staff/roles";
import { openLiveFeed } from "./live";
import { changePassword, switchable, switchUser } from "./member.handlers";
import { SHELL_PATHS, showShell } from "./pages";
import {
  listPasskeys,
  register,
  registrationOptions,
  removePasskey,
  signInOptions,
  signInWithPasskey,
} from "./passkeys";
import { forgotPassword, resetPassword } from "./reset";
import { requireRole } from "./roles";
import { requireConsoleSession } from "./session";
import { acceptInvitation, followLink, showSession, signIn, signOut } from "./session.handlers";

/** A signed-in member, with the role the roles table asks of the route (every member's, for these). */
const member = () => every(requireConsoleSession(), requireRole(CONSOLE_RULES, "/console"));

export const consoleRouter = new Hono<AppEnv>()
  .post("/session", signIn)
  .get("/session", member(), showSession)
  .delete("/session", member(), signOut)
  .get("/session/switch", member(), switchable)
  .post("/session/switch", member(), switchUser)
  .post("/password", member(), changePassword)
  .post("/invite/:token", acceptInvitation)
  .get("/passkeys", member(), listPasskeys)
  .post("/passkeys/options", member(), registrationOptions)
  .post("/passkeys", member(), register)
  .delete("/passkeys/:id", member(), removePasskey)
  .post("/passkey/options", signInOptions)
  .post("/passkey", signInWithPasskey)
  .post("/password/forgot", forgotPassword)
  .post("/password/reset", resetPassword)
  .get("/link/:token", followLink)
  .get("/live", member(), openLiveFeed);

for (const path of SHELL_PATHS) consoleRouter.get(path.replace(/^\/console/, "") || "/", showShell);
