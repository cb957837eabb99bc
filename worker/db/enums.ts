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
  "password_reset",
  "staff_invite",
] as const;
/** The messages about the restaurant's console accounts rather than a reservation (no reservation_id). */
export const ACCOUNT_TEMPLATES = ["password_reset", "staff_invite"] as const;
export const MESSAGE_STATES = ["pending", "sent", "failed", "cancelled"] as const;
/** A waiting-list offer's life. */
export const OFFER_STATES = ["open", "claimed", "declined", "expired"] as const;
