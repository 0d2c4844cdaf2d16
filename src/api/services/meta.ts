/**
 * @module
 * Meta-evaluation use cases: judge a labelled batch (one evaluation per item, linked by `meta_id`) and,
 * once every item has ended, compute the agreement report with src/meta/metrics.ts from the stored
 * verdicts and human labels, store it once and serve it from then on.
 */
import type { Bindings } from '../../env.js';
import type { AgreementReport } from '../../meta/metrics.js';
import { AgreementReportSchema, reportOfJudged, toMarkdown } from '../../meta/metrics.js';
import type { NewEvaluation } from '../../store/evaluations.js';
import type { MetaItemOutcome } from '../../store/meta.js';
import { getMeta, insertMetaEvaluation, listMetaItems, storeMetaReport } from '../../store/meta.js';
import { ApiError } from '../errors.js';
import type { CreateMetaEvaluationRequest, MetaEvaluation, MetaProgress } from '../schemas.js';
import { isTerminal } from '../../pipeline/events.js';
import { log, messageOf } from '../../pipeline/log.js';
import type { CreatorInfo } from './evaluations.js';
import { limitsFor, newId } from './evaluations.js';
import { assertQuota } from '../../tenants/quota.js';
import { llmEnvOf } from '../../llm/settings.js';
import { checkLlmConfig, planTask, resolveJudge } from './judge.js';

/** Messages per `sendBatch` call: the platform's maximum, 100. */
export const QUEUE_BATCH_MAX = 100;

/**
 * Validates the judge against every item (errors name `items.N.task`), stores the batch in one D1
 * transaction, then enqueues every id in `sendBatch` calls of ≤ 100. A failed send is logged, not
 * surfaced: the rows are queued in D1 and the sweeper re-kicks them.
 */
export async function createMetaEvaluation(
  env: Bindings,
  tenant: string,
  request: CreateMetaEvaluationRequest,
  creator: CreatorInfo = { keyId: null },
): Promise<{ id: string; itemsTotal: number }> {
  const judge = resolveJudge(request.preset, request.config);
  // Spread: Env has no index signature; the LLM layer reads it as a string map.
  checkLlmConfig(llmEnvOf(env), judge);
  const id = newId('me');
  const now = Date.now();
  // Every item is an evaluation: all of them must fit under the tenant's monthly caps.
  await assertQuota(env.DB, tenant, await limitsFor(env, tenant, creator.limits), request.items.length, now);
  const evaluations: NewEvaluation[] = request.items.map((item, i) => ({
    id: newId('ev'),
    tenant,
    method: judge.method.method,
    preset: request.preset ?? null,
    config: judge.config,
    task: item.task,
    metadata: { metaId: id, itemId: item.id },
    idempotencyKey: null,
    requestHash: null,
    metaId: id,
    callsPlanned: planTask(judge, item.task, `items.${i}.task`),
    now,
    keyId: creator.keyId,
  }));
  await insertMetaEvaluation(env.DB, {
    id,
    tenant,
    preset: request.preset ?? null,
    config: judge.config,
    evaluations,
    items: request.items.map((item, i) => ({
      itemId: item.id,
      evaluationId: evaluations[i]?.id ?? '',
      human: item.human,
      group: item.group ?? null,
    })),
    now,
  });
  for (let i = 0; i < evaluations.length; i += QUEUE_BATCH_MAX) {
    const batch = evaluations.slice(i, i + QUEUE_BATCH_MAX).map((e) => ({ body: { id: e.id } }));
    try {
      await env.JOBS.sendBatch(batch);
    } catch (err) {
      log('warn', 'api.queue_send_failed', { metaId: id, error: messageOf(err) });
    }
  }
  return { id, itemsTotal: evaluations.length };
}

function progressOf(items: readonly MetaItemOutcome[]): MetaProgress {
  const p: MetaProgress = { total: items.length, ended: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
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
    progress,
    report,
    reportMarkdown: report ? toMarkdown(report) : null,
    items: items.map((it) => ({ itemId: it.itemId, evaluationId: it.evaluationId, status: it.status })),
    createdAt: new Date(meta.createdAt).toISOString(),
  };
}
