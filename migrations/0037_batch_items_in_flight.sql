-- A batch item's running slot writes no index row (docs/scale.md, "Fewer writes per verdict"). Its slot wrote two D1
-- rows: the row (with the running mark) and its entry in `evaluations_in_flight`; and its insert wrote an entry in
-- `evaluations_waiting_batch`, which the slot then took out. One index of a batch's items that have not ended,
-- `evaluations_batch_open (batch_id, batch_seq)`, takes the place of both for batch items: its entry is written
-- with the row and names no column the slot or the running mark sets (`slot_at`, `status`, `started_at`), so the
-- slot is the row alone, and the entry goes with the ending's `finished_at`. The admission's count, the waiting
-- evaluations and the sweeper read a batch's handed-over positions (below its `sent`) there, by batch, as they
-- read the waiting ones before; `evaluations_in_flight` keeps the slot holders outside a batch.
--
-- Indexes are made from the rows: an item in flight or waiting when this runs is in the new index at once.
DROP INDEX evaluations_waiting_batch;
DROP INDEX evaluations_in_flight;
CREATE INDEX evaluations_in_flight ON evaluations (tenant)
  WHERE slot_at IS NOT NULL AND finished_at IS NULL AND batch_id IS NULL;
CREATE INDEX evaluations_batch_open ON evaluations (batch_id, batch_seq)
  WHERE batch_id IS NOT NULL AND finished_at IS NULL;
