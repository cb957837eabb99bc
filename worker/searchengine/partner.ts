/**
 * The search engine partner's HTTP Basic credentials, through hono's basic-auth middleware. Its
 * refusal is ours: the one problem shape with the partner's challenge, after counting the failure.
 */
import type { Context, MiddlewareHandler } from "hono";
import { basicAuth } from "hono/basic-auth";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { sha256Hex, timingSafeEqual } from "../lib/crypto";
import { callerKey } from "../lib/middleware";
import { searchengineConfig } from "./config";

const CHALLENGE = { "WWW-Authenticate": 'Basic realm="searchengine", charset="UTF-8"' };

/** Compared as digests: no timing or length to learn. */
const same = async (given: string, expected: string) =>
  timingSafeEqual(await sha256Hex(given), await sha256Hex(expected));

/** Whether these are the partner's credentials; none configured: nobody passes. */
async function isPartner(user: string, password: string, c: Context): Promise<boolean> {
  const expected = searchengineConfig((c as Context<AppEnv>).env).credentials;
  if (!expected) return false;
  const [userMatches, passwordMatches] = await Promise.all([
    same(user, expected.user),
    same(password, expected.password),
  ]);
  return userMatches && passwordMatches;
}

/** Guessing costs a request each: failed attempts are limited per address (IPv6 per /64). */
async function refuse(context: Context): Promise<never> {
  const c = context as Context<AppEnv>;
  const { success } = await c.env.PUBLIC_RATE_LIMITER.limit({ key: `bad-partner:${callerKey(c)}` });
  if (!success)
    throw new ApiError("too_many_requests", "too many failed authentications; retry after 60 seconds", {
      headers: { "Retry-After": "60" },
    });
  throw new ApiError("authentication_required", "send the search engine partner's credentials (HTTP Basic)", {
    headers: CHALLENGE,
  });
}

export function partnerAuth(): MiddlewareHandler<AppEnv> {
  return basicAuth({
    realm: "searchengine",
    verifyUser: isPartner,
    // basic-auth answers with what this returns; throwing lets the one error handler answer instead.
    invalidUserMessage: refuse,
    onAuthSuccess: (c) => {
      c.header("Cache-Control", "no-store");
    },
  });
}
