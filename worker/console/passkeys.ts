/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): a signed-in member adds one to their account
 * and signs in with it on any device, no email nor password typed. The relying party is
 * PUBLIC_ORIGIN's host, the expected origin PUBLIC_ORIGIN itself. Sign-in asks for a discoverable
 * credential (the device offers the passkeys it holds for this site); its challenge waits 5 minutes
 * under a cookie of its own, and is spent by the first answer.
 *   GET    /console/passkeys              one's own passkeys
 *   POST   /console/passkeys/options      the options to create one (signed in)
 *   POST   /console/passkeys              the browser's answer: the passkey kept
 *   DELETE /console/passkeys/:id          one of one's own removed
 *   POST   /console/passkey/options       the options to sign in with one (signed out)
 *   POST   /console/passkey               the browser's answer: signed in
 */
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import { isoBase64URL } from "@simplewebauthn/server/helpers";
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { ConsolePasskeyAnswer } from "../../shared/console";
import { config } from "../config";
import type { AppEnv } from "../env";
import { ApiError } from "../errors";
import { randomToken, sha256Hex } from "../lib/crypto";
import { callerKey } from "../lib/middleware";
import { addSeconds, nowIso } from "../lib/time";
import { getEntry } from "../shards/directory.repo";
import * as keys from "../staff/passkeys.repo";
import { accepted, getStaff } from "../staff/staff.repo";
import { CONSOLE_PATH, sessionOf } from "./session";
import { bodyOf, signedIn } from "./session.handlers";

type Ctx = Context<AppEnv>;

const COOKIE = "console_passkey";
const CHALLENGE_SECONDS = 300;
const Answer = ConsolePasskeyAnswer;

/** The browser's answers as @simplewebauthn/server reads them: one that is not refuses the passkey, as a wrong one does. */
const b64url = z.string().max(20_000);
const credentialFields = {
  id: b64url,
  rawId: b64url,
  authenticatorAttachment: z.enum(["cross-platform", "platform"]).optional(),
  clientExtensionResults: z.object({}).loose(),
  type: z.literal("public-key"),
};
const Registration = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url,
    attestationObject: b64url,
    authenticatorData: b64url.optional(),
    transports: z.array(z.string()).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url.optional(),
  }),
}) satisfies z.ZodType<RegistrationResponseJSON>;
const Authentication = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url,
    authenticatorData: b64url,
    signature: b64url,
    userHandle: b64url.optional(),
  }),
}) satisfies z.ZodType<AuthenticationResponseJSON>;

/** The relying party: PUBLIC_ORIGIN's host and the origin itself. */
function party(c: Ctx) {
  const origin = config(c.env).publicOrigin;
  return { rpID: new URL(origin).hostname, origin };
}

const refused = () => new ApiError("invalid_credentials", "this passkey was not accepted");

/** The member at this console (a platform's session has none). */
async function member(c: Ctx) {
  const { who, entry } = sessionOf(c);
  const found = who.staffId === null ? undefined : await getStaff(c.get("control"), entry.id, who.staffId);
  if (!found) throw new ApiError("invalid_request", "a platform's session has no passkeys", { status: 403 });
  return found;
}

const registrationKey = (sessionId: number) => sha256Hex(`passkey-register:${sessionId}`);

export async function listPasskeys(c: Ctx) {
  const rows = await keys.passkeysOf(c.get("control"), (await member(c)).id);
  return c.json(
    { data: rows.map((k) => ({ id: k.id, created_at: k.createdAt, last_used_at: k.lastUsedAt })) },
    200,
  );
}

