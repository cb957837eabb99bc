/** /properties/{property_id}/notes: the staff's notes for each day (a host's: read and written at the host stand). */
import { createRoute } from "@hono/zod-openapi";
import {
  bearerSecurity,
  envelope,
  errorResponses,
  json,
  listEnvelope,
  PROPERTY_SCOPED,
  PropertyIdParam,
} from "../lib/openapi";
import { createRouter } from "../lib/router";
import { listNotes, putNote } from "./notes.handlers";
import { NoteDateParam, NotePut, NoteSchema, NotesQuery } from "./notes.schemas";

const tags = ["Shift notes"];
const security = bearerSecurity;
const scoped = PROPERTY_SCOPED.filter((c) => c !== "property_header_required");

const listRoute = createRoute({
  method: "get",
  path: "/{property_id}/notes",
  tags,
  security,
  summary: "The shift notes of a range of days",
  description:
    "The days from `from` to `to` (default: `from` alone) that have a note, by date. One page: `next_cursor` is null.",
  request: { params: PropertyIdParam, query: NotesQuery },
  responses: {
    200: json(listEnvelope(NoteSchema), "the notes"),
    ...errorResponses(...scoped),
  },
});

const putRoute = createRoute({
  method: "put",
  path: "/{property_id}/notes/{date}",
  tags,
  security,
  summary: "Write a day's shift note",
  description: "Replaces the day's note (the last writer's text is kept); an empty `text` clears it.",
  request: {
    params: PropertyIdParam.merge(NoteDateParam),
    body: { content: { "application/json": { schema: NotePut } }, required: true },
  },
  responses: {
    200: json(envelope(NoteSchema), "the day's note"),
    ...errorResponses(...scoped),
  },
});

export const notesRouter = createRouter()
  .openapi(listRoute, async (c) =>
    c.json(await listNotes(c, c.req.valid("param").property_id, c.req.valid("query")), 200),
  )
  .openapi(putRoute, async (c) => {
    const { property_id, date } = c.req.valid("param");
    return c.json(await putNote(c, property_id, date, c.req.valid("json").text), 200);
  });
