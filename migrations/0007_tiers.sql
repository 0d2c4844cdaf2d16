-- Service tiers (src/tiers/, src/waves/): what each evaluation and batch runs at, a tenant's default, and the
-- tier each billed call went at. `standard` = the synchronous call at full price; `flex` = service_tier
-- "flex"; `batch` = lines of a provider Batch API file, in waves. Rows written before this migration ran at
-- `standard`, which is what the defaults say.

-- The tier an evaluation runs at, resolved at creation (the request's, else the tenant's default, else the
-- providers' default), and what a flex refusal leads to (`standard`: the call goes again at once without
-- flex; `wait`: flex is retried later).
ALTER TABLE evaluations ADD COLUMN tier TEXT NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'flex', 'batch'));
ALTER TABLE evaluations ADD COLUMN flex_fallback TEXT NOT NULL DEFAULT 'standard' CHECK (flex_fallback IN ('standard', 'wait'));

-- A batch's (or meta-evaluation's) tier, shared by every item.
ALTER TABLE batches ADD COLUMN tier TEXT NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'flex', 'batch'));
ALTER TABLE batches ADD COLUMN flex_fallback TEXT NOT NULL DEFAULT 'standard' CHECK (flex_fallback IN ('standard', 'wait'));

-- The tier of a tenant's requests that name none; NULL: the providers' default.
ALTER TABLE tenants ADD COLUMN default_tier TEXT CHECK (default_tier IS NULL OR default_tier IN ('standard', 'flex', 'batch'));

-- The tier of the attempt that answered (the call is billed at its price: `cost_usd`), and the failed attempts
-- before it with their tiers (JSON array of the engine's LlmAttempt, NULL when the first attempt answered).
ALTER TABLE usage ADD COLUMN tier TEXT NOT NULL DEFAULT 'standard' CHECK (tier IN ('standard', 'flex', 'batch'));
ALTER TABLE usage ADD COLUMN failed_attempts TEXT;
