/**
 * @module
 * The arithmetic of the D1 layout (src/config/d1-shards.ts), free of the Workers runtime so Node tools (the
 * local runtime's terminal) share it: a tenant's bucket, a bucket's shard, the bucket an id carries.
 */

/** Buckets a tenant hashes to: 2^16, written as 4 hex digits at the head of its records' ids. */
export const BUCKETS = 65_536;

/** The shard bindings' names for `count` shards: `DB_00` … */
export function shardBindingNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `DB_${String(i).padStart(2, '0')}`);
}

/** FNV-1a (32 bits) of a string's UTF-16 code units. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The bucket of `tenant`, 0 … {@link BUCKETS} − 1: stable for ever (it is written into ids). */
export function bucketOf(tenant: string): number {
  return fnv1a(tenant) >>> 16;
}

/** The shard index of `bucket` among `count` shards: contiguous ranges, so doubling splits each shard in two. */
export function shardOfBucket(bucket: number, count: number): number {
  return Math.floor((bucket * count) / BUCKETS);
}

/** The bucket an id carries ({@link newRecordId}), or null for an id made before the shards (a UUIDv4). */
export function bucketOfId(id: string): number | null {
  const hex = /^[a-z]+_([0-9a-f]{32})$/.exec(id)?.[1];
  if (hex === undefined || hex[12] !== '8') return null;
  return parseInt(hex.slice(0, 4), 16);
}

/** The largest spread a tenant may have: a power of two, at most the target layout's 64 shards. */
export const MAX_SPREAD = 64;

/**
 * The buckets a tenant's records hash over with spread `spread` (a power of two, 1 … {@link MAX_SPREAD}):
 * its own bucket, then `spread − 1` more evenly spaced round the ring (`bucketOf(tenant) + j·65536/spread`).
 * Spreads are nested (those of 2 are among those of 4), so raising the spread keeps every old bucket, and
 * with shard ranges cut evenly, a spread up to the shard count lands each bucket in a shard of its own.
 */
export function spreadBuckets(tenant: string, spread: number): number[] {
  const k = Math.max(1, Math.min(MAX_SPREAD, Math.floor(spread)));
  const home = bucketOf(tenant);
  return Array.from({ length: k }, (_, j) => (home + j * Math.floor(BUCKETS / k)) % BUCKETS);
}

/**
 * The bucket of a new record of `tenant` with spread `spread`: the one `key` hashes to when given (an
 * idempotency key, so a retry lands where its first try did and finds it), else one at random.
 */
export function placeBucket(tenant: string, spread: number, key: string | null = null): number {
  const buckets = spreadBuckets(tenant, spread);
  const at = key === null ? Math.floor(Math.random() * buckets.length) : fnv1a(key) % buckets.length;
  return buckets[at] ?? bucketOf(tenant);
}
