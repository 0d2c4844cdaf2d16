-- Outbound webhooks (a transactional outbox) and inbound triggers. Times are epoch milliseconds.
-- src/webhooks/ writes and reads these tables; docs in its modules and the README.

-- The one-off callback URL of an evaluation (`webhook: {url}` on POST /v1/evaluations), signed with the
-- tenant's signing secret. NULL: no one-off callback.
ALTER TABLE evaluations ADD COLUMN webhook_url TEXT;

-- A tenant's signing secret for one-off callback URLs (POST /v1/webhook-signing-secret creates or
-- rotates it and shows it once). The previous secret still signs until previous_expires_at.
CREATE TABLE webhook_signing_secrets (
  tenant              TEXT PRIMARY KEY,
  secret              TEXT NOT NULL,          -- whsec_<base64>
  previous_secret     TEXT,
  previous_expires_at INTEGER,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
);

-- Receivers a tenant registered. A disabled endpoint (410 Gone, or PATCH enabled=false) gets no new
-- deliveries and its pending ones fail.
CREATE TABLE webhook_endpoints (
  id                  TEXT PRIMARY KEY,       -- we_<32 hex>
  tenant              TEXT NOT NULL,
  url                 TEXT NOT NULL,
  events              TEXT,                   -- JSON array of event types; NULL = every type
  description         TEXT,
  secret              TEXT NOT NULL,          -- whsec_<base64>
  previous_secret     TEXT,                   -- rotation grace: still signs until previous_expires_at
  previous_expires_at INTEGER,
  disabled_at         INTEGER,
  disabled_reason     TEXT,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_tenant ON webhook_endpoints (tenant, created_at, id);

-- The outbox: one row per event, written in the same transaction as its cause, keyed by a stable id
-- (the `webhook-id` header), so an event exists iff its cause happened, once. Written only when it has
-- a recipient (an endpoint subscribed to its type, or a one-off URL).
CREATE TABLE webhook_events (
  id         TEXT PRIMARY KEY,                -- msg_<sha-256 hex of "type:subject">
  tenant     TEXT NOT NULL,
  type       TEXT NOT NULL,
  subject_id TEXT NOT NULL,                   -- the evaluation, batch or meta-evaluation
  cause_id   TEXT NOT NULL,                   -- whose ending wrote it (the post-commit dispatch finds it by this)
  payload    TEXT NOT NULL,                   -- the exact body sent: {"type","timestamp","data"}
  created_at INTEGER NOT NULL
);
CREATE INDEX webhook_events_cause ON webhook_events (cause_id);
CREATE INDEX webhook_events_subject ON webhook_events (subject_id);

-- One delivery per (event, recipient), fanned out in the event's transaction. Retries update this row;
-- they never create another event.
CREATE TABLE webhook_deliveries (
  id               TEXT PRIMARY KEY,          -- dlv_<32 hex>
  event_id         TEXT NOT NULL REFERENCES webhook_events (id),
  tenant           TEXT NOT NULL,
  target           TEXT NOT NULL,             -- the endpoint id, or 'once' for the one-off URL
  endpoint_id      TEXT,                      -- NULL for the one-off URL
  url              TEXT,                      -- the one-off URL (an endpoint's is read at send time)
  status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  INTEGER,                   -- due time while pending; NULL once delivered or failed
  lease_until      INTEGER,                   -- an attempt in progress; expires if its consumer died
  window_ends_at   INTEGER NOT NULL,          -- no retry is scheduled past this (about a day)
  last_status_code INTEGER,
  last_error       TEXT,
  delivered_at     INTEGER,
  created_at       INTEGER NOT NULL,
  updated_at       INTEGER NOT NULL,
  UNIQUE (event_id, target)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at, id) WHERE endpoint_id IS NOT NULL;
CREATE INDEX webhook_deliveries_tenant ON webhook_deliveries (tenant, created_at, id);

-- Every attempt of a delivery, for the delivery log.
CREATE TABLE webhook_attempts (
  delivery_id      TEXT NOT NULL REFERENCES webhook_deliveries (id),
  attempt          INTEGER NOT NULL,          -- 1, 2, …
  at               INTEGER NOT NULL,
  status_code      INTEGER,                   -- NULL: no answer (timeout, network error, refused URL)
  error            TEXT,
  duration_ms      INTEGER NOT NULL,
  response_excerpt TEXT,                      -- the answer's first bytes (at most 1 KiB)
  PRIMARY KEY (delivery_id, attempt)
);

-- Inbound triggers: POST /v1/hooks/:id, signed with the trigger's secret, becomes one evaluation per
-- sender delivery id (idempotency key `trigger:<id>:<delivery id>` on evaluations).
CREATE TABLE triggers (
  id                  TEXT PRIMARY KEY,       -- trg_<32 hex>
  tenant              TEXT NOT NULL,
  description         TEXT,
  preset              TEXT,
  config              TEXT,                   -- config overrides as sent (JSON), or NULL
  mapping             TEXT NOT NULL,          -- JSON: incoming JSON → task fields (src/triggers/mapping.ts)
  filter              TEXT,                   -- JSON conditions, or NULL = every delivery
  webhook_url         TEXT,                   -- one-off callback URL for each evaluation, or NULL
  secret              TEXT NOT NULL,          -- whsec_<base64>
  previous_secret     TEXT,
  previous_expires_at INTEGER,
  created_at          INTEGER NOT NULL,
  updated_at          INTEGER NOT NULL
);
CREATE INDEX triggers_tenant ON triggers (tenant, created_at, id);
