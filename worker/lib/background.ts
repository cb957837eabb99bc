/**
 * Work that follows an answer (the consoles' live feed): the bindings it needs and the door's
 * waitUntil, kept for the whole of a request, a cron run or a queue batch (AsyncLocalStorage),
 * so whatever code path changed a reservation (the API, the widget, the search engine, the cron)
 * reaches it without handing it down.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { MiddlewareHandler } from "hono";
import type { AppEnv, Bindings } from "../env";

export interface Background {
  env: Bindings;
  waitUntil(work: Promise<unknown>): void;
  /** the restaurant object this work runs in (its booking desk): its consoles are told directly, not through a stub */
  restaurant?: { propertyId: number; announce(message: object): unknown };
}

const store = new AsyncLocalStorage<Background>();

/** Runs `work` with this background. */
export function withBackground<T>(background: Background, work: () => T): T {
  return store.run(background, work);
}

/** The background of the request (or run) under way, if any. */
export const currentBackground = (): Background | undefined => store.getStore();

/** Every request's background: its bindings and its execution context's waitUntil. */
export function background(): MiddlewareHandler<AppEnv> {
  return async function backgroundMiddleware(c, next) {
    let ctx: ExecutionContext | undefined;
    try {
      ctx = c.executionCtx;
    } catch {
      return next();
    }
    await withBackground({ env: c.env, waitUntil: (work) => ctx.waitUntil(work) }, next);
  };
}
