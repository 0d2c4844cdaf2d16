/**
 * @module
 * Handing due deliveries on, by id only. Two paths:
 * - right after an ending's transaction committed ({@link dispatchDeliveriesCausedBy}, an after-commit
 *   step of the ending, src/ending-plan.ts): the new deliveries of the events that ending wrote go to the
 *   `tribunal-webhooks` queue, whose consumer hands each to its receiver's lane (./lane.ts);
 * - the cron sweeper ({@link sweepDeliveries}): deliveries overdue by {@link SWEEP_GRACE_MS} (a lost or
 *   failed queue send, a consumer that died mid-attempt, a DLQ'd message, a lane whose run was lost),
 *   each at most once per grace period, straight to their lanes (the queue only if a lane fails): a
 *   stuck queue or lane never holds them past one sweep.
 * A send that fails loses nothing: the row stays due in D1 and the next sweep finds it. Duplicates are
 * harmless: each attempt claims its delivery with a lease first.
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import type { LaneReceiver } from './lane.js';
import { configOf } from '../config/vars.js';
import { laneKeyOf, laneStub } from './lane.js';
import { deliveryLeaseMs } from './send.js';
import { everyTenantDb, recordDb } from '../config/d1-shards.js';
import { QUEUE_BATCH_MAX } from '../config/platform-limits.js';

/** Name of the delivery queue (wrangler.toml). */
export const WEBHOOKS_QUEUE = 'tribunal-webhooks';

/** Name of its dead-letter queue (wrangler.toml). */
export const WEBHOOKS_DLQ = 'tribunal-webhooks-dlq';

/** Body of a delivery message: the delivery id only (payloads stay in D1). */
export const DeliveryMessageSchema = z.object({ deliveryId: z.string().min(1).max(100) }).strict();
/** A parsed delivery message. */
export type DeliveryMessage = z.infer<typeof DeliveryMessageSchema>;

/**
 * How overdue a pending delivery must be before the sweeper re-enqueues it, ms (2 min): well past the
 * queue's own latency, so a message still on its way is not doubled, and the interval at which one row
 * is re-enqueued at most.
 */
export const SWEEP_GRACE_MS = 2 * 60_000;

/** Deliveries one sweep of a shard hands on at most (500): a lane RPC each at worst. */
export const SWEEP_LIMIT = 500;

/** Sends delivery ids to the queue in batches of at most 100; resolves once all were accepted. */
export async function enqueueDeliveries(env: Bindings, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += QUEUE_BATCH_MAX) {
    const chunk = ids
      .slice(i, i + QUEUE_BATCH_MAX)
      .map((deliveryId): MessageSendRequest<DeliveryMessage> => ({ body: { deliveryId } }));
    await env.WEBHOOKS.sendBatch(chunk);
  }
}

/**
 * Enqueues the not yet attempted deliveries of every event written by the ending of `causeId` (an
 * evaluation id). Called after the ending committed; a repeat may send a duplicate, which the consumer
 * drops. A failure propagates to the caller (`afterEnding` logs it; the sweeper sends the rows later).
 * @returns how many deliveries were enqueued.
 */
export async function dispatchDeliveriesCausedBy(env: Bindings, causeId: string): Promise<number> {
  const { results } = await (
    await recordDb(env, causeId)
  )
    .prepare(
      `SELECT d.id FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
     WHERE e.cause_id = ? AND d.status = 'pending' AND d.attempts = 0`,
    )
    .bind(causeId)
    .all<{ id: string }>();
  const ids = results.map((r) => r.id);
  if (ids.length > 0) {
    await enqueueDeliveries(env, ids);
    log('info', 'webhooks.dispatched', { causeId, deliveries: ids.length });
  }
  return ids.length;
}

/** What one sweep did. */
export interface DeliverySweepReport {
  /** Overdue deliveries found and handed on (to their lanes, or the queue when a lane failed). */
  enqueued: number;
}

