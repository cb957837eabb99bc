/**
 * A restaurant's own sign-in, shared by every page that asks for it (the OAuth pages and the
 * console): the account check with its limits, and the password stamp that dates a sign-in.
 * Attempts are limited (./signin-limits.ts: a device that signed in before on its own budget, any
 * other per address and per account); a wrong username and a wrong password answer the same, and
 * an unknown username costs the same password hash as a known one.
 */
import type { Context } from "hono";
import type { AppEnv, ControlDb } from "../env";
import { verifyPassword } from "../lib/crypto";
import { normaliseUsername, usernameKey } from "../lib/username";
import { type DirectoryRow, findByUsername, getEntry } from "../shards/directory.repo";
import { rememberDevice, spendGuess } from "./signin-limits";

export type AccountCheck = { ok: true; entry: DirectoryRow } | { ok: false; why: "wrong" | "limited" };

/** The salt of a password hash: it changes with every new password, so it dates a sign-in. */
export const passwordStamp = (hash: string | null | undefined): string | null => hash?.split("$")[2] ?? null;

/** Whether this username and password are a live property's, within the sign-in limits. */
export async function checkAccount(
  c: Context<AppEnv>,
  rawUsername: string,
  password: string,
): Promise<AccountCheck> {
  const key = usernameKey(normaliseUsername(rawUsername.slice(0, 400))) ?? "";
  if (!(await spendGuess(c, key))) return { ok: false, why: "limited" };
  const entry = key ? await findByUsername(c.get("control"), key) : undefined;
  // verifyPassword hashes even without an entry: an unknown username takes as long as a wrong password.
  const right = await verifyPassword(password.slice(0, 200), entry?.passwordHash);
  if (!entry || !right) return { ok: false, why: "wrong" };
  await rememberDevice(c, key);
  return { ok: true, entry };
}

/** A signed-in page proving the account's password again (the console's password change), within the sign-in's limits. */
export async function checkCurrentPassword(
  c: Context<AppEnv>,
  entry: DirectoryRow,
  password: string,
): Promise<"right" | "wrong" | "limited"> {
  if (!(await spendGuess(c, entry.usernameKey ?? `property:${entry.id}`))) return "limited";
  return (await verifyPassword(password.slice(0, 200), entry.passwordHash)) ? "right" : "wrong";
}

/** The property a sign-in reaches, while it exists and its password is still the one signed in with. */
export async function signedInProperty(
  control: ControlDb,
  propertyId: number,
  stamp: string,
): Promise<DirectoryRow | undefined> {
  const entry = await getEntry(control, propertyId);
  if (!entry || entry.deletedAt || passwordStamp(entry.passwordHash) !== stamp) return undefined;
  return entry;
}
