/**
 * An email as RFC 5322 / MIME text, built with mimetext (its browser build: CRLF line ends and
 * no Node modules, unlike its default one). Text and HTML as multipart/alternative, the
 * calendar entry as a text/calendar attachment with its iTIP method. Parts are base64 so any
 * language's characters and long lines travel as they are.
 */
import { createMimeMessage, Mailbox } from "mimetext/browser";

export interface Address {
  name?: string | undefined;
  addr: string;
}

export interface Mail {
  from: Address;
  to: Address;
  replyTo?: Address | undefined;
  subject: string;
  /** <local@domain> */
  messageId: string;
  /** epoch ms: when the message was written (the change), the same on every attempt */
  date: number;
  locale: string;
  text: string;
  html: string;
  calendar?: { method: "REQUEST" | "CANCEL"; content: string } | undefined;
}

const encoder = new TextEncoder();

/** UTF-8 text as base64, in lines of 76 (RFC 2045). */
export function base64Lines(value: string): string {
  let binary = "";
  for (const b of encoder.encode(value)) binary += String.fromCharCode(b);
  return (btoa(binary).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** RFC 5322's date-time: "Thu, 01 Jan 2026 12:00:00 +0000". */
const rfc5322Date = (ms: number) => new Date(ms).toUTCString().replace(/GMT$/, "+0000");

// mimetext's Reply-To takes a Mailbox; its type only matters for To, Cc and Bcc.
const mailbox = (a: Address) => new Mailbox(a.name ? { name: a.name, addr: a.addr } : { addr: a.addr });

export function buildMime(m: Mail): string {
  const msg = createMimeMessage();
  msg.setSender(m.from.name ? { name: m.from.name, addr: m.from.addr } : m.from.addr);
  msg.setTo(m.to.name ? { name: m.to.name, addr: m.to.addr } : m.to.addr);
  if (m.replyTo) msg.setHeader("Reply-To", mailbox(m.replyTo));
  msg.setSubject(m.subject);
  msg.setHeader("Message-ID", m.messageId);
  msg.setHeader("Date", rfc5322Date(m.date));
  msg.setHeader("Content-Language", m.locale);
  // RFC 3834: written by a program, so auto-responders do not answer it.
  msg.setHeader("Auto-Submitted", "auto-generated");
  msg.addMessage({ contentType: "text/plain", data: base64Lines(m.text), encoding: "base64" });
  msg.addMessage({ contentType: "text/html", data: base64Lines(m.html), encoding: "base64" });
  if (m.calendar) {
    msg.addAttachment({
      filename: m.calendar.method === "CANCEL" ? "cancel.ics" : "invite.ics",
      contentType: `text/calendar; charset=UTF-8; method=${m.calendar.method}`,
      data: base64Lines(m.calendar.content),
      encoding: "base64",
    });
  }
  return msg.asRaw();
}
