-- Rubrics: a tenant's own criteria as a versioned resource (src/rubrics/), what an evaluation judged by,
-- G-Eval's auto-CoT steps stored with the version they were written for, and the golden-example check.
-- Times are Unix epoch milliseconds.

CREATE TABLE rubrics (
  id              TEXT PRIMARY KEY,          -- rb_<32 hex>
  tenant          TEXT NOT NULL,
  name            TEXT NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('pairwise', 'pointwise')),
  latest_version  INTEGER NOT NULL,          -- the newest version: what "rb_…" alone names
  archived_at     INTEGER,                   -- archived: versions stay readable; only "rb_…@n" still judges
  idempotency_key TEXT,
  request_hash    TEXT,                      -- sha-256 of the canonical request, for 409 on key reuse
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE UNIQUE INDEX rubrics_idempotency ON rubrics (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL;
-- Listing: keyset pagination on (created_at, id) per tenant.
CREATE INDEX rubrics_tenant_created ON rubrics (tenant, created_at, id);

-- A rubric's content by its hash (sha-256 of the canonical JSON, src/engine/rubric.ts), per tenant: a
-- version's content, the same with its generated evaluation steps, and inline rubrics evaluations used.
-- Evaluation rows name it by hash, so a batch of 10,000 items stores its rubric once.
CREATE TABLE rubric_contents (
  tenant     TEXT NOT NULL,
  hash       TEXT NOT NULL,
  content    TEXT NOT NULL,                  -- RubricContent JSON
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, hash)
);

-- Immutable versions: nothing here changes after the insert except what is written about the version
-- later, once each (its auto-CoT steps, its golden check).
CREATE TABLE rubric_versions (
  rubric_id           TEXT NOT NULL REFERENCES rubrics (id),
  version             INTEGER NOT NULL,      -- 1, 2, … per rubric
  hash                TEXT NOT NULL,         -- the content (rubric_contents)
  examples            TEXT,                  -- golden examples JSON, or NULL
  idempotency_key     TEXT,
  request_hash        TEXT,
  -- G-Eval's auto-CoT: the rubric-steps evaluation claimed to write this version's steps (one at a time,
  -- claimed by a guarded UPDATE), and the content with the steps once written (rubric_contents).
  steps_evaluation_id TEXT,
  steps_hash          TEXT,
  -- The golden check: its meta-evaluation, the judge it ran (JSON), its report once every example ended.
  check_id            TEXT,
  check_judge         TEXT,
  check_report        TEXT,                  -- AgreementReport JSON
  checked_at          INTEGER,
  created_at          INTEGER NOT NULL,
  PRIMARY KEY (rubric_id, version)
);
CREATE UNIQUE INDEX rubric_versions_idempotency ON rubric_versions (rubric_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
-- The sweeper's look for checks whose meta-evaluation completed without the report stored.
CREATE INDEX rubric_versions_open_checks ON rubric_versions (check_id) WHERE check_id IS NOT NULL AND check_report IS NULL;

-- Tags point at a version and move; a tag may require a minimum agreement of the version's check.
CREATE TABLE rubric_tags (
  rubric_id     TEXT NOT NULL REFERENCES rubrics (id),
  tag           TEXT NOT NULL,               -- [a-z0-9-]{1,32}
  version       INTEGER NOT NULL,
  min_agreement TEXT,                        -- {"metric":"accuracy","min":0.8} or NULL
  updated_at    INTEGER NOT NULL,
  PRIMARY KEY (rubric_id, tag)
);

-- What an evaluation judged by: the content's hash (always, inline or stored), and the rubric and version
-- when it named a stored one. The verdict cache keys on the hash.
ALTER TABLE evaluations ADD COLUMN rubric_hash TEXT;
ALTER TABLE evaluations ADD COLUMN rubric_id TEXT;
ALTER TABLE evaluations ADD COLUMN rubric_version INTEGER;
CREATE INDEX evaluations_tenant_rubric ON evaluations (tenant, rubric_id, created_at, id) WHERE rubric_id IS NOT NULL;

-- A trigger's rubric reference as given (JSON: "rb_…#prod" or an inline rubric), resolved at each delivery.
ALTER TABLE triggers ADD COLUMN rubric TEXT;

-- A meta-evaluation item's human scores per aspect (JSON {"name": score}), or NULL.
ALTER TABLE meta_evaluation_items ADD COLUMN human_aspects TEXT;
