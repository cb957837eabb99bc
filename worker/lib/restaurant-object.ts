/**
 * The restaurant's own Durable Object (worker/restaurant/restaurant.ts), one per property, by
 * name. Its stub is typed by the RESTAURANT binding as `wrangler types` writes it, so its callers
 * get its RPC methods typed without importing the folder that defines it (which imports theirs).
 */
import type { Bindings, PropertyRow } from "../env";

export function restaurantObject(env: Bindings, propertyId: number) {
  return env.RESTAURANT.getByName(`property:${propertyId}`);
}

/** The console session a socket is opened for: the Worker names it in this header. */
export const SESSION_HEADER = "X-Console-Session";
/** "1" when that session was opened by the property's own username and password. */
export const ACCOUNT_HEADER = "X-Console-Account";

/** Whose sockets end: these sessions', those the property's own password opened, or every one. */
export type SocketsToEnd = number[] | "account" | "all";

/** Closes the live sockets of these console sessions of a property ("account", "all": see SocketsToEnd); answers how many. */
export function endSessionSockets(
  env: Bindings,
  propertyId: number,
  sessions: SocketsToEnd,
): Promise<number> {
  if (Array.isArray(sessions) && !sessions.length) return Promise.resolve(0);
  return restaurantObject(env, propertyId).endSessions(sessions);
}

/** The object's class, as the binding names it. */
export type Restaurant = Bindings["RESTAURANT"] extends DurableObjectNamespace<infer T> ? T : never;

/**
 * A property row as it crosses from the object to the Worker: its JSON columns as the text they
 * are stored as (what they hold is the caller's to validate, resolveSettings; RPC types only data
 * whose every field has a type).
 */
export type PropertyRowText = Omit<PropertyRow, "settings" | "position"> & {
  settings: string;
  position: string;
};

export const propertyToWire = (p: PropertyRow): PropertyRowText => ({
  ...p,
  settings: JSON.stringify(p.settings),
  position: JSON.stringify(p.position),
});

export const propertyFromWire = (p: PropertyRowText): PropertyRow => ({
  ...p,
  settings: JSON.parse(p.settings),
  position: JSON.parse(p.position),
});
