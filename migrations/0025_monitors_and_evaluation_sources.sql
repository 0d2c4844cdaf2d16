-- Judging production traces (src/monitors/, src/traces/).
--
-- An evaluation made of a trace or a span keeps where it came from in `source` (JSON: {traceId, spanId,
-- monitorId}, spanId and monitorId null when absent), NULL for every other evaluation. The trace's own Durable
-- Object records the ids of the evaluations made of it, so `GET /v1/traces/{traceId}` needs no cross-tenant
-- table; this index serves `GET /v1/evaluations?traceId=` and a monitor's counts and daily spend.
ALTER TABLE evaluations ADD COLUMN source TEXT;
CREATE INDEX evaluations_tenant_source_trace
  ON evaluations (tenant, json_extract(source, '$.traceId'), created_at) WHERE source IS NOT NULL;
CREATE INDEX evaluations_tenant_source_monitor
  ON evaluations (tenant, json_extract(source, '$.monitorId'), created_at) WHERE source IS NOT NULL;

-- Monitors: a tenant's standing rules that judge the spans or traces matching a filter as they arrive. `body`
-- holds the validated definition (filter, scope, sampleRate, judge, tier, dailyBudgetUsd, webhook) as JSON.
-- Times are Unix epoch milliseconds.
CREATE TABLE monitors (
  tenant      TEXT NOT NULL,
  id          TEXT NOT NULL,
  name        TEXT NOT NULL,
  body        TEXT NOT NULL,
  paused      INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (tenant, id)
) WITHOUT ROWID;

-- A monitor's counts of one UTC day (`day` is YYYY-MM-DD): what matched, what the sample kept, what the daily
-- budget skipped. Each trace's object adds its figures once per queue message (one upsert per monitor that
-- matched something in it), never once per span. Succeeded and failed are counted from the evaluations' index.
CREATE TABLE monitor_days (
  tenant          TEXT NOT NULL,
  monitor_id      TEXT NOT NULL,
  day             TEXT NOT NULL,
  matched         INTEGER NOT NULL DEFAULT 0,
  sampled         INTEGER NOT NULL DEFAULT 0,
  skipped_budget  INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant, monitor_id, day)
) WITHOUT ROWID;
