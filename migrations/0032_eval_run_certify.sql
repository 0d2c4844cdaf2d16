-- Certified mode on an Evals run (`certify: {agreement, risk}`, src/evals/run-certify.ts): the request's
-- agreement and risk and, per Tribunal judge grader (by name), the stored rubric version it was calibrated on
-- (`rb_…@n`), the calibrated judge's config its items' evaluations run with, and the guarantee the run shows
-- (JSON). NULL: the run is not certified.
ALTER TABLE eval_runs ADD COLUMN certify TEXT;
