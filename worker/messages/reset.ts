/**
 * The console's password reset message in the outbox: written with no reservation (reservation_id
 * null), to the property's email, in the restaurant's language, then sent like every message
 * (delivery.ts). The row keeps the link's nonce and the token's hash, never the token: the token
 * is made again from the LINK_SECRET when the message is written out, as manage links are.
 */
import type { Config } from "../config";
import type { Db } from "../env";
import { now } from "../lib/clock";
import { accountLook, accountMime } from "./account-mail";
import { storedToken } from "./links";
import { insertAccountMessage } from "./messages.repo";
import { renderReset } from "./reset.render";
import type { Locale, ResetSnapshot } from "./types";

/** How long a reset link works. */
export const RESET_MINUTES = 30;

export interface ResetMessage {
  propertyId: number;
  to: string;
  locale: Locale;
  link: { nonce: string; hash: string; expiresAt: string };
}

/** Writes the reset message to the property's outbox, due at once. */
export async function writeResetMessage(db: Db, m: ResetMessage): Promise<void> {
  const snapshot: ResetSnapshot = {
    reset: { nonce: m.link.nonce, token_hash: m.link.hash, expires_at: m.link.expiresAt },
  };
  await insertAccountMessage(db, {
    propertyId: m.propertyId,
    template: "password_reset",
    to: m.to,
    locale: m.locale,
    snapshot,
    dueAt: now(),
  });
}

/** The reset message's MIME, or why it is no longer to be sent (the link expired, the secret changed). */
export async function composeReset(
  c: Config,
  message: Record<string, unknown>,
  property: Record<string, unknown>,
): Promise<{ raw: string } | { skip: string }> {
  const { reset } = JSON.parse(String(message.snapshot)) as ResetSnapshot;
  if (Date.parse(reset.expires_at) <= now()) return { skip: "the reset link expired before it was sent" };
  const token = await storedToken(c.linkSecret, "reset", reset.nonce, reset.token_hash);
  if (!token) return { skip: "the link secret changed: this reset link can no longer be written" };
  const look = accountLook(message, property);
  const rendered = renderReset({
    ...look,
    link: `${c.publicOrigin}/console/reset/${token}`,
    minutes: RESET_MINUTES,
  });
  const raw = accountMime(c, message, look, look.brand.name, rendered);
  return { raw };
}
