/**
 * An email as RFC 5322 / MIME text, built with mimetext (its browser build: CRLF line ends and
 * no Node modules, unlike its default one). Text and HTML as multipart/alternative, the
 * calendar entry as a text/calendar attachment with its iTIP method. Parts are base64 so any
 * language's characters and long lines travel as they are.
 */
import { type EnvironmentContext, MIMEMessage, Mailbox } from "mimetext/browser";

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

/** UTF-8 bytes per encoded word: 40 base64 characters, so `=?utf-8?B?...?=` is 52 (RFC 2047: at most 75). */
const WORD_BYTES = 30;

const base64Of = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));

/**
 * A header text as the base64 of RFC 2047 encoded words, each of whole characters and at most
 * WORD_BYTES bytes, folded onto lines of their own: mimetext writes one encoded word of any
 * length around what this answers (`=?utf-8?B?` + it + `?=`), so each break closes a word, folds
 * the line (CRLF and a space, RFC 5322 2.2.3) and opens the next. A 100-emoji name or subject
 * then takes lines of under 80 octets instead of one over the 998 RFC 5322 allows.
 */
export function foldedBase64(text: string): string {
  const words: string[] = [];
  let chunk: number[] = [];
  for (const ch of text) {
    const bytes = encoder.encode(ch);
    if (chunk.length + bytes.length > WORD_BYTES && chunk.length) {
      words.push(base64Of(Uint8Array.from(chunk)));
      chunk = [];
    }
    chunk.push(...bytes);
  }
  words.push(base64Of(Uint8Array.from(chunk)));
  return words.join("?=\r\n =?utf-8?B?");
}

/** mimetext's browser environment, but headers' encoded words folded (foldedBase64); parts come base64 already. */
const envctx: EnvironmentContext = {
  toBase64: foldedBase64,
  toBase64WebSafe: (data: string) => base64Of(encoder.encode(data)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
  eol: "\r\n",
  validateContentType: (v: string) => (v.length > 0 ? v : false),
};

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
  const msg = new MIMEMessage(envctx);
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
