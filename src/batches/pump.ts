/**
 * @module
 * The batch window: at most `concurrency` items of a batch are in flight (handed to the pipeline and not
 * ended). Why: items started all at once would send every LLM call of the batch to the provider at once
 * (10,000 calls into its rate limits, then into retries), and on the local runtime 1,000 Durable Objects
 * awake at once stall workerd; with a window, a batch runs at the provider concurrency C it was given
 * (`BATCH_CONCURRENCY`), i.e. ideally N × L / C for N single-call items of latency L.
 *
 * {@link pump} tops the window up: it claims the positions that fit ([`sent`, `ended + concurrency`),
 * atomically in D1, see `claimWindow`) and hands their ids over. It is idempotent and safe from
 * anywhere, and it is called:
 * - by the API once the batch is stored: the first window, to the jobs queue in `sendBatch` calls of at
 *   most {@link QUEUE_BATCH_MAX} (ids only);
 * - by the evaluation's Durable Object once an item's final write has landed: the next item, claimed
 *   (and admitted to a running slot) in that write's own transaction, whose object it starts directly
 *   ({@link handOverClaim}: no queue hop and no D1 round trip per item). The window is computed from the
 *   batch's counters, so one claim makes up for any that was lost;
 * - by the sweeper for open batches untouched for {@link TOP_UP_AFTER_SECONDS} (a crash between an
 *   ending and its pump must not stall the last items of a batch).
 * An id claimed whose send then failed stays `queued` in D1 and the sweeper's ordinary re-kick starts it;
 * positions not claimed yet are never re-kicked (`findStalled` skips them).
 *
 * A cancel (src/batches/service.ts) stops the pump and is fanned out through the batches queue a page
 * at a time ({@link cancelPage}), so a batch of 10,000 never needs 10,000 calls in one invocation. A
 * batch with a budget is claimed by ./budget-claims.ts; once its budget is used up, the same fan-out ends its
 * items never launched as `failed` (`budget_exceeded`).
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { log, messageOf } from '../log/log.js';
import { evaluationStub } from '../evaluations/stub.js';
import type { FinalWriteStep } from '../evaluations/ending.js';
import { BATCH_CANCELLED_ERROR } from '../evaluations/job-rows.js';
import type { StartJob } from '../evaluations/job-rows.js';
import type { EndStatus } from '../evaluations/status.js';
import type { EvaluationError } from '../evaluations/live-events.js';
import { admit } from '../evaluations/admission.js';
import { deploymentDefaults } from '../tenants/limits.js';
import type { PumpTarget, WindowClaim } from './window-claims.js';
import { getBatchFanout, openItems, stalledBatches } from './rows.js';
import { claimWindow, claimWindowStatements } from './window-claims.js';
import { BATCH_BUDGET_ERROR, claimBudgeted } from './budget-claims.js';
import { everyTenantDb, perDbLimit, recordDb } from '../config/d1-shards.js';
import { QUEUE_BATCH_MAX } from '../config/platform-limits.js';
import { chunkDelays } from './start-pace.js';

/** `sendBatch` calls in flight at once while a window is handed over: 10. */
export const SEND_CONCURRENCY = 10;

/** Items cancelled per batches-queue message: 100. */
export const CANCEL_PAGE = 100;

/** Durable Object cancels in flight at once while a page is cancelled: 20. */
const CANCEL_CONCURRENCY = 20;

/** Seconds without progress after which the sweeper tops an open batch's window up: 30. */
export const TOP_UP_AFTER_SECONDS = 30;

/** Runs `work` over `items` with at most `concurrency` in flight; resolves when all settled. */
async function eachLimited<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await work(items[i] as T);
    }),
  );
}

/** A batches-queue message: a chunk of a batch's items to hand to the jobs queue now (it was due later). */
export const StartMessageSchema = z
  .object({
    op: z.literal('start'),
    batchId: z.string().min(1).max(200),
    ids: z.array(z.string().min(1).max(200)).min(1).max(QUEUE_BATCH_MAX),
  })
  .strict();
/** A parsed {@link StartMessageSchema} message. */
export type StartMessage = z.infer<typeof StartMessageSchema>;

/**
 * Sends `{ id }` for each of `ids` (at most {@link QUEUE_BATCH_MAX}) to the jobs queue in one call. Throws when
 * the send fails. Sending an id twice starts nothing twice: the jobs consumer starts only a queued item.
 */
export async function sendStarts(env: Bindings, ids: readonly string[]): Promise<void> {
  await env.JOBS.sendBatch(ids.map((id) => ({ body: { id } })));
}

