/**
 * @module
 * Batch use cases behind the thin route handlers (src/batches/routes.ts): create, read (counts from
 * the batch row's counters, verdict statistics and usage by aggregate SQL), results as NDJSON pages in
 * request order, list, and cancel.
 */
import { withWarnings } from '../http/warnings.js';
import { resolveSubmission } from './submission.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { encodeCursor, decodeCursor, mergeNewestFirst } from '../http/cursor.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { storedVerdictSummary } from '../evaluations/schemas.js';
import type { Bindings } from '../config/bindings.js';
import { log } from '../log/log.js';
import type { EvaluationStatus } from '../evaluations/status.js';
import { z } from 'zod';
import { startCancelFanout } from './pump.js';
import type {
  Batch,
  BatchAccepted,
  BatchCounts,
  BatchKind,
  BatchResultLine,
  BatchSummary,
  CreateBatchRequest,
} from './schemas.js';
import type { ItemOutcomeRow, ListPosition } from './result-rows.js';
import { batchHitSums } from '../verdict-cache/rows.js';
import {
  aspectAggregates,
  listBatches,
  repeatRunsOfBatch,
  resultsPage,
  usageAggregates,
  verdictAggregates,
} from './result-rows.js';
import type { BatchRecord } from './rows.js';
import { getBatch, requestCancel } from './rows.js';
import { rubricStampOf } from '../evaluations/rows.js';
import type { ResolvedRubric } from '../rubrics/resolve.js';
import { planItems, submitBatch } from './submit.js';
import type { CertifyJudge } from '../evaluations/certified.js';
import { certifiedFields, withCertify } from '../evaluations/certified.js';
import { checkBatchBudget } from './budget-check.js';
import { repeatJudge } from '../methods/resolve-judge.js';
import { recordDbOf } from '../config/d1-shards.js';
import { withObjectVerdicts } from '../evaluations/content.js';
import { objectReadPaceOf } from '../evaluations/read-pace.js';
import { configOf } from '../config/vars.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import { spreadDbs } from '../tenants/rows.js';
import type { Stability, StabilitySummary } from '../metrics/stability.js';
import type { Guarantee } from '../metrics/certify.js';
import { itemStability, repeatRunsOf, stabilityOfDetails, stabilitySummary } from '../metrics/stability.js';
import { requestRubric } from '../evaluations/service.js';

/** Relative links of a batch. */
export function batchLinks(id: string): BatchAccepted['links'] {
  const self = `/v1/batches/${id}`;
  return { self, results: `${self}/results`, cancel: `${self}/cancel` };
}

/**
 * Validates the judge and every item, stores the batch, queues its items (see ./submit.ts).
 * @throws ApiError 400 (judge or an item, named `items.N…`), 409 `idempotency_conflict`, 429 `quota_exceeded`
 * (the items do not fit under the tenant's monthly caps), 503 `llm_not_configured`.
 */
export async function createBatch(
  env: Bindings,
  tenant: string,
  request: CreateBatchRequest,
  idempotencyKey: string | null,
  creator: CreatorInfo = { keyId: null },
  certifyJudge?: CertifyJudge,
): Promise<{ body: BatchAccepted; replayed: boolean }> {
  const submission = await resolveSubmission(env, tenant, request, creator);
  const { creator: withLimits, tier, webhookUrl, warnings } = submission;
  // `repeat`: every item judged N times in its own evaluation (never answered by the verdict cache).
  const asked = repeatJudge(submission.judge, request.repeat, request.cache);
  // G-Eval style judges get the version's auto-CoT steps, written once first when none are (503 / 502 otherwise).
  const rubric = await requestRubric(env, tenant, asked, request.rubric, withLimits);
  const itemRubrics = await resolveItemRubrics(env, tenant, asked, request, withLimits);
  if (request.certify !== undefined) {
    // The guarantee is the batch rubric version's: an item judged by another rubric would not carry it.
    const own = request.items.findIndex((i) => i.rubric !== undefined);
    if (own >= 0)
      throw invalidRequest([
        { path: `items.${own}.rubric`, message: 'with certify every item is judged by the batch’s `rubric`' },
      ]);
    // Every item is checked before the calibration may start judging labelled items.
    planItems(
      tenant,
      asked,
      request.items.map((i) => ({ itemId: null, task: i.task, metadata: null })),
      rubric,
    );
  }
  const { judge, guarantee } = await withCertify(env, tenant, asked, request, withLimits, certifyJudge);
  if (request.budget) await checkBatchBudget(env, tenant, request, judge);
  const r = await submitBatch(env, {
    ...tier,
    rubric,
    tenant,
    kind: 'batch',
    spread: true,
    preset: request.preset ?? null,
    judge,
    items: request.items.map((i, n) => ({
      itemId: i.id ?? null,
      task: i.task,
      metadata: i.metadata ?? null,
      ...(itemRubrics[n] !== undefined ? { rubric: itemRubrics[n] } : {}),
    })),
    webhookUrl,
    budget: request.budget ?? null,
    idempotencyKey,
    creator: withLimits,
    request,
    cache: { mode: request.cache, seed: request.seed, repeat: request.repeat !== undefined },
    certify: guarantee,
  });
  return {
    body: {
      id: r.id,
      kind: 'batch',
      status: r.status,
      itemsTotal: r.itemsTotal,
      links: batchLinks(r.id),
      ...withWarnings(warnings),
    },
    replayed: r.replayed,
  };
}

