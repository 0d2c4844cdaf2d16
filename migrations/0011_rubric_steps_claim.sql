-- G-Eval's auto-CoT run by the API (src/evaluations/rubric-steps.ts): when a version's steps were claimed. The
-- claim names its evaluation before that evaluation's row exists; a claim whose row is still missing well after
-- this time was abandoned (the claimant died in between), and the next use may claim again. Epoch ms.
ALTER TABLE rubric_versions ADD COLUMN steps_claimed_at INTEGER;
