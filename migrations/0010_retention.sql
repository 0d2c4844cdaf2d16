-- Retention: how long a tenant's evaluation content is kept (NULL = the deployment's RETENTION_DAYS), and
-- whether it is kept at all past the verdict (store_content 0: only hashes, the verdict and usage; NULL = 1).
ALTER TABLE tenants ADD COLUMN retention_days INTEGER;
ALTER TABLE tenants ADD COLUMN store_content INTEGER;
-- The retention sweep's page: a tenant's ended, not yet erased evaluations, oldest first.
CREATE INDEX evaluations_retention ON evaluations (tenant, finished_at) WHERE deleted_at IS NULL AND finished_at IS NOT NULL;
-- The webhook retention sweep: events (and their deliveries) oldest first.
CREATE INDEX webhook_events_created ON webhook_events (created_at);
-- When a tenant that stores no content had this evaluation's task texts hashed and its transcript erased.
ALTER TABLE evaluations ADD COLUMN content_erased_at INTEGER;