/**
 * Each item's own `rubric` resolved (each distinct reference once, errors naming `items.N.rubric`), with its
 * auto-CoT steps as the batch's; undefined for an item that judges by the batch's rubric.
 */
async function resolveItemRubrics(
  env: Bindings,
  tenant: string,
  judge: ResolvedJudge,
  request: CreateBatchRequest,
  creator: CreatorInfo,
): Promise<(ResolvedRubric | null | undefined)[]> {
  const seen = new Map<string, Promise<ResolvedRubric | null>>();
  return Promise.all(
    request.items.map((item, i): Promise<ResolvedRubric | null | undefined> => {
      if (item.rubric === undefined) return Promise.resolve(undefined);
      const ref = item.rubric;
      const key = JSON.stringify(ref);
      let resolved = seen.get(key);
      if (!resolved) {
        resolved = requestRubric(env, tenant, judge, ref, creator, `items.${i}.rubric`);
        seen.set(key, resolved);
      }
      return resolved;
    }),
  );
}

/** The batch or 404 `not_found`. */
export async function requireBatch(env: Bindings, tenant: string, id: string): Promise<BatchRecord> {
  const b = await getBatch(recordDbOf(env, tenant, id), tenant, id);
  if (!b) throw new ApiError(404, 'not_found', `no batch "${id}"`);
  return b;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** Items by status, from the batch row's counters (each ending counted once, in its own transaction). */
export function countsOf(b: BatchRecord): BatchCounts {
  const ended = b.succeeded + b.failed + b.cancelled;
  return {
    total: b.itemsTotal,
    pending: Math.max(0, b.itemsTotal - ended),
    ended,
    succeeded: b.succeeded,
    failed: b.failed,
    cancelled: b.cancelled,
  };
}

/** A batch as lists show it. */
export function summaryOf(b: BatchRecord): BatchSummary {
  return {
    id: b.id,
    kind: b.kind,
    status: b.status,
    method: b.method,
    preset: b.preset,
    tier: b.tier,
    flexFallback: b.flexFallback,
    counts: countsOf(b),
    createdAt: iso(b.createdAt) ?? '',
    completedAt: iso(b.completedAt),
    cancelRequestedAt: iso(b.cancelRequestedAt),
    links: batchLinks(b.id),
  };
}

const rate = (n: number, of: number): number | null => (of > 0 ? n / of : null);

/** `GET /v1/batches/{id}`: the summary plus verdict statistics and usage over every item. */
export async function viewBatch(env: Bindings, b: BatchRecord): Promise<Batch> {
  const db = recordDbOf(env, b.tenant, b.id);
  const [v, usage, aspects, cache, stability] = await Promise.all([
    verdictAggregates(db, b.id),
    usageAggregates(db, b.id),
    aspectAggregates(db, b.id),
    batchHitSums(db, b.id),
    b.method === 'repeat' ? batchStability(env, b) : Promise.resolve(null),
  ]);
  const decided = v.winsA + v.winsB + v.ties;
  return {
    ...summaryOf(b),
    webhook: b.webhookUrl ? { url: b.webhookUrl } : null,
    budget: b.budget,
    budgetExhaustedAt: iso(b.budgetExhaustedAt),
    verdicts: {
      verdicts: v.verdicts,
      winsA: v.winsA,
      winsB: v.winsB,
      ties: v.ties,
      winRateA: rate(v.winsA, decided),
      winRateB: rate(v.winsB, decided),
      tieRate: rate(v.ties, decided),
      meanScore: v.meanScore,
      aspects,
    },
    usage,
    cache,
    stability,
    guarantee: b.certify,
  };
}

/** A `repeat` batch's stability over its ended items: a failed item is an error, never a verdict. */
async function batchStability(env: Bindings, b: BatchRecord): Promise<StabilitySummary> {
  const rows = await repeatRunsOfBatch(recordDbOf(env, b.tenant, b.id), b.id);
  return stabilitySummary(
    rows.flatMap((r): (Stability | 'error')[] => {
      if (r.status === 'failed') return ['error'];
      const runs = r.runs === null ? null : repeatRunsOf({ repeat: { runs: JSON.parse(r.runs) as unknown } });
      return runs ? [itemStability(runs)] : [];
    }),
  );
}

const ResultsCursorSchema = z.object({ b: z.string(), s: z.number().int().min(-1) }).strict();
const ListCursorSchema = z.object({ t: z.number().int(), i: z.string() }).strict();

/** One results line from an item's row; a deleted item shows neither metadata, verdict nor error. */
function lineOf(r: ItemOutcomeRow, guarantee: Guarantee | null): BatchResultLine {
  const deleted = r.deleted_at !== null;
  let verdict: BatchResultLine['verdict'] = null;
  if (r.verdict !== null && !deleted) {
    verdict = storedVerdictSummary(JSON.parse(r.verdict) as unknown);
    if (verdict === null) log('error', 'api.stored_verdict_invalid', { evaluationId: r.id });
  }
  return {
    index: r.batch_seq,
    itemId: r.item_id,
    evaluationId: r.id,
    status: r.status as EvaluationStatus,
    deleted,
    metadata: r.metadata !== null && !deleted ? (JSON.parse(r.metadata) as BatchResultLine['metadata']) : null,
    verdict,
    error: r.error_code !== null && !deleted ? { code: r.error_code, message: r.error_message ?? '' } : null,
    rubric: rubricStampOf(r.rubric_hash, r.rubric_id, r.rubric_version),
    stability: verdict ? stabilityOfDetails(verdict.details) : null,
    ...certifiedFields(guarantee, r.status, verdict?.details),
  };
}

/**
 * One page of results in request order: NDJSON text (one {@link BatchResultLine} per line) and the cursor
 * of the next page (null on the last). Keyset on the item's position, so pages never overlap or skip.
 * @throws ApiError 400 naming `cursor` for a cursor of another batch or none this API made.
 */
export async function resultsOf(
  env: Bindings,
  b: BatchRecord,
  cursor: string | undefined,
  limit: number,
): Promise<{ ndjson: string; next: string | null }> {
  const position = cursor === undefined ? { b: b.id, s: -1 } : decodeCursor(cursor, ResultsCursorSchema);
  if (position.b !== b.id) throw invalidRequest([{ path: 'cursor', message: 'belongs to another batch' }], 'query');
  const afterSeq = position.s;
  const rows = await resultsPage(recordDbOf(env, b.tenant, b.id), b.id, afterSeq, limit);
  // Verdicts D1 keeps no JSON of are read from their evaluations' objects, a bounded page at a time (paced where the
  // runtime keeps every object in one process: OBJECT_READ_PACE).
  const pace = objectReadPaceOf(configOf(env).OBJECT_READ_PACE);
  const page = await withObjectVerdicts(env, rows.slice(0, limit), pace);
  const last = page[page.length - 1];
  const next = rows.length > limit && last ? encodeCursor({ b: b.id, s: last.batch_seq }) : null;
  return { ndjson: page.map((r) => `${JSON.stringify(lineOf(r, b.certify))}\n`).join(''), next };
}

/**
 * `GET /v1/batches`: the tenant's batches, newest first: a page from each D1 shard its batches may be in,
 * merged by the same order.
 * @param limits the tenant's limits as auth loaded them (its spread); read from the control database when absent.
 */
export async function listBatchesView(
  env: Bindings,
  tenant: string,
  q: { cursor?: string | undefined; limit: number; kind?: BatchKind | undefined },
  limits?: EffectiveLimits | null,
): Promise<{ data: BatchSummary[]; nextCursor: string | null }> {
  const after: ListPosition | null = q.cursor === undefined ? null : decodeCursor(q.cursor, ListCursorSchema);
  const pages = await Promise.all(
    (await spreadDbs(env, tenant, limits)).map((db) =>
      listBatches(db, tenant, { kind: q.kind, after, limit: q.limit }),
    ),
  );
  const rows = mergeNewestFirst(pages, (b) => b, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    data: page.map(summaryOf),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.createdAt, i: last.id }) : null,
  };
}

/**
 * Cancels a batch: marks it `cancelling` at once (from then on an item that has not started never starts:
 * its object reads the mark when it loads the job), then cancels every item that has not ended through
 * the batches queue, a page at a time. The batch becomes `cancelled` when its last item ends. Idempotent:
 * a repeated cancel queues the (harmless) fan-out again.
 * @throws ApiError 409 `already_ended` when every item had ended before.
 */
export async function cancelBatch(env: Bindings, b: BatchRecord): Promise<Batch> {
  const status = await requestCancel(recordDbOf(env, b.tenant, b.id), b.tenant, b.id, Date.now());
  if (status === null) throw new ApiError(404, 'not_found', `no batch "${b.id}"`);
  if (status === 'completed' || status === 'cancelled') {
    throw new ApiError(409, 'already_ended', `batch "${b.id}" has already ended (${status})`);
  }
  await startCancelFanout(env, b.id);
  return viewBatch(env, (await getBatch(recordDbOf(env, b.tenant, b.id), b.tenant, b.id)) ?? b);
}