export async function registrationOptions(c: Ctx) {
  const m = await member(c);
  const { rpID } = party(c);
  const existing = await keys.passkeysOf(c.get("control"), m.id);
  const options = await generateRegistrationOptions({
    rpName: "Console",
    rpID,
    userName: m.email ?? sessionOf(c).entry.username ?? `staff-${m.id}`,
    userDisplayName: m.name ?? "",
    userID: new TextEncoder().encode(`staff:${m.id}`),
    attestationType: "none",
    excludeCredentials: existing.map((k) => ({ id: k.credentialId, transports: k.transports ?? [] })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await keys.keepChallenge(c.get("control"), {
    tokenHash: await registrationKey(sessionOf(c).row.id),
    challenge: options.challenge,
    staffId: m.id,
    expiresAt: addSeconds(nowIso(), CHALLENGE_SECONDS),
  });
  return c.json({ data: [options] }, 200);
}

export async function register(c: Ctx) {
  const m = await member(c);
  const body = await bodyOf(c, Answer);
  const pending = await keys.spendChallenge(
    c.get("control"),
    await registrationKey(sessionOf(c).row.id),
    nowIso(),
  );
  if (!pending || pending.staffId !== m.id) throw refused();
  const { rpID, origin } = party(c);
  const response = Registration.safeParse(body.response);
  if (!response.success) throw refused();
  const verified = await verifyRegistrationResponse({
    response: response.data,
    expectedChallenge: pending.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => undefined);
  const credential = verified?.verified ? verified.registrationInfo?.credential : undefined;
  if (!credential) throw refused();
  const kept = await keys.addPasskey(c.get("control"), {
    staffId: m.id,
    credentialId: credential.id,
    publicKey: isoBase64URL.fromBuffer(credential.publicKey),
    counter: credential.counter,
    transports: credential.transports ?? [],
  });
  return c.json({ data: [{ id: kept.id, created_at: kept.createdAt, last_used_at: null }] }, 201);
}

export async function removePasskey(c: Ctx) {
  const id = Number(c.req.param("id"));
  const removed =
    Number.isSafeInteger(id) && (await keys.removePasskey(c.get("control"), (await member(c)).id, id));
  if (!removed) throw new ApiError("not_found", "no such passkey of yours");
  return c.body(null, 204);
}

export async function signInOptions(c: Ctx) {
  const { success } = await c.env.SIGNIN_RATE_LIMITER.limit({
    key: `passkey-ip:${callerKey(c)}`,
  });
  if (!success)
    throw new ApiError("too_many_requests", "too many sign-in attempts; retry after 60 seconds", {
      headers: { "Retry-After": "60" },
    });
  const options = await generateAuthenticationOptions({ rpID: party(c).rpID, userVerification: "preferred" });
  const token = randomToken("", 24);
  await keys.keepChallenge(c.get("control"), {
    tokenHash: await sha256Hex(token),
    challenge: options.challenge,
    staffId: null,
    expiresAt: addSeconds(nowIso(), CHALLENGE_SECONDS),
  });
  const secure = new URL(c.req.url).protocol === "https:";
  setCookie(c, COOKIE, token, {
    httpOnly: true,
    secure,
    sameSite: "Strict",
    path: CONSOLE_PATH,
    maxAge: CHALLENGE_SECONDS,
  });
  return c.json({ data: [options] }, 200);
}

export async function signInWithPasskey(c: Ctx) {
  const body = await bodyOf(c, Answer);
  const token = getCookie(c, COOKIE) ?? "";
  deleteCookie(c, COOKIE, { path: CONSOLE_PATH });
  const pending =
    token.length <= 64
      ? await keys.spendChallenge(c.get("control"), await sha256Hex(token), nowIso())
      : undefined;
  const found =
    pending && typeof body.response.id === "string"
      ? await keys.findPasskey(c.get("control"), body.response.id)
      : undefined;
  const entry = found && (await getEntry(c.get("control"), found.member.propertyId));
  if (!pending || !found || !entry || entry.deletedAt || !found.member.active || !accepted(found.member))
    throw refused();
  const { rpID, origin } = party(c);
  const response = Authentication.safeParse(body.response);
  if (!response.success) throw refused();
  const verified = await verifyAuthenticationResponse({
    response: response.data,
    expectedChallenge: pending.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: found.passkey.credentialId,
      publicKey: isoBase64URL.toBuffer(found.passkey.publicKey),
      counter: found.passkey.counter,
      transports: found.passkey.transports ?? [],
    },
    requireUserVerification: false,
  }).catch(() => undefined);
  if (!verified?.verified) throw refused();
  await keys.usePasskey(c.get("control"), found.passkey.id, verified.authenticationInfo.newCounter, nowIso());
  return signedIn(c, found.member, entry);
}
