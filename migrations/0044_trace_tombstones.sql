-- A trace erased by `DELETE /v1/traces/{id}` (src/traces/erase.ts): its index row must not come back. A spans
-- consumer batch that read the row from the trace's object just before the delete writes it after; the write
-- (src/traces/index-rows.ts) inserts nothing for a trace named here. Inserted with the row's delete, in one batch;
-- removed when the trace's object drops its own tombstone (the retention deadline the trace had). Only ids and a
-- time: nothing of the trace's content. Times are Unix epoch ms.
CREATE TABLE trace_tombstones (
  tenant     TEXT NOT NULL,
  trace_id   TEXT NOT NULL,
  deleted_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, trace_id)
) WITHOUT ROWID;
