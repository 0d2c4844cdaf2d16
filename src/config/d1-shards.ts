/**
 * @module
 * Which D1 database holds what. Tenants' rows are spread over several databases (docs/scale.md): every
 * statement about one tenant's data goes to {@link tenantDb}; the crons and the operator's reads that span
 * tenants go over {@link everyTenantDb}; what is the service's own (tenants, keys) stays in {@link controlDb}.
 * Where only a record's id is at hand (a queue message, an object's name), {@link recordDb} finds its
 * database from the id. New code never reads `env.DB` directly, so the layout can change here alone.
 */
import type { Bindings } from './bindings.js';

/** The D1 database holding `tenant`'s rows (evaluations, batches, usage, rubrics, webhooks, …). */
export function tenantDb(env: Bindings, _tenant: string): D1Database {
  return env.DB;
}

/**
 * The D1 database holding the tenant's record `id` (an evaluation, batch, webhook delivery or eval run), for
 * callers that have the id but not its tenant: queue consumers, Durable Objects named by the id, the crons'
 * follow-ups.
 */
export function recordDb(env: Bindings, _id: string): Promise<D1Database> {
  return Promise.resolve(env.DB);
}

/** Every database holding tenants' rows, each once: the crons and cross-tenant reads visit them all. */
export function everyTenantDb(env: Bindings): D1Database[] {
  return [env.DB];
}

/** The service's own database: tenants, their keys and settings (never a tenant's evaluations). */
export function controlDb(env: Bindings): D1Database {
  return env.DB;
}
