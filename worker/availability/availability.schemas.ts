/** The API shapes and query fields of /bookings: the slot listing, the rooms at one time, the booking links. */
import { z } from "@hono/zod-openapi";
import { dateString } from "../../shared/schemas";
import { dateField, hourField, queryBoolean, queryId, queryPax } from "../lib/query";
import { TableSchema } from "../properties/tables.schemas";
import { UNAVAILABLE } from "./rules";

/** A date, or a datetime whose date part is used (start_date on /bookings/slots takes both). */
export const dateOrDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/, {
    message: "expected a date YYYY-MM-DD or a datetime",
    abort: true,
  })
  .transform((v) => v.slice(0, 10))
  .pipe(dateString);

const SlotDetail = z
  .object({
    hour: z.string().openapi({ example: "19:30:00" }),
    disabled: z
      .boolean()
      .openapi({ description: "with out_of_order=true: every table is closed at this time" }),
    free_tables: z.number().int().openapi({ description: "free, open tables that seat the party" }),
    reason: z
      .enum(UNAVAILABLE)
      .optional()
      .openapi({
        description:
          "present when the time cannot be booked: party_size (the service or no table takes the party), window (beyond the booking window), " +
          "notice (past or inside min_notice), closed (a closure overlaps the stay; with out_of_order=true), full (every fitting table is held), " +
          "pacing (the service's covers or parties per interval are reached)",
        example: "pacing",
      }),
  })
  .openapi("SlotDetail");

export const SlotEntry = z
  .object({
    day: z.string().openapi({ example: "2026-12-05" }),
    available_services: z.array(
      z.object({
        id: z.number().int(),
        title: z.string(),
        available_slots: z.array(z.string()).openapi({ example: ["19:00:00", "19:15:00"] }),
        slots: z.array(SlotDetail).openapi({
          description:
            "every time on the service's grid; a service past midnight lists its late times under the day it started",
        }),
      }),
    ),
  })
  .openapi("SlotListingEntry");

const BookingRoomTable = TableSchema.omit({ layout: true })
  .extend({
    free: z
      .boolean()
      .openapi({ description: "no active reservation blocks the table for this party at this time" }),
    closed: z.boolean().openapi({ description: "a closure covers the table at this time" }),
    best_choice: z
      .boolean()
      .openapi({ description: "with best_choice=true: the table the engine would give the party" }),
  })
  .openapi("BookingRoomTable");

export const BookingRoom = z
  .object({
    id: z.number().int(),
    property_id: z.number().int(),
    name: z.string(),
    bookable: z.boolean(),
    tables: z.array(BookingRoomTable),
  })
  .openapi("BookingRoom");

export const BookingLink = z
  .object({
    name: z.enum(["BOOKING_ENGINE_PAGE", "SERVICES_PAGE", "WELCOME_PAGE"]),
    link: z.string().openapi({ example: "https://book.example/p/pk_3f2a/book" }),
  })
  .openapi("BookingLink");

export const SlotsQuery = z.object({
  start_date: dateOrDateTime
    .optional()
    .openapi({ param: { name: "start_date", in: "query" }, example: "2026-12-05" }),
  pax: queryPax
    .default(2)
    .openapi({ param: { name: "pax", in: "query" }, description: "party size (default 2)", example: 2 }),
  service_id: queryId
    .optional()
    .openapi({ param: { name: "service_id", in: "query" }, description: "only this service" }),
  out_of_order: queryBoolean
    .optional()
    .openapi({ param: { name: "out_of_order", in: "query" }, description: "true or 1: honour closures" }),
  out_of_service: queryBoolean.optional().openapi({
    param: { name: "out_of_service", in: "query" },
    description: "another name for out_of_order",
  }),
});

export const RoomsQuery = z.object({
  start_date: dateField.openapi({
    param: { name: "start_date", in: "query" },
    type: "string",
    example: "2026-12-05",
  }),
  start_hour: hourField.openapi({
    param: { name: "start_hour", in: "query" },
    type: "string",
    example: "20:00:00",
  }),
  pax: queryPax.openapi({ param: { name: "pax", in: "query" }, example: 2 }),
  service_id: queryId.optional().openapi({ param: { name: "service_id", in: "query" } }),
  best_choice: queryBoolean
    .optional()
    .openapi({ param: { name: "best_choice", in: "query" }, description: "mark the best table" }),
});

export type SlotsQuestion = z.output<typeof SlotsQuery>;
export type RoomsQuestion = z.output<typeof RoomsQuery>;
export type BookingRoomDto = z.infer<typeof BookingRoom>;
export type BookingLinkDto = z.infer<typeof BookingLink>;
