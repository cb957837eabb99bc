/**
 * Telling a waiting walk-in their table is ready, through every channel that reaches them: email
 * now, a text message where an SMS provider is set (none is yet: registerSmsProvider is the seam
 * one plugs into). Sent at once, not through the outbox: the news is worth nothing late, so the
 * host sees at once what went out and what did not, and calls the party otherwise.
 */
import { resolveSettings } from "../../shared/schemas";
import { config } from "../config";
import type { Bindings, PropertyRow } from "../env";
import { now } from "../lib/clock";
import { randomToken } from "../lib/crypto";
import { buildMime } from "../messages/mime";
import { renderReady } from "../messages/ready.render";
import { sendMail } from "../messages/transport";
import type { WalkInRow } from "./walk-ins.repo";

export type ReadyChannel = "email" | "sms";

/** What an SMS provider needs: a number and a short text. */
export type SmsProvider = (to: string, text: string) => Promise<void>;

let smsProvider: SmsProvider | undefined;

/** Plugs an SMS provider in (undefined: none, the default); the channel is offered only then. */
export function registerSmsProvider(provider: SmsProvider | undefined): void {
  smsProvider = provider;
}

/** The channels that can reach the party: its email, and its phone where a provider is set. */
export function channelsFor(w: Pick<WalkInRow, "email" | "phone">): ReadyChannel[] {
  return [...(w.email ? ["email" as const] : []), ...(w.phone && smsProvider ? ["sms" as const] : [])];
}

/** Sends the news on each channel; answers those that took it and those that failed. */
export async function sendReady(env: Bindings, property: PropertyRow, w: WalkInRow) {
  const settings = resolveSettings(property.settings);
  const brand = { name: property.name, accent: settings.accent_color, logo: settings.logo_url };
  const words = renderReady({ locale: settings.locale, brand, name: w.name, pax: w.pax });
  const sent: ReadyChannel[] = [];
  const failed: ReadyChannel[] = [];
  for (const channel of channelsFor(w)) {
    try {
      if (channel === "email") await sendEmail(env, w.email!, brand.name, settings.locale, words);
      else await smsProvider!(w.phone!, words.subject);
      sent.push(channel);
    } catch (error) {
      console.warn(JSON.stringify({ msg: "walk-in ready notice failed", channel, error: String(error) }));
      failed.push(channel);
    }
  }
  return { sent, failed };
}

async function sendEmail(
  env: Bindings,
  to: string,
  restaurant: string,
  locale: string,
  words: { subject: string; text: string; html: string },
) {
  const from = config(env).emailFrom;
  const raw = buildMime({
    from: { name: restaurant, addr: from },
    to: { addr: to },
    subject: words.subject,
    messageId: `<${randomToken("ready_", 16)}@${from.split("@")[1]}>`,
    date: now(),
    locale,
    text: words.text,
    html: words.html,
  });
  await sendMail(env, { from, to, raw });
}
