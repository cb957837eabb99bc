/** What a message is, as the outbox stores it. Pure: no imports of Hono or drizzle. */
import type { Channel, Locale } from "../../shared/schemas";
import { ACCOUNT_TEMPLATES, MESSAGE_STATES, MESSAGE_TEMPLATES } from "../db/enums";

export type { Locale };
export { MESSAGE_STATES, MESSAGE_TEMPLATES };

/** What a message about a reservation tells. */
export type Template = Exclude<(typeof MESSAGE_TEMPLATES)[number], (typeof ACCOUNT_TEMPLATES)[number]>;

export const RESERVATION_TEMPLATES = MESSAGE_TEMPLATES.filter(
  (t): t is Template => !(ACCOUNT_TEMPLATES as readonly string[]).includes(t),
);

/**
 * A console password reset: to the property's email, about its account, with no reservation
 * (its row's reservation_id is null).
 */
export interface ResetSnapshot {
  reset: { nonce: string; token_hash: string; expires_at: string };
}

/** A staff invitation: to the invitee's email, about the restaurant's console, with no reservation. */
export interface InviteSnapshot {
  invite: { nonce: string; token_hash: string; expires_at: string; role: string; name: string | null };
}

export type MessageState = (typeof MESSAGE_STATES)[number];

export type Recipient = "guest" | "restaurant";

export interface Guest {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
}

/**
 * The reservation as one message tells it, fixed at the change: a message sent late still tells
 * what happened then. Names (restaurant, service) are read when it is first sent.
 */
export interface MessageSnapshot {
  date: string;
  hour: string;
  /** local wall clock of the end, YYYY-MM-DDTHH:MM:SS */
  end: string;
  pax: number;
  status: string;
  channel: Channel;
  service_id: number | null;
  guest: Guest;
  notes: string | null;
  /** the calendar entry it carries: REQUEST (new or changed) or CANCEL; null: none */
  ics: "REQUEST" | "CANCEL" | null;
  /** change: what it was before */
  before?: { date: string; hour: string; pax: number } | undefined;
  /** a WAITING party's range: its latest start (HH:MM:SS, from `hour`; past midnight when earlier) */
  wait_until?: string | undefined;
  /** offer: which offer (its nonce) and until when it holds (ISO instant) */
  offer?: { nonce: string; expires_at: string } | undefined;
  /** a booking that pays: what it asks and, for the message's step, what moved */
  payment?: PaymentNote | undefined;
}

/** A booking's money as a message tells it (amounts in minor units of `currency`). */
export interface PaymentNote {
  mode: "deposit" | "prepay" | "guarantee";
  amount: number;
  currency: string;
  /** minutes before the start until which a guest's cancellation is refunded in full */
  refund_until: number;
  /** guarantee: what a no-show costs the party */
  no_show_fee: number | null;
  /** payment_due: until when it can be paid (ISO instant) */
  due_at: string | null;
  /** payment_refund: what this refund gives back */
  refunded: number;
  /** payment_no_show_fee: what was charged */
  no_show_charged: number | null;
}

/** A message to write with a change, in the change's own batch. */
export interface PlannedMessage {
  template: Template;
  recipient: Recipient;
  to: string;
  locale: Locale;
  /** the calendar entry's SEQUENCE */
  sequence: number;
  snapshot: MessageSnapshot;
  /** epoch ms: at once, or a reminder's time */
  dueAt: number;
  /** another reservation than the one changed (a waiting party's offer) */
  reservationId?: number | undefined;
}

/** The messages of one change, and whether the reservation's pending reminder goes. */
export interface MessagePlan {
  messages: PlannedMessage[];
  dropReminder: boolean;
}
