/** The staff's notes for each day of service (the shift's briefing). */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { authoriseProperty } from "../properties/authorise";
import * as repo from "./notes.repo";
import { toNoteDto } from "./notes.schemas";
import { rangeEnd } from "./range";

type Ctx = Context<AppEnv>;

export async function listNotes(c: Ctx, propertyId: number, q: { from: string; to?: string | undefined }) {
  await authoriseProperty(c, propertyId);
  const notes = await repo.listNotes(c.get("db"), propertyId, q.from, rangeEnd(q.from, q.to));
  return { data: notes.map(toNoteDto), next_cursor: null };
}

export async function putNote(c: Ctx, propertyId: number, date: string, text: string) {
  await authoriseProperty(c, propertyId);
  if (!text) {
    await repo.deleteNote(c.get("db"), propertyId, date);
    return { data: [{ date, text: "", updated_at: null }] };
  }
  return { data: [toNoteDto(await repo.putNote(c.get("db"), propertyId, date, text))] };
}
