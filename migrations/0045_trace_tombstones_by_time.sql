-- A deleted trace's D1 tombstone (0044) is kept only as long as a spans consumer can hold a row it read before the
-- delete (src/traces/index-rows.ts `TOMBSTONE_TTL_MS`); the cron's retention run deletes older ones a page at a
-- time (src/retention/sweep.ts), oldest first, through this index rather than a scan of the table.
CREATE INDEX trace_tombstones_by_time ON trace_tombstones (deleted_at);
