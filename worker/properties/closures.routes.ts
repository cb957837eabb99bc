/** /closures of the property named by the Property header. */
import { catalogRouter, catalogRoutes } from "../lib/crud";
import { catalogWritten } from "./catalog.audit";
import { closures } from "./closures.handlers";
import { ClosureCreate, ClosureSchema, ClosureUpdate } from "./closures.schemas";

const routes = catalogRoutes({
  tag: "Closures",
  singular: "closure",
  schema: ClosureSchema,
  create: ClosureCreate,
  update: ClosureUpdate,
  notFound: "closure_not_found",
});

export const closuresRouter = catalogRouter(routes, closures, catalogWritten("closure"));
