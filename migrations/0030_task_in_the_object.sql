-- The task out of the `evaluations` row (docs/scale.md, "The task in the evaluation's object"). A ~240-word
-- pairwise task is about 3 KB: on the row it gave every evaluation a 4 KB page of its own, while the object that
-- runs the evaluation keeps the task in its own storage from its start (durable-objects/evaluation) anyway. Now:
-- - `task_kind`: the task's kind, what listings, the API's `taskKind` and webhook payloads read from the row;
-- - `evaluation_tasks`: a new row's task until its object holds it (a batch's items wait here for their turn).
--   The object's final write deletes it, so its pages are free again for the next tasks; an evaluation that
--   ended without ever running (cancelled while queued, refused at its start) keeps it here. WITHOUT ROWID:
--   one D1 row written per insert and per delete (a rowid table writes its key's index too);
-- - the row's own `task` column is '' for new rows (NOT NULL: dropping it would rebuild the table).
-- Rows written before keep their task in `evaluations.task`, read first (src/evaluations/task-rows.ts); erased
-- ones keep JSON `null` there (src/evaluations/erase-rows.ts). Their kind is copied here.
-- The verdict's JSON likewise (no DDL: `verdict_texts` stays): the object keeps it, and the final write copies it
-- into `verdict_texts` only where D1's own queries read it (src/evaluations/verdict-rows.ts). Rows written before
-- keep theirs there, read first.
ALTER TABLE evaluations ADD COLUMN task_kind TEXT;
UPDATE evaluations SET task_kind = json_extract(task, '$.kind') WHERE json_valid(task) AND json_type(task) = 'object';

CREATE TABLE evaluation_tasks (
  evaluation_id TEXT PRIMARY KEY,   -- no foreign key: a row's erasure deletes it first (src/evaluations/erase-rows.ts)
  task          TEXT NOT NULL   -- Task JSON as submitted
) WITHOUT ROWID;
