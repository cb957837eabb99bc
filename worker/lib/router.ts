import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { invalidInput } from "../errors";

/**
 * Every router is made here so each route shares the validation hook: a zod failure
 * becomes the one 400 "invalid input data" problem, with one errors[] entry per field.
 */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(result.error, result.target);
    },
  });
}
