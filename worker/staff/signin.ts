/**
 * A member of staff's own sign-in: their email and password, with the limits and equal answers of
 * the property's own sign-in (properties/accounts.ts): the guess is spent first, an unknown email
 * costs the same password hash as a known one, and a wrong email and a wrong password answer alike.
 * The same email may be staff at several restaurants: the password picks the one it is of (the one
 * signed in to last, when it is of several).
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { verifyPassword } from "../lib/crypto";
import { rememberDevice, spendGuess } from "../properties/signin-limits";
import { emailKey, membersByEmail, type StaffRow } from "./staff.repo";

type DirectoryRow = Awaited<ReturnType<typeof membersByEmail>>[number]["entry"];

export type StaffCheck =
  | { ok: true; member: StaffRow; entry: DirectoryRow }
  | { ok: false; why: "wrong" | "limited" };

/** The account a guess on this email spends from (the sign-in limits' budgets). */
export const staffAccountKey = (email: string) => `staff:${emailKey(email.slice(0, 254))}`;

export async function checkStaffAccount(
  c: Context<AppEnv>,
  email: string,
  password: string,
): Promise<StaffCheck> {
  const account = staffAccountKey(email);
  if (!(await spendGuess(c, account))) return { ok: false, why: "limited" };
  const candidates = await membersByEmail(c.get("control"), emailKey(email.slice(0, 254)));
  const guess = password.slice(0, 200);
  // an unknown email hashes once too: it answers as slowly as a wrong password
  if (!candidates.length) await verifyPassword(guess, undefined);
  for (const found of candidates) {
    if (await verifyPassword(guess, found.member.passwordHash)) {
      await rememberDevice(c, account);
      return { ok: true, ...found };
    }
  }
  return { ok: false, why: "wrong" };
}
