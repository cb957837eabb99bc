/** A service's API shape, its create and update bodies, and the mappings between the API's names and the row's. */
import { z } from "@hono/zod-openapi";
import { dateString, hourString, httpUrl, lineField, textField } from "../../shared/schemas";
import type { ServiceFields, ServiceRow } from "./catalog.repo";
import { PaymentPolicySchema, paymentPolicyOf } from "./payment.schemas";

// shared/ schemas are plain zod (made before the OpenAPI extension): no .openapi() on them.
const hour = hourString;
const date = dateString;
const minutes = z.number().int().min(5).max(1440);
const pax = z.number().int().min(1).max(1000);
const weekdays = z
  .array(z.number().int().min(1).max(7))
  .min(1)
  .max(7)
  .refine((d) => new Set(d).size === d.length, "weekdays must not repeat")
  .openapi({ description: "ISO weekdays: 1 = Monday .. 7 = Sunday", example: [2, 3, 4, 5, 6, 7] });

export const ServiceSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    description: z.string().nullable(),
    image_url: z.string().nullable(),
    weekdays: z.array(z.number().int()),
    start_hour: z.string().openapi({ description: "first bookable start" }),
    end_hour: z.string().openapi({
      description: "last bookable start; earlier than start_hour: the service runs past midnight",
    }),
    slot_interval: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "overrides the property's slot_interval" }),
    average_stay: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "overrides the property's average_stay" }),
    pax_min: z.number().int(),
    pax_max: z.number().int().nullable(),
    online: z.boolean(),
    enabled: z.boolean(),
    valid_from: z.string().nullable(),
    valid_to: z.string().nullable(),
    prepayment_window: z.number().int().nullable().openapi({
      description:
        "minutes a guest has to pay: new reservations start PREPAY and expire unpaid after it; null: no prepayment",
    }),
    payment: PaymentPolicySchema.nullable().openapi({
      description:
        "what a booking pays through the restaurant's Stripe account: a deposit or prepayment taken when booking, or a card saved as a guarantee and charged only for a no-show; null: nothing",
    }),
    pacing_interval: z.number().int().openapi({
      description: "pacing: the length of an interval in minutes, counted from start_hour (default 15)",
    }),
    max_covers_per_interval: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "pacing: at most so many guests may arrive in one interval; null: no limit" }),
    max_parties_per_interval: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "pacing: at most so many parties may arrive in one interval; null: no limit" }),
  })
  .openapi("Service");

const serviceFields = {
  description: textField(5000).nullable().optional(),
  image_url: httpUrl.nullable().optional(),
  weekdays: weekdays.optional(),
  slot_interval: minutes.nullable().optional(),
  average_stay: minutes.nullable().optional(),
  pax_min: pax.optional(),
  pax_max: pax.nullable().optional(),
  online: z.boolean().optional(),
  enabled: z.boolean().optional(),
  valid_from: date.nullable().optional(),
  valid_to: date.nullable().optional(),
  prepayment_window: z.number().int().min(1).max(10080).nullable().optional(),
  payment: paymentPolicyOf.nullable().optional(),
  pacing_interval: z.number().int().min(5).max(240).optional(),
  max_covers_per_interval: z.number().int().min(1).max(10000).nullable().optional(),
  max_parties_per_interval: z.number().int().min(1).max(10000).nullable().optional(),
};
export const ServiceCreate = z
  .object({ name: lineField(100).min(1), start_hour: hour, end_hour: hour, ...serviceFields })
  .openapi("ServiceCreate", {
    example: {
      name: "Dinner",
      start_hour: "19:00:00",
      end_hour: "22:00:00",
      weekdays: [2, 3, 4, 5, 6, 7],
      pacing_interval: 15,
      max_covers_per_interval: 20,
    },
  });
export const ServiceUpdate = z
  .object({
    name: lineField(100).min(1).optional(),
    start_hour: hour.optional(),
    end_hour: hour.optional(),
    ...serviceFields,
  })
  .openapi("ServiceUpdate");

export type Service = z.infer<typeof ServiceSchema>;
export type ServiceCreateBody = z.infer<typeof ServiceCreate>;
export type ServiceUpdateBody = z.infer<typeof ServiceUpdate>;

export function toServiceDto(s: ServiceRow): Service {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    image_url: s.imageUrl,
    weekdays: s.weekdays,
    start_hour: s.startHour,
    end_hour: s.endHour,
    slot_interval: s.slotInterval,
    average_stay: s.averageStay,
    pax_min: s.paxMin,
    pax_max: s.paxMax,
    online: s.online,
    enabled: s.enabled,
    valid_from: s.validFrom,
    valid_to: s.validTo,
    prepayment_window: s.prepaymentWindow,
    payment: s.payment ?? null,
    pacing_interval: s.pacingInterval,
    max_covers_per_interval: s.maxCoversPerInterval,
    max_parties_per_interval: s.maxPartiesPerInterval,
  };
}

/** The row fields a body names; weekdays sorted. */
export function serviceFieldsOf(b: ServiceUpdateBody): Partial<ServiceFields> {
  const out: Partial<ServiceFields> = {};
  if (b.name !== undefined) out.name = b.name;
  if (b.description !== undefined) out.description = b.description;
  if (b.image_url !== undefined) out.imageUrl = b.image_url;
  if (b.weekdays !== undefined) out.weekdays = [...b.weekdays].sort();
  if (b.start_hour !== undefined) out.startHour = b.start_hour;
  if (b.end_hour !== undefined) out.endHour = b.end_hour;
  if (b.slot_interval !== undefined) out.slotInterval = b.slot_interval;
  if (b.average_stay !== undefined) out.averageStay = b.average_stay;
  if (b.pax_min !== undefined) out.paxMin = b.pax_min;
  if (b.pax_max !== undefined) out.paxMax = b.pax_max;
  if (b.online !== undefined) out.online = b.online;
  if (b.enabled !== undefined) out.enabled = b.enabled;
  if (b.valid_from !== undefined) out.validFrom = b.valid_from;
  if (b.valid_to !== undefined) out.validTo = b.valid_to;
  if (b.prepayment_window !== undefined) out.prepaymentWindow = b.prepayment_window;
  if (b.payment !== undefined) out.payment = b.payment;
  if (b.pacing_interval !== undefined) out.pacingInterval = b.pacing_interval;
  if (b.max_covers_per_interval !== undefined) out.maxCoversPerInterval = b.max_covers_per_interval;
  if (b.max_parties_per_interval !== undefined) out.maxPartiesPerInterval = b.max_parties_per_interval;
  return out;
}
