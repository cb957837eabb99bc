/**
 * {auth_url}/api-account/oauth2/connected-apps: a restaurant signs in and sees the apps (API
 * clients) connected to it; disconnecting one revokes its grant, which ends its tokens for the
 * restaurant and its webhook subscriptions there (worker/oauth/grants.ts). The client that
 * created the restaurant is listed but cannot be disconnected here.
 *   GET  /connected-apps              the sign-in, or the list once signed in
 *   POST /connected-apps              the sign-in form
 *   POST /connected-apps/disconnect   one app (client_id)
 *   POST /connected-apps/sign-out
 * Every POST answers 303 back to the list, so a reload never sends a form twice.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { disconnectApp, showConnectedApps, signInToApps, signOutOfApps } from "./apps.handlers";

export const appsRouter = new Hono<AppEnv>()
  .get("/connected-apps", showConnectedApps)
  .post("/connected-apps", signInToApps)
  .post("/connected-apps/disconnect", disconnectApp)
  .post("/connected-apps/sign-out", signOutOfApps);
