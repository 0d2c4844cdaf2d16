-- `Idempotency-Key` on `POST /v1/fine_tuning/alpha/graders/run` (src/evals/grader-run-keys.ts): a run makes no
-- resource, so the key keeps the answer itself. A request claims its key first (`response` NULL while the grader
-- runs), a retry with the same key and body answers the stored response instead of grading (and billing) again,
-- another body is a 409. A key is kept 24 hours from its claim; the claims of a tenant prune its expired keys a
-- few at a time through the index by time.
CREATE TABLE grader_run_keys (
  tenant TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  response TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (tenant, idempotency_key)
);
CREATE INDEX grader_run_keys_by_time ON grader_run_keys (tenant, created_at);
