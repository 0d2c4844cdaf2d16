/**
 * @module
 * Which D1 database holds what (docs/scale.md, "The D1 layout"). `DB` is the control database: the service's
 * own tables (tenants, their keys, triggers). Tenants' rows (evaluations, batches, usage, rubrics, webhooks,
 * evals, …) are spread over `D1_SHARDS` shard bindings `DB_00`, `DB_01`, … (wrangler.toml): a tenant hashes to
 * one of 65,536 buckets ({@link bucketOf}, FNV-1a of its id) and the buckets are cut into `D1_SHARDS` equal
 * ranges, so the mapping needs no lookup and is fixed while the count is (binding another database changes
 * nothing until the count does). With `D1_SHARDS` 0, `DB` holds everything (the single-database layout).
 * Each tenant's settings row is copied into its shard too (`mirrorTenant`), for the shard's own joins. Every statement about one tenant's data goes to
 * {@link tenantDb}; the crons and the operator's reads that span tenants go over {@link everyTenantDb}; where
 * only a record's id is at hand (a queue message, an object's name) {@link recordDb} reads the bucket the id
 * carries ({@link newRecordId}). New code never reads a binding directly, so the layout lives here alone.
 * A tenant with a `spread` above 1 has its evaluations and batches over that many buckets' shards
 * ({@link tenantDbs}; each found by its id with {@link recordDbOf}), its small tables in its home shard.
 */
import type { Bindings } from './bindings.js';
import { configOf } from './vars.js';
import {
  BUCKETS,
  bucketOf,
  bucketOfId,
  placeBucket,
  shardBindingNames,
  shardOfBucket,
  spreadBuckets,
} from './d1-buckets.js';
import type { CarryOverDb, CarryOverReport } from './d1-carry-over.js';
import { carryOver } from './d1-carry-over.js';

/** The first bucket of shard `index`'s range among `count` shards. */
function firstBucketOf(index: number, count: number): number {
  return Math.ceil((index * BUCKETS) / count);
}

interface Layout {
  control: D1Database;
  shards: D1Database[];
}

const layouts = new WeakMap<object, Layout>();
/** Each shard database's first bucket, to tag ids that SQL generates ({@link bucketOfDb}). */
const dbBuckets = new WeakMap<D1Database, number>();

function layoutOf(env: Bindings): Layout {
  let layout = layouts.get(env);
  if (!layout) {
    const byName = env as unknown as Record<string, D1Database | undefined>;
    const shards = shardBindingNames(configOf(env).D1_SHARDS).map((n) => {
      const db = byName[n];
      if (!db) throw new Error(`D1_SHARDS is ${configOf(env).D1_SHARDS} but ${n} is not bound (wrangler.toml)`);
      return db;
    });
    shards.forEach((db, i) => dbBuckets.set(db, firstBucketOf(i, shards.length)));
    layout = { control: env.DB, shards };
    layouts.set(env, layout);
  }
  return layout;
}

/**
 * The D1 database holding `tenant`'s rows (evaluations, batches, usage, rubrics, webhooks, …): its home shard.
 * A tenant with a spread above 1 keeps its small tables (settings, rubrics, webhook endpoints, monitors, …)
 * here, and its evaluations and batches over {@link tenantDbs}: find one of those by id with {@link recordDbOf}.
 */
export function tenantDb(env: Bindings, tenant: string): D1Database {
  return dbOfBucket(env, bucketOf(tenant));
}

/**
 * Every database that may hold `tenant`'s evaluations and batches with spread `spread` (the largest it ever had,
 * `readSpread`: src/tenants/limits.ts), each once, its home shard first. A tenant-wide read (a listing, usage,
 * the monthly quota) visits each and adds or merges; with spread 1 it is `[tenantDb(env, tenant)]`.
 */
export function tenantDbs(env: Bindings, tenant: string, spread: number): D1Database[] {
  const dbs = spreadBuckets(tenant, spread).map((b) => dbOfBucket(env, b));
  return dbs.filter((db, i) => dbs.indexOf(db) === i);
}

