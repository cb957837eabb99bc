/**
 * Reading what the send_email binding was given: every message passes an interceptor in the
 * Worker's isolate (worker/messages/transport.ts) on its way to the binding, which the test pool
 * simulates. Messages are parsed with postal-mime, calendar entries with ical.js: libraries, not
 * our code.
 */
import ICAL from "ical.js";
import PostalMime, { type Email } from "postal-mime";
import { expect } from "vitest";
import { interceptMail, type OutgoingMail } from "../../worker/messages/transport";
import type { TestClient } from "./helpers";
import { waitFor } from "./webhooks.helpers";

export interface Captured extends OutgoingMail {
  /** whether the binding took it (false: the test made this attempt fail) */
  delivered: boolean;
}

/**
 * Captures every message from now on; `fail(mail, n)` may make the n-th attempt for an address
 * throw before the binding sees it (a binding that fails, then recovers). Call stop() in a finally.
 */
export function captureMail(fail: (mail: OutgoingMail, attempt: number) => boolean = () => false) {
  const all: Captured[] = [];
  const tries = new Map<string, number>();
  interceptMail(async (mail, send) => {
    const n = (tries.get(mail.to) ?? 0) + 1;
    tries.set(mail.to, n);
    if (fail(mail, n)) {
      all.push({ ...mail, delivered: false });
      throw new Error(`simulated send_email failure #${n}`);
    }
    await send(mail);
    all.push({ ...mail, delivered: true });
  });
  return {
    all,
    /** the messages the binding took for `to`, in the order it took them */
    to: (to: string) => all.filter((m) => m.to === to && m.delivered),
    stop: () => interceptMail(undefined),
  };
}

/** Waits until the binding took `n` messages for `to`; answers them parsed. */
export async function mailsTo(
  capture: ReturnType<typeof captureMail>,
  to: string,
  n: number,
): Promise<Email[]> {
  const got = await waitFor(
    `${n} message(s) to ${to}`,
    async () => capture.to(to).length >= n && capture.to(to),
  );
  return Promise.all(got.map((m) => PostalMime.parse(m.raw)));
}

export async function messagesOf(client: TestClient, reservationId: number, property = client.propertyId) {
  const res = await client.call(`/api/v2/reservations/${reservationId}/messages`, { property });
  expect(res.status, res.text).toBe(200);
  return res.json.data as any[];
}

/** The calendar attachment of a parsed message, as ical.js reads it, with its VTIMEZONE registered. */
export function calendarOf(mail: Email) {
  const ics = mail.attachments.find((a) => a.mimeType.startsWith("text/calendar"));
  if (!ics) throw new Error(`no calendar attachment in "${mail.subject}"`);
  const text =
    typeof ics.content === "string" ? ics.content : new TextDecoder().decode(ics.content as ArrayBuffer);
  return parseCalendar(text);
}

export function parseCalendar(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
  const vevent = root.getFirstSubcomponent("vevent")!;
  const event = new ICAL.Event(vevent);
  return { text, root, method: root.getFirstPropertyValue("method"), event, vevent };
}

/** Links in a text, by what they start with. */
export const linksIn = (text: string | undefined, prefix: string) =>
  (text ?? "").match(new RegExp(`${prefix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\s"<>]*`, "g")) ?? [];
