/** /services of the property named by the Property header. */
import { catalogRouter, catalogRoutes } from "../lib/crud";
import { catalogWritten } from "./catalog.audit";
import { services } from "./services.handlers";
import { ServiceCreate, ServiceSchema, ServiceUpdate } from "./services.schemas";

const routes = catalogRoutes({
  tag: "Services",
  singular: "service",
  schema: ServiceSchema,
  create: ServiceCreate,
  update: ServiceUpdate,
  notFound: "service_not_found",
  deleteErrors: ["resource_in_use"],
});

export const servicesRouter = catalogRouter(routes, services, catalogWritten("service"));