/**
 * Sends `{ id }` for every id to the jobs queue, {@link QUEUE_BATCH_MAX} per call, {@link SEND_CONCURRENCY}
 * calls at once, at most 400 of them visible a second (`QUEUED_STARTS_PER_SECOND`): a chunk due later goes
 * through the batches queue, delayed until then ({@link chunkDelays}, ./start-pace.ts). A failed call is logged:
 * the rows are durable and the sweeper re-kicks queued rows.
 * @returns true when every call succeeded.
 */
export async function sendIds(env: Bindings, ids: readonly string[], batchId: string): Promise<boolean> {
  const delays = chunkDelays(Math.ceil(ids.length / QUEUE_BATCH_MAX));
  const chunks = delays.map((delaySeconds, k) => ({
    ids: ids.slice(k * QUEUE_BATCH_MAX, (k + 1) * QUEUE_BATCH_MAX),
    delaySeconds,
  }));
  let ok = true;
  await eachLimited(chunks, SEND_CONCURRENCY, async ({ ids: chunk, delaySeconds }) => {
    try {
      if (delaySeconds === 0) await sendStarts(env, chunk);
      else await env.BATCHES.send({ op: 'start', batchId, ids: chunk } satisfies StartMessage, { delaySeconds });
    } catch (err) {
      ok = false;
      log('warn', 'batch.queue_send_failed', { batchId, ids: chunk.length, error: messageOf(err) });
    }
  });
  return ok;
}

/**
 * Starts each item's Durable Object directly (no queue hop: the next item of a window starts as soon as
 * one ends) once it holds one of its tenant's running slots (src/evaluations/admission.ts); an item whose
 * tenant is at its cap, or whose object could not be reached, goes to the jobs queue instead, where it
 * waits for a slot like any other evaluation. An item whose job the claim read is started with it and
 * runs its first step at once (`startAndAwait` without waiting: no D1 read of the job, no alarm hop; the
 * object's watchdog alarm covers a crash mid-step).
 */
async function startIds(
  env: Bindings,
  ids: readonly string[],
  batchId: string,
  jobs: readonly StartJob[] = [],
  admitted: readonly string[] = [],
): Promise<void> {
  const jobOf = new Map(jobs.map((j) => [j.id, j]));
  const failed: string[] = [];
  const { maxRunning } = deploymentDefaults(env);
  await eachLimited(ids, SEND_CONCURRENCY, async (id) => {
    try {
      // Admitted in the claim's own transaction (an ending's final write): no D1 round trip here.
      if (
        !admitted.includes(id) &&
        (await admit(await recordDb(env, batchId), id, maxRunning, Date.now())) !== 'admitted'
      ) {
        failed.push(id);
        return;
      }
      const job = jobOf.get(id);
      const stub = evaluationStub(env, id);
      if (job) await stub.startAndAwait(id, job, 0);
      else await stub.start(id);
    } catch (err) {
      failed.push(id);
      log('warn', 'batch.start_failed', { batchId, evaluationId: id, error: messageOf(err) });
    }
  });
  if (failed.length > 0) await sendIds(env, failed, batchId);
}

/**
 * Tops the batch's window up (see the module note).
 * @param how `queue`: hand the ids to the jobs queue (the API: quick, durable); `start`: start their
 *   objects directly (an ending item's object: saves the queue hop on every following item).
 * @returns how many items this call handed over (0 when the window was full or the batch is done).
 */
export async function pump(env: Bindings, target: PumpTarget, how: 'queue' | 'start' = 'queue'): Promise<number> {
  const db = await recordDb(env, 'batchId' in target ? target.batchId : target.evaluationId);
  return handOver(env, await claimWindow(db, target), how, null);
}

/**
 * Hands a claim's items over ({@link pump}'s `how`); `admitted`, when the claim's transaction already gave it
 * a running slot, is started without admission's round trip. A batch with a budget is claimed here instead.
 */
async function handOver(
  env: Bindings,
  claim: WindowClaim,
  how: 'queue' | 'start',
  admitted: string | null,
): Promise<number> {
  // A batch with a budget writes each item's grant into its config as it claims it: its objects read the job.
  const { batchId, ids, jobs } =
    claim.budgeted === null ? claim : { ...(await claimBudgetedOrExhaust(env, claim.budgeted)), jobs: [] };
  if (batchId === null || ids.length === 0) return 0;
  if (how === 'start') await startIds(env, ids, batchId, jobs, admitted === null ? [] : [admitted]);
  else await sendIds(env, ids, batchId);
  return ids.length;
}

