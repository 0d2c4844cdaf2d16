-- Annotation queues (src/annotation-queues/): items to label against one rubric version, and their labels.
-- A queue is fixed to the rubric version it was created with. Each label row is one annotator's label of one
-- item (a repeat by the same annotator replaces it), with its provenance: `human` (labelled through the API or
-- the viewer), `judge` (a judge's verdict recorded as a label) or `imported` (from a file). An adjudicator's
-- label settles an item whose annotators disagree. Times are Unix epoch milliseconds.
CREATE TABLE annotation_queues (
  id              TEXT PRIMARY KEY,
  tenant          TEXT NOT NULL,
  name            TEXT NOT NULL,
  rubric_id       TEXT NOT NULL,
  rubric_version  INTEGER NOT NULL,
  kind            TEXT NOT NULL CHECK (kind IN ('pairwise', 'pointwise')),
  labels_per_item INTEGER NOT NULL,
  blind           INTEGER NOT NULL,
  items_total     INTEGER NOT NULL,
  idempotency_key TEXT,
  request_hash    TEXT,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX annotation_queues_created ON annotation_queues (tenant, created_at, id);
CREATE INDEX annotation_queues_rubric ON annotation_queues (tenant, rubric_id, rubric_version);
CREATE UNIQUE INDEX annotation_queues_key ON annotation_queues (tenant, idempotency_key)
  WHERE idempotency_key IS NOT NULL;

CREATE TABLE annotation_items (
  queue_id      TEXT NOT NULL,
  item_id       TEXT NOT NULL,
  idx           INTEGER NOT NULL,
  task          TEXT NOT NULL,
  evaluation_id TEXT,
  created_at    INTEGER NOT NULL,
  PRIMARY KEY (queue_id, item_id)
);
CREATE INDEX annotation_items_order ON annotation_items (queue_id, idx);

CREATE TABLE annotation_labels (
  queue_id    TEXT NOT NULL,
  item_id     TEXT NOT NULL,
  annotator   TEXT NOT NULL,
  role        TEXT NOT NULL CHECK (role IN ('annotator', 'adjudicator')),
  provenance  TEXT NOT NULL CHECK (provenance IN ('human', 'judge', 'imported')),
  label       TEXT NOT NULL,
  comment     TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (queue_id, item_id, role, annotator)
);