/**
 * The D1 database holding `tenant`'s record `id` (an evaluation, batch, meta-evaluation or comparison): the
 * shard of the bucket the id carries, with no query; an id made before the shards (no bucket) is in the
 * tenant's home shard, where the carry-over put it. An id of another tenant leads to a database where the
 * tenant's own statements find nothing, as anywhere.
 */
export function recordDbOf(env: Bindings, tenant: string, id: string): D1Database {
  const bucket = bucketOfId(id);
  return bucket === null ? tenantDb(env, tenant) : dbOfBucket(env, bucket);
}

function dbOfBucket(env: Bindings, bucket: number): D1Database {
  const { control, shards } = layoutOf(env);
  return shards[shardOfBucket(bucket, shards.length)] ?? control;
}

/** Every database holding tenants' rows, each once: the crons and cross-tenant reads visit them all. */
export function everyTenantDb(env: Bindings): D1Database[] {
  const { control, shards } = layoutOf(env);
  return shards.length > 0 ? shards : [control];
}

/**
 * Each database's share of a cross-tenant run's `limit` (at least 1): a cron that sweeps every shard reads
 * about as much per run as it did from one database, not `limit` times the shard count.
 */
export function perDbLimit(env: Bindings, limit: number): number {
  return Math.max(1, Math.ceil(limit / everyTenantDb(env).length));
}

/** The service's own database: tenants, their keys and settings, triggers (never a tenant's evaluations). */
export function controlDb(env: Bindings): D1Database {
  return layoutOf(env).control;
}

/**
 * A new id for a record of `tenant`: `<prefix>_` and 32 hex digits, laid out as a UUIDv8 ("custom"): the
 * record's bucket in the first 4 digits, `8` in the 13th (where a random UUIDv4 has `4`), the rest random.
 * So a queue message or an object's name that carries only the id still finds the record's database. The
 * bucket is the tenant's own, or with `place.spread` above 1 one of its spread's buckets: the one
 * `place.key` (an idempotency key) hashes to, else one at random (src/config/d1-buckets.ts, `placeBucket`).
 */
export function newRecordId(
  prefix: string,
  tenant: string,
  place: { spread?: number; key?: string | null } = {},
): string {
  const spread = place.spread ?? 1;
  return `${prefix}_${taggedHex(spread > 1 ? placeBucket(tenant, spread, place.key ?? null) : bucketOf(tenant))}`;
}

/**
 * The id of `tenant`'s record that already holds idempotency key `key`, looked up where the key placed a record
 * under each spread the tenant may have had (1, 2, 4, … up to `readSpread`, its largest: `placeBucket`), other than
 * where it places one under `spread` now (the insert's own conflict finds that one): a retry across a change of
 * the spread finds its first try. Null when none holds it, for a spread of 1, or without a key. The lookups run
 * in parallel, one per other database (at most 6, for a largest spread of 64), each in the shard the key names.
 * Create the new record beside the one found ({@link newRecordIdBeside}) and its insert meets the key's conflict.
 */
export async function keyHolder(
  env: Bindings,
  tenant: string,
  place: { spread: number; readSpread: number; key: string | null },
  find: (db: D1Database) => Promise<{ id: string } | null>,
): Promise<string | null> {
  const { key } = place;
  if (key === null || place.readSpread <= 1) return null;
  const now = dbOfBucket(env, placeBucket(tenant, place.spread, key));
  const dbs: D1Database[] = [];
  for (let s = 1; s <= place.readSpread; s *= 2) {
    const db = dbOfBucket(env, placeBucket(tenant, s, key));
    if (db !== now && !dbs.includes(db)) dbs.push(db);
  }
  const found = await Promise.all(dbs.map(find));
  return found.find((r) => r !== null)?.id ?? null;
}

/**
 * A new id for a record of `tenant` that lives beside the record `sibling` (a batch's item beside its batch): the
 * bucket `sibling` carries, so both are in one database; the tenant's own for an id without one.
 */
