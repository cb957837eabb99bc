/** The shapes of an API client's creation: the flat and the nested request, and the answer. */
import { z } from "@hono/zod-openapi";
import { lineField } from "../../shared/schemas";
import { emailField, optionalLine, optionalText, passwordField, urlField, usernameField } from "../lib/openapi";
import { PositionSchema, PropertySchema } from "../properties/properties.schemas";

const username = usernameField;
const password = passwordField;
const email = emailField;
const redirectUri = urlField;

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
    example: { name: "Acme POS", email: "dev@acme.example", username: "acme", password: "correct horse battery", redirect_uri: "https://acme.example" },
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
      sandbox_property: { name: "Acme Test Restaurant", username: "acme", password: "correct horse battery", email: "dev@acme.example", description: "test" },
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
