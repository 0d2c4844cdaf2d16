/**
 * @module
 * Meta-evaluation use cases: judge a labelled batch (a batch of kind `meta_evaluation` on the batch
 * machinery, src/batches: one evaluation per item, `Idempotency-Key` honoured) and, once every item has
 * ended, compute the agreement report with src/metrics/agreement.ts from the stored verdicts and human labels,
 * store it once and serve it from then on.
 */
import type { ApiWarning } from '../http/warnings.js';
import { resolveSubmission } from '../batches/submission.js';
import { submitBatch } from '../batches/submit.js';
import type { Bindings } from '../config/bindings.js';
import type { AgreementReport } from '../metrics/agreement.js';
import { AgreementReportSchema, reportOfJudged } from '../metrics/agreement.js';
import { toMarkdown } from '../metrics/agreement-markdown.js';
import type { MetaItemOutcome, RepeatRow } from './rows.js';
import {
  getMeta,
  listCalibrationItems,
  listMetaItems,
  listRepeats,
  metaStatements,
  storeCalibration,
  storeMetaReport,
  storeReliability,
} from './rows.js';
import { calibrateCascade, CascadeCalibrationSchema, escalateItemsOf } from '../metrics/escalate.js';
import type { CascadeCalibration } from '../metrics/escalate.js';
import { cascadeDetailsOf } from '../metrics/cascade.js';
import type { Repeat, ReliabilityItem, ReliabilityReport } from '../metrics/reliability.js';
import { reliabilityReport, ReliabilityReportSchema } from '../metrics/reliability.js';
import type { Vote, Winner } from '../engine/verdict.js';
import type { CalibrationItem } from '../metrics/certify.js';
import { ApiError } from '../http/errors.js';
import { isTerminal } from '../evaluations/status.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { requestRubric } from '../evaluations/service.js';
import type {
  CalibrateRequest,
  CalibrateResult,
  CreateMetaEvaluationRequest,
  MetaEvaluation,
  MetaProgress,
} from './schemas.js';
import { tenantDb } from '../config/d1-shards.js';

/** Outcome of {@link createMetaEvaluation}. */
export interface MetaCreated {
  id: string;
  status: MetaEvaluation['status'];
  itemsTotal: number;
  /** True when this answers a retry with the same `Idempotency-Key` and body. */
  replayed: boolean;
  /** What the answer warns about (`tier_price_missing`). */
  warnings: ApiWarning[];
}

/**
 * Validates the judge against every item (errors name `items.N.task`), then submits the labelled batch:
 * the batch, its evaluations, the meta row and the item links in one D1 transaction, every id queued.
 * @throws ApiError 400, 409 `idempotency_conflict` (the key was used with another body), 429 `quota_exceeded`
 * (the items do not fit under the tenant's monthly caps), 503.
 */
export async function createMetaEvaluation(
  env: Bindings,
  tenant: string,
  request: CreateMetaEvaluationRequest,
  idempotencyKey: string | null = null,
  creator: CreatorInfo = { keyId: null },
): Promise<MetaCreated> {
  const { judge, creator: withLimits, tier, warnings } = await resolveSubmission(env, tenant, request, creator);
  // G-Eval style judges get the version's auto-CoT steps, written once first when none are (503 / 502 otherwise).
  const rubric = await requestRubric(env, tenant, judge, request.rubric, withLimits);
  const now = Date.now();
  const r = await submitBatch(env, {
    ...tier,
    tenant,
    rubric,
    kind: 'meta_evaluation',
    preset: request.preset ?? null,
    judge,
    // Each item `repeats` times in a row: items[i × repeats + r] is request.items[i]'s repeat r.
    items: request.items.flatMap((item) =>
      Array.from({ length: request.repeats }, () => ({ itemId: item.id, task: item.task, metadata: null })),
    ),
    // As before batches: each evaluation's metadata names its meta-evaluation and item.
    metadataOf: (id, item) => ({ metaId: id, itemId: item.itemId ?? '' }),
    webhookUrl: null,
    idempotencyKey,
    creator: withLimits,
    request,
    // A reliability run (repeats > 1) judges each repeat afresh unless `cache` is given: its point is the spread.
    cache: { mode: request.cache, seed: request.seed, repeat: request.repeats > 1 },
    extra: (id, items) =>
      metaStatements(tenantDb(env, tenant), {
        id,
        tenant,
        preset: request.preset ?? null,
        config: judge.config,
        repeats: request.repeats,
        // planItems keeps the request's order: the agreement report reads each item's first repeat.
        items: request.items.map((item, i) => ({
          itemId: item.id,
          evaluationId: items[i * request.repeats]?.evaluationId ?? '',
          human: item.human,
          humanAspects: item.humanAspects ?? null,
          group: item.group ?? null,
        })),
        now,
      }),
  });
  const itemsTotal = request.items.length;
  if (!r.replayed) return { id: r.id, status: 'running', itemsTotal, replayed: false, warnings };
  const meta = await getMeta(tenantDb(env, tenant), tenant, r.id);
  return { id: r.id, status: meta?.status ?? 'running', itemsTotal, replayed: true, warnings };
}

