/**
 * @module
 * The thin per-trace index in the tenant's D1 database (`traces`, migrations/0018_traces.sql): one row per
 * trace, written when the trace is first seen and when its root span arrives, deleted with the trace.
 */

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

/** Inserts the row, or fills in the root's fields of an existing one (never clears them). */
export async function upsertIndexRow(db: D1Database, r: TraceIndexRow): Promise<void> {
  await db
    .prepare(
      `INSERT INTO traces (tenant, trace_id, root_span_id, root_name, service, started_at, root_ended_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (tenant, trace_id) DO UPDATE SET
         root_span_id = COALESCE(excluded.root_span_id, root_span_id),
         root_name = COALESCE(excluded.root_name, root_name),
         service = COALESCE(excluded.service, service),
         started_at = CASE WHEN excluded.root_span_id IS NOT NULL THEN excluded.started_at ELSE started_at END,
         root_ended_at = COALESCE(excluded.root_ended_at, root_ended_at)`,
    )
    .bind(r.tenant, r.traceId, r.rootSpanId, r.rootName, r.service, r.startedAt, r.rootEndedAt, r.createdAt)
    .run();
}

/** Deletes a trace's row. */
export async function deleteIndexRow(db: D1Database, tenant: string, traceId: string): Promise<void> {
  await db.prepare('DELETE FROM traces WHERE tenant = ? AND trace_id = ?').bind(tenant, traceId).run();
}