export function newRecordIdBeside(prefix: string, tenant: string, sibling: string): string {
  return `${prefix}_${taggedHex(bucketOfId(sibling) ?? bucketOf(tenant))}`;
}

function taggedHex(bucket: number): string {
  const random = crypto.randomUUID().replaceAll('-', '');
  return `${bucket.toString(16).padStart(4, '0')}${random.slice(4, 12)}8${random.slice(13)}`;
}

/**
 * The 4 hex digits SQL puts at the head of an id it generates in `db` (webhook deliveries), then `8` as the
 * 13th digit: the first bucket of `db`'s range; null for a database outside the layout (its ids stay random).
 */
export function bucketOfDb(db: D1Database): string | null {
  const bucket = dbBuckets.get(db);
  return bucket === undefined ? null : bucket.toString(16).padStart(4, '0');
}

/** Where an untagged id's record is looked for, by its prefix. */
const TABLE_OF_PREFIX: Record<string, string> = {
  ev: 'evaluations',
  ba: 'batches',
  me: 'batches',
  cp: 'batches',
  dlv: 'webhook_deliveries',
  evalrun: 'eval_runs',
};

/** Untagged ids found before, by id (an isolate's memory; a few thousand at most). */
const legacyFound = new Map<string, number>();
const LEGACY_MEMORY = 4096;

/**
 * The D1 database holding the tenant's record `id` (an evaluation, batch or comparison, webhook delivery, Evals run),
 * for callers that have the id but not its tenant: queue consumers, Durable Objects named by the id, the
 * crons' follow-ups. A tagged id needs no query; an id made before the shards is looked up in each shard
 * once (then remembered); one found nowhere goes to the first shard, where it is missing like anywhere.
 */
export async function recordDb(env: Bindings, id: string): Promise<D1Database> {
  const bucket = bucketOfId(id);
  if (bucket !== null) return dbOfBucket(env, bucket);
  const dbs = everyTenantDb(env);
  if (dbs.length === 1) return dbs[0] as D1Database;
  const known = legacyFound.get(id);
  if (known !== undefined && dbs[known]) return dbs[known];
  const table = TABLE_OF_PREFIX[id.slice(0, id.indexOf('_'))] ?? 'evaluations';
  const hits = await Promise.all(
    dbs.map((db) => db.prepare(`SELECT 1 AS one FROM ${table} WHERE id = ?`).bind(id).first()),
  );
  const at = hits.findIndex((h) => h !== null);
  if (at < 0) return dbs[0] as D1Database;
  if (legacyFound.size >= LEGACY_MEMORY) legacyFound.clear();
  legacyFound.set(id, at);
  return dbs[at] as D1Database;
}

/**
 * An SQL expression giving 32 hex digits for an id SQL generates in `db` (a comparison's pair evaluations,
 * webhook deliveries), tagged with `db`'s first bucket as {@link newRecordId} does; random for a database
 * outside the layout.
 */
export function sqlIdHex(db: D1Database): string {
  const head = bucketOfDb(db);
  if (head === null) return 'lower(hex(randomblob(16)))';
  return `'${head}' || lower(hex(randomblob(4))) || '8' || substr(lower(hex(randomblob(10))), 2)`;
}

/** `db` as the carry-over's database: a batch is one D1 batch (one transaction). */
export function carryOverDb(db: D1Database): CarryOverDb {
  return {
    batch: async (statements) => {
      if (statements.length === 0) return [];
      const results = await db.batch<Record<string, unknown>>(
        statements.map((s) => db.prepare(s.sql).bind(...s.params)),
      );
      return results.map((r) => r.results);
    },
  };
}

/**
 * Moves what a one-database state left in `DB` into its tenants' shards (src/config/d1-carry-over.ts), at most
 * `maxRows` root rows a call (call again until `done`); a no-op with `D1_SHARDS` 0 or once finished.
 */
export async function carryOverShards(env: Bindings, now: number, maxRows?: number): Promise<CarryOverReport> {
  const { control, shards } = layoutOf(env);
  return carryOver(carryOverDb(control), shards.map(carryOverDb), now, maxRows);
}
