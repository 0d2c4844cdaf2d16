-- OpenAI-compatible evals (src/evals/): an eval is its data source config and testing criteria (graders),
-- stored as the JSON the API answers with; runs and their output items come with the runs. Deleting an eval
-- sets `deleted_at` (it is no longer listed or found). Times are Unix epoch milliseconds.
CREATE TABLE evals (
  id                 TEXT PRIMARY KEY,
  tenant             TEXT NOT NULL,
  name               TEXT NOT NULL,
  data_source_config TEXT NOT NULL,
  testing_criteria   TEXT NOT NULL,
  metadata           TEXT,
  created_at         INTEGER NOT NULL,
  updated_at         INTEGER NOT NULL,
  deleted_at         INTEGER
);
CREATE INDEX evals_tenant_created ON evals (tenant, created_at, id);