/** The claim of a batch with a budget (./budget-claims.ts); a used-up budget starts ending the items never launched. */
async function claimBudgetedOrExhaust(env: Bindings, batchId: string): Promise<{ batchId: string; ids: string[] }> {
  const c = await claimBudgeted(await recordDb(env, batchId), batchId);
  if (c.exhausted) {
    log('info', 'batch.budget_exhausted', { batchId });
    await startCancelFanout(env, batchId);
  }
  return { batchId, ids: c.ids };
}

/**
 * Waits one timer turn (`setTimeout` 0). Why: an item that made no LLM call (a verdict cache hit) starts the next
 * through calls that never leave the process, and on the local runtime (workerd: the Worker, D1 and every object
 * on one event loop) a window of such items chains hit after hit without the loop reading a socket: another
 * batch's LLM replies, and every API request, waited until the whole batch of hits had ended (20-30 s for 1,000
 * hits under `npm start`, BENCHMARKS.md). A timer fires only once the loop has polled its sockets, so each hit
 * lets what arrived meanwhile run first. Deployed, objects may share an isolate too: the wait is one cheap turn
 * either way.
 */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The Durable Object's call once an item's final write has landed, with what that write claimed in its own
 * transaction (`claimWindowStatements`, the first claimed item admitted there too): starts the claimed items
 * (no D1 round trip for the admitted one); a batch with a budget is claimed here instead (./budget-claims.ts). Never
 * throws (it runs after the response): the next ending's claim, or the sweeper's top-up, makes up for a
 * failure, and a claimed item that did not start stays `queued` for the sweeper's re-kick.
 * @param yieldFirst the ending item stored no successful LLM call (a verdict cache hit; also one whose every call
 *   failed): the start waits one timer turn first ({@link yieldToIo}). Default false.
 */
export async function handOverClaim(
  env: Bindings,
  evaluationId: string,
  claim: WindowClaim,
  admitted: string | null,
  yieldFirst = false,
): Promise<void> {
  try {
    if (yieldFirst && claim.ids.length + (claim.budgeted === null ? 0 : 1) > 0) await yieldToIo();
    await handOver(env, claim, 'start', admitted);
  } catch (err) {
    log('warn', 'batch.pump_failed', { evaluationId, error: messageOf(err) });
  }
}

/**
 * A step of an item's final write after its status update: the batch's next items are claimed in the same
 * transaction (the first one admitted to the slot the ending freed, `claimWindowStatements`), and started
 * once it committed ({@link handOverClaim}). Nothing for an evaluation outside a batch; one whose batch the
 * object no longer knows (after an eviction) claims, and a claim outside a batch finds no row.
 */
export const CLAIM_BATCH_WINDOW: FinalWriteStep = {
  name: "the batch's next items are claimed (the first takes the freed slot), and start",
  prepare: (db, ending) => {
    if (ending.batchId === null) return null;
    // With the final write's token: the ending's count claimed the next items already (./progress.ts), and
    // this claim's own UPDATE writes only when that one did not (the row had ended elsewhere).
    const claim = claimWindowStatements(
      db,
      { evaluationId: ending.id },
      { defaultMaxRunning: ending.defaultMaxRunning, now: ending.now },
      ending.writeToken,
    );
    return {
      statements: claim.statements,
      then: (results) => {
        const { claim: window, admitted } = claim.read(results);
        // No stored call (a cache hit, or an item whose every call failed): its next start lets the runtime read its
        // sockets first (yieldToIo); an item that failed so waits one turn too, harmlessly.
        const madeNoCall = ending.written?.calls.length === 0;
        return (env) => handOverClaim(env, ending.id, window, admitted, madeNoCall);
      },
    };
  },
};

/**
 * Ends an evaluation in D1 alone, with every effect of an ending and, once committed, its after-commit steps
 * (src/ending-plan.ts `endInD1`, which the batches queue's consumer hands in: this module does not import the
 * list of what an ending does). @returns whether this call ended it.
 */
export type EndInD1 = (env: Bindings, id: string, status: EndStatus, error: EvaluationError) => Promise<boolean>;

/**
 * Completes a batch of `db` (the database the sweeper read it from) whose items have all ended, with `causeId` as
 * the cause of its events (src/ending-plan.ts `completeBatchInD1`, which the sweeper hands in: this module does not
 * import the list of what an ending does). @returns whether this call completed it.
 */
export type CompleteBatch = (env: Bindings, db: D1Database, batchId: string, causeId: string) => Promise<boolean>;

