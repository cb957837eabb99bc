/**
 * What the console's account emails (a staff invitation, a password reset) share: the
 * restaurant's look and the email's language, and the MIME from the restaurant's console.
 */
import { resolveSettings } from "../../shared/schemas";
import type { Config } from "../config";
import type { Brand } from "./layout";
import { buildMime } from "./mime";
import type { Locale } from "./types";

export interface AccountLook {
  locale: Locale;
  brand: Brand;
}

/** The outbox row's language and its restaurant's brand (name, accent colour, logo). */
export function accountLook(
  message: Record<string, unknown>,
  property: Record<string, unknown>,
): AccountLook {
  const settings = resolveSettings(JSON.parse(String(property.settings ?? "{}")));
  return {
    locale: message.locale as Locale,
    brand: { name: String(property.name), accent: settings.accent_color, logo: settings.logo_url },
  };
}

/** The email as MIME, from "<restaurant> · console" to `toName` at the row's address. */
export function accountMime(
  c: Config,
  message: Record<string, unknown>,
  look: AccountLook,
  toName: string,
  rendered: { subject: string; text: string; html: string },
): string {
  return buildMime({
    from: { name: `${look.brand.name} · console`, addr: c.emailFrom },
    to: { name: toName, addr: String(message.to_address) },
    subject: rendered.subject,
    messageId: `<${String(message.uid)}@${c.emailFrom.split("@")[1]}>`,
    date: Date.parse(String(message.created_at)),
    locale: look.locale,
    text: rendered.text,
    html: rendered.html,
  });
}
