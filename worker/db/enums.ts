/** The closed sets of values some shard columns hold (their CHECK constraints list them). No imports: pure modules read them too. */
/** What a message tells, and where it stands in the outbox. */
export const MESSAGE_TEMPLATES = [
  "confirmation",
  "waiting",
  "change",
  "cancellation",
  "reminder",
  "offer",
  "restaurant_booking",
  "restaurant_cancellation",
  "restaurant_change",
  "payment_due",
  "payment_refund",
  "payment_no_show_fee",
  "payment_expired",
  "password_reset",
  "staff_invite",
] as const;
/** The messages about the restaurant's console accounts rather than a reservation (no reservation_id). */
export const ACCOUNT_TEMPLATES = ["password_reset", "staff_invite"] as const;
export const MESSAGE_STATES = ["pending", "sent", "failed", "cancelled"] as const;
/** A waiting-list offer's life. */
export const OFFER_STATES = ["open", "claimed", "declined", "expired"] as const;
/** A walk-in's place on the waiting list: waiting, told their table is ready, then seated or gone. */
export const WALK_IN_STATES = ["waiting", "notified", "seated", "left"] as const;
