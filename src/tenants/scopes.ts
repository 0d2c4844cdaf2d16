/**
 * @module
 * What an API key may do. Every `/v1` route needs exactly one scope (declared in its route definition with
 * `requireScope`, src/tenants/auth.ts, and in its OpenAPI `security`):
 * - `read`: read evaluations, transcripts, events, meta-evaluations, methods, usage;
 * - `evaluations:write`: create and cancel evaluations and meta-evaluations (spends the tenant's money);
 * - `admin`: the operator's admin API (`/v1/admin`: tenants, keys, any tenant's usage).
 * Scopes do not imply each other: a key that writes and reads carries both.
 */
import { z } from 'zod';

/** The scopes, in the order they are shown. */
export const SCOPES = ['evaluations:write', 'read', 'admin'] as const;

/** One scope. */
export const ScopeSchema = z.enum(SCOPES);
/** One scope. */
export type Scope = z.infer<typeof ScopeSchema>;

/** Scopes of a new key when none are given: a tenant's working key, `evaluations:write` + `read`. */
export const DEFAULT_KEY_SCOPES: readonly Scope[] = ['evaluations:write', 'read'];

/** Scopes as stored in D1 (`api_keys.scopes`): space-separated, in {@link SCOPES} order, no duplicates. */
export function formatScopes(scopes: readonly Scope[]): string {
  return SCOPES.filter((s) => scopes.includes(s)).join(' ');
}

/** Scopes read back from D1; unknown words (a scope a later version removed) are dropped, never granted. */
export function parseScopes(stored: string): Scope[] {
  const words = new Set(stored.split(/\s+/));
  return SCOPES.filter((s) => words.has(s));
}
