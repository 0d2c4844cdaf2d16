/**
 * @module
 * The hono environment every route shares.
 */
import type { Bindings } from '../config/bindings.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import type { Scope } from '../tenants/scopes.js';

/** How a request was authenticated (`c.var.auth`, set by ./middleware/auth.ts). */
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

/** Per-request values set by middleware. */
export interface AppVariables {
  /**
   * Caller's tenant id: the managed key's tenant (`tn_…`), the first 12 hex chars of an `API_KEYS` token's
   * sha-256, or `default` when auth is off. Everything a tenant owns is scoped by it.
   */
  tenant: string;
  /** How the caller authenticated: key id, scopes, the tenant's limits (./middleware/auth.ts). */
  auth: AuthInfo;
  /** Random id of this request, echoed in `X-Request-Id` and in `internal` errors. */
  requestId: string;
}

/** hono environment: the Worker bindings and the per-request variables. */
export interface AppEnv {
  Bindings: Bindings;
  Variables: AppVariables;
}
