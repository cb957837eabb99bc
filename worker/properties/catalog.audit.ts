/** The catalog's writes in the audit log: who created, changed or deleted which room, table, service or closure. */
import { type AuditSubject, givenFields, recordChange } from "../audit/audit";
import type { CatalogWritten } from "../lib/crud";

export const catalogWritten =
  (subject: AuditSubject): CatalogWritten =>
  (c, action, id, body) =>
    recordChange(c, { action, subject, subjectId: id, fields: givenFields(body) });
