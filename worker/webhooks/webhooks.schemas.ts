/** The shapes of webhook subscriptions and their deliveries, shared by the contracts and the DTOs. */
import { z } from "@hono/zod-openapi";
import { ActorSchema } from "../audit/audit.schemas";
import { urlField } from "../lib/openapi";
import { Reservation } from "../reservations/reservations.schemas";

export const WEBHOOK_TYPES = ["RESERVATION_CREATED", "RESERVATION_UPDATED"] as const;

export const Subscription = z
  .object({
    id: z.number().int(),
    endpoint: z.string().openapi({ example: "https://integrator.example/hooks/reservations" }),
    webhook_type: z.enum(WEBHOOK_TYPES),
    property_id: z.number().int(),
    enabled: z.boolean().openapi({
      description:
        "false once the endpoint answered 410 Gone or stopped being allowed; a PUT enables it again",
    }),
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("WebhookSubscription");

export const SubscriptionWithSecret = Subscription.extend({
  secret: z.string().openapi({
    description: "Standard Webhooks signing secret; shown only here",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("WebhookSubscriptionWithSecret");

export const SubscriptionInput = z
  .object({
    endpoint: z.string().pipe(urlField).openapi({
      description:
        "https and a public address; sandbox properties may also use http://localhost (locally, under npm start, every property may use a loopback receiver)",
    }),
    webhook_type: z.enum(WEBHOOK_TYPES),
  })
  .openapi("WebhookSubscriptionInput", {
    example: {
      endpoint: "https://integrator.example/hooks/reservations",
      webhook_type: "RESERVATION_CREATED",
    },
  });

export const Attempt = z
  .object({
    at: z.string(),
    status: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "the receiver's HTTP status; null when no answer came" }),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    response_excerpt: z
      .string()
      .nullable()
      .openapi({ description: "the first 512 bytes of the receiver's answer" }),
  })
  .openapi("WebhookAttempt");

export const Delivery = z
  .object({
    id: z.number().int(),
    webhook_id: z.string().openapi({
      description:
        "the webhook-id header: the same on every retry and replay (msg_ and the event's id, unique across shards)",
      example: "msg_1000000004217",
    }),
    type: z.enum(WEBHOOK_TYPES),
    reservation_id: z.number().int(),
    event_created_at: z.string(),
    state: z.enum(["pending", "delivered", "failed"]),
    attempts: z.array(Attempt),
    next_attempt_at: z.string().nullable().openapi({ description: "pending deliveries only" }),
    delivered_at: z.string().nullable(),
    last_error: z.string().nullable(),
  })
  .openapi("WebhookDelivery");

export const SubscriptionId = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "expected a positive integer id")
    .transform(Number)
    .openapi({ param: { name: "id", in: "path" }, type: "integer", example: 1 }),
});
export const DeliveryParams = SubscriptionId.extend({
  delivery_id: z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "expected a positive integer id")
    .transform(Number)
    .openapi({ param: { name: "delivery_id", in: "path" }, type: "integer", example: 1 }),
});

export const RotateSecretInput = z
  .object({ overlap_seconds: z.number().int().min(0).max(604_800).default(86_400) })
  .openapi("RotateSecretInput");

/** On updates: each top-level field that changed, with its value before (null where it was absent). */
export const PreviousAttributes = z
  .object(
    Object.fromEntries(
      Object.entries(Reservation.shape).map(([k, v]) => [k, (v as z.ZodType).nullable().optional()]),
    ),
  )
  .openapi("ReservationPreviousAttributes", {
    description:
      "the fields the change touched, with their values before it (null where the field was absent)",
  });

const eventFields = {
  id: z.string().openapi({
    description: "the webhook-id header: msg_ and the event's id, the same on every retry",
    example: "msg_1000000004217",
  }),
  created_at: z
    .string()
    .openapi({ description: "when the change happened (UTC)", example: "2026-11-22T10:15:00.000Z" }),
  property_id: z.number().int(),
  actor: ActorSchema.nullable().openapi({
    description: "who made the change (null on events written before changes named who made them)",
  }),
};

export const ReservationCreatedEvent = z
  .object({
    ...eventFields,
    type: z.literal("RESERVATION_CREATED"),
    data: z.object({ reservation: Reservation }),
  })
  .openapi("ReservationCreatedEvent");

export const ReservationUpdatedEvent = z
  .object({
    ...eventFields,
    type: z.literal("RESERVATION_UPDATED"),
    data: z.object({ reservation: Reservation, previous_attributes: PreviousAttributes }),
  })
  .openapi("ReservationUpdatedEvent");

export type WebhookType = (typeof WEBHOOK_TYPES)[number];
export type SubscriptionChange = Partial<z.infer<typeof SubscriptionInput>>;
