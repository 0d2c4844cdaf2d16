/**
 * @module
 * The cron's work, fanned out per shard (docs/scale.md, "The cron's sweeps"). Every minute the `scheduled`
 * handler only sends messages to `tribunal-maintenance` ({@link fanOutMaintenance}): one per tenants' database
 * (`everyTenantDb`, D1_SHARDS of them, or `DB` alone) and one for the archive's erasures, in `sendBatch`es of
 * 100. It reads no row. Each message is its own invocation (the queue's `max_batch_size` is 1), so each shard's
 * sweeps have the whole of an invocation's 1,000 D1 queries and 10,000 subrequests, and a shard's backlog never
 * takes another shard's budget:
 * - `shard`: in that one database, the sweeper (stalled evaluations re-kicked, open batches topped up,
 *   comparisons finished: queues/sweeper.ts), the overdue webhook deliveries (src/webhooks/dispatch.ts), the
 *   retention run (src/retention/sweep.ts) and the archive's moves (src/retention/archive.ts), one after another;
 * - `archive_erasures`: archived evaluations whose retention ended, erased from R2; and the spread tenants that
 *   owe a copy of their settings, webhook endpoints, signing secret or OTLP export in some shard of their spread
 *   (src/admin/spread-copies.ts), copied whole.
 * At least once, and a repeat repeats nothing: every step re-reads what is due (a moved or erased evaluation is
 * no longer due, a re-kick and a delivery's hand-over are idempotent). A message older than
 * {@link MAINTENANCE_STALE_MS} is dropped: the next minute's has been sent. One whose shard count is no longer
 * the deployment's (D1_SHARDS changed meanwhile) is dropped too. A failure is logged, never retried: the next
 * minute's message does the same work.
 */
import { z } from 'zod';
import type { Bindings } from '../src/config/bindings.js';
import { everyTenantDb } from '../src/config/d1-shards.js';
import { QUEUE_BATCH_MAX } from '../src/config/platform-limits.js';
import { log, messageOf } from '../src/log/log.js';
import { sweepDeliveries } from '../src/webhooks/dispatch.js';
import { sweepRetentionShard } from '../src/retention/sweep.js';
import { eraseArchiveDue, moveToArchive } from '../src/retention/archive.js';
import { copyOwedSpreads } from '../src/admin/spread-copies.js';
import { consume } from './consumer.js';
import { sweep } from './sweeper.js';

/** Name of the maintenance queue (wrangler.toml). */
export const MAINTENANCE_QUEUE = 'tribunal-maintenance';

/** Age past which a maintenance message is dropped, ms (5 min): later runs have sent newer ones. */
export const MAINTENANCE_STALE_MS = 5 * 60_000;

/** Body of a maintenance message (see the module note). `at`: when the cron sent it, epoch ms. */
export const MaintenanceMessageSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('shard'),
      /** The database's index in `everyTenantDb`, and their count when sent. */
      shard: z.number().int().min(0).max(4095),
      shards: z.number().int().min(1).max(4096),
      at: z.number().int().min(0),
      /** When the local runtime started (the sweep after a restart, queues/sweeper.ts), epoch ms. */
      restartedAt: z.number().int().min(0).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('archive_erasures'), at: z.number().int().min(0) }).strict(),
]);
/** A parsed maintenance message. */
export type MaintenanceMessage = z.infer<typeof MaintenanceMessageSchema>;

/**
 * The cron's run at `now` (epoch ms): a `shard` message per tenants' database and an `archive_erasures` message,
 * `restartedAt` passed on for the sweep after a local restart. @returns the messages sent. Throws when a send
 * fails (the next minute's run sends again).
 */
export async function fanOutMaintenance(env: Bindings, now: number, restartedAt?: number): Promise<number> {
  const shards = everyTenantDb(env).length;
  const bodies: MaintenanceMessage[] = [
    ...Array.from({ length: shards }, (_, shard): MaintenanceMessage => ({
      kind: 'shard',
      shard,
      shards,
      at: now,
      ...(restartedAt === undefined ? {} : { restartedAt }),
    })),
    { kind: 'archive_erasures', at: now },
  ];
  for (let i = 0; i < bodies.length; i += QUEUE_BATCH_MAX)
    await env.MAINTENANCE.sendBatch(bodies.slice(i, i + QUEUE_BATCH_MAX).map((body) => ({ body })));
  return bodies.length;
}

/** Runs `step`, logging its failure as `event` (one sweep's failure never stops the others of its message). */
async function logged(event: string, fields: Record<string, number>, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (e) {
    log('error', event, { ...fields, error: messageOf(e) });
  }
}

/** Every sweep of `db`, the shard at index `shard` of `everyTenantDb` (see the module note), at `now`. */
export async function maintainShard(
  env: Bindings,
  shard: number,
  db: D1Database,
  now: number,
  restartedAt?: number,
): Promise<void> {
  await logged('sweeper.failed', { shard }, async () => {
    const r = await sweep(env, restartedAt, [db]);
    if (r.kicked.length + r.errors.length > 0)
      log('info', 'sweeper.run', { shard, kicked: r.kicked.length, errors: r.errors.length });
  });
  await logged('webhooks.sweep_failed', { shard }, () => sweepDeliveries(env, now, restartedAt, [db]));
  await logged('retention.sweep_failed', { shard }, () => sweepRetentionShard(env, db, now));
  await logged('archive.sweep_failed', { shard }, () => moveToArchive(env, db, now));
}

/** The maintenance consumer: one shard's sweeps, or the archive's erasures, per message. */
export const handleMaintenance = consume({
  name: 'maintenance',
  schema: MaintenanceMessageSchema,
  subject: (m) => (m.kind === 'shard' ? { shard: m.shard, at: m.at } : { at: m.at }),
  retryDelaySeconds: () => 60,
  oneAtATime: true,
  async handle(m, msg, env) {
    const now = Date.now();
    // The sweep after a local restart is never stale: it is the one sent for that restart.
    if (!(m.kind === 'shard' && m.restartedAt !== undefined) && now - m.at > MAINTENANCE_STALE_MS) {
      const shard = m.kind === 'shard' ? { shard: m.shard } : {};
      log('warn', 'maintenance.stale', { messageId: msg.id, kind: m.kind, ...shard, ageMs: now - m.at });
      return 'ack';
    }
    if (m.kind === 'archive_erasures') {
      await logged('archive.erase_failed', {}, () => eraseArchiveDue(env, now));
      // The run's one message that is not a shard's also copies the spread tenants that owe copies.
      await logged('spread.copies_run_failed', {}, () => copyOwedSpreads(env));
      return 'ack';
    }
    const dbs = everyTenantDb(env);
    const db = dbs[m.shard];
    if (m.shards !== dbs.length || !db) {
      log('warn', 'maintenance.shards_changed', { messageId: msg.id, shard: m.shard, sent: m.shards, now: dbs.length });
      return 'ack';
    }
    await maintainShard(env, m.shard, db, now, m.restartedAt);
    return 'ack';
  },
});
