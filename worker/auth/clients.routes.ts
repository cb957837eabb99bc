/**
 * {auth_url}/api-account/oauth2/client: an API client and its sandbox property, created with no
 * token. The token endpoints of the same area live in worker/oauth/token.routes.ts.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../lib/router";
import { ApiError, invalidInput } from "../errors";
import { emailField, envelope, errorResponses, json, optionalString, passwordField, urlField, usernameField } from "../lib/openapi";
import { jsonBodyOnly } from "../lib/middleware";
import { config } from "../config";
import { PositionSchema, PropertySchema } from "../properties/properties.schemas";
import { writePlaced } from "../properties/lifecycle";
import { toPropertyDto } from "../properties/properties.repo";
import { shardCount } from "../shards/shards";
import { createClient, deleteClient, usernameTaken } from "./clients.repo";

const username = usernameField;
const password = passwordField;
const email = emailField;
const redirectUri = urlField;

const FlatClientSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    email,
    username,
    password,
    redirect_uri: redirectUri,
    website: urlField.optional(),
    phone: optionalString(40),
    description: optionalString(5000),
    position: PositionSchema.optional(),
  })
  .openapi("ClientCreateFlat", {
    example: { name: "Acme POS", email: "dev@acme.example", username: "acme", password: "correct horse battery", redirect_uri: "https://acme.example" },
  });

const NestedClientSchema = z
  .object({
    redirect_uri: redirectUri,
    sandbox_property: z.object({
      name: z.string().trim().min(1).max(200),
      email,
      username,
      password,
      description: optionalString(5000),
      website: urlField.optional(),
      phone: optionalString(40),
      position: PositionSchema.optional(),
    }),
  })
  .openapi("ClientCreateNested", {
    example: {
      redirect_uri: "https://acme.example",
      sandbox_property: { name: "Acme Test Restaurant", username: "acme", password: "correct horse battery", email: "dev@acme.example", description: "test" },
    },
  });

const ApiClientSchema = z
  .object({
    id: z.number().int(),
    client_id: z.string(),
    client_secret: z.string().openapi({ description: "shown once, here" }),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    password: z.string().openapi({ description: "echoed as sent (SPEC); stored hashed" }),
    redirect_uri: z.string(),
    production_enabled: z.boolean(),
    properties: z.array(PropertySchema),
  })
  .openapi("ApiClient");

const tags = ["Clients and tokens"];

const createClientRoute = createRoute({
  method: "post",
  path: "/client",
  tags,
  summary: "Create an API client and its sandbox property",
  description: "No Authorization header. Accepts the flat shape or the nested `sandbox_property` shape. The client_secret is shown only in this response.",
  request: {
    body: { content: { "application/json": { schema: z.union([FlatClientSchema, NestedClientSchema]) } }, required: true },
  },
  responses: { 200: json(envelope(ApiClientSchema), "the client, with its sandbox property"), ...errorResponses("username_taken") },
});

/**
 * The body is one shape or the other, so report the errors of the shape the caller meant
 * (sandbox_property present or not): the union's own "closest branch" would name
 * sandbox_property when a flat body misses two fields.
 */
const clientShapeHook = (result: { success: boolean; target: string; error?: unknown }): undefined => {
  if (result.success) return undefined;
  const raw = (result as { data?: unknown }).data;
  const nested = typeof raw === "object" && raw !== null && "sandbox_property" in raw;
  const parsed = (nested ? NestedClientSchema : FlatClientSchema).safeParse(raw);
  if (!parsed.success) throw invalidInput(parsed.error, result.target);
  throw invalidInput(result.error as Parameters<typeof invalidInput>[0], result.target);
};

export const clientsRouter = createRouter();

// No Idempotency-Key store here: the response holds the client_secret, which must be shown
// once and never kept in clear. A retried creation is safe anyway: the username is unique (409).
clientsRouter.use("/client", jsonBodyOnly());

clientsRouter
  .openapi(createClientRoute, async (c) => {
    const body = c.req.valid("json");
    const input =
      "sandbox_property" in body
        ? {
            name: body.sandbox_property.name,
            email: body.sandbox_property.email,
            username: body.sandbox_property.username,
            password: body.sandbox_property.password,
            redirectUri: body.redirect_uri,
            property: body.sandbox_property,
          }
        : { name: body.name, email: body.email, username: body.username, password: body.password, redirectUri: body.redirect_uri, property: body };
    const control = c.get("control");
    const taken = () => new ApiError("username_taken", `the username "${input.username}" is taken`);
    // Checked first to spare the slow password hash; the UNIQUE index below settles races.
    if (await usernameTaken(control, input.username)) throw taken();
    let created;
    try {
      created = await createClient(control, input, shardCount(c.env));
    } catch (e) {
      if (String((e as Error)?.message ?? e).includes("UNIQUE") || String((e as { cause?: unknown })?.cause ?? "").includes("UNIQUE")) throw taken();
      throw e;
    }
    const { client, clientSecret, entry } = created;
    // The sandbox property's row, in the shard the directory chose (the client goes if it cannot be written).
    const property = await writePlaced(c.env, control, entry, { ...input.property, passwordHash: client.passwordHash }, { sandbox: true, sandboxDays: config(c.env).sandboxDays }).catch(async (err) => {
      await deleteClient(control, client.id);
      throw err;
    });
    return c.json(
      {
        data: [
          {
            id: client.id,
            client_id: client.clientId,
            client_secret: clientSecret,
            name: client.name,
            email: client.email,
            username: client.username,
            password: input.password,
            redirect_uri: client.redirectUri,
            production_enabled: client.productionEnabled,
            properties: [toPropertyDto(property)],
          },
        ],
      },
      200,
      { "Cache-Control": "no-store" },
    );
  }, clientShapeHook);
