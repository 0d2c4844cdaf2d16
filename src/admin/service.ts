/**
 * @module
 * The admin API's use cases behind its thin route handlers (./routes.ts): tenants and keys as the API
 * shows them, creating and changing them. Usage reports: src/tenants/usage-report.ts.
 */
import type { z } from '@hono/zod-openapi';
import { ApiError, invalidRequest } from '../http/errors.js';
import type { Bindings } from '../config/bindings.js';
import { slotCounts } from '../evaluations/admission.js';
import { newApiKey, newKeyId, newTenantId } from '../tenants/ids.js';
import type { TenantLimits } from '../tenants/limits.js';
import { effectiveLimits, NO_TENANT_LIMITS } from '../tenants/limits.js';
import { monthOf, usageSince } from '../tenants/quota.js';
import type {
  ApiKeySchema,
  CreateKeyRequestSchema,
  CreateTenantRequestSchema,
  TenantSchema,
  UpdateTenantRequestSchema,
} from '../tenants/schemas.js';
import { DEFAULT_KEY_SCOPES } from '../tenants/scopes.js';
import type { ApiKeyRecord, TenantRecord } from '../tenants/rows.js';
import { copiesDone, getTenant, insertKey, insertTenant, updateTenant } from '../tenants/rows.js';
import { copyTenantEverywhere } from './spread-copies.js';
import { controlDb, tenantDb, tenantDbs } from '../config/d1-shards.js';

type Tenant = z.infer<typeof TenantSchema>;
type ApiKey = z.infer<typeof ApiKeySchema>;

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

/** A tenant as the admin API shows it; `current` (this month's use, running now) only when asked for. */
export async function tenantView(env: Bindings, t: TenantRecord, withCurrent = false): Promise<Tenant> {
  const view: Tenant = {
    id: t.id,
    name: t.name,
    limits: t.limits,
    effectiveLimits: effectiveLimits(t.limits, env, t.spreadSeen),
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
  };
  if (!withCurrent) return view;
  const now = Date.now();
  const { start, reset } = monthOf(now);
  const dbs = tenantDbs(env, t.id, effectiveLimits(t.limits, env, t.spreadSeen).readSpread);
  const [used, slots] = await Promise.all([
    usageSince(dbs, t.id, start),
    Promise.all(dbs.map((db) => slotCounts(db, t.id))),
  ]);
  return {
    ...view,
    current: {
      evaluationsThisMonth: used.evaluations,
      spendThisMonthUsd: used.spendUsd,
      running: slots.reduce((n, s) => n + s.running, 0),
      waiting: slots.reduce((n, s) => n + s.waiting, 0),
      quotaResetAt: iso(reset),
    },
  };
}

/** A key as the admin API shows it (never the key itself). */
export function keyView(k: ApiKeyRecord, now = Date.now()): ApiKey {
  const status = k.revokedAt !== null ? 'revoked' : k.expiresAt !== null && k.expiresAt <= now ? 'expired' : 'active';
  return {
    id: k.id,
    tenantId: k.tenantId,
    prefix: k.prefix,
    label: k.label,
    scopes: k.scopes,
    status,
    createdAt: iso(k.createdAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
    expiresAt: isoOrNull(k.expiresAt),
    revokedAt: isoOrNull(k.revokedAt),
  };
}

/** The tenant `id` or 404 `not_found`. */
export async function requireTenant(env: Bindings, id: string): Promise<TenantRecord> {
  const t = await getTenant(controlDb(env), id);
  if (!t) throw new ApiError(404, 'not_found', `no tenant "${id}"`);
  return t;
}

/**
 * 404 `not_found` unless `id` is a tenant the deployment knows: a `tenants` row, or one that has made an
 * evaluation or a billed call (an `API_KEYS` tenant has no row), so a mistyped id is not an empty report.
 */
export async function requireKnownTenant(env: Bindings, id: string): Promise<void> {
  if (await getTenant(controlDb(env), id)) return;
  const seen = await tenantDb(env, id)
    .prepare(
      'SELECT 1 FROM evaluations WHERE tenant = ?1 UNION ALL SELECT 1 FROM usage_rollup WHERE tenant = ?1 LIMIT 1',
    )
    .bind(id)
    .first();
  if (!seen) throw new ApiError(404, 'not_found', `no tenant "${id}"`);
}

/** Creates a tenant. @throws ApiError 409 `conflict` when the given id exists. */
export async function createTenant(
  env: Bindings,
  body: z.infer<typeof CreateTenantRequestSchema>,
): Promise<TenantRecord> {
  const now = Date.now();
  const t: TenantRecord = {
    id: body.id ?? newTenantId(),
    name: body.name,
    limits: { ...NO_TENANT_LIMITS, ...body.limits },
    spreadSeen: body.limits?.spread ?? null,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await insertTenant(controlDb(env), t))) throw new ApiError(409, 'conflict', `tenant "${t.id}" exists already`);
  await mirrored(env, t);
  return t;
}

/** Changes a tenant's name and settings (fields given replace; null limits go back to the default). */
export async function changeTenant(
  env: Bindings,
  id: string,
  body: z.infer<typeof UpdateTenantRequestSchema>,
): Promise<TenantRecord> {
  const t = await requireTenant(env, id);
  const limits: TenantLimits = { ...t.limits, ...body.limits };
  const updated = await updateTenant(controlDb(env), id, body.name ?? t.name, limits, Date.now());
  if (!updated) throw new ApiError(404, 'not_found', `no tenant "${id}"`);
  await mirrored(env, updated);
  return updated;
}

/**
 * Copies the tenant into each D1 shard its records may be in, after the control database took it
 * (./spread-copies.ts), and records the copy. A failure here is a 500 after the control write: the caller's
 * retry (PATCH with the same body) writes both, and the maintenance cron copies a tenant that still owes one.
 */
async function mirrored(env: Bindings, t: TenantRecord): Promise<void> {
  await copiesDone(controlDb(env), t.id, await copyTenantEverywhere(env, t));
}

/**
 * Creates a key for an existing tenant and returns the key (to show once) with its record.
 * @throws ApiError 404 `not_found` (no such tenant), 400 `invalid_request` (`expiresAt` not in the future).
 */
export async function createKey(
  env: Bindings,
  body: z.infer<typeof CreateKeyRequestSchema>,
): Promise<{ key: string; record: ApiKeyRecord }> {
  await requireTenant(env, body.tenantId);
  const now = Date.now();
  const expiresAt = body.expiresAt === undefined ? null : Date.parse(body.expiresAt);
  if (expiresAt !== null && expiresAt <= now)
    throw invalidRequest([{ path: 'expiresAt', message: 'must be in the future' }], 'request body');
  const { key, hash, prefix } = await newApiKey();
  const record: ApiKeyRecord = {
    id: newKeyId(),
    tenantId: body.tenantId,
    prefix,
    label: body.label,
    scopes: body.scopes ?? [...DEFAULT_KEY_SCOPES],
    createdAt: now,
    lastUsedAt: null,
    expiresAt,
    revokedAt: null,
  };
  await insertKey(controlDb(env), { ...record, hash });
  return { key, record };
}
