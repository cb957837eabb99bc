/**
 * How many password guesses a restaurant's account takes, and from whom, so that its guess limit
 * is not a lock a stranger can turn: a browser that signed in to the account before carries a
 * proof of it (a device cookie, HMAC under LINK_SECRET) and guesses on a budget of its own; any
 * other browser is counted per address (IPv6 per /64) and, for the account, on a larger budget
 * shared by every unknown device, so many addresses together still cannot guess fast.
 */
import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { config } from "../config";
import type { AppEnv } from "../env";
import { hmacBase64url, randomToken, timingSafeEqual } from "../lib/crypto";
import { callerKey } from "../lib/middleware";

const COOKIE = "signin_device";
/** The accounts a device remembers (the newest first): a host-stand tablet seldom holds more. */
const ACCOUNTS_PER_DEVICE = 4;
/** Browsers keep a cookie at most 400 days. */
const DEVICE_SECONDS = 400 * 86400;

type Budget = [limiter: "SIGNIN_RATE_LIMITER" | "SIGNIN_ACCOUNT_RATE_LIMITER", key: string];

interface Device {
  id: string;
  proofs: string[];
}

/** The device cookie as it came: its id and the account proofs it holds. */
function deviceOf(c: Context<AppEnv>): Device | undefined {
  const [id, ...proofs] = (getCookie(c, COOKIE) ?? "").slice(0, 400).split("~");
  return id && /^[\w-]{16,40}$/.test(id) ? { id, proofs: proofs.slice(0, ACCOUNTS_PER_DEVICE) } : undefined;
}

const proofOf = (secret: string, account: string, device: string) =>
  hmacBase64url(secret, `signin-device:${account}:${device}`, 16);

/** The device's id when it proves it signed in to `account` before. */
async function knownDevice(c: Context<AppEnv>, account: string): Promise<string | undefined> {
  const secret = config(c.env).linkSecret;
  const device = deviceOf(c);
  if (!secret || !device || !account) return undefined;
  const proof = await proofOf(secret, account, device.id);
  return device.proofs.some((p) => timingSafeEqual(p, proof)) ? device.id : undefined;
}

/** Spends one guess on `account` from this request's budgets; false when one of them is spent. */
export async function spendGuess(c: Context<AppEnv>, account: string): Promise<boolean> {
  const device = await knownDevice(c, account);
  const budgets: Budget[] = device
    ? [["SIGNIN_RATE_LIMITER", `signin-device:${account}:${device}`]]
    : [
        ["SIGNIN_RATE_LIMITER", `signin-ip:${callerKey(c)}`],
        ["SIGNIN_ACCOUNT_RATE_LIMITER", `signin-user:${account}`],
      ];
  for (const [limiter, key] of budgets) {
    if (!(await c.env[limiter].limit({ key })).success) return false;
  }
  return true;
}

/** After a right password: the browser remembers it signed in to `account` (its device cookie). */
export async function rememberDevice(c: Context<AppEnv>, account: string): Promise<void> {
  const secret = config(c.env).linkSecret;
  if (!secret || !account) return;
  const device = deviceOf(c) ?? { id: randomToken("", 18), proofs: [] };
  const proof = await proofOf(secret, account, device.id);
  const proofs = [proof, ...device.proofs.filter((p) => p !== proof)].slice(0, ACCOUNTS_PER_DEVICE);
  setCookie(c, COOKIE, [device.id, ...proofs].join("~"), {
    httpOnly: true,
    secure: new URL(c.req.url).protocol === "https:",
    sameSite: "Strict",
    path: "/",
    maxAge: DEVICE_SECONDS,
  });
}
