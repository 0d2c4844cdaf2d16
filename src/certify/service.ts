/**
 * @module
 * Certified mode's calibration (`certify: {agreement, risk}`; Trust or Escalate, src/metrics/certify.ts): the
 * labelled items of the request's stored rubric version (its annotation queues' labels, src/annotation-queues/)
 * are judged once by the request's own judge as a meta-evaluation (a cascade with every stage on every item),
 * the fixed-sequence test picks each stage's confidence threshold on them, and the judge runs as a calibrated
 * cascade: a stage's verdict at or above its threshold is answered, below it the next stage judges, and after
 * the last stage the item abstains (a plain judge is a cascade of one stage: answer or abstain).
 *
 * Idempotent: the calibration run's `Idempotency-Key` is the hash of the judge, the version and its labelled
 * items, so every request with the same judge and labels finds the same run (503 `calibration_pending` until it
 * ended); new labels start a new run whose items judged before come from the verdict cache (no new LLM call).
 */
import type { Bindings } from '../config/bindings.js';
import type { CertifiedJudge, CertifyAsked } from '../evaluations/certified.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { canonicalJson, sha256Hex } from '../http/request-hash.js';
import { createMetaEvaluation, judgedCalibration } from '../meta-evaluations/service.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { resolveJudge } from '../methods/resolve-judge.js';
import type { Certify } from '../metrics/certify.js';
import { certify as calibrate, minCalibrationSize } from '../metrics/certify.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import { labelledItems } from '../annotation-queues/labelled.js';
import type { LabelledQueueItem } from '../annotation-queues/schemas.js';
import { findBatchByKey } from '../batches/rows.js';
import { tenantDb } from '../config/d1-shards.js';

/** Most labelled items a calibration judges: 500, a meta-evaluation's limit (the first ones, oldest queue first). */
export const MAX_CALIBRATION_ITEMS = 500;

/** Seconds a client waits before asking again while the calibration run judges: 5. */
export const CALIBRATION_RETRY_SECONDS = 5;

type Config = ResolvedJudge['config'];

/** The judge's config as its calibration run judges: without its budget (the request's), a cascade with every stage. */
function calibrationConfig(config: Config): Record<string, unknown> {
  const { budget: _budget, calibrated: _calibrated, ...rest } = config;
  return rest.method === 'cascade' ? { ...rest, runAllStages: true } : rest;
}

/** Number of stages of a judge: a cascade's, else 1. */
function stagesOf(config: Config): number {
  return config.method === 'cascade' && Array.isArray(config.stages) ? config.stages.length : 1;
}

/** The judge as a calibrated cascade: a cascade with its thresholds, a plain judge as a cascade of one stage. */
function certifiedConfig(config: Config, thresholds: (number | null)[], c: Certify): Record<string, unknown> {
  const { budget, ...rest } = config;
  const calibrated = { thresholds, alpha: 1 - c.agreement, delta: c.risk };
  const own = budget !== undefined ? { budget } : {};
  if (rest.method === 'cascade') return { ...rest, runAllStages: false, calibrated, ...own };
  return { method: 'cascade', stages: [{ label: rest.method, config: rest }], calibrated, ...own };
}

/** The calibration run of `judge` on a version's labelled items: its config, items and `Idempotency-Key`. */
async function calibrationPlan(
  judge: ResolvedJudge,
  id: string,
  version: number,
  labelled: readonly LabelledQueueItem[],
) {
  const config = calibrationConfig(judge.config);
  const items = labelled.slice(0, MAX_CALIBRATION_ITEMS).map((it, k) => ({
    id: `item-${k}`,
    task: it.task,
    human: it.human ?? 'tie',
  }));
  const key = `certify:${await sha256Hex(canonicalJson({ id, version, config, items }))}`;
  return { config, items, key };
}

/**
 * Whether the calibration run of `judge` on the version's current labels is stored (started or ended): a
 * certified request then reuses it and pays none of its calls (`POST /v1/estimates` counts it only when not).
 */
export async function calibrationStored(
  env: Bindings,
  tenant: string,
  judge: ResolvedJudge,
  v: { rubricId: string; version: number },
): Promise<boolean> {
  const labelled = (await labelledItems(env, tenant, v)).filter((i) => typeof i.human === 'string');
  const { key } = await calibrationPlan(judge, v.rubricId, v.version, labelled);
  return (await findBatchByKey(tenantDb(env, tenant), tenant, 'meta_evaluation', key)) !== null;
}

/**
 * Calibrates `asked.judge` on the labelled items of the stored rubric version `asked.rubric` names.
 * @throws ApiError 400 naming `rubric` (absent or inline) or `certify` (a pointwise rubric); 404 for an unknown
 *   rubric; 409 `labels_needed` with `labelsNeeded`; 503 `calibration_pending` with `Retry-After`; what
 *   `POST /v1/meta-evaluations` throws (429).
 */
export async function certifyJudge(env: Bindings, tenant: string, asked: CertifyAsked): Promise<CertifiedJudge> {
  const { judge, rubric, certify, creator } = asked;
  if (typeof rubric !== 'string')
    throw invalidRequest([
      {
        path: 'rubric',
        message:
          'certify needs a stored rubric (rb_…, rb_…@n or rb_…#tag): the labelled items of its version are the calibration set',
      },
    ]);
  const resolved = await resolveRubricRef(env, tenant, rubric);
  const stored = resolved.stored;
  if (!stored) throw new Error('a rubric reference resolved to no stored version');
  const { id } = stored.rubric;
  const { version } = stored.version;
  if (resolved.content.kind !== 'pairwise')
    throw invalidRequest([
      {
        path: 'certify',
        message: `certified mode is pairwise (agreement with a human preference); rubric "${id}" is pointwise`,
      },
    ]);
  const labelled = (await labelledItems(env, tenant, { rubricId: id, version })).filter(
    (i) => typeof i.human === 'string',
  );
  const needed = minCalibrationSize(certify);
  if (labelled.length < needed) {
    const more = needed - labelled.length;
    throw new ApiError(
      409,
      'labels_needed',
      `certify at agreement ${certify.agreement} and risk ${certify.risk} calibrates on at least ${needed} labelled pairwise items of ${id}@${version}; ` +
        `it has ${labelled.length}: label ${more} more in an annotation queue over ${id}@${version}`,
      undefined,
      { labelsNeeded: more },
    );
  }
  const { config, items, key } = await calibrationPlan(judge, id, version, labelled);
  const meta = await createMetaEvaluation(
    env,
    tenant,
    { config, rubric: `${id}@${version}`, repeats: 1, items },
    key,
    creator,
  );
  const judged = await judgedCalibration(env, tenant, meta.id, stagesOf(judge.config));
  if (!judged.ended)
    throw new ApiError(
      503,
      'calibration_pending',
      `certify: the judge is judging the ${items.length} labelled items of ${id}@${version} to calibrate on ` +
        `(meta-evaluation ${meta.id}, GET /v1/meta-evaluations/${meta.id}); nothing was created: send the request again once it completed`,
      undefined,
      { headers: { 'Retry-After': String(CALIBRATION_RETRY_SECONDS) } },
    );
  const { thresholds, guarantee } = calibrate(judged.items, certify);
  return { judge: resolveJudge(undefined, certifiedConfig(judge.config, thresholds, certify)), guarantee };
}
