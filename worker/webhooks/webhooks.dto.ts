/** Subscription and delivery rows as the API shows them. */

import type * as repo from "./webhooks.repo";
import type { WebhookType } from "./webhooks.schemas";

export function toSubscriptionDto(row: repo.SubscriptionRow) {
  return {
    id: row.id,
    endpoint: row.endpoint,
    webhook_type: row.webhookType as WebhookType,
    property_id: row.propertyId,
    enabled: row.disabledAt === null,
    disabled_reason: row.disabledReason,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

export function toDeliveryDto(r: repo.DeliveryListItem) {
  return {
    id: r.delivery.id,
    webhook_id: r.event.uid,
    type: r.event.type as WebhookType,
    reservation_id: r.event.reservationId,
    event_created_at: r.event.createdAt,
    state: r.delivery.state,
    attempts: r.attempts.map((a) => ({
      at: a.at,
      status: a.statusCode,
      latency_ms: a.latencyMs,
      error: a.error,
      response_excerpt: a.responseExcerpt,
    })),
    next_attempt_at: r.delivery.state === "pending" ? r.delivery.nextAttemptAt : null,
    delivered_at: r.delivery.deliveredAt,
    last_error: r.delivery.lastError,
  };
}
