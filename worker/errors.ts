/**
 * The one error shape: RFC 9457 problem details whose `title` is the reason phrase the API documents.
 * Handlers `throw new ApiError("table_not_available")`; onError and the validation hook
 * are the only places that write error responses.
 */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { ZodError } from "zod";
import { config } from "./config";
import type { AppEnv } from "./env";

/** code -> [status, title]. Titles are the API's documented reason phrases, word for word where it documents one. */
export const ERRORS = {
  invalid_input_data: [400, "invalid input data"],
  validation_error: [400, "validation error"],
  property_header_required: [400, "property header required"],
  invalid_request: [400, "invalid request"],
  authentication_required: [401, "authentication required"],
  invalid_token: [401, "invalid token"],
  invalid_credentials: [401, "invalid credentials"],
  property_forbidden: [403, "property forbidden"],
  sandbox_expired: [403, "sandbox expired"],
  insufficient_scope: [403, "insufficient scope"],
  csrf_token_invalid: [403, "csrf token invalid"],
  reservation_not_available: [403, "reservation not available"],
  resource_not_available: [403, "resource not available"],
  booking_slot_not_available: [403, "booking slot not available"],
  customer_is_banned: [403, "customer is banned"],
  service_is_not_available: [403, "service is not available"],
  room_capacity_exceeded: [403, "room capacity has been exceeded"],
  table_not_available: [403, "table not available"],
  service_not_available: [403, "service not available"],
  service_forbidden: [403, "service forbidden"],
  app_not_disconnectable: [403, "app cannot be disconnected"],
  role_required: [403, "role required"],
  cancel_notice_passed: [403, "cancel notice passed"],
  party_arrived: [403, "party has arrived"],
  guest_booking_limit: [403, "guest booking limit reached"],
  not_found: [404, "not found"],
  property_not_found: [404, "property not found"],
  reservation_not_found: [404, "reservation not found"],
  user_not_found: [404, "user not found"],
  room_not_found: [404, "room not found"],
  table_not_found: [404, "table not found"],
  service_not_found: [404, "service not found"],
  closure_not_found: [404, "closure not found"],
  subscription_not_found: [404, "subscription not found"],
  delivery_not_found: [404, "delivery not found"],
  offer_not_found: [404, "offer not found"],
  booking_not_found: [404, "booking not found"],
  app_not_found: [404, "app not found"],
  walk_in_not_found: [404, "walk-in not found"],
  staff_not_found: [404, "staff member not found"],
  method_not_allowed: [405, "method not allowed"],
  no_service_available: [406, "no service available"],
  no_room_available: [406, "no room available"],
  username_taken: [409, "username taken"],
  staff_exists: [409, "staff member exists"],
  last_owner: [409, "last owner"],
  resource_in_use: [409, "resource in use"],
  delivery_not_failed: [409, "delivery not failed"],
  idempotency_key_in_use: [409, "idempotency key in use"],
  time_no_longer_available: [409, "time no longer available"],
  offer_not_available: [409, "offer not available"],
  checkin_too_early: [409, "check-in too early"],
  checkin_too_late: [409, "check-in too late"],
  no_show_final: [409, "no-show can no longer be undone"],
  payment_not_available: [409, "payment not available"],
  walk_in_closed: [409, "walk-in closed"],
  link_expired: [410, "link expired"],
  payload_too_large: [413, "payload too large"],
  unsupported_media_type: [415, "unsupported media type"],
  idempotency_key_reused: [422, "idempotency key reused"],
  too_many_requests: [429, "too many requests"],
  pin_locked: [429, "pin locked"],
  payment_declined: [402, "payment declined"],
  internal_error: [500, "internal error"],
  payment_provider_error: [502, "payment provider error"],
  service_unavailable: [503, "service unavailable"],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;

export interface FieldError {
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly title: string;
  constructor(
    readonly code: ErrorCode,
    readonly detail?: string,
    readonly options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      status?: ContentfulStatusCode;
      /** extension members of the problem (RFC 9457 section 3.2), e.g. the 409's `alternatives` */
      extensions?: Record<string, string | string[] | number[]>;
    } = {},
  ) {
    super(detail ?? ERRORS[code][1]);
    this.status = options.status ?? (ERRORS[code][0] as ContentfulStatusCode);
    this.title = ERRORS[code][1];
  }

  /** The error as plain data, to cross from a Durable Object to the Worker (a class does not survive the trip). */
  problem(): Problem {
    return { code: this.code, detail: this.detail, options: this.options };
  }

  static fromProblem(p: Problem): ApiError {
    return new ApiError(p.code, p.detail, p.options);
  }
}

