/**
 * The one place that knows every reaction and sender: what follows a reservation's change, and
 * who sends each kind of outbox row. Called by each door of the Worker before it serves anything.
 */
import { registerErasure, registerForget } from "./customers/erasure";
import { forgetAnswersAbout } from "./lib/idempotency";
import { attemptHeldMessages, attemptMessage, attemptMessages, takeHeldMessages } from "./messages/delivery";
import { eraseMessages, takeDue as takeDueMessages } from "./messages/messages.repo";
import { messagesReaction } from "./messages/reaction";
import { registerSender } from "./outbox/senders";
import { paymentsReaction } from "./payments/reaction";
import { outboxReaction } from "./reservations/dispatch";
import { registerReaction } from "./reservations/reactions";
import { liveReaction } from "./restaurant/live";
import { sendNotification } from "./searchengine/notify";
import { SEARCHENGINE_EVENT } from "./searchengine/searchengine.repo";
import { waitlistReaction } from "./waitlist/reaction";
import {
  attempt as attemptWebhook,
  attemptMany as attemptWebhooks,
  registerTransport,
} from "./webhooks/delivery";
import { takeDue as takeDueWebhooks } from "./webhooks/webhooks.repo";

let wired = false;

export function wire(): void {
  if (wired) return;
  wired = true;
  // First: a booking that must pay gets its pay link before its messages are written.
  registerReaction(paymentsReaction);
  // In this order in a change's batch: its messages, then the offer of the tables it frees.
  registerReaction(messagesReaction);
  registerReaction(waitlistReaction);
  // After commit: the open consoles of the restaurant hear of the change.
  registerReaction(liveReaction);
  // Last: the change's batch takes the outbox rows all of the above wrote, to attempt them once committed.
  registerReaction(outboxReaction);
  registerSender("webhook", {
    takeDue: takeDueWebhooks,
    attempt: attemptWebhook,
    attemptMany: attemptWebhooks,
  });
  registerSender("message", {
    takeDue: takeDueMessages,
    attempt: attemptMessage,
    attemptMany: attemptMessages,
    held: { take: takeHeldMessages, attempt: attemptHeldMessages },
  });
  registerTransport(SEARCHENGINE_EVENT, sendNotification);
  registerErasure(eraseMessages);
  // A stored Idempotency-Key answer holding the person's data must not replay it after the erasure.
  registerForget((env, person) => forgetAnswersAbout(env.DB, person));
}
