/**
 * @module
 * The sweeper (cron): evaluations still `queued`/`running` whose `updated_at` is older than
 * `STALL_SECONDS` are re-kicked by calling their object's idempotent `start(id)` directly (a lost queue
 * message, an alarm that gave up, an object reset mid-step). Bounded per run. A queued row whose tenant is
 * at its running cap is left waiting (src/evaluations/admission.ts). First, open batches whose
 * window went without progress get it topped up (src/batches/pump.ts): items of a batch not handed over
 * yet are not re-kicked here (`findStalled` skips them), they wait for their turn.
 */
import { finishStalledComparisons } from '../src/comparisons/service.js';
import { topUpStalledBatches } from '../src/batches/pump.js';
import { completeBatchInD1 } from '../src/ending-plan.js';
import type { Bindings } from '../src/config/bindings.js';
import { log, messageOf } from '../src/log/log.js';
import { evaluationStub } from '../src/evaluations/stub.js';
import { findStalled, touch } from '../src/evaluations/job-rows.js';
import { admit } from '../src/evaluations/admission.js';
import { deploymentDefaults } from '../src/tenants/limits.js';
import { configOf } from '../src/config/vars.js';
import { everyTenantDb } from '../src/config/d1-shards.js';

/** What one sweep did. */
export interface SweepReport {
  /** Ids re-kicked successfully. */
  kicked: string[];
  /** Ids whose `start` threw (tried again next run). */
  errors: string[];
}

/** Evaluations re-kicked per run of a shard at most (2 D1 queries and an object RPC each): 50. */
export const SWEEP_LIMIT = 50;

/** Open batches topped up per run of a shard at most: 10. */
export const TOP_UP_LIMIT = 10;

/** Comparisons finished per run of a shard at most: 10. */
export const COMPARISONS_LIMIT = 10;

/**
 * The `cron` of the sweep a local runtime gets once it has started (cron(8)'s name for "at startup";
 * Cloudflare never fires it): its `scheduledTime` is the moment the runtime started. Nothing of an earlier
 * runtime runs any more, so everything not ended and untouched since then is stalled already.
 */
export const RESTART_SWEEP_CRON = '@reboot';

/**
 * Finds stalled evaluations (no progress for `STALL_SECONDS`;
 * none since `restartedAt`, epoch ms, for the sweep after a restart) and re-kicks at most
 * {@link SWEEP_LIMIT} of them in each of `dbs` (the cron's maintenance message passes its one shard; default:
 * every tenants' database). Never throws for one evaluation's error.
 */
export async function sweep(
  env: Bindings,
  restartedAt?: number,
  dbs: readonly D1Database[] = everyTenantDb(env),
): Promise<SweepReport> {
  const now = Date.now();
  const stallSeconds = configOf(env).STALL_SECONDS;
  try {
    await topUpStalledBatches(env, completeBatchInD1, now, restartedAt, TOP_UP_LIMIT, dbs);
  } catch (e) {
    log('error', 'sweeper.batches_error', { error: messageOf(e) });
  }
  try {
    await finishStalledComparisons(env, now - stallSeconds * 1000, COMPARISONS_LIMIT, dbs);
  } catch (e) {
    log('error', 'sweeper.comparisons_error', { error: messageOf(e) });
  }
  const since = restartedAt ?? now - stallSeconds * 1000;
  const stalled = await Promise.all(
    dbs.map(async (db) => (await findStalled(db, since, SWEEP_LIMIT)).map((id) => ({ db, id }))),
  );
  const report: SweepReport = { kicked: [], errors: [] };
  await Promise.all(
    stalled.flat().map(async ({ db, id }) => {
      try {
        // The tenant's running cap holds here too: at the cap a queued row keeps waiting (its message comes
        // back); touched, so a tenant with many waiting rows does not fill every run's batch.
        if ((await admit(db, id, deploymentDefaults(env).maxRunning, now)) === 'waiting') {
          await touch(db, id, now);
          return;
        }
        const r = await evaluationStub(env, id).start(id);
        // Pushes the row out of the stalled window so the next run does not re-kick it at once.
        await touch(db, id, now);
        report.kicked.push(id);
        // After a local restart, resuming what the last runtime left is expected: info; otherwise a stall warns.
        log(restartedAt === undefined ? 'warn' : 'info', 'sweeper.kicked', { evaluationId: id, status: r.status });
      } catch (e) {
        report.errors.push(id);
        log('error', 'sweeper.error', { evaluationId: id, error: messageOf(e) });
      }
    }),
  );
  return report;
}
