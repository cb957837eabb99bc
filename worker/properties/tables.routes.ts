/** /tables of the property named by the Property header: single tables and groups of tables. */
import { catalogRouter, catalogRoutes } from "../lib/crud";
import { catalogWritten } from "./catalog.audit";
import { tables } from "./tables.handlers";
import { TableCreate, TableSchema, TableUpdate } from "./tables.schemas";

const routes = catalogRoutes({
  tag: "Tables",
  singular: "table",
  schema: TableSchema,
  create: TableCreate,
  update: TableUpdate,
  notFound: "table_not_found",
  writeErrors: ["room_not_found", "resource_in_use"],
  deleteErrors: ["resource_in_use"],
});

export const tablesRouter = catalogRouter(routes, tables, catalogWritten("table"));
