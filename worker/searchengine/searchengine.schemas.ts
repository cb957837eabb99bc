/**
 * The booking server's messages: the proto field names of Maps Booking API v3 (snake_case), int64
 * as a number or a decimal string (proto3 JSON); unknown fields are ignored. Examples are
 * Google's published samples with our ids.
 */
import { z } from "@hono/zod-openapi";
import { lineField, ONE_LINE, ONE_LINE_MESSAGE, textField } from "../../shared/schemas";
import { emailField } from "../lib/openapi";
import { BOOKING_STATUSES, FAILURE_CAUSES } from "./google";

const name = (n: string) => `Searchengine${n}`;

const Int64 = z
  .union([
    z.number().int(),
    z.string().regex(/^-?\d{1,18}$/, "expected an int64: a number or a string of digits"),
  ])
  .openapi({ description: "int64 (proto3 JSON): a number or a decimal string", example: "1606467600" });
const PartySize = z
  .union([z.number().int().min(1).max(1000), z.string().regex(/^[1-9]\d{0,3}$/, "expected a party size")])
  .openapi({ example: 2 });
const Id = (description: string, example: string) => lineField(200).min(1).openapi({ description, example });
const MerchantId = Id("the property's public_key (the merchant of the feeds)", "pk_3f2a9c0d1e");
const ServiceId = Id("the service id, as a string", "5678");
const BookingId = Id("the reservation id, as a string", "890");

const ResourceIds = z.looseObject({ party_size: PartySize.optional() }).openapi(name("ResourceIds"));

export const SlotTime = z
  .looseObject({
    service_id: ServiceId,
    start_sec: Int64.openapi({ description: "UTC epoch second of the restaurant's wall-clock start" }),
    duration_sec: Int64.optional(),
    availability_tag: z.string().max(500).optional(),
    resource_ids: ResourceIds.optional(),
    confirmation_mode: z.string().max(64).optional(),
  })
  .openapi(name("SlotTime"));

const slotExample = {
  duration_sec: "5400",
  resource_ids: { party_size: 2 },
  service_id: "5678",
  start_sec: "1606467600",
};

export const BatchAvailabilityLookupRequest = z
  .object({ merchant_id: MerchantId, slot_time: z.array(SlotTime).min(1).max(2000) })
  .openapi(name("BatchAvailabilityLookupRequest"), {
    example: { merchant_id: "pk_3f2a9c0d1e", slot_time: [slotExample] },
  });

export const BatchAvailabilityLookupResponse = z
  .object({ slot_time_availability: z.array(z.object({ slot_time: SlotTime, available: z.boolean() })) })
  .openapi(name("BatchAvailabilityLookupResponse"), {
    example: { slot_time_availability: [{ available: true, slot_time: slotExample }] },
  });

const Resources = z.looseObject({ party_size: PartySize.optional() }).openapi(name("Resources"));

const Slot = z
  .looseObject({
    merchant_id: MerchantId,
    service_id: ServiceId,
    start_sec: Int64,
    duration_sec: Int64.optional(),
    availability_tag: z.string().max(500).optional(),
    resources: Resources.optional(),
    confirmation_mode: z.string().max(64).optional(),
  })
  .openapi(name("Slot"));

const UserInformation = z
  .looseObject({
    user_id: Id("the search engine's id of its user", "1111111111111111111"),
    given_name: lineField(100).optional(),
    family_name: lineField(100).optional(),
    telephone: lineField(64).optional(),
    email: emailField.optional(),
  })
  .openapi(name("UserInformation"));

const user = {
  email: "john.smith@gmail.com",
  family_name: "Smith",
  given_name: "John",
  telephone: "+12091111111",
  user_id: "1111111111111111111",
};

export const CreateBookingRequest = z
  .object({
    slot: Slot,
    user_information: UserInformation,
    idempotency_token: z
      .string()
      .regex(ONE_LINE, ONE_LINE_MESSAGE)
      .min(1)
      .max(200)
      .openapi({ description: "the same token answers the same booking" }),
    additional_request: textField(2000)
      .optional()
      .openapi({ description: "kept as the reservation's special request" }),
    payment_information: z.looseObject({}).optional(),
  })
  .openapi(name("CreateBookingRequest"), {
    example: {
      idempotency_token: "18307119013960637991",
      payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
      slot: {
        confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
        duration_sec: "5400",
        merchant_id: "pk_3f2a9c0d1e",
        resources: { party_size: 2 },
        service_id: "5678",
        start_sec: "1606467600",
      },
      user_information: user,
    },
  });

