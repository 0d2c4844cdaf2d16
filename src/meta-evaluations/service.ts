/**
 * @module
 * Meta-evaluation use cases: judge a labelled batch (a batch of kind `meta_evaluation` on the batch
 * machinery, src/batches: one evaluation per item, `Idempotency-Key` honoured) and, once every item has
 * ended, compute the agreement report with src/metrics/agreement.ts from the stored verdicts and human labels,
 * store it once and serve it from then on.
 */
import { submitBatch } from '../batches/submit.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import type { Bindings } from '../config/bindings.js';
import type { AgreementReport } from '../metrics/agreement.js';
import { AgreementReportSchema, reportOfJudged, toMarkdown } from '../metrics/agreement.js';
import type { MetaItemOutcome } from './rows.js';
import { getMeta, listMetaItems, metaStatements, storeMetaReport } from './rows.js';
import { ApiError } from '../http/errors.js';
import { isTerminal } from '../evaluations/status.js';
import { llmEnvOf } from '../llm/settings.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { checkLlmConfig, resolveJudge } from '../methods/resolve-judge.js';
import { limitsFor } from '../evaluations/service.js';
import { resolveTier } from '../tiers/resolve.js';
import type { CreateMetaEvaluationRequest, MetaEvaluation, MetaProgress } from './schemas.js';

/** Outcome of {@link createMetaEvaluation}. */
export interface MetaCreated {
  id: string;
  status: MetaEvaluation['status'];
  itemsTotal: number;
  /** True when this answers a retry with the same `Idempotency-Key` and body. */
  replayed: boolean;
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
  const judge = resolveJudge(request.preset, request.config);
  checkLlmConfig(llmEnvOf(env), judge);
  const limits = await limitsFor(env, tenant, creator.limits);
  const tier = resolveTier(env, judge, request, limits.defaultTier);
  const rubric = request.rubric === undefined ? null : await resolveRubricRef(env, tenant, request.rubric);
  const now = Date.now();
  const r = await submitBatch(env, {
    ...tier,
    tenant,
    rubric,
    kind: 'meta_evaluation',
    preset: request.preset ?? null,
    judge,
    items: request.items.map((item) => ({ itemId: item.id, task: item.task, metadata: null })),
    // As before batches: each evaluation's metadata names its meta-evaluation and item.
    metadataOf: (id, item) => ({ metaId: id, itemId: item.itemId ?? '' }),
    webhookUrl: null,
    idempotencyKey,
    creator: { ...creator, limits },
    request,
    cache: { mode: request.cache, seed: request.seed },
    extra: (id, items) =>
      metaStatements(env.DB, {
        id,
        tenant,
        preset: request.preset ?? null,
        config: judge.config,
        // planItems keeps the request's order: items[i] is request.items[i]'s evaluation.
        items: request.items.map((item, i) => ({
          itemId: item.id,
          evaluationId: items[i]?.evaluationId ?? '',
          human: item.human,
          group: item.group ?? null,
        })),
        now,
      }),
  });
  if (!r.replayed) return { id: r.id, status: 'running', itemsTotal: r.itemsTotal, replayed: false };
  const meta = await getMeta(env.DB, tenant, r.id);
  return { id: r.id, status: meta?.status ?? 'running', itemsTotal: r.itemsTotal, replayed: true };
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
  const meta = await getMeta(env.DB, tenant, id);
  if (!meta) throw new ApiError(404, 'not_found', `no meta-evaluation "${id}"`);
  const items = await listMetaItems(env.DB, id);
  const progress = progressOf(items);
  let status = meta.status;
  let report: AgreementReport | null = meta.report ? AgreementReportSchema.parse(JSON.parse(meta.report)) : null;
  if (!report && items.length > 0 && progress.ended === items.length) {
    report = reportOfJudged(items);
    status = progress.succeeded > 0 ? 'succeeded' : 'failed';
    await storeMetaReport(env.DB, id, status, report, Date.now());
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
    items: items.map((it) => ({
      itemId: it.itemId,
      evaluationId: it.evaluationId,
      status: it.status,
      human: it.human,
      winner: it.winner,
      score: it.score,
    })),
    createdAt: new Date(meta.createdAt).toISOString(),
  };
}
