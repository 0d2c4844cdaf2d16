/**
 * @module
 * D1 access to tenants and API keys (migrations/0005_tenants_keys.sql). Keys are looked up by the sha-256
 * of the presented key, with their tenant's settings, in one query per request: no cache, so a revoked or
 * expired key is refused on its very next request. Times are epoch milliseconds.
 */
import type { EffectiveLimits, TenantLimits } from './limits.js';
import { effectiveLimits, NO_TENANT_LIMITS } from './limits.js';
import type { Bindings } from '../config/bindings.js';
import { controlDb, tenantDbs } from '../config/d1-shards.js';
import type { Tier } from '../llm/tiers.js';
import type { Scope } from './scopes.js';
import { formatScopes, parseScopes } from './scopes.js';

/** A tenant as stored. */
export interface TenantRecord {
  id: string;
  name: string;
  limits: TenantLimits;
  /** The largest spread it ever had (`spread_seen`; null = its spread): what its tenant-wide reads visit. */
  spreadSeen: number | null;
  createdAt: number;
  updatedAt: number;
}

/** An API key as stored (never the key itself). */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  /** The key's first characters (`trb_` + 6), for display. */
  prefix: string;
  label: string;
  scopes: Scope[];
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number | null;
  revokedAt: number | null;
}

/** A key found by its hash, with its tenant's own settings. */
export interface KeyLookup {
  key: ApiKeyRecord;
  limits: TenantLimits;
  /** Its tenant's `spread_seen` (null = its spread). */
  spreadSeen: number | null;
}

interface TenantRow {
  id: string;
  name: string;
  rate_requests: number | null;
  rate_window_seconds: number | null;
  max_running: number | null;
  monthly_spend_cap_usd: number | null;
  monthly_evaluation_cap: number | null;
  retention_days: number | null;
  store_content: number | null;
  default_tier: Tier | null;
  spread: number | null;
  spread_seen: number | null;
  created_at: number;
  updated_at: number;
}

interface KeyRow {
  id: string;
  tenant_id: string;
  prefix: string;
  label: string;
  scopes: string;
  created_at: number;
  last_used_at: number | null;
  expires_at: number | null;
  revoked_at: number | null;
}

/**
 * SQL for the shortest positive retention of this database's tenants and the default (`defaultParam`, the SQL
 * parameter holding `RETENTION_DAYS`), in days; NULL when every tenant keeps forever. A retention sweep bounds its
 * index range by it (`ended < now - that * day`): the cut-off differs per row's tenant, so without a bound the
 * page's read walks every recently ended row, to find none due, on every sweep.
 */
export function shortestRetentionDaysSql(defaultParam: string): string {
  return `(SELECT MIN(d) FROM (SELECT ${defaultParam} AS d UNION ALL SELECT retention_days FROM tenants) WHERE d > 0)`;
}

const TENANT_COLUMNS =
  'id, name, rate_requests, rate_window_seconds, max_running, monthly_spend_cap_usd, monthly_evaluation_cap, retention_days, store_content, default_tier, spread, spread_seen, created_at, updated_at';
const KEY_COLUMNS = 'id, tenant_id, prefix, label, scopes, created_at, last_used_at, expires_at, revoked_at';

function limitsOf(r: Omit<TenantRow, 'id' | 'name' | 'created_at' | 'updated_at' | 'spread_seen'>): TenantLimits {
  return {
    rateLimit:
      r.rate_requests !== null && r.rate_window_seconds !== null
        ? { requests: r.rate_requests, windowSeconds: r.rate_window_seconds }
        : null,
    maxRunning: r.max_running,
    monthlySpendCapUsd: r.monthly_spend_cap_usd,
    monthlyEvaluationCap: r.monthly_evaluation_cap,
    retentionDays: r.retention_days,
    storeContent: r.store_content === null ? null : r.store_content !== 0,
    defaultTier: r.default_tier,
    spread: r.spread,
  };
}

