-- Monitors' counts exactly once (src/monitors/runner.ts, rows.ts). A trace's object keeps what its decisions add
-- to `monitor_days` as numbered count sets until D1 has them; the highest set number D1 added for a trace is
-- kept here, in the same transaction as the addition, so a set sent again (a retry after a failure, or after the
-- object lost the answer) adds nothing. One row per trace a monitor matched; deleted with the trace.
CREATE TABLE monitor_count_marks (
  tenant    TEXT NOT NULL,
  trace_id  TEXT NOT NULL,
  seq       INTEGER NOT NULL,
  PRIMARY KEY (tenant, trace_id)
) WITHOUT ROWID;
