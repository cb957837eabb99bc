/** Idempotency keys in the control database (worker/lib/idempotency.ts). */

export interface StoredKey {
  request_hash: string;
  state: "running" | "done";
  response_status: number | null;
  response_body: string | null;
  response_type: string | null;
  created_at: string;
}

/**
 * Claims (scope, key) for a request: a new row, or an old one taken over once expired or left
 * "running" by a request that was cut off. One statement, so two racing requests cannot both win.
 */
export async function claimKey(
  d1: D1Database,
  k: {
    scope: string;
    key: string;
    requestHash: string;
    at: string;
    expiredBefore: string;
    staleBefore: string;
  },
): Promise<boolean> {
  const claimed = await d1
    .prepare(
      `INSERT INTO idempotency_keys (scope, key, request_hash, state, created_at) VALUES (?1, ?2, ?3, 'running', ?6)
       ON CONFLICT (scope, key) DO UPDATE SET request_hash = ?3, state = 'running', response_status = NULL,
         response_body = NULL, response_type = NULL, created_at = ?6
       WHERE idempotency_keys.created_at < ?4 OR (idempotency_keys.state = 'running' AND idempotency_keys.created_at < ?5)
       RETURNING key`,
    )
    .bind(k.scope, k.key, k.requestHash, k.expiredBefore, k.staleBefore, k.at)
    .first();
  return claimed !== null;
}

export async function findKey(d1: D1Database, scope: string, key: string): Promise<StoredKey | null> {
  return d1
    .prepare(
      "SELECT request_hash, state, response_status, response_body, response_type, created_at FROM idempotency_keys WHERE scope = ? AND key = ?",
    )
    .bind(scope, key)
    .first<StoredKey>();
}

/** A failure on our side must not pin the key: the caller's retry runs again. */
export async function releaseKey(d1: D1Database, scope: string, key: string): Promise<void> {
  await d1.prepare("DELETE FROM idempotency_keys WHERE scope = ? AND key = ?").bind(scope, key).run();
}

export async function completeKey(
  d1: D1Database,
  scope: string,
  key: string,
  r: { status: number; body: string; type: string | null; subjects: string | null },
): Promise<void> {
  await d1
    .prepare(
      "UPDATE idempotency_keys SET state = 'done', response_status = ?, response_body = ?, response_type = ?, subjects = ? WHERE scope = ? AND key = ?",
    )
    .bind(r.status, r.body, r.type, r.subjects, scope, key)
    .run();
}

/** Deletes the stored answers tagged with any of these subject hashes (an erasure; rare, so a scan of a day's keys). */
export async function forgetSubjects(d1: D1Database, hashes: string[]): Promise<void> {
  const where = hashes.map((_, i) => `instr(subjects, ?${i + 1}) > 0`).join(" OR ");
  await d1
    .prepare(`DELETE FROM idempotency_keys WHERE subjects IS NOT NULL AND (${where})`)
    .bind(...hashes.map((h) => ` ${h} `))
    .run();
}

/** Keys past their 24 hours (housekeeping). */
export async function purgeKeys(d1: D1Database, before: string): Promise<void> {
  await d1.prepare("DELETE FROM idempotency_keys WHERE created_at < ?").bind(before).run();
}
