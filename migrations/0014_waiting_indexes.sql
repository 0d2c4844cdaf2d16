-- Evaluations waiting for a running slot (src/evaluations/admission.ts), in two indexes instead of one.
-- The one index held every queued row without a slot, a batch's items not handed over yet included:
-- finding a tenant's oldest waiting evaluation (every ending does, in its final write) walked all of
-- them, reading each one's row to skip it, so a 10,000-item batch cost each of its endings ~10,000 row
-- reads on D1's one thread. Now evaluations outside batches are found oldest first in their own index,
-- and a batch's waiting items by position, below the batch's `sent`, in theirs.
DROP INDEX IF EXISTS evaluations_tenant_waiting;
CREATE INDEX evaluations_waiting_single ON evaluations (tenant, created_at)
  WHERE slot_at IS NULL AND status = 'queued' AND batch_id IS NULL;
CREATE INDEX evaluations_waiting_batch ON evaluations (batch_id, batch_seq)
  WHERE slot_at IS NULL AND status = 'queued' AND batch_id IS NOT NULL;
