-- Certified mode (`certify: {agreement, risk}` on an evaluation, a batch or a comparison): the guarantee its
-- calibration gave (`{agreement, risk, coverage, calibrationSize}`, JSON), kept with the evaluation or the batch
-- so every read reports the guarantee the items were judged under. NULL: not certified. A batch's items read
-- their batch's (they store none of their own).
ALTER TABLE evaluations ADD COLUMN certify TEXT;
ALTER TABLE batches ADD COLUMN certify TEXT;
