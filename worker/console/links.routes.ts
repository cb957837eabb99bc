/**
 * POST {base_url}/console/links: a platform opens the restaurant's console for one of its
 * restaurants (the Property header). Mounted on the integrator API only, not again under the
 * console's own API: a signed-in console has no use for a link into itself.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  PROPERTY_SCOPED,
  propertyHeader,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { createSignInLink, SIGN_IN_LINK_SECONDS } from "./links.handlers";

const SignInLink = z
  .object({
    url: z.string().url().openapi({
      description: "open it in the restaurant's browser: the first visit signs in and shows the console",
      example: "https://example.com/console/link/csl_...",
    }),
    expires_at: z.string().openapi({
      description: "when the link stops working, if it has not been followed by then",
      example: "2030-01-01T12:01:00.000Z",
    }),
  })
  .openapi("ConsoleSignInLink");

const createLinkRoute = createRoute({
  method: "post",
  path: "/links",
  tags: ["Console"],
  security: bearerSecurity,
  summary: "Open the restaurant's console",
  description:
    `A single-use sign-in link into the restaurant's console for the property of the Property header, valid ${SIGN_IN_LINK_SECONDS} seconds. ` +
    "Following it signs that browser in as the restaurant (a console session) and opens the console; a second visit, or one after it expired, shows the sign-in page instead. " +
    "Make the link when the user asks to open the console, and send the browser there at once. " +
    "The session acts as the platform (its changes name the app) with the manager role, or the host role when the body asks for it.",
  request: {
    headers: propertyHeader,
    body: {
      content: {
        "application/json": {
          schema: z
            .object({
              role: z
                .enum(["manager", "host"])
                .optional()
                .openapi({ description: "the console's role for this session (default manager)" }),
            })
            .openapi("ConsoleSignInLinkRequest"),
        },
      },
      required: false,
    },
  },
  responses: {
    201: json(envelope(SignInLink), "the link and when it expires"),
    ...errorResponses(...PROPERTY_SCOPED, "idempotency_key_in_use", "idempotency_key_reused"),
  },
});

export const consoleLinksRouter = createRouter().openapi(createLinkRoute, async (c) =>
  c.json(
    await createSignInLink(c, (c.req.valid("json") as { role?: "manager" | "host" } | undefined)?.role),
    201,
  ),
);
