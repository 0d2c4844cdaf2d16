-- What a running alignment (src/align/) waits on, and what woke it. `waiting_on`: the meta-evaluation (batch) or
-- the rewrite evaluation its current step needs ended, recorded before the job looks. The ending that completes
-- it sets `woken_by` to its evaluation's id in its own transaction (an effect of src/ending-plan.ts), and after
-- the commit queues the job at once, so a job is resumed by that event instead of polling; its own delayed
-- message, with backoff, is only the net for a lost one. NULL: not waiting, not woken.
ALTER TABLE alignments ADD COLUMN waiting_on TEXT;
ALTER TABLE alignments ADD COLUMN woken_by TEXT;
CREATE INDEX alignments_waiting ON alignments (waiting_on) WHERE waiting_on IS NOT NULL;
CREATE INDEX alignments_woken ON alignments (woken_by) WHERE woken_by IS NOT NULL;
