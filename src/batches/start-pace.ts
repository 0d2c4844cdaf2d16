/**
 * @module
 * The pace at which one hand-over of a batch's items to the jobs queue becomes visible (one ./pump.ts `sendIds`
 * call): at most {@link QUEUED_STARTS_PER_SECOND} items a second. Why: a batch-tier batch's window is every item
 * (./submit.ts), and each item's first step registers its calls with the batch's one wave coordinator, a Durable
 * Object that takes about 1,000 requests a second; unpaced, the queue's consumers could start a 10,000-item
 * batch's items as fast as they run, thousands a second. A chunk due later waits in the batches queue (one
 * delayed message per {@link QUEUE_BATCH_MAX} ids, not one per item: Miniflare's local broker keeps a timer per
 * delayed message, and workerd allows an object 10,000), whose consumer then hands its ids to the jobs queue
 * (./pump.ts `StartMessageSchema`, `sendStarts`). No worker types here: the scale model (bench/scale-limits.ts) reads the bound.
 *
 * The pace holds per hand-over call, not per batch: calls for one batch that overlap (a window's claim,
 * `startIds`' fallback re-sending the ids it could not start, the sweeper's top-ups) each pace their own chunks
 * from 0 s, so together they may pass the bound. A batch-tier batch, the case the bound is for, is claimed whole
 * in one window, so one call hands it over.
 */
import { QUEUE_BATCH_MAX } from '../config/platform-limits.js';

/**
 * Items of one hand-over that become visible a second: 400, 40% of a wave coordinator's ~1,000 requests a second;
 * a 10,000-item batch is handed over in 25 s (its waves close on their own timers). A window of at most 400
 * items (every standard batch's: `BATCH_CONCURRENCY` defaults to 16) goes at once, as before. The bound is on
 * when the messages become visible: a consumer that fell behind may still start its backlog faster.
 */
export const QUEUED_STARTS_PER_SECOND = 400;

/**
 * The delay in seconds of each {@link QUEUE_BATCH_MAX}-id chunk of a hand-over, in order: chunk `k` at
 * `floor(k × QUEUE_BATCH_MAX / perSecond)`, so at most `perSecond` items (rounded up to whole chunks) become
 * visible in any one second. Default `perSecond`: {@link QUEUED_STARTS_PER_SECOND}.
 */
export function chunkDelays(chunks: number, perSecond = QUEUED_STARTS_PER_SECOND): number[] {
  return Array.from({ length: chunks }, (_, k) => Math.floor((k * QUEUE_BATCH_MAX) / perSecond));
}
