-- Traces ingested over OTLP (src/traces/): the spans live in each trace's own Durable Object (TraceDO, one per
-- tenant and trace id) for the tenant's retention; D1 keeps only this thin index, at most two writes per trace
-- (its first spans, its root span), so the database grows with traces, never with spans. Times are Unix epoch ms.
CREATE TABLE traces (
  tenant        TEXT NOT NULL,
  trace_id      TEXT NOT NULL,
  root_span_id  TEXT,
  root_name     TEXT,
  service       TEXT,
  started_at    INTEGER NOT NULL,
  root_ended_at INTEGER,
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (tenant, trace_id)
);
CREATE INDEX traces_tenant_created ON traces (tenant, created_at, trace_id);
