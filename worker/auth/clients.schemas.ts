/** The shapes of an API client's creation: the flat and the nested request, and the answer. */
import { z } from "@hono/zod-openapi";
import { lineField } from "../../shared/schemas";
import {
  emailField,
  optionalLine,
  optionalText,
  passwordField,
  urlField,
  usernameField,
} from "../lib/openapi";
import { PositionSchema, PropertySchema } from "../properties/properties.schemas";

const username = usernameField;
const password = passwordField;
const email = emailField;
/** Hosts a plain http redirect_uri may name: the integrator's own machine. */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Why a redirect_uri may not be registered, or undefined: https, or http to the integrator's own
 * machine; an authority with a host and no user part; no fragment; no space (RFC 6749 3.1.2).
 */
export function redirectUriProblem(raw: string): string | undefined {
  if (/\s/.test(raw)) return "a redirect_uri holds no space";
  if (raw.includes("#")) return "a redirect_uri has no fragment (#)";
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(raw)?.[1];
  if (!authority) return "a redirect_uri names a host: scheme://host/path";
  if (authority.includes("@")) return "a redirect_uri holds no user name or password";
  if (!URL.canParse(raw)) return "expected a URL";
  const url = new URL(raw);
  if (url.protocol === "https:") return undefined;
  if (url.protocol === "http:" && LOOPBACK.test(url.hostname)) return undefined;
  return "a redirect_uri is https, or http to localhost or a loopback address only";
}

const redirectUri = z
  .string()
  .max(2048)
  .superRefine((raw, ctx) => {
    const problem = redirectUriProblem(raw);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description:
      "where the code flow returns: https, or http to localhost or a loopback address; no fragment, no user part",
    example: "https://integrator.example/callback",
  });

export const FlatClientSchema = z
  .object({
    name: lineField(200).min(1),
    email,
    username,
    password,
    redirect_uri: redirectUri,
    website: urlField.optional(),
    phone: optionalLine(40),
    description: optionalText(5000),
    position: PositionSchema.optional(),
  })
  .openapi("ClientCreateFlat", {
    example: {
      name: "Acme POS",
      email: "dev@acme.example",
      username: "acme",
      password: "correct horse battery",
      redirect_uri: "https://acme.example",
    },
  });

export const NestedClientSchema = z
  .object({
    redirect_uri: redirectUri,
    sandbox_property: z.object({
      name: lineField(200).min(1),
      email,
      username,
      password,
      description: optionalText(5000),
      website: urlField.optional(),
      phone: optionalLine(40),
      position: PositionSchema.optional(),
    }),
  })
  .openapi("ClientCreateNested", {
    example: {
      redirect_uri: "https://acme.example",
      sandbox_property: {
        name: "Acme Test Restaurant",
        username: "acme",
        password: "correct horse battery",
        email: "dev@acme.example",
        description: "test",
      },
    },
  });

export const ApiClientSchema = z
  .object({
    id: z.number().int(),
    client_id: z.string(),
    client_secret: z.string().openapi({ description: "shown once, here" }),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    password: z.string().openapi({ description: "echoed as sent; stored hashed" }),
    redirect_uri: z.string(),
    production_enabled: z.boolean(),
    properties: z.array(PropertySchema),
  })
  .openapi("ApiClient");

export type ClientCreation = z.infer<typeof FlatClientSchema> | z.infer<typeof NestedClientSchema>;
