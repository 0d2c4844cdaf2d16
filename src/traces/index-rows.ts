/**
 * @module
 * The thin per-trace index in the tenant's D1 database (`traces`, migrations/0018_traces.sql): one row per
 * trace, written by the spans' consumer from what the trace's object answers (./ingest.ts), deleted with the trace
 * (a deleted trace's tombstone beside it, `trace_tombstones`, migrations/0044_trace_tombstones.sql, for
 * {@link TOMBSTONE_TTL_MS}).
 */

/**
 * The longest a spans consumer holds an index row it read from a trace's object before writing it, ms: 15 min.
 * The read and the write are one invocation of the consumer (src/traces/ingest.ts `deliverSpanMessages`), and a
 * Queues consumer invocation lasts 15 min of wall-clock time at most ("Consumer duration (wall clock time)",
 * https://developers.cloudflare.com/queues/platform/limits/). A retried message (`retry_delay`, `max_retries` in
 * wrangler.toml) is a new invocation, which reads the row again from the object: a deleted trace's answers none.
 */
export const CONSUMER_HOLD_MAX_MS = 15 * 60_000;

/**
 * How long a deleted trace's D1 tombstone is kept, ms: 1 h, 4 × {@link CONSUMER_HOLD_MAX_MS}. Past it no consumer
 * still holds a row read before the delete, and the trace's object keeps its own tombstone, which answers no row
 * to a later span. The cron's retention run deletes older ones ({@link pruneTombstones}).
 */
export const TOMBSTONE_TTL_MS = 4 * CONSUMER_HOLD_MAX_MS;

/** One trace's index row (times in ms). */
export interface TraceIndexRow {
  tenant: string;
  traceId: string;
  rootSpanId: string | null;
  rootName: string | null;
  service: string | null;
  startedAt: number;
  rootEndedAt: number | null;
  createdAt: number;
}

/**
 * Inserts each row, or fills in the root's fields of an existing one (never clears them), in one D1 batch. A row
 * that changes nothing writes nothing, so repeating it (each message of a trace answers its row) is free. A trace
 * erased meanwhile ({@link tombstoneIndexRow}) gets no row: its object answered this one before the erase.
 */
export async function upsertIndexRows(db: D1Database, rows: readonly TraceIndexRow[]): Promise<void> {
  if (rows.length === 0) return;
  // INSERT … SELECT so the tombstone can veto it (an upsert's SELECT needs its WHERE: SQLite's parse of ON CONFLICT).
  const statement = db.prepare(
    `INSERT INTO traces (tenant, trace_id, root_span_id, root_name, service, started_at, root_ended_at, created_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
     WHERE NOT EXISTS (SELECT 1 FROM trace_tombstones WHERE tenant = ?1 AND trace_id = ?2)
     ON CONFLICT (tenant, trace_id) DO UPDATE SET
       root_span_id = COALESCE(excluded.root_span_id, root_span_id),
       root_name = COALESCE(excluded.root_name, root_name),
       service = COALESCE(excluded.service, service),
       started_at = CASE WHEN excluded.root_span_id IS NOT NULL THEN excluded.started_at ELSE started_at END,
       root_ended_at = COALESCE(excluded.root_ended_at, root_ended_at)
     WHERE (excluded.root_span_id IS NOT NULL AND root_span_id IS NULL)
        OR (excluded.root_ended_at IS NOT NULL AND root_ended_at IS NULL)
        OR (excluded.service IS NOT NULL AND service IS NULL)`,
  );
  await db.batch(
    rows.map((r) =>
      statement.bind(r.tenant, r.traceId, r.rootSpanId, r.rootName, r.service, r.startedAt, r.rootEndedAt, r.createdAt),
    ),
  );
}

/**
 * Deletes an erased trace's row (`DELETE /v1/traces/{id}`) and records its tombstone, in one batch, so a consumer's
 * write of a row read before the erase ({@link upsertIndexRows}) cannot bring it back. Idempotent.
 * @param at when the trace was erased, epoch ms.
 */
export async function tombstoneIndexRow(db: D1Database, tenant: string, traceId: string, at: number): Promise<void> {
  await db.batch([
    db
      .prepare('INSERT INTO trace_tombstones (tenant, trace_id, deleted_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .bind(tenant, traceId, at),
    db.prepare('DELETE FROM traces WHERE tenant = ? AND trace_id = ?').bind(tenant, traceId),
  ]);
}

/**
 * Deletes up to `limit` tombstones older than {@link TOMBSTONE_TTL_MS} at `now` (epoch ms), oldest first, in one
 * statement (`trace_tombstones_by_time`, migrations/0045). @returns how many it deleted.
 */
export async function pruneTombstones(db: D1Database, now: number, limit: number): Promise<number> {
  const r = await db
    .prepare(
      `DELETE FROM trace_tombstones WHERE (tenant, trace_id) IN (
         SELECT tenant, trace_id FROM trace_tombstones WHERE deleted_at < ? ORDER BY deleted_at LIMIT ?)`,
    )
    .bind(now - TOMBSTONE_TTL_MS, limit)
    .run();
  return r.meta.changes;
}

/** Deletes a trace's row and its tombstone, if any (the trace's object forgets it: its retention ended). */
export async function deleteIndexRow(db: D1Database, tenant: string, traceId: string): Promise<void> {
  await db.batch([
    db.prepare('DELETE FROM traces WHERE tenant = ? AND trace_id = ?').bind(tenant, traceId),
    db.prepare('DELETE FROM trace_tombstones WHERE tenant = ? AND trace_id = ?').bind(tenant, traceId),
  ]);
}