function toTenant(r: TenantRow): TenantRecord {
  return {
    id: r.id,
    name: r.name,
    limits: limitsOf(r),
    spreadSeen: r.spread_seen,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toKey(r: KeyRow): ApiKeyRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    prefix: r.prefix,
    label: r.label,
    scopes: parseScopes(r.scopes),
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    expiresAt: r.expires_at,
    revokedAt: r.revoked_at,
  };
}

function limitValues(l: TenantLimits): (number | string | null)[] {
  return [
    l.rateLimit?.requests ?? null,
    l.rateLimit?.windowSeconds ?? null,
    l.maxRunning,
    l.monthlySpendCapUsd,
    l.monthlyEvaluationCap,
    l.retentionDays,
    l.storeContent === null ? null : l.storeContent ? 1 : 0,
    l.defaultTier,
    l.spread,
  ];
}

/** Inserts a tenant. @returns false when a tenant with this id exists (nothing changed). */
export async function insertTenant(db: D1Database, t: TenantRecord): Promise<boolean> {
  const r = await db
    .prepare(
      `INSERT INTO tenants (${TENANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(t.id, t.name, ...limitValues(t.limits), t.limits.spread, t.createdAt, t.updatedAt)
    .run();
  return r.meta.changes > 0;
}

/**
 * Writes the tenant's row as given, whether or not the database has it: the copy in its D1 shard, which the
 * shard's own statements join (retention days, whether content is stored, the running cap). The control
 * database's row is the one the API reads and writes.
 */
export async function mirrorTenant(db: D1Database, t: TenantRecord): Promise<void> {
  await db
    .prepare(
      `INSERT INTO tenants (${TENANT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET name = excluded.name, rate_requests = excluded.rate_requests,
         rate_window_seconds = excluded.rate_window_seconds, max_running = excluded.max_running,
         monthly_spend_cap_usd = excluded.monthly_spend_cap_usd, monthly_evaluation_cap = excluded.monthly_evaluation_cap,
         retention_days = excluded.retention_days, store_content = excluded.store_content,
         default_tier = excluded.default_tier, spread = excluded.spread,
         spread_seen = max(COALESCE(spread_seen, 1), COALESCE(excluded.spread_seen, 1)), updated_at = excluded.updated_at`,
    )
    .bind(t.id, t.name, ...limitValues(t.limits), t.spreadSeen, t.createdAt, t.updatedAt)
    .run();
}

/** The tenant `id`, or null. */
export async function getTenant(db: D1Database, id: string): Promise<TenantRecord | null> {
  const row = await db.prepare(`SELECT ${TENANT_COLUMNS} FROM tenants WHERE id = ?`).bind(id).first<TenantRow>();
  return row ? toTenant(row) : null;
}

/** The tenant's own settings; none set (every default, no quota) when it has no `tenants` row (API_KEYS, open mode). */
export async function tenantLimits(db: D1Database, id: string): Promise<TenantLimits> {
  return (await getTenant(db, id))?.limits ?? { ...NO_TENANT_LIMITS };
}

/** The tenant's own settings and its `spread_seen` ({@link tenantLimits}; none set without a row). */
export async function tenantSettings(
  db: D1Database,
  id: string,
): Promise<{ limits: TenantLimits; spreadSeen: number | null }> {
  const t = await getTenant(db, id);
  return t ? { limits: t.limits, spreadSeen: t.spreadSeen } : { limits: { ...NO_TENANT_LIMITS }, spreadSeen: null };
}

/** Tenants ordered by id, `limit` at most, after the id `after` (a page cursor). */
export async function listTenants(
  db: D1Database,
  page: { limit: number; after?: string | undefined },
): Promise<TenantRecord[]> {
  const { results } = await db
    .prepare(`SELECT ${TENANT_COLUMNS} FROM tenants WHERE id > ? ORDER BY id LIMIT ?`)
    .bind(page.after ?? '', page.limit)
    .all<TenantRow>();
  return results.map(toTenant);
}

/** Replaces a tenant's name and settings. @returns the updated tenant, or null when there is none. */
export async function updateTenant(
  db: D1Database,
  id: string,
  name: string,
  limits: TenantLimits,
  now: number,
): Promise<TenantRecord | null> {
  const row = await db
    .prepare(
      `UPDATE tenants SET name = ?, rate_requests = ?, rate_window_seconds = ?, max_running = ?, monthly_spend_cap_usd = ?,
         monthly_evaluation_cap = ?, retention_days = ?, store_content = ?, default_tier = ?, spread = ?,
         spread_seen = max(COALESCE(spread_seen, 1), COALESCE(spread, 1), COALESCE(?, 1)), updated_at = ?
       WHERE id = ? RETURNING ${TENANT_COLUMNS}`,
    )
    .bind(name, ...limitValues(limits), limits.spread, now, id)
    .first<TenantRow>();
  return row ? toTenant(row) : null;
}

/** A new key's row: the record plus the hash of the secret. */
export interface NewApiKey extends ApiKeyRecord {
  hash: string;
}

/** Inserts a key (its tenant must exist: the caller checks, D1 does not enforce foreign keys by default). */
export async function insertKey(db: D1Database, k: NewApiKey): Promise<void> {
  await db
    .prepare(`INSERT INTO api_keys (${KEY_COLUMNS}, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .bind(
      k.id,
      k.tenantId,
      k.prefix,
      k.label,
      formatScopes(k.scopes),
      k.createdAt,
      k.lastUsedAt,
      k.expiresAt,
      k.revokedAt,
      k.hash,
    )
    .run();
}

/** The key `id`, or null. */
export async function getKey(db: D1Database, id: string): Promise<ApiKeyRecord | null> {
  const row = await db.prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`).bind(id).first<KeyRow>();
  return row ? toKey(row) : null;
}

/** Keys (of one tenant, or all) ordered by id, `limit` at most, after the id `after`. */
export async function listKeys(
  db: D1Database,
  page: { tenantId?: string | undefined; limit: number; after?: string | undefined },
): Promise<ApiKeyRecord[]> {
  const where = page.tenantId === undefined ? 'id > ?' : 'tenant_id = ? AND id > ?';
  const binds = page.tenantId === undefined ? [page.after ?? ''] : [page.tenantId, page.after ?? ''];
  const { results } = await db
    .prepare(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE ${where} ORDER BY id LIMIT ?`)
    .bind(...binds, page.limit)
    .all<KeyRow>();
  return results.map(toKey);
}

/**
 * Revokes a key: refused from its next request on (the lookup reads D1 every time). Idempotent: a second
 * revoke keeps the first time. @returns the key as it is now, or null when there is none.
 */
export async function revokeKey(db: D1Database, id: string, now: number): Promise<ApiKeyRecord | null> {
  const row = await db
    .prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ? RETURNING ${KEY_COLUMNS}`)
    .bind(now, id)
    .first<KeyRow>();
  return row ? toKey(row) : null;
}

/** The key whose sha-256 hex is `hash`, with its tenant's settings; null when no key has it. */
export async function lookupKey(db: D1Database, hash: string): Promise<KeyLookup | null> {
  const row = await db
    .prepare(
      `SELECT k.id, k.tenant_id, k.prefix, k.label, k.scopes, k.created_at, k.last_used_at, k.expires_at, k.revoked_at,
         t.rate_requests, t.rate_window_seconds, t.max_running, t.monthly_spend_cap_usd, t.monthly_evaluation_cap,
         t.retention_days, t.store_content, t.default_tier, t.spread, t.spread_seen
       FROM api_keys k LEFT JOIN tenants t ON t.id = k.tenant_id WHERE k.hash = ?`,
    )
    .bind(hash)
    .first<KeyRow & Omit<TenantRow, 'id' | 'name' | 'created_at' | 'updated_at'>>();
  return row ? { key: toKey(row), limits: limitsOf(row), spreadSeen: row.spread_seen } : null;
}

/** How often `last_used_at` is written per key at most: once a minute. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** Records that a key was used at `now`, unless that was already recorded within {@link LAST_USED_RESOLUTION_MS}. */
export async function touchKey(db: D1Database, id: string, now: number): Promise<void> {
  await db
    .prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)')
    .bind(now, id, now - LAST_USED_RESOLUTION_MS)
    .run();
}

/** The limits that apply to tenant `id` (its row in `db`, the control database, over `env`'s defaults). */
export async function effectiveLimitsOf(db: D1Database, id: string, env: object): Promise<EffectiveLimits> {
  const { limits, spreadSeen } = await tenantSettings(db, id);
  return effectiveLimits(limits, env, spreadSeen);
}

/**
 * Every D1 shard that may hold `tenant`'s evaluations and batches (`tenantDbs` over its largest spread ever),
 * for a tenant-wide read that adds or merges. `limits` as auth loaded them saves the control database's read.
 */
export async function spreadDbs(env: Bindings, tenant: string, limits?: EffectiveLimits | null): Promise<D1Database[]> {
  const spread = limits?.readSpread ?? (await effectiveLimitsOf(controlDb(env), tenant, env)).readSpread;
  return tenantDbs(env, tenant, spread);
}

/** Which tenants owe a copy into the shards of their spread (migrations/0038_spread_copies_owed.sql). */
const COPIES_OWED =
  'copies_owed_at IS NOT NULL OR max(COALESCE(spread, 1), COALESCE(spread_seen, 1)) > COALESCE(copies_spread, 1)';

/**
 * Records that a write of `tenant` failed to copy into some shard of its spread (on the control database's
 * row), so the maintenance cron copies its rows again (src/admin/spread-copies.ts).
 */
export async function markCopiesOwed(db: D1Database, tenant: string, now: number): Promise<void> {
  await db.prepare('UPDATE tenants SET copies_owed_at = ? WHERE id = ?').bind(now, tenant).run();
}

/** Up to `limit` tenants that owe a copy (see {@link markCopiesOwed}), with what to hand {@link copiesDone}. */
export async function tenantsOwingCopies(
  db: D1Database,
  limit: number,
): Promise<{ id: string; readSpread: number; owedAt: number | null }[]> {
  const { results } = await db
    .prepare(
      `SELECT id, max(COALESCE(spread, 1), COALESCE(spread_seen, 1)) AS read_spread, copies_owed_at
       FROM tenants INDEXED BY tenants_copies_owed WHERE ${COPIES_OWED} LIMIT ?`,
    )
    .bind(limit)
    .all<{ id: string; read_spread: number; copies_owed_at: number | null }>();
  return results.map((r) => ({ id: r.id, readSpread: r.read_spread, owedAt: r.copies_owed_at }));
}

/**
 * Records a whole copy of `tenant`'s rows into the shards of spread `readSpread`; the owed mark is cleared only
 * if it is still `owedAt` (the one read before copying): a write that failed meanwhile keeps its tenant owed.
 */
export async function copiesDone(
  db: D1Database,
  tenant: string,
  readSpread: number,
  owedAt?: number | null,
): Promise<void> {
  // Without `owedAt` (the admin's copy, which read no mark) the mark stays for the cron.
  await db
    .prepare(
      `UPDATE tenants SET copies_spread = max(COALESCE(copies_spread, 1), ?1),
         copies_owed_at = CASE WHEN ?2 AND copies_owed_at IS ?3 THEN NULL ELSE copies_owed_at END
       WHERE id = ?4`,
    )
    .bind(readSpread, owedAt === undefined ? 0 : 1, owedAt ?? null, tenant)
    .run();
}
