/**
 * @module
 * Who is calling: bearer auth for `/v1`, and {@link requireScope} for what each route needs. Three ways in:
 * - a managed key `trb_…` (src/tenants/): looked up by its sha-256 in D1 on every request (no cache, so a
 *   revoked or expired key is refused on its next request), with its tenant, scopes and the tenant's
 *   limits; `last_used_at` is written at most once a minute, after the response;
 * - an `API_KEYS` token (the older mode, kept: existing deployments keep working unchanged): the secret
 *   lists sha-256 hex digests; the tenant is the digest's first 12 hex characters, as before; scopes
 *   `evaluations:write` and `read`;
 * - the operator's `ADMIN_TOKEN`, on `/v1/admin/…` only (scope `admin`).
 * Auth is on when `ADMIN_TOKEN` or `API_KEYS` is set. With neither, the service is closed: `/v1` answers 503
 * `auth_not_configured`, unless the deployment sets `ALLOW_ANONYMOUS=true` (local development; `npm start`
 * does): then every caller is tenant `default` with every scope but `admin`, and the Worker logs so once
 * (`auth.open`). `/v1/admin` is never reachable without `ADMIN_TOKEN` (503 `auth_not_configured`).
 *
 * A coarse flood guard (the `KEY_FLOOD_GUARD` Rate Limiting binding, approximate and per location) runs
 * before the D1 lookup, keyed by the token's hash; the exact per-key rate is ./rate-limit.ts.
 *
 * Paths under {@link SIGNED_PATH_PREFIXES} authenticate by signature in their own routes, not by a bearer token.
 */
import { createMiddleware } from 'hono/factory';
import { log, messageOf } from '../log/log.js';
import { sha256Hex } from '../http/request-hash.js';
import type { EffectiveLimits } from './limits.js';
import { effectiveLimits, NO_TENANT_LIMITS } from './limits.js';
import type { Scope } from './scopes.js';
import { SCOPES } from './scopes.js';
import { effectiveLimitsOf, LAST_USED_RESOLUTION_MS, lookupKey, touchKey } from './rows.js';
import { ApiError } from '../http/errors.js';
import type { KernelVariables } from '../http/kernel-env.js';
import type { Bindings } from '../config/bindings.js';
import { authModeOf, configOf } from '../config/vars.js';
import { controlDb } from '../config/d1-shards.js';

/** How a request was authenticated (`c.var.auth`, set by {@link auth}). */
export interface AuthInfo {
  /** `key`: a managed key; `api_keys`: an `API_KEYS` token; `admin_token`: `ADMIN_TOKEN`; `open`: auth is off. */
  via: 'key' | 'api_keys' | 'admin_token' | 'open';
  /** The managed key's id (`key_…`), recorded on what it creates; null otherwise. */
  keyId: string | null;
  scopes: readonly Scope[];
  /** The tenant's limits (its own over the deployment's); null for the operator's token. */
  limits: EffectiveLimits | null;
  /** The request-rate bucket this request counts against; null when not rate-limited (operator, open mode). */
  rateKey: string | null;
}

/** Per-request values of a `/v1` route: the kernel's, and who is calling (set by {@link auth}). */
export interface TenantVariables extends KernelVariables {
  /**
   * Caller's tenant id: the managed key's tenant (`tn_…`), the first 12 hex chars of an `API_KEYS` token's
   * sha-256, or `default` when auth is off. Everything a tenant owns is scoped by it.
   */
  tenant: string;
  /** How the caller authenticated: key id, scopes, the tenant's limits. */
  auth: AuthInfo;
}

/** hono environment of every `/v1` route: the Worker bindings and {@link TenantVariables}. */
export interface TenantEnv {
  Bindings: Bindings;
  Variables: TenantVariables;
}

