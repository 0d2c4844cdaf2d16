/**
 * @module
 * A rubric version's agreement with its human labels: every labelled item of the version's queues judged by the
 * version (`rb_…@n`) as one meta-evaluation, the report computed by its agreement maths (src/metrics/, through
 * src/meta-evaluations/), and each disagreement linked to its evaluation and its item.
 *
 * Idempotent: the meta-evaluation's `Idempotency-Key` is the hash of the version, the judge and the labelled
 * items, so a second read with nothing new finds the same run; a read after new labels starts a new run whose
 * items already judged come from the verdict cache (default `use`: no new LLM call).
 */
import type { Bindings } from '../config/bindings.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { ApiError } from '../http/errors.js';
import { canonicalJson, sha256Hex } from '../http/request-hash.js';
import { createMetaEvaluation, viewMetaEvaluation } from '../meta-evaluations/service.js';
import { requireVersion } from '../rubrics/service.js';
import { labelledItems } from './labelled.js';
import type { RubricAgreement } from './agreement-schemas.js';

/** The judge of a version without a golden check, per kind. */
export const DEFAULT_AGREEMENT_PRESETS = { pairwise: 'fastchat-pair', pointwise: 'rubric-judge' } as const;

/** Most labelled items one agreement run judges: 500, a meta-evaluation's limit (the first ones, oldest queue first). */
export const MAX_AGREEMENT_ITEMS = 500;

/** Pointwise: a judge's score this far from the label, or farther, is a disagreement: 1 point. */
export const POINTWISE_DISAGREEMENT = 1;

const estimate = (e: { value: number | null; ci: { lo: number; hi: number } | null }) => ({
  value: e.value,
  interval: e.ci,
});

/**
 * The agreement of version `version` of rubric `id` with the labelled items of its annotation queues, judged by
 * the version's golden-check judge (else {@link DEFAULT_AGREEMENT_PRESETS}); `status: running` while the judge runs.
 * @throws ApiError 404 for an unknown rubric or version; 409 `conflict` when the version has no labelled item;
 *   what `POST /v1/meta-evaluations` throws (429, 503).
 */
export async function versionAgreement(
  env: Bindings,
  tenant: string,
  id: string,
  version: number,
  creator: CreatorInfo,
): Promise<RubricAgreement> {
  const { version: v } = await requireVersion(env, tenant, id, version);
  const labelled = (await labelledItems(env, tenant, { rubricId: id, version })).filter((i) => i.human !== null);
  if (labelled.length === 0)
    throw new ApiError(
      409,
      'conflict',
      `rubric "${id}" version ${version} has no labelled item: label some in an annotation queue over ${id}@${version}`,
    );
  const judge = v.checkJudge ?? { preset: DEFAULT_AGREEMENT_PRESETS[v.content.kind], config: null };
  const items = labelled.slice(0, MAX_AGREEMENT_ITEMS).map((it, k) => ({
    id: `item-${k}`,
    task: it.task,
    human: it.human ?? 0,
    ...(it.humanAspects ? { humanAspects: it.humanAspects } : {}),
  }));
  const key = `agreement:${await sha256Hex(canonicalJson({ id, version, judge, items }))}`;
  const meta = await createMetaEvaluation(
    env,
    tenant,
    {
      ...(judge.preset !== null ? { preset: judge.preset } : {}),
      ...(judge.config !== null ? { config: judge.config } : {}),
      rubric: `${id}@${version}`,
      repeats: 1,
      items,
    },
    key,
    creator,
  );
  const view = await viewMetaEvaluation(env, tenant, meta.id);
  const self = `/v1/rubrics/${id}/versions/${version}/agreement`;
  const base = {
    rubric: { id, version },
    judge: { preset: judge.preset, config: judge.config },
    metaEvaluationId: meta.id,
    n: items.length,
    links: { self, metaEvaluation: `/v1/meta-evaluations/${meta.id}` },
  };
  const report = view.report;
  if (!report) return { ...base, status: 'running', pairwise: null, pointwise: null, disagreements: [] };
  const disagreements = view.items.flatMap((outcome) => {
    const it = labelled[Number(outcome.itemId.slice('item-'.length))];
    if (!it || it.human === null) return [];
    const human = it.human;
    const judged = outcome.winner ?? outcome.score;
    const differs =
      typeof human === 'number'
        ? outcome.score === null || Math.abs(outcome.score - human) >= POINTWISE_DISAGREEMENT
        : outcome.winner !== human;
    if (!differs) return [];
    return [
      {
        queueId: it.queueId,
        itemId: it.itemId,
        human,
        judge: judged,
        links: {
          evaluation: `/v1/evaluations/${outcome.evaluationId}`,
          item: `/v1/annotation-queues/${it.queueId}/items/${encodeURIComponent(it.itemId)}`,
        },
      },
    ];
  });
  return {
    ...base,
    status: 'completed',
    nScored: report.nScored,
    pairwise:
      report.kind === 'pairwise'
        ? { kappa: estimate(report.kappa), accuracy: estimate(report.accuracy), confusion: report.confusion }
        : null,
    pointwise:
      report.kind === 'pointwise'
        ? { r: estimate(report.item.pearson), rho: estimate(report.item.spearman), tau: estimate(report.item.kendall) }
        : null,
    disagreements,
  };
}
