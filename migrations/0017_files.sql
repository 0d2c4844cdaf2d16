-- Files uploaded through `POST /v1/files` (src/files/), OpenAI's Files API for eval data: the content is an R2
-- object (`FILES`, key `<tenant>/<id>`); this row holds what the API shows. Deleting a file sets `deleted_at`
-- and removes the object. Times are Unix epoch milliseconds.
CREATE TABLE files (
  id         TEXT PRIMARY KEY,
  tenant     TEXT NOT NULL,
  filename   TEXT NOT NULL,
  purpose    TEXT NOT NULL,
  bytes      INTEGER NOT NULL,
  lines      INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  deleted_at INTEGER
);
CREATE INDEX files_tenant_created ON files (tenant, created_at, id);
