-- `Idempotency-Key` on the creates of OpenAI's Evals API (src/evals/, src/files/): `POST /v1/evals`,
-- `POST /v1/evals/{id}/runs` and `POST /v1/files` keep the key a request carried and the sha-256 of its body
-- (a run's with its eval's id), as `evaluations` do: a retry with the same key and body answers the thing made
-- first, another body is a 409. The key stays held by a deleted row, so a late retry never makes a second one.
-- The index is partial: a create without a key stores NULL and is never matched.
ALTER TABLE evals ADD COLUMN idempotency_key TEXT;
ALTER TABLE evals ADD COLUMN request_hash TEXT;
CREATE UNIQUE INDEX evals_idempotency ON evals (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE eval_runs ADD COLUMN idempotency_key TEXT;
ALTER TABLE eval_runs ADD COLUMN request_hash TEXT;
CREATE UNIQUE INDEX eval_runs_idempotency ON eval_runs (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL;
ALTER TABLE files ADD COLUMN idempotency_key TEXT;
ALTER TABLE files ADD COLUMN request_hash TEXT;
CREATE UNIQUE INDEX files_idempotency ON files (tenant, idempotency_key) WHERE idempotency_key IS NOT NULL;
