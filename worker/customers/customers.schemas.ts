/** A customer's API shape, its update and merge bodies, the list's query, and the mappings between the API's names and the row's. */
import { z } from "@hono/zod-openapi";
import { LOCALES, lineField, textField } from "../../shared/schemas";
import { toLocalDateTime } from "../lib/localtime";
import { emailField } from "../lib/openapi";
import { paginationQuery } from "../lib/pagination";
import { phoneField } from "../reservations/reservations.schemas";
import type { CustomerCounts, CustomerFields, CustomerRow } from "./customers.repo";

const name = lineField(100).min(1);
const tags = z
  .array(lineField(50).min(1))
  .max(30)
  .openapi({ description: "the restaurant's labels", example: ["vip", "regular"] });

export const CustomerSchema = z
  .object({
    id: z.number().int(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    locale: z.enum(LOCALES).nullable(),
    tags: z.array(z.string()),
    allergies: z.string().nullable(),
    notes: z.string().nullable().openapi({ description: "staff only" }),
    banned: z.boolean(),
    marketing_consent: z.boolean(),
    erased: z
      .boolean()
      .openapi({ description: "the personal data was erased (DELETE); the reservations stay, anonymised" }),
    created_at: z.string().openapi({ description: "local wall clock", example: "2026-11-22T10:15:00" }),
    visits: z
      .number()
      .int()
      .openapi({ description: "reservations checked in (not cancelled or refused after)" }),
    no_shows: z.number().int().openapi({ description: "reservations EXPIRED as no-shows" }),
    cancellations: z.number().int(),
    covers: z.number().int().openapi({ description: "guests over all visits" }),
    last_visit: z
      .string()
      .nullable()
      .openapi({ description: "the date of the latest visit", example: "2026-11-20" }),
  })
  .openapi("Customer");

export const CustomerUpdate = z
  .object({
    first_name: name.nullable().optional(),
    last_name: name.nullable().optional(),
    email: emailField.nullable().optional(),
    phone: phoneField.nullable().optional(),
    locale: z.enum(LOCALES).nullable().optional(),
    tags: tags.optional(),
    allergies: textField(1000).nullable().optional(),
    notes: textField(5000).nullable().optional(),
    banned: z.boolean().optional(),
    marketing_consent: z.boolean().optional(),
  })
  .openapi("CustomerUpdate", {
    description: "Partial: only the fields given change.",
    example: { phone: "+39 055 654321", tags: ["vip"], allergies: "shellfish" },
  });

// `into` is checked by the handler, after the customer of the path: a stranger's id answers 404 first.
export const MergeBody = z
  .object({
    into: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: "the customer that stays (required)" }),
  })
  .openapi("CustomerMerge", { example: { into: 42 } });

export const ListQuery = z.object({
  ...paginationQuery,
  search: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      param: { name: "search", in: "query" },
      description: "part of a name, an email or a phone (case-insensitive)",
      example: "lovelace",
    }),
});

export type Customer = z.infer<typeof CustomerSchema>;
export type CustomerUpdateBody = z.infer<typeof CustomerUpdate>;
export type MergeRequest = z.infer<typeof MergeBody>;
export type ListQuestion = z.output<typeof ListQuery>;

export function toCustomerDto(c: CustomerRow, counts: CustomerCounts, timeZone: string): Customer {
  return {
    id: c.id,
    first_name: c.firstName,
    last_name: c.lastName,
    email: c.email,
    phone: c.phone,
    locale: (LOCALES as readonly string[]).includes(c.locale ?? "")
      ? (c.locale as (typeof LOCALES)[number])
      : null,
    tags: c.tags,
    allergies: c.allergies,
    notes: c.notes,
    banned: c.banned,
    marketing_consent: c.marketingConsent,
    erased: c.erasedAt !== null,
    created_at: toLocalDateTime(timeZone, c.createdAt),
    ...counts,
  };
}

/** The row fields a body names; an email lower-cased, labels without repeats. */
export function customerFieldsOf(b: CustomerUpdateBody): CustomerFields {
  const out: CustomerFields = {};
  if (b.first_name !== undefined) out.firstName = b.first_name;
  if (b.last_name !== undefined) out.lastName = b.last_name;
  if (b.email !== undefined) out.email = b.email?.toLowerCase() ?? null;
  if (b.phone !== undefined) out.phone = b.phone;
  if (b.locale !== undefined) out.locale = b.locale;
  if (b.tags !== undefined) out.tags = [...new Set(b.tags)];
  if (b.allergies !== undefined) out.allergies = b.allergies;
  if (b.notes !== undefined) out.notes = b.notes;
  if (b.banned !== undefined) out.banned = b.banned;
  if (b.marketing_consent !== undefined) out.marketingConsent = b.marketing_consent;
  return out;
}
