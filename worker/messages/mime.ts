/**
 * An email as RFC 5322 / MIME text, built with mimetext (its browser build: CRLF line ends and
 * no Node modules, unlike its default one). Text and HTML as multipart/alternative, the
 * calendar entry as a text/calendar attachment with its iTIP method. Parts are base64 so any
 * language's characters and long lines travel as they are.
 */
import { type EnvironmentContext, Mailbox, MIMEMessage } from "mimetext/browser";
import { base64url } from "../lib/crypto";

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

/**
 * Bytes as base64. btoa takes one character per byte, which String.fromCharCode makes a slice at
 * a time (its arguments are bounded); `Reflect.apply` takes the slice as it is (any array-like),
 * where spreading it into arguments cost four times as much.
 */
function base64Of(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x2000)
    binary += Reflect.apply(String.fromCharCode, null, bytes.subarray(i, i + 0x2000));
  return btoa(binary);
}

const ASCII = /^[\x00-\x7f]*$/;

/** Text as the base64 of its UTF-8: ASCII text is its own UTF-8, so btoa takes it as it is (most of a message's parts). */
const base64Text = (value: string) => (ASCII.test(value) ? btoa(value) : base64Of(encoder.encode(value)));

/**
 * A header text as the base64 of RFC 2047 encoded words, each of whole characters and at most
 * WORD_BYTES bytes, folded onto lines of their own: mimetext writes one encoded word of any
 * length around what this answers (`=?utf-8?B?` + it + `?=`), so each break closes a word, folds
 * the line (CRLF and a space, RFC 5322 2.2.3) and opens the next. A 100-emoji name or subject
 * then takes lines of under 80 octets instead of one over the 998 RFC 5322 allows.
 */
export function foldedBase64(text: string): string {
  const bytes = encoder.encode(text);
  const words: string[] = [];
  for (let start = 0; start < bytes.length || !words.length; ) {
    let end = Math.min(start + WORD_BYTES, bytes.length);
    // a word ends before a UTF-8 continuation byte, never inside a character
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    words.push(base64Of(bytes.subarray(start, end)));
    start = end;
  }
  return words.join("?=\r\n =?utf-8?B?");
}

/** mimetext's browser environment, but headers' encoded words folded (foldedBase64); parts come base64 already. */
const envctx: EnvironmentContext = {
  toBase64: foldedBase64,
  toBase64WebSafe: (data: string) => base64url(encoder.encode(data)),
  eol: "\r\n",
  validateContentType: (v: string) => (v.length > 0 ? v : false),
};

/** UTF-8 text as base64, in lines of 76 (RFC 2045). */
export function base64Lines(value: string): string {
  const encoded = base64Text(value);
  const lines: string[] = [];
  for (let i = 0; i < encoded.length; i += 76) lines.push(encoded.slice(i, i + 76));
  return lines.join("\r\n");
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