/** An overdue delivery the sweep took: its receiver and attempts so far. */
interface Overdue extends LaneReceiver {
  id: string;
  attempts: number;
  cause_id: string | null;
}

/** Hands `rows` to their receivers' lanes, one `take` per lane; the deliveries of a lane that fails go to the queue instead. */
async function handToLanes(env: Bindings, rows: readonly Overdue[]): Promise<number> {
  const byLane = new Map<string, string[]>();
  const lanes = configOf(env).WEBHOOK_LANES;
  for (const r of rows) {
    const key = laneKeyOf(r, lanes);
    byLane.set(key, [...(byLane.get(key) ?? []), r.id]);
  }
  const failed: string[] = [];
  await Promise.all(
    [...byLane].map(async ([key, ids]) => {
      try {
        await laneStub(env, key).take(ids);
      } catch (e) {
        log('error', 'webhooks.sweep_lane_failed', { lane: key, deliveries: ids.length, error: messageOf(e) });
        failed.push(...ids);
      }
    }),
  );
  if (failed.length > 0) await enqueueDeliveries(env, failed);
  return byLane.size;
}

/**
 * The sweeper's part for webhooks: pending deliveries due for more than {@link SWEEP_GRACE_MS} and not
 * leased by a running attempt are made due now (so the next sweep does not pick them again before one
 * more grace period) and handed straight to their lanes, at most {@link SWEEP_LIMIT} per run, oldest
 * first, with a warning: overdue deliveries mean something upstream lost them. The limit is per database
 * (`dbs`: the cron's maintenance message for one shard passes its own, each its own invocation; default all).
 * @param now epoch ms (tests pass their own).
 * @param dbs the tenants' databases to sweep (default: every one).
 * @param restartedAt when the local runtime started, epoch ms, for the sweep after its restart: deliveries
 *   due now are taken without the grace period, and leases of attempts claimed before the start (their
 *   runtime is gone) are released.
 */
export async function sweepDeliveries(
  env: Bindings,
  now = Date.now(),
  restartedAt?: number,
  dbs: readonly D1Database[] = everyTenantDb(env),
): Promise<DeliverySweepReport> {
  // A lease ends `deliveryLeaseMs` after its claim: one ending before `restartedAt + that` was claimed
  // before the restart. Releasing an expired lease (the usual case) changes nothing.
  const [dueBy, leaseBefore] =
    restartedAt === undefined ? [now - SWEEP_GRACE_MS, now] : [now, Math.max(now, restartedAt + deliveryLeaseMs(env))];
  let enqueued = 0;
  for (const db of dbs) enqueued += await sweepDatabase(env, db, now, dueBy, leaseBefore, SWEEP_LIMIT);
  return { enqueued };
}

/** {@link sweepDeliveries} in one of the tenants' databases. @returns how many deliveries it handed on. */
async function sweepDatabase(
  env: Bindings,
  db: D1Database,
  now: number,
  dueBy: number,
  leaseBefore: number,
  limit: number,
): Promise<number> {
  const { results } = await db
    .prepare(
      `UPDATE webhook_deliveries SET next_attempt_at = ?, lease_until = NULL, updated_at = ?
     WHERE id IN (
       SELECT id FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until < ?)
       ORDER BY next_attempt_at LIMIT ?)
     RETURNING id, tenant, target, endpoint_id, url, attempts,
       (SELECT e.cause_id FROM webhook_events e WHERE e.id = webhook_deliveries.event_id) AS cause_id`,
    )
    .bind(now, now, dueBy, leaseBefore, limit)
    .all<Overdue>();
  if (results.length > 0) {
    const lanes = await handToLanes(env, results);
    log('warn', 'webhooks.swept', {
      deliveries: results.length,
      neverAttempted: results.filter((r) => r.attempts === 0).length,
      lanes,
      message: "overdue deliveries handed to their receivers' lanes (a lost queue message or a stalled lane)",
    });
  }
  return results.length;
}
