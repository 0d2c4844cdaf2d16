-- A tenant's spread (docs/scale.md, "A tenant over several shards"): the number of D1 shards its new
-- evaluations and batches hash over (NULL = 1, every record in the tenant's home shard, the layout before).
-- `spread_seen` is the largest spread the tenant ever had (NULL = 1): its listings, usage and quota read that
-- many shards, so lowering the spread never hides a row written under the larger one. Both live on the
-- control database's row and on its copies in the tenant's shards (the admission statement reads `spread`
-- there to split the running cap between the shards).
ALTER TABLE tenants ADD COLUMN spread INTEGER;
ALTER TABLE tenants ADD COLUMN spread_seen INTEGER;
