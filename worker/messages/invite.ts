/**
 * A staff invitation in the outbox: to the invitee's email, in the restaurant's language, with no
 * reservation, sent like every message (delivery.ts). The row keeps the link's nonce and the
 * token's hash, never the token: the token is made again from the LINK_SECRET when the message is
 * written out, as reset links are.
 */
import type { Config } from "../config";
import type { Db } from "../env";
import { now } from "../lib/clock";
import { accountLook, accountMime } from "./account-mail";
import { renderInvite } from "./invite.render";
import { storedToken } from "./links";
import { insertAccountMessage } from "./messages.repo";
import type { InviteSnapshot, Locale } from "./types";

/** How long an invitation works. */
export const INVITE_DAYS = 7;

export interface InviteMessage {
  propertyId: number;
  to: string;
  locale: Locale;
  role: string;
  name: string | null;
  link: { nonce: string; hash: string; expiresAt: string };
}

/** Writes the invitation to the property's outbox, due at once. */
export async function writeInviteMessage(db: Db, m: InviteMessage): Promise<void> {
  const snapshot: InviteSnapshot = {
    invite: {
      nonce: m.link.nonce,
      token_hash: m.link.hash,
      expires_at: m.link.expiresAt,
      role: m.role,
      name: m.name,
    },
  };
  await insertAccountMessage(db, {
    propertyId: m.propertyId,
    template: "staff_invite",
    to: m.to,
    locale: m.locale,
    snapshot,
    dueAt: now(),
  });
}

/** The invitation's MIME, or why it is no longer to be sent (the link expired or was replaced, the secret changed). */
export async function composeInvite(
  c: Config,
  message: Record<string, unknown>,
  property: Record<string, unknown>,
): Promise<{ raw: string } | { skip: string }> {
  const { invite } = JSON.parse(String(message.snapshot)) as InviteSnapshot;
  if (Date.parse(invite.expires_at) <= now()) return { skip: "the invitation expired before it was sent" };
  const token = await storedToken(c.linkSecret, "invite", invite.nonce, invite.token_hash);
  if (!token) return { skip: "the link secret changed: this invitation can no longer be written" };
  const look = accountLook(message, property);
  const rendered = renderInvite({
    ...look,
    link: `${c.publicOrigin}/console/invite/${token}`,
    days: INVITE_DAYS,
    role: invite.role,
    name: invite.name,
  });
  const raw = accountMime(c, message, look, invite.name ?? "", rendered);
  return { raw };
}