function progressOf(items: readonly MetaItemOutcome[]): MetaProgress {
  const p: MetaProgress = {
    total: items.length,
    ended: 0,
    queued: 0,
    running: 0,
    succeeded: 0,
    failed: 0,
    cancelled: 0,
  };
  for (const it of items) {
    p[it.status] += 1;
    if (isTerminal(it.status)) p.ended += 1;
  }
  return p;
}

/**
 * The meta-evaluation with progress; computes and stores the report the first time every item has
 * ended (a concurrent reader computing it too stores nothing the second time).
 * @throws ApiError 404 `not_found`.
 */
export async function viewMetaEvaluation(env: Bindings, tenant: string, id: string): Promise<MetaEvaluation> {
  const meta = await getMeta(tenantDb(env, tenant), tenant, id);
  if (!meta) throw new ApiError(404, 'not_found', `no meta-evaluation "${id}"`);
  const items = await listMetaItems(tenantDb(env, tenant), id);
  const progress = progressOf(items);
  let status = meta.status;
  let report: AgreementReport | null = meta.report ? AgreementReportSchema.parse(JSON.parse(meta.report)) : null;
  if (!report && items.length > 0 && progress.ended === items.length) {
    report = reportOfJudged(items);
    status = progress.succeeded > 0 ? 'succeeded' : 'failed';
    await storeMetaReport(tenantDb(env, tenant), id, status, report, Date.now());
  }
  let reliability: ReliabilityReport | null = meta.reliability
    ? ReliabilityReportSchema.parse(JSON.parse(meta.reliability))
    : null;
  if (!reliability && meta.repeats > 1 && report) {
    const repeats = await listRepeats(tenantDb(env, tenant), id);
    if (repeats.every((r) => isTerminal(r.status))) {
      reliability = reliabilityReport(reliabilityItems(items, repeats));
      await storeReliability(tenantDb(env, tenant), id, reliability, Date.now());
    }
  }
  return {
    id,
    status,
    preset: meta.preset,
    method: meta.method,
    tier: meta.tier,
    progress,
    report,
    reportMarkdown: report ? toMarkdown(report) : null,
    repeats: meta.repeats,
    reliability,
    calibration: meta.calibration ? CascadeCalibrationSchema.parse(JSON.parse(meta.calibration)) : null,
    items: items.map((it) => ({
      itemId: it.itemId,
      evaluationId: it.evaluationId,
      status: it.status,
      human: it.human,
      winner: it.winner,
      score: it.score,
      humanAspects: it.humanAspects,
      aspects: it.aspectScores,
    })),
    createdAt: new Date(meta.createdAt).toISOString(),
  };
}

/** What one repeat came to, from its evaluation (see `RepeatOutcomeSchema`, src/metrics/reliability.ts). */
function repeatOf(r: RepeatRow): Repeat {
  if (r.status !== 'succeeded') return { outcome: 'failed' };
  const votes = r.votes === null ? [] : (JSON.parse(r.votes) as Vote[]);
  const flip = r.position_flip === null ? null : r.position_flip !== 0;
  const order = (o: 'AB' | 'BA') => votes.find((v) => v.order === o && v.parsed)?.winner ?? null;
  // A judge that ran one order showed the task as submitted: its verdict is the AB order's.
  const orders = votes.some((v) => v.order !== undefined)
    ? { orders: { AB: order('AB'), BA: order('BA') } }
    : { orders: { AB: r.winner } };
  if (r.winner === null) return { outcome: 'inconclusive', ...orders, flip };
  if (votes.length > 0 && !votes.some((v) => v.parsed)) return { outcome: 'unparsed', flip };
  return { outcome: r.winner, ...orders, flip };
}