/** An ApiError as data (ApiError.problem()). */
export interface Problem {
  code: ErrorCode;
  detail: string | undefined;
  options: ApiError["options"];
}

/**
 * What D1 tells us when a trigger or constraint of ours aborts a batch (RAISE(ABORT, '<reason>')):
 * the first of `reasons` named in the error or its causes (drizzle and D1 wrap it).
 */
export function abortReason<R extends string>(err: unknown, reasons: readonly R[]): R | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const message = String((e as { message?: unknown }).message ?? e);
    const found = reasons.find((r) => message.includes(r));
    if (found) return found;
  }
  return undefined;
}

/** A 400 "invalid input data" about one field, for rules zod cannot see (cross-field, references). */
export function invalidField(path: string, message: string): ApiError {
  return new ApiError("invalid_input_data", message, { errors: [{ path, message }] });
}

export function problemBody(c: Context<AppEnv>, err: ApiError) {
  return {
    type: `${config(c.env).publicOrigin}/docs/errors#${err.code}`,
    title: err.title,
    status: err.status,
    code: err.code,
    detail: err.detail ?? err.title,
    request_id: c.get("requestId") ?? null,
    ...(err.options.errors ? { errors: err.options.errors } : {}),
    ...err.options.extensions,
  };
}

export function problem(c: Context<AppEnv>, err: ApiError): Response {
  // c.body keeps the headers middleware already set (X-Request-Id, security headers).
  return c.body(JSON.stringify(problemBody(c, err)), err.status, {
    ...err.options.headers,
    "Content-Type": "application/problem+json",
  });
}

type Issue = ZodError["issues"][number];

/** One entry per bad field; for a union, the errors of the branch that came closest. */
export function zodFieldErrors(
  error: ZodError | { issues: Issue[] },
  prefix: PropertyKey[] = [],
): FieldError[] {
  return error.issues.flatMap((issue): FieldError[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === "invalid_union" && issue.errors.length > 0) {
      const closest = [...issue.errors].sort((a, b) => a.length - b.length)[0]!;
      return zodFieldErrors({ issues: closest as Issue[] }, path);
    }
    return [{ path: path.length ? path.map(String).join(".") : "(root)", message: issue.message }];
  });
}

/** For the zod-openapi validation hook: one errors[] entry per bad field. */
export function invalidInput(error: ZodError, target?: string): ApiError {
  const errors = zodFieldErrors(error);
  const where = target && target !== "json" ? ` in ${target === "param" ? "path" : target}` : "";
  return new ApiError(
    "invalid_input_data",
    `${errors.length} invalid field${errors.length === 1 ? "" : "s"}${where}`,
    {
      errors,
    },
  );
}

export function onError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) return problem(c, err);
  // A shard's trigger refused a write to a property that is being moved (worker/ops/move.ts).
  if (abortReason(err, ["property_moving"] as const)) {
    return problem(
      c,
      new ApiError("service_unavailable", "this restaurant's data is being moved; retry shortly", {
        headers: { "Retry-After": "5" },
      }),
    );
  }
  if (err instanceof HTTPException) {
    // Hono's own validators throw these for unreadable bodies.
    if (err.status === 400) {
      return problem(
        c,
        new ApiError("invalid_input_data", "the request body is not valid JSON", {
          errors: [{ path: "(body)", message: err.message }],
        }),
      );
    }
    if (err.status === 413) return problem(c, new ApiError("payload_too_large"));
  }
  console.error(
    JSON.stringify({ level: "error", request_id: c.get("requestId"), message: String(err?.stack ?? err) }),
  );
  return problem(
    c,
    new ApiError("internal_error", "an unexpected error occurred; quote the request_id to support"),
  );
}