/**
 * The sweeper's part, for open batches untouched for {@link TOP_UP_AFTER_SECONDS} (or since `restartedAt`,
 * epoch ms, after a restart of the local runtime): completes one whose items have all ended (the final write that
 * counted its last item did not get to: `complete`), tops the window up, or queues a cancel's fan-out again
 * (its pages are idempotent) when a cancel has not finished. At most `limit` batches (default 20) over all shards,
 * or in each of `dbs` when given (the cron's maintenance message for one shard).
 */
export async function topUpStalledBatches(
  env: Bindings,
  complete: CompleteBatch,
  now: number,
  restartedAt?: number,
  limit = 20,
  dbs?: readonly D1Database[],
): Promise<string[]> {
  const since = restartedAt ?? now - TOP_UP_AFTER_SECONDS * 1000;
  const share = dbs ? limit : perDbLimit(env, limit);
  const stalled = (
    await Promise.all(
      (dbs ?? everyTenantDb(env)).map(async (db) =>
        (await stalledBatches(db, since, share)).map((b) => ({ ...b, db })),
      ),
    )
  ).flat();
  for (const { db, id: batchId, cancelling, ended } of stalled) {
    if (ended !== null) {
      if (await complete(env, db, batchId, ended)) log('warn', 'batch.completed_late', { batchId });
      continue;
    }
    if (cancelling) {
      log('warn', 'batch.cancel_resumed', { batchId });
      await startCancelFanout(env, batchId);
      continue;
    }
    const sent = await pump(env, { batchId });
    if (sent > 0) log('warn', 'batch.topped_up', { batchId, sent });
  }
  return stalled.map((b) => b.id);
}

/** Body of a batches-queue message: cancel the items of `batchId` after position `afterSeq`. */
export const BatchMessageSchema = z
  .object({ op: z.literal('cancel'), batchId: z.string().min(1).max(200), afterSeq: z.number().int().min(-1) })
  .strict();
/** A parsed batches-queue message. */
export type BatchMessage = z.infer<typeof BatchMessageSchema>;

/** Starts the fan-out of a batch's cancel (the first page; each page queues the next). */
export async function startCancelFanout(env: Bindings, batchId: string): Promise<void> {
  await env.BATCHES.send({ op: 'cancel', batchId, afterSeq: -1 } satisfies BatchMessage);
}

/**
 * One page of a batch's cancel: every item after `afterSeq` that has not ended (up to {@link CANCEL_PAGE}).
 * An item never handed over (position ≥ `sent`, read after the cancel stopped the pump) has no object and
 * none will start it: it is ended in D1 directly (with every end effect). Any other is cancelled through
 * its Durable Object: no new LLM calls, calls in flight stored and billed; one that has not started gets
 * the object's `ended` marker, so its queue message starts nothing. Then the next page is queued.
 * Idempotent: a cancel of an ended item changes nothing.
 * @throws when an item could not be cancelled (the queue retries the page).
 */
export async function cancelPage(
  env: Bindings,
  message: BatchMessage,
  endInD1: EndInD1,
): Promise<{ cancelled: number; next: boolean }> {
  const db = await recordDb(env, message.batchId);
  const fanout = await getBatchFanout(db, message.batchId);
  if (fanout === null) return { cancelled: 0, next: false };
  const { sent } = fanout;
  const page = await openItems(db, message.batchId, message.afterSeq, CANCEL_PAGE);
  const failures: string[] = [];
  await eachLimited(page, CANCEL_CONCURRENCY, async ({ id, seq, status }) => {
    try {
      if (status === 'queued' && seq >= sent) {
        // Its webhook deliveries (and the batch's completion event, if this ending completes it) go out at once.
        if (fanout.budget) await endInD1(env, id, 'failed', BATCH_BUDGET_ERROR);
        else await endInD1(env, id, 'cancelled', BATCH_CANCELLED_ERROR);
      } else await evaluationStub(env, id).cancel(id, BATCH_CANCELLED_ERROR.message);
    } catch (err) {
      failures.push(id);
      log('warn', 'batch.cancel_item_failed', { batchId: message.batchId, evaluationId: id, error: messageOf(err) });
    }
  });
  if (failures.length > 0)
    throw new Error(`${failures.length} item(s) of batch ${message.batchId} could not be cancelled`);
  const last = page[page.length - 1];
  const next = page.length === CANCEL_PAGE && last !== undefined;
  if (next)
    await env.BATCHES.send({ op: 'cancel', batchId: message.batchId, afterSeq: last.seq } satisfies BatchMessage);
  return { cancelled: page.length, next };
}
