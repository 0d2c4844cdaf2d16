-- A tenant's OTLP export (src/exports/): each finished evaluation made of a trace is sent once as an OTLP log
-- record `gen_ai.evaluation.result` to `<endpoint>/v1/logs`, through the webhook outbox (a delivery row with
-- target 'otlp', src/webhooks/). `headers` holds the header values the receiver authenticates us by, as JSON
-- {name: value}: secrets, never shown back (the API lists the names) and never logged. The last_* columns are
-- written by each delivery attempt, in its own batch. Times are Unix epoch milliseconds.
CREATE TABLE otlp_exports (
  tenant           TEXT PRIMARY KEY,
  endpoint         TEXT NOT NULL,           -- the base URL as accepted by the URL guard; `/v1/logs` is added
  protocol         TEXT NOT NULL CHECK (protocol IN ('http/protobuf', 'http/json')),
  headers          TEXT NOT NULL,           -- JSON object of header name → value (secrets)
  last_attempt_at  INTEGER,
  last_success_at  INTEGER,
  last_error       TEXT,                    -- the last failed attempt's error (HTTP status or network), or NULL
  last_error_at    INTEGER,
  last_status_code INTEGER,                 -- the last attempt's answer; NULL: none (timeout, network, refused)
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL
) WITHOUT ROWID;
