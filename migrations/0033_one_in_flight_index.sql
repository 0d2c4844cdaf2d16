-- One index for what is in flight, where there were two (docs/scale.md, "Fewer writes per verdict"). Taking a
-- running slot (`slot_at`) wrote three D1 rows: the row, its entry in `evaluations_tenant_slots` (the admission's
-- count of a tenant's slot holders) and one in `evaluations_stalled` (the sweeper's rows to re-kick), which held
-- the same rows but for the evaluations outside a batch that wait for a slot. `evaluations_in_flight` holds the
-- slot holders alone, keyed by tenant: the admission counts a tenant's there, and the sweeper reads them all
-- (as it read the whole of `evaluations_stalled`) and the evaluations outside a batch that wait for a slot
-- through `evaluations_waiting_single`, which held them already (src/evaluations/job-rows.ts `findStalled`).
-- A slot is one index row written, and an evaluation outside a batch writes none into it when created.
--
-- Every path that runs an evaluation admits it to a slot first, so a running row holds one. A row left running
-- without a slot by an older version (before slots) is given one from its start, so the sweeper still finds it.
UPDATE evaluations SET slot_at = COALESCE(started_at, updated_at)
  WHERE slot_at IS NULL AND status = 'running' AND finished_at IS NULL;

DROP INDEX evaluations_tenant_slots;
DROP INDEX evaluations_stalled;
CREATE INDEX evaluations_in_flight ON evaluations (tenant) WHERE slot_at IS NOT NULL AND finished_at IS NULL;