export const Booking = z
  .object({
    booking_id: BookingId,
    slot: z.object({
      merchant_id: z.string(),
      service_id: z.string(),
      start_sec: z.number().int(),
      duration_sec: z.number().int(),
      resources: z.object({ party_size: z.number().int() }),
      confirmation_mode: z.literal("CONFIRMATION_MODE_SYNCHRONOUS"),
    }),
    user_information: z.object({
      user_id: z.string(),
      given_name: z.string().optional(),
      family_name: z.string().optional(),
      telephone: z.string().optional(),
      email: z.string().optional(),
    }),
    status: z.enum(BOOKING_STATUSES).openapi({
      description:
        "ACCEPTED, CONFIRMED: CONFIRMED; WAITING: PENDING_MERCHANT_CONFIRMATION; CANCELLED: CANCELED; REJECTED: DECLINED_BY_MERCHANT; EXPIRED: NO_SHOW (FAILED when it expired unpaid)",
    }),
    payment_information: z.object({ prepayment_status: z.literal("PREPAYMENT_NOT_PROVIDED") }),
  })
  .openapi(name("Booking"));

export const BookingFailure = z
  .object({ cause: z.enum(FAILURE_CAUSES), description: z.string() })
  .openapi(name("BookingFailure"), {
    example: { cause: "SLOT_UNAVAILABLE", description: "every table that seats 2 is held at this time" },
  });

const bookingExample = {
  booking_id: "890",
  slot: {
    merchant_id: "pk_3f2a9c0d1e",
    service_id: "5678",
    start_sec: 1606467600,
    duration_sec: 5400,
    resources: { party_size: 2 },
    confirmation_mode: "CONFIRMATION_MODE_SYNCHRONOUS",
  },
  user_information: user,
  status: "CONFIRMED",
  payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
};

/** A booking, or why not (a business refusal is HTTP 200 with booking_failure). */
export const BookingOutcome = z
  .object({ booking: Booking.optional(), booking_failure: BookingFailure.optional() })
  .openapi(name("BookingOutcome"), { example: { booking: bookingExample } });

export const UpdateBookingRequest = z
  .object({
    booking: z.looseObject({
      booking_id: BookingId,
      slot: z
        .looseObject({
          start_sec: Int64.optional(),
          duration_sec: Int64.optional(),
          resources: Resources.optional(),
        })
        .optional(),
      party_size: PartySize.optional(),
      status: z
        .enum(BOOKING_STATUSES)
        .optional()
        .openapi({ description: "CANCELED cancels; other values change nothing" }),
    }),
  })
  .openapi(name("UpdateBookingRequest"), {
    example: { booking: { booking_id: "890", slot: { duration_sec: "5400", start_sec: "1606473000" } } },
  });

export const GetBookingStatusRequest = z
  .object({ booking_id: BookingId })
  .openapi(name("GetBookingStatusRequest"));
export const GetBookingStatusResponse = z
  .object({
    booking_id: z.string(),
    booking_status: z.enum(BOOKING_STATUSES),
    prepayment_status: z.literal("PREPAYMENT_NOT_PROVIDED"),
  })
  .openapi(name("GetBookingStatusResponse"), {
    example: { booking_id: "890", booking_status: "CONFIRMED", prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
  });

export const ListBookingsRequest = z
  .object({ user_id: Id("the search engine's id of its user", "1111111111111111111") })
  .openapi(name("ListBookingsRequest"));
export const ListBookingsResponse = z
  .object({ bookings: z.array(Booking) })
  .openapi(name("ListBookingsResponse"), { example: { bookings: [bookingExample] } });

export const FeedMetadata = z.object({
  processing_instruction: z.enum(["PROCESS_AS_COMPLETE", "PROCESS_AS_INCREMENTAL"]),
  shard_number: z.number().int(),
  total_shards: z.number().int(),
  nonce: z.string(),
  generation_timestamp: z.number().int(),
});
const feedList = (what: string) =>
  z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .openapi({ description: `the ${what} feed's entries` });

/** The feeds: Google's JSON feed format (metadata + one list), described, not spelled out field by field. */
export const Feed = z
  .object({
    metadata: FeedMetadata,
    merchant: feedList("merchant"),
    service: feedList("service"),
    service_availability: feedList("availability"),
  })
  .openapi(name("Feed"), {
    description: "the metadata and one list: merchant, service or service_availability",
  });
