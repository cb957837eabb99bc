/** /rooms of the property named by the Property header. */
import { catalogRouter, catalogRoutes } from "../lib/crud";
import { catalogWritten } from "./catalog.audit";
import { rooms } from "./rooms.handlers";
import { RoomCreate, RoomSchema, RoomUpdate } from "./rooms.schemas";

const routes = catalogRoutes({
  tag: "Rooms",
  singular: "room",
  schema: RoomSchema,
  create: RoomCreate,
  update: RoomUpdate,
  notFound: "room_not_found",
  deleteErrors: ["resource_in_use"],
});

export const roomsRouter = catalogRouter(routes, rooms, catalogWritten("room"));