/** Constant-time equality of two strings of the same length (a length difference returns false at once). */
export function timingSafeEqualStr(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Tenant id of an `API_KEYS` token digest: its first 12 hex characters. */
export function tenantOf(digest: string): string {
  return digest.slice(0, 12);
}

/** Tenant of requests made with the operator's `ADMIN_TOKEN` (not a tenant id: it owns nothing). */
export const OPERATOR_TENANT = '(operator)';

/** `/v1` paths that are not bearer-authenticated: webhook receivers check their own signatures. */
export const SIGNED_PATH_PREFIXES: readonly string[] = ['/v1/hooks/'];

/** Scopes of an `API_KEYS` token: a tenant's working key. */
const API_KEYS_SCOPES: readonly Scope[] = ['evaluations:write', 'read'];

let openLogged = false;

function unauthorized(
  c: { header: (name: string, value: string) => void },
  message: string,
  challenge = 'Bearer error="invalid_token"',
): ApiError {
  c.header('WWW-Authenticate', challenge);
  return new ApiError(401, 'unauthorized', message);
}

/**
 * Authenticates `/v1` requests and sets `c.var.tenant` (the tenant id) and `c.var.auth` ({@link AuthInfo}).
 * @throws ApiError 401 `unauthorized` (missing, unknown, revoked or expired token), 429 `rate_limited` (flood guard).
 */
export const auth = () =>
  createMiddleware<TenantEnv>(async (c, next) => {
    if (SIGNED_PATH_PREFIXES.some((p) => c.req.path.startsWith(p))) return next();
    const config = configOf(c.env);
    const adminToken = config.ADMIN_TOKEN ?? '';
    const digests = config.API_KEYS;
    if (adminToken === '' && c.req.path.startsWith('/v1/admin')) {
      throw new ApiError(
        503,
        'auth_not_configured',
        'the admin API is off: this deployment sets no ADMIN_TOKEN (an operator sets it as a secret)',
      );
    }
    // The same reading `GET /health` reports (`auth`), so the viewer learns it without a refused request.
    const mode = authModeOf(config);
    if (mode !== 'key') {
      if (mode === 'closed') {
        throw new ApiError(
          503,
          'auth_not_configured',
          'this deployment sets neither ADMIN_TOKEN nor API_KEYS, so /v1 is closed (an operator sets one as a secret; ALLOW_ANONYMOUS=true opens it for local development)',
        );
      }
      if (!openLogged) {
        openLogged = true;
        log('warn', 'auth.open', {
          message:
            'neither ADMIN_TOKEN nor API_KEYS is set and ALLOW_ANONYMOUS is true: /v1 is open to anyone as tenant "default" (local development)',
        });
      }
      c.set('tenant', 'default');
      // No rate limit and no quota in open mode; the running cap still applies (src/evaluations/admission.ts).
      c.set('auth', {
        via: 'open',
        keyId: null,
        scopes: SCOPES.filter((scope) => scope !== 'admin'),
        limits: effectiveLimits(NO_TENANT_LIMITS, c.env),
        rateKey: null,
      });
      return next();
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '');
    const token = match?.[1];
    if (!token) throw unauthorized(c, 'missing "Authorization: Bearer <token>" header', 'Bearer');
    const digest = await sha256Hex(token);

    if (adminToken !== '' && c.req.path.startsWith('/v1/admin/')) {
      // Both sides hashed first: equal lengths, so the comparison time does not depend on the token.
      if (timingSafeEqualStr(digest, await sha256Hex(adminToken))) {
        c.set('tenant', OPERATOR_TENANT);
        c.set('auth', { via: 'admin_token', keyId: null, scopes: ['admin'], limits: null, rateKey: null });
        return next();
      }
    }
    await floodGuard(c.env.KEY_FLOOD_GUARD, digest);

    // A `trb_…` token not in the keys table may still be an API_KEYS token (those are any string).
    const found = token.startsWith('trb_') ? await lookupKey(controlDb(c.env), digest) : null; // digest = hashApiKey(token)
    if (found) {
      const now = Date.now();
      const { key } = found;
      if (key.revokedAt !== null) throw unauthorized(c, `API key ${key.id} was revoked`);
      if (key.expiresAt !== null && key.expiresAt <= now)
        throw unauthorized(c, `API key ${key.id} expired at ${new Date(key.expiresAt).toISOString()}`);
      if (key.lastUsedAt === null || now - key.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
        // After the response: the write is bookkeeping, not part of the request.
        c.executionCtx.waitUntil(
          touchKey(controlDb(c.env), key.id, now).catch((e: unknown) => {
            log('warn', 'auth.touch_failed', { keyId: key.id, error: messageOf(e) });
          }),
        );
      }
      c.set('tenant', key.tenantId);
      c.set('auth', {
        via: 'key',
        keyId: key.id,
        scopes: key.scopes,
        limits: effectiveLimits(found.limits, c.env, found.spreadSeen),
        rateKey: key.id,
      });
      return next();
    }

    // Compare against every digest without stopping early, so timing does not reveal which one matched.
    let ok = false;
    for (const k of digests) ok = timingSafeEqualStr(digest, k) || ok;
    if (!ok) throw unauthorized(c, token.startsWith('trb_') ? 'invalid API key' : 'invalid API token');
    const tenant = tenantOf(digest);
    c.set('tenant', tenant);
    c.set('auth', {
      via: 'api_keys',
      keyId: null,
      scopes: API_KEYS_SCOPES,
      // An operator may have given this tenant a `tenants` row (POST /v1/admin/tenants with its id) to set its limits.
      limits: await effectiveLimitsOf(controlDb(c.env), tenant, c.env),
      rateKey: `api_keys:${digest.slice(0, 16)}`,
    });
    return next();
  });

/** Seconds a flood-guarded caller is asked to wait: the guard's period. */
const FLOOD_RETRY_SECONDS = 60;

/** The coarse per-token flood guard; a guard that fails lets the request through (the exact limiter still counts it). */
async function floodGuard(guard: RateLimit | undefined, digest: string): Promise<void> {
  if (!guard) return;
  let success = true;
  try {
    ({ success } = await guard.limit({ key: digest.slice(0, 32) }));
  } catch (e) {
    log('warn', 'auth.flood_guard_failed', { error: messageOf(e) });
  }
  if (!success) {
    throw new ApiError(
      429,
      'rate_limited',
      `too many requests with this token; retry after ${FLOOD_RETRY_SECONDS} s`,
      undefined,
      {
        headers: { 'Retry-After': String(FLOOD_RETRY_SECONDS) },
      },
    );
  }
}

/**
 * Refuses a request whose key lacks `scope` (403 `forbidden`). Put it first in a route's `middleware` and
 * name the same scope in the route's `security` (`security: scopeSecurity('read')`), so the OpenAPI document
 * says what the route needs; tests/worker/tenants-scopes.test.ts checks the two agree on every route.
 * @example
 * createRoute({ method: 'get', path: '/', ...scoped('read'), … })
 */
export const requireScope = (scope: Scope) =>
  createMiddleware<TenantEnv>(async (c, next) => {
    if (!c.var.auth.scopes.includes(scope)) {
      throw new ApiError(
        403,
        'forbidden',
        `this ${c.var.auth.via === 'admin_token' ? 'token' : 'key'} lacks the "${scope}" scope this route needs`,
      );
    }
    return next();
  });

/**
 * The two route fields a route that needs `scope` and no other middleware spreads in: `...scoped('read')`
 * = `middleware: [requireScope('read')], security: scopeSecurity('read')`.
 */
export function scoped(scope: Scope): {
  middleware: [ReturnType<typeof requireScope>];
  security: { bearer: Scope[] }[];
} {
  return { middleware: [requireScope(scope)], security: scopeSecurity(scope) };
}

/** The OpenAPI `security` of a route that needs `scope` (bearer auth, with the scope named). */
export function scopeSecurity(scope: Scope): { bearer: Scope[] }[] {
  return [{ bearer: [scope] }];
}
