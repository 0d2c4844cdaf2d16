/**
 * @module
 * A spread tenant's copies, whole (docs/scale.md "A tenant over several shards"): what its work reads in every
 * shard of its spread, copied from the control database (its settings row) and its home shard (its webhook
 * endpoints and signing secret, src/webhooks/copies.ts; its OTLP export, src/exports/copies.ts). Written when
 * the admin creates or changes a tenant, and by the maintenance cron for every tenant that owes one: a spread
 * raised before these copies existed, or a write whose copy failed in some shard (migrations/0038). Every copy
 * writes whole rows, so running it again changes nothing.
 */
import type { Bindings } from '../config/bindings.js';
import { controlDb, tenantDbs } from '../config/d1-shards.js';
import { OTLP_EXPORTS } from '../exports/copies.js';
import { log, messageOf } from '../log/log.js';
import { effectiveLimits } from '../tenants/limits.js';
import type { TenantRecord } from '../tenants/rows.js';
import { copiesDone, getTenant, mirrorTenant, tenantsOwingCopies } from '../tenants/rows.js';
import { copyFromHome } from '../spread-copies/copies.js';
import { SIGNING_SECRETS, WEBHOOK_ENDPOINTS } from '../webhooks/copies.js';

/** Tenants copied per cron run, at most: 20 (each is a few D1 batches per shard of its spread). */
const COPIES_PER_RUN = 20;

/**
 * Copies tenant `t` (as the control database has it) into each D1 shard its records may be in: its row into
 * its home shard and those of the largest spread it ever had (their admission and retention statements join
 * it), and, for a spread above 1, its webhook endpoints, signing secret and OTLP export from its home shard.
 * @returns the largest spread copied into.
 */
export async function copyTenantEverywhere(env: Bindings, t: TenantRecord): Promise<number> {
  const readSpread = effectiveLimits(t.limits, env, t.spreadSeen).readSpread;
  const shards = tenantDbs(env, t.id, readSpread);
  await Promise.all(shards.filter((db) => db !== controlDb(env)).map((db) => mirrorTenant(db, t)));
  // Its work's endings fan events out to the endpoints and the OTLP export in their own shard: one copy of the
  // three tables reads the spread once and writes one batch per shard.
  if (shards.length > 1) {
    const tables = [WEBHOOK_ENDPOINTS, SIGNING_SECRETS, OTLP_EXPORTS];
    await copyFromHome(
      env,
      t.id,
      tables.map((table) => ({ t: table, where: 'tenant = ?' })),
    );
  }
  return readSpread;
}

/**
 * The cron's part: up to {@link COPIES_PER_RUN} tenants that owe a copy, each copied whole and then marked
 * done (a write that failed meanwhile keeps its mark). A tenant's failure is logged and left owed for the
 * next run. @returns how many were copied and how many failed.
 */
export async function copyOwedSpreads(env: Bindings): Promise<{ copied: number; failed: number }> {
  const control = controlDb(env);
  let copied = 0;
  let failed = 0;
  for (const owed of await tenantsOwingCopies(control, COPIES_PER_RUN)) {
    try {
      const t = await getTenant(control, owed.id);
      if (!t) continue;
      await copyTenantEverywhere(env, t);
      await copiesDone(control, owed.id, owed.readSpread, owed.owedAt);
      copied += 1;
    } catch (e) {
      failed += 1;
      log('warn', 'spread.copies_failed', { tenant: owed.id, error: messageOf(e) });
    }
  }
  if (copied + failed > 0) log('info', 'spread.copies', { copied, failed });
  return { copied, failed };
}
