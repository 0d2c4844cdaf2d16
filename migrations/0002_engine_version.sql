-- The engine version an evaluation started with, `<engine state version>/<method>@<method version>`
-- (src/engine/version.ts), recorded by the Durable Object when it marks the row running and again in
-- the final write (the first value is kept). NULL: never started, or started before versions were
-- pinned. An evaluation whose version the running code no longer has ends `failed` with code
-- `engine_version_changed`.
ALTER TABLE evaluations ADD COLUMN engine_version TEXT;