/** Each item with its human label and every repeat, for the reliability report. */
function reliabilityItems(items: readonly MetaItemOutcome[], repeats: readonly RepeatRow[]): ReliabilityItem[] {
  const byItem = new Map<string, Repeat[]>();
  for (const r of repeats) {
    const list = byItem.get(r.item_id) ?? [];
    list.push(repeatOf(r));
    byItem.set(r.item_id, list);
  }
  return items.map((it) => ({
    id: it.itemId,
    ...(typeof it.human === 'string' ? { human: it.human } : {}),
    repeats: byItem.get(it.itemId) ?? [{ outcome: 'failed' }],
  }));
}

/**
 * Trust or Escalate: calibrates the thresholds of the cascade this meta-evaluation ran (best with
 * `runAllStages: true`, so every stage is recorded on every item) for `{alpha, delta}`, stores the
 * calibration (GET shows the latest) and returns it with the cascade config that applies it.
 * @throws ApiError 404 `not_found`; 400 `invalid_request` for a run of another method, a pointwise run, or
 *   items still running.
 */
export async function calibrateMetaEvaluation(
  env: Bindings,
  tenant: string,
  id: string,
  options: CalibrateRequest,
): Promise<CalibrateResult> {
  const meta = await getMeta(tenantDb(env, tenant), tenant, id);
  if (!meta) throw new ApiError(404, 'not_found', `no meta-evaluation "${id}"`);
  const refuse = (message: string) => new ApiError(400, 'invalid_request', message, [{ path: 'id', message }]);
  if (meta.method !== 'cascade') throw refuse(`meta-evaluation "${id}" judged with ${meta.method}, not a cascade`);
  const rows = await listCalibrationItems(tenantDb(env, tenant), id);
  if (rows.some((r) => !isTerminal(r.status)))
    throw refuse('some items have not ended yet: calibrate once every item ended');
  const judged = rows.flatMap((r) => {
    const cascade = r.status === 'succeeded' && r.details ? cascadeDetailsOf(JSON.parse(r.details)) : undefined;
    const human = JSON.parse(r.human) as 'A' | 'B' | 'tie' | number;
    return cascade ? [{ human, cascade }] : [];
  });
  const items = escalateItemsOf(judged);
  if (items.length === 0) throw refuse('no pairwise item with a human label and a cascade verdict to calibrate on');
  const calibration: CascadeCalibration = calibrateCascade(items, options);
  await storeCalibration(tenantDb(env, tenant), id, calibration, Date.now());
  const config = JSON.parse(meta.config) as Record<string, unknown>;
  return {
    calibration,
    config: {
      ...config,
      runAllStages: false,
      calibrated: { thresholds: calibration.thresholds, alpha: calibration.alpha, delta: calibration.delta },
    },
  };
}

/** A calibration run's judged items (certified mode): each pairwise item's human label and each stage's verdict. */
export interface JudgedCalibration {
  /** False while some item has not ended: the calibration cannot be computed yet. */
  ended: boolean;
  items: CalibrationItem[];
}

/**
 * The judged items of meta-evaluation `id` as calibration items for `stages` judge stages: a cascade's stage
 * verdicts (`details.cascade.stages`, every stage recorded when it ran with `runAllStages`), else the one
 * verdict's winner and confidence; a stage without a verdict (a failed item, a stage that never ran) is null,
 * so it is escalated past, never trusted. Items labelled with a score are left out (certified mode is pairwise).
 * @throws ApiError 404 `not_found`.
 */
export async function judgedCalibration(
  env: Bindings,
  tenant: string,
  id: string,
  stages: number,
): Promise<JudgedCalibration> {
  const meta = await getMeta(tenantDb(env, tenant), tenant, id);
  if (!meta) throw new ApiError(404, 'not_found', `no meta-evaluation "${id}"`);
  const rows = await listCalibrationItems(tenantDb(env, tenant), id);
  if (rows.some((r) => !isTerminal(r.status))) return { ended: false, items: [] };
  const none = (): CalibrationItem['stages'] => Array.from({ length: stages }, () => null);
  const items = rows.flatMap((r): CalibrationItem[] => {
    const human = JSON.parse(r.human) as Winner | number;
    if (typeof human === 'number') return [];
    if (r.status !== 'succeeded') return [{ human, stages: none() }];
    const cascade = r.details ? cascadeDetailsOf(JSON.parse(r.details)) : undefined;
    if (cascade)
      return [
        {
          human,
          stages: none().map((_, k) => {
            const s = cascade.stages[k];
            return s?.ran && s.winner !== undefined ? { winner: s.winner, confidence: s.confidence ?? 0 } : null;
          }),
        },
      ];
    const one = r.winner === null ? null : { winner: r.winner, confidence: r.confidence ?? 0 };
    return [{ human, stages: [one, ...none().slice(1)] }];
  });
  return { ended: true, items };
}
