-- Sampled matches a monitor cannot judge (a trace with no step or no request to build its task from), counted
-- apart so a monitor's counts account for every sampled match.
ALTER TABLE monitor_days ADD COLUMN skipped_unjudgeable INTEGER NOT NULL DEFAULT 0;
