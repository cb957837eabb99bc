/**
 * The wire of a message: Cloudflare's send_email binding (EMAIL). `wrangler dev` and the test
 * pool simulate it (each message kept as an .eml file, its path logged). No D1 here.
 */
import { EmailMessage } from "cloudflare:email";
import type { Bindings } from "../env";

export interface OutgoingMail {
  /** the envelope sender: the From header's address */
  from: string;
  to: string;
  /** the whole RFC 5322 message */
  raw: string;
}

export type SendMail = (mail: OutgoingMail) => Promise<void>;

let interceptor: ((mail: OutgoingMail, send: SendMail) => Promise<void>) | undefined;

/**
 * Tests only: sees every message before the binding does, and decides whether it reaches it
 * (a binding that fails, then recovers). undefined restores the binding.
 */
export function interceptMail(fn: ((mail: OutgoingMail, send: SendMail) => Promise<void>) | undefined): void {
  interceptor = fn;
}

export async function sendMail(env: Bindings, mail: OutgoingMail): Promise<void> {
  const send: SendMail = async (m) => {
    await env.EMAIL.send(new EmailMessage(m.from, m.to, m.raw));
  };
  return interceptor ? interceptor(mail, send) : send(mail);
}
