/** The staff's notes for a day: read a range of days, write or clear one day's. */
import { and, asc, eq, gte, lte } from "drizzle-orm";
import { shiftNotes } from "../db/shard.schema";
import type { Db } from "../env";
import { nowIso } from "../lib/clock";

export type ShiftNoteRow = typeof shiftNotes.$inferSelect;

export function listNotes(db: Db, propertyId: number, from: string, to: string): Promise<ShiftNoteRow[]> {
  return db
    .select()
    .from(shiftNotes)
    .where(and(eq(shiftNotes.propertyId, propertyId), gte(shiftNotes.date, from), lte(shiftNotes.date, to)))
    .orderBy(asc(shiftNotes.date));
}

/** Writes the day's note (one statement: a second writer's text simply wins). */
export async function putNote(db: Db, propertyId: number, date: string, text: string): Promise<ShiftNoteRow> {
  const updatedAt = nowIso();
  const rows = await db
    .insert(shiftNotes)
    .values({ propertyId, date, text, updatedAt })
    .onConflictDoUpdate({ target: [shiftNotes.propertyId, shiftNotes.date], set: { text, updatedAt } })
    .returning();
  return rows[0]!;
}

export async function deleteNote(db: Db, propertyId: number, date: string): Promise<void> {
  await db.delete(shiftNotes).where(and(eq(shiftNotes.propertyId, propertyId), eq(shiftNotes.date, date)));
}
