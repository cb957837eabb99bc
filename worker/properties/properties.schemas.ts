/** A property's API shape (also in the answer of a client's creation) and its create and update bodies. */
import { z } from "@hono/zod-openapi";
import { lineField, settingsPatchSchema, settingsSchema } from "../../shared/schemas";
import {
  emailField,
  optionalLine,
  optionalText,
  passwordField,
  urlField,
  usernameField,
} from "../lib/openapi";

export const PositionSchema = z
  .object({
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    country: optionalLine(100),
    address: optionalLine(300),
    city: optionalLine(100),
    zip: optionalLine(20),
  })
  .openapi("Position", {
    example: {
      latitude: 45.4642,
      longitude: 9.19,
      country: "IT",
      address: "Via Roma 1",
      city: "Milano",
      zip: "20121",
    },
  });

// A fresh object: shared/ schemas are plain zod, made before the OpenAPI extension.
export const SettingsSchema = z.object(settingsSchema.shape).openapi("PropertySettings");

export const PropertySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    enabled: z.boolean(),
    sandbox: z.boolean(),
    position: PositionSchema.openapi({ description: "may be empty" }),
    email: z.string().nullable(),
    username: z.string().nullable(),
    website: z.string().nullable(),
    phone: z.string().nullable(),
    description: z.string().nullable(),
    public_key: z.string().openapi({ description: "the key of the public widget API and the hosted pages" }),
    sandbox_expires_at: z.string().nullable(),
    searchengine_enabled: z.boolean(),
    settings: SettingsSchema,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Property");

const propertyFields = {
  // null clears a field, so a property read with GET can be sent back with PUT as it is.
  email: emailField.nullable().optional(),
  username: usernameField.nullable().optional(),
  password: passwordField.optional().openapi({ description: "stored hashed, never returned" }),
  website: urlField.nullable().optional(),
  phone: optionalLine(40).nullable(),
  description: optionalText(5000).nullable(),
  position: PositionSchema.optional(),
  settings: z
    .object(settingsPatchSchema.shape)
    .optional()
    .openapi({ description: "only the settings given change; see PropertySettings for defaults" }),
};

export const PropertyCreateSchema = z
  .object({ name: lineField(200).min(1), ...propertyFields })
  .openapi("PropertyCreate", {
    example: {
      name: "Trattoria Roma",
      email: "info@trattoria.example",
      phone: "+39 02 1234567",
      settings: { timezone: "Europe/Rome", locale: "it" },
    },
  });

export const PropertyUpdateSchema = z
  .object({ name: lineField(200).min(1).optional(), enabled: z.boolean().optional(), ...propertyFields })
  .openapi("PropertyUpdate", { example: { name: "Trattoria Roma", settings: { average_stay: 90 } } });

export type PropertyCreateBody = z.infer<typeof PropertyCreateSchema>;
export type PropertyUpdateBody = z.infer<typeof PropertyUpdateSchema>;
