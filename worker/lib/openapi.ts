/** Building blocks of the route contracts: envelopes, the problem body, common parameters. */
import { z } from "@hono/zod-openapi";
import { lineField, textField } from "../../shared/schemas";
import { ERRORS, type ErrorCode } from "../errors";
import { MAX_BODY_BYTES } from "./middleware";
import { nextCursorSchema } from "./pagination";
import { normaliseUsername, USERNAME_MAX, USERNAME_MIN, usernameProblem } from "./username";

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z
      .string()
      .openapi({ description: "the reason phrase of the error code", example: "property not found" }),
    status: z.number().int(),
    code: z.string().openapi({ example: "property_not_found" }),
    detail: z.string(),
    request_id: z.string().nullable(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    reason: z
      .string()
      .optional()
      .openapi({
        description:
          "a refused table or time: why, so a client can say it in its own words: full (the tables are held), " +
          "party_size (they cannot seat the party), closed (a closure), pacing, other_room (a party sits in one room), " +
          "group_member (a table asked for with its own group)",
        example: "full",
      }),
    table_ids: z
      .array(z.number().int())
      .optional()
      .openapi({ description: "the tables a refusal is about (GET /tables names them)", example: [12] }),
    room_ids: z.array(z.number().int()).optional().openapi({
      description: "the rooms a refusal is about: other_room names the table's room, then the party's",
    }),
  })
  .openapi("Problem");

/** `{"data": [item]}`: the API wraps every result in an array, even a single record. */
export const envelope = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
export const listEnvelope = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), next_cursor: nextCursorSchema });

export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

/** Problem responses for the given codes, grouped by status, each listing its titles. */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, string[]>();
  for (const code of [...codes, "invalid_input_data", "too_many_requests"] as ErrorCode[]) {
    const [status, title] = ERRORS[code];
    const titles = byStatus.get(status) ?? [];
    if (!titles.includes(title)) titles.push(title);
    byStatus.set(status, titles);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, titles]) => [
      status,
      { description: titles.join("; "), content: { "application/problem+json": { schema: ProblemSchema } } },
    ]),
  );
}

export const AUTHED = ["authentication_required", "invalid_token"] as const satisfies ErrorCode[];
export const PROPERTY_SCOPED = [
  ...AUTHED,
  "property_header_required",
  "property_not_found",
  "property_forbidden",
  "sandbox_expired",
] as const satisfies ErrorCode[];

export const bearerSecurity = [{ bearer: [] }];

export const propertyHeader = z.object({
  Property: z
    .string()
    .optional()
    .openapi({
      param: { name: "Property", in: "header", required: true },
      description: "the property id the call acts on",
      example: "1",
    }),
});

/**
 * A path segment the caller names (a key, a token): never "." or "..". Every URL parser, the
 * runtime's before the Worker, resolves those away, so the call reaches another path
 * (`/api/v2/public/%2e%2e/services` is `/api/v2/services`, which asks for a token): the document
 * says so, and a client that checks its parameters never sends one.
 */
export const pathSegment = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^(?!\.\.?$)/, "a path segment cannot be . or ..");

/** A path id named `name`: plain decimal digits only ("1e3", "0x10", "1.5" are refused, not coerced). */
export const pathId = (name: string) =>
  z
    .string()
    .regex(/^[1-9]\d{0,14}$/, "expected a positive integer id")
    .transform(Number)
    .openapi({ param: { name, in: "path" }, type: "integer", example: 1 });

export const IdParam = z.object({ id: pathId("id") });
/** The reservation routes name their path parameter {reservation_id}. */
export const ReservationIdParam = z.object({ reservation_id: pathId("reservation_id") });
/** A property's sub-resources name it {property_id}. */
export const PropertyIdParam = z.object({ property_id: pathId("property_id") });

/** An optional line (a phone, a city) and an optional text of several lines (a description). */
export const optionalLine = (max: number) => lineField(max).optional();
export const optionalText = (max: number) => textField(max).optional();

/** Field rules shared by clients and properties. */
export const emailField = z.string().trim().email().max(254);
export { newPassword as passwordField } from "../../shared/console";
/** A sign-in name: NFKC, no invisible characters; unique whatever its case (worker/lib/username.ts). */
export const usernameField = z
  .string()
  .max(4 * USERNAME_MAX)
  .transform(normaliseUsername)
  .superRefine((name, ctx) => {
    const problem = usernameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    type: "string",
    minLength: USERNAME_MIN,
    maxLength: USERNAME_MAX,
    description:
      "unique, compared case-insensitively after Unicode NFKC normalisation; no spaces or invisible characters",
    example: "trattoria-roma",
  });
export { httpUrl as urlField } from "../../shared/schemas";

type Responses = Record<
  string,
  { description: string; content?: Record<string, unknown>; headers?: Record<string, unknown> }
>;
interface DocOperation {
  requestBody?: { content?: Record<string, unknown> };
  responses?: Responses;
}

const problemRef = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };
const RETRY_AFTER = {
  "Retry-After": { description: "seconds to wait before retrying", schema: { type: "integer" } },
};
const JSON_MEDIA = /^application\/([a-z0-9.+-]*\+)?json$/i;

/** Where the middleware of app.ts stands, by path: which paths are rate limited, which take only JSON. */
export interface GuardedPaths {
  unlimited?: (path: string) => boolean;
  /** POST, PUT and PATCH here answer 415 to a body that is not JSON, whether the operation takes a body or not */
  jsonOnly?: (path: string) => boolean;
}

const WRITES = new Set(["post", "put", "patch"]);

/**
 * What the middleware of app.ts answers for every route it guards, added to each operation of
 * the generated document unless its contract says it already: 413 and (JSON-only bodies) 415 on
 * writes with a body, and on every write of a JSON-only path (a body sent to an operation that
 * takes none is refused the same way); 429 on every path behind a rate limit (per client, per
 * address, or on failed authentications for the search engine's partner): all but the
 * `unlimited` ones.
 */
export function documentMiddlewareAnswers<D extends { paths?: { [path: string]: object } }>(
  doc: D,
  guarded: GuardedPaths = {},
): D {
  const { unlimited = () => false, jsonOnly = () => false } = guarded;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item) as [string, DocOperation][]) {
      if (!op || typeof op !== "object" || !op.responses) continue;
      const media = Object.keys(op.requestBody?.content ?? {});
      const jsonWrite = WRITES.has(method) && jsonOnly(path);
      if (media.length || jsonWrite) {
        op.responses["413"] ??= {
          description: `payload too large: request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB`,
          content: problemRef,
        };
        if (jsonWrite || (media.length && media.every((m) => JSON_MEDIA.test(m))))
          op.responses["415"] ??= {
            description: "unsupported media type: send Content-Type: application/json",
            content: problemRef,
          };
      }
      if (unlimited(path)) continue;
      op.responses["429"] ??= { description: "too many requests", content: problemRef };
      op.responses["429"].headers ??= RETRY_AFTER;
    }
  }
  return doc;
}
