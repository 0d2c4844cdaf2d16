/**
 * @module
 * Certified mode on an Evals run (`certify: {agreement, risk}`): each testing criterion that is a Tribunal judge
 * (`tribunal/<preset>`) whose task names a stored pairwise rubric (`"rubric": "rb_…#tag"` in its one user
 * message) is calibrated when the run is created, as an evaluation's judge is (src/certify/, handed in by the
 * composition as a {@link CertifyJudge}: 409 `labels_needed`, 503 `calibration_pending` until its labelled items
 * are judged). The run keeps, per such grader, the rubric version it was calibrated on (`rb_…@n`: a tag moved
 * mid-run changes nothing), the calibrated judge's config its items' evaluations run with, and the guarantee.
 * Deterministic graders (`string_check`, `text_similarity`) are exact and stay as they are; any other model
 * grader under `certify` is a 400 naming `certify`.
 */
import type { Bindings } from '../config/bindings.js';
import type { CertifyJudge } from '../evaluations/certified.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { resolveJudge } from '../methods/resolve-judge.js';
import type { Certify, Guarantee } from '../metrics/certify.js';
import { judgeRequestOf } from '../openai/completion.js';
import { ChatCompletionRequestSchema } from '../openai/schemas.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import type { RunnableGrader } from './grader-schemas.js';
import { isJudgeModel } from './judge-grader.js';
import type { CertifiedGrader, RunCertify } from './run-rows.js';

function refuse(grader: RunnableGrader, i: number, why: string): ApiError {
  return invalidRequest([
    { path: 'certify', message: `grader "${grader.name}" (testing_criteria.${String(i)}) ${why}` },
  ]);
}

const NEEDS =
  'certify calibrates Tribunal judges on the labelled items of a stored pairwise rubric: name one as the model ("tribunal/<preset>") with "rubric": "rb_…#tag" in its task';

/** The task a judge grader's one user message holds, read as its evaluations will read it. */
function judgeTaskOf(grader: Extract<RunnableGrader, { model: string }>, i: number) {
  const [message] = grader.input;
  const content = message?.content;
  if (typeof content !== 'string') throw refuse(grader, i, `has no task text: ${NEEDS}`);
  try {
    return judgeRequestOf(
      ChatCompletionRequestSchema.parse({ model: grader.model, messages: [{ role: 'user', content }] }),
    );
  } catch (e) {
    if (e instanceof ApiError) throw refuse(grader, i, `has a task its judge cannot read (${e.message}): ${NEEDS}`);
    throw e;
  }
}

/**
 * Calibrates each judge grader of `criteria` for `certify` (see the module note).
 * @throws ApiError 400 naming `certify` (a model grader that is no rubric judge, a `multi` over model graders,
 *   no judge grader at all) or what `certifyJudge` throws: 409 `labels_needed`, 503 `calibration_pending`.
 */
export async function certifyRun(
  env: Bindings,
  tenant: string,
  criteria: readonly RunnableGrader[],
  certify: Certify,
  certifyJudge: CertifyJudge,
  creator: { keyId: string | null; limits?: EffectiveLimits | null },
): Promise<RunCertify> {
  const graders: Record<string, CertifiedGrader> = {};
  for (const [i, grader] of criteria.entries()) {
    if (grader.type === 'string_check' || grader.type === 'text_similarity') continue;
    if (grader.type === 'multi') {
      if (Object.values(grader.graders).some((g) => g.type === 'label_model' || g.type === 'score_model'))
        throw refuse(grader, i, `combines model graders: ${NEEDS}, as a testing criterion of its own`);
      continue;
    }
    if (!isJudgeModel(grader.model)) throw refuse(grader, i, `grades with model "${grader.model}": ${NEEDS}`);
    const req = judgeTaskOf(grader, i);
    const ref = req.evaluation.rubric;
    if (typeof ref !== 'string' || ref.includes('{{')) throw refuse(grader, i, `names no stored rubric: ${NEEDS}`);
    const stored = (await resolveRubricRef(env, tenant, ref, 'certify')).stored;
    if (!stored) throw refuse(grader, i, `names no stored rubric: ${NEEDS}`);
    const rubric = `${stored.rubric.id}@${String(stored.version.version)}`;
    const judge = resolveJudge(req.evaluation.preset, req.evaluation.config);
    const calibrated = await certifyJudge(env, tenant, { judge, rubric, certify, creator });
    graders[grader.name] = { rubric, config: calibrated.judge.config, guarantee: calibrated.guarantee };
  }
  if (Object.keys(graders).length === 0)
    throw invalidRequest([{ path: 'certify', message: `no testing criterion of the eval can be certified: ${NEEDS}` }]);
  return { certify, graders };
}

/** The run's `guarantee`: null when not certified, the one judge grader's, or each one's by grader name. */
export function guaranteeView(c: RunCertify | null): Guarantee | Record<string, Guarantee> | null {
  if (c === null) return null;
  const entries = Object.entries(c.graders);
  const [only] = entries;
  if (entries.length === 1 && only) return only[1].guarantee;
  return Object.fromEntries(entries.map(([name, g]) => [name, g.guarantee]));
}
