/** The shift notes' API shapes. */
import { z } from "@hono/zod-openapi";
import { dateString, textField } from "../../shared/schemas";
import type { ShiftNoteRow } from "./notes.repo";

export const NoteSchema = z
  .object({
    date: z.string().openapi({ example: "2031-03-04" }),
    text: z.string().openapi({ description: "empty: the day has no note" }),
    updated_at: z.string().nullable(),
  })
  .openapi("ShiftNote");

export const NoteDateParam = z.object({
  date: dateString.openapi({ param: { name: "date", in: "path" }, example: "2031-03-04" }),
});

export const NotesQuery = z.object({
  from: dateString.openapi({ description: "the first day", example: "2031-03-04" }),
  to: dateString
    .optional()
    .openapi({ description: "the last day (default: from); at most 366 days on", example: "2031-03-10" }),
});

export const NotePut = z
  .object({ text: textField(4000).openapi({ description: "the day's note; empty clears it" }) })
  .openapi("ShiftNotePut", { example: { text: "Large party of 12 at 20:00: terrace. Fish delivery late." } });

export const toNoteDto = (n: Pick<ShiftNoteRow, "date" | "text" | "updatedAt">) => ({
  date: n.date,
  text: n.text,
  updated_at: n.updatedAt,
});
