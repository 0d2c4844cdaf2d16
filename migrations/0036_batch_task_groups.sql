-- A batch's waiting tasks kept a group of items to a row (docs/scale.md, "Fewer writes per verdict"). With a row of
-- `evaluation_tasks` per item, each task cost three D1 rows written: its insert, the in-place overwrite that
-- erases it (src/config/sqlite-scrub.ts) and its delete, by the item's final write. Now the batch's insert writes
-- its items' tasks as groups of consecutive positions (`first_seq` up to `first_seq + n`, at most 32 items and
-- 128 KB: src/evaluations/task-rows.ts), and the ending that completes the batch overwrites and deletes its
-- groups: three rows a group, about 0.1 an item. Until then an item's task is read from its group (D1's copy
-- first, as before, then the object's). An erasure of one item (a DELETE, a tenant that stores no content) moves
-- the other tasks its group still owes into `evaluation_tasks` and erases the group at once, so no erased task
-- outlives its erasure in D1. WITHOUT ROWID: keyed by batch and position, no index of its own.
CREATE TABLE evaluation_task_groups (
  batch_id  TEXT NOT NULL,     -- the batch of its items (no foreign key: its completion deletes it first)
  first_seq INTEGER NOT NULL,  -- the position of its first item
  n         INTEGER NOT NULL,  -- its items: positions first_seq … first_seq + n - 1
  tasks     TEXT NOT NULL,     -- JSON array of the items' task JSON texts (strings), in position order
  PRIMARY KEY (batch_id, first_seq)
) WITHOUT ROWID;
