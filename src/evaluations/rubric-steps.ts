/**
 * @module
 * G-Eval's auto-CoT run by the API: a stored rubric version without evaluation steps (its own, or an aspect's),
 * used by a judge whose templates carry steps (`wantsEvaluationSteps`: the G-Eval forms, DEBATE's P), gets
 * them written once by the `rubric-steps` method and stored with the version; from then on every use of the
 * version by such a judge applies them. Never written twice, never paid twice:
 *
 * 1. the first use claims the version (`claimSteps`: a guarded UPDATE naming the evaluation id it is about to
 *    create) and creates that evaluation, method `rubric-steps`, through the normal pipeline ({@link StartSteps}:
 *    `createEvaluationJob`), so it is stored, billed once to the tenant, retried and reported like any other;
 * 2. every use that finds the steps claimed waits on that evaluation's object (`awaitEnd`), up to
 *    `RUBRIC_STEPS_WAIT_SECONDS` in all;
 * 3. once it succeeded, whoever sees it first stores the steps from its verdict (src/rubrics/steps.ts:
 *    content-addressed, the first writer wins) and judges by the content with the steps, recording its hash;
 * 4. past the wait: 503 `rubric_steps_pending` with `Retry-After` (nothing was created for the request, so a
 *    retry with the same `Idempotency-Key` creates it then); a steps evaluation this request watched fail:
 *    502 `rubric_steps_failed` with its error (every attempt's cause); a use that finds it failed before it
 *    came claims again (`claimSteps`' `previous`).
 *
 * An inline rubric is judged as given: it has no version to keep steps with, so without `evaluationSteps` the
 * templates' generic steps stand (store it as a rubric to have them written). A rubric with `autoSteps: false`
 * keeps the generic steps too. Comparisons resolve rubrics on their own and do not run this.
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { rubricStepsTask } from '../engine/methods/rubric-steps/index.js';
import { wantsEvaluationSteps } from '../engine/protocol.js';
import { ApiError } from '../http/errors.js';
import { log, messageOf } from '../log/log.js';
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import type { ResolvedRubric } from '../rubrics/resolve.js';
import type { VersionRecord } from '../rubrics/rows.js';
import { claimSteps, getVersion, releaseSteps } from '../rubrics/rows.js';
import type { StepsFailure } from '../rubrics/steps.js';
import { missingSteps, stepsStateOf, storeStepsOf, withStoredSteps } from '../rubrics/steps.js';
import type { CreateEvaluationRequest } from './schemas.js';
import { evaluationStub } from './stub.js';
import { tenantDb } from '../config/d1-shards.js';

/**
 * Creates the `rubric-steps` evaluation `id` (the claim names it) and waits up to `waitMs` for its end; the
 * caller binds its tenant and creator (`createEvaluationJob` with that id).
 */
export type StartSteps = (id: string, request: CreateEvaluationRequest, waitMs: number) => Promise<unknown>;

/** Rounds of claim / wait / store one request goes through at most: each waits, or changes the version's state. */
const MAX_ROUNDS = 8;

/** Whether `judge` judging by `rubric` needs auto-CoT steps written first (see the module note). */
export function needsRubricSteps(judge: ResolvedJudge, rubric: ResolvedRubric | null | undefined): boolean {
  return (
    rubric?.stored !== undefined &&
    wantsEvaluationSteps(judge.method, judge.config) &&
    missingSteps(rubric.stored.version.stepsContent ?? rubric.content)
  );
}

/**
 * The rubric `judge` judges by: with its version's auto-CoT steps when the judge wants them (writing them
 * first, once, when none are stored), else as resolved.
 * @param newId a fresh evaluation id (`ev_…`), for a claim.
 * @throws ApiError 503 `rubric_steps_pending` (`Retry-After`), 502 `rubric_steps_failed`.
 */
export async function withRubricSteps(
  env: Bindings,
  tenant: string,
  judge: ResolvedJudge,
  rubric: ResolvedRubric | null,
  start: StartSteps,
  newId: () => string,
): Promise<ResolvedRubric | null> {
  if (!rubric?.stored || !wantsEvaluationSteps(judge.method, judge.config) || !missingSteps(rubric.content))
    return rubric;
  const waitSeconds = configOf(env).RUBRIC_STEPS_WAIT_SECONDS;
  const deadline = Date.now() + waitSeconds * 1000;
  const { rubric: r } = rubric.stored;
  const watched = new Set<string>();
  let v: VersionRecord = rubric.stored.version;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const state = stepsStateOf(v, Date.now());
    if (state === 'written') return withStoredSteps(rubric, v);
    let failure: StepsFailure | null = null;
    if (state === 'ended') {
      const stored = await storeStepsOf(env, tenant, v);
      if ('version' in stored) {
        v = stored.version;
        continue;
      }
      failure = stored.failure;
    } else if (state === 'failed') {
      failure = { evaluationId: v.stepsEvaluationId ?? '', code: 'evaluation_failed', message: '' };
    }
    if (failure && watched.has(failure.evaluationId)) throw await stepsFailed(env, tenant, v, failure);
    const remaining = deadline - Date.now();
    if (state === 'none' || failure) {
      const id = newId();
      if (await claimSteps(tenantDb(env, tenant), r.id, v.version, id, v.stepsEvaluationId, Date.now())) {
        watched.add(id);
        log('info', 'rubric.steps_claimed', { rubricId: r.id, version: v.version, evaluationId: id });
        try {
          await start(id, stepsRequest(judge, r.id, v), Math.max(remaining, 0));
        } catch (err) {
          // Its create refused (a quota, a limit): the error is this request's answer, and the claim goes.
          await releaseSteps(tenantDb(env, tenant), r.id, v.version, id);
          throw err;
        }
      }
    } else if (remaining > 0 && v.stepsEvaluationId !== null) {
      watched.add(v.stepsEvaluationId);
      await awaitSteps(env, v.stepsEvaluationId, remaining);
    } else break;
    v = (await getVersion(tenantDb(env, tenant), tenant, r.id, v.version)) ?? v;
    if (Date.now() >= deadline && stepsStateOf(v, Date.now()) === 'pending') break;
  }
  throw new ApiError(
    503,
    'rubric_steps_pending',
    `rubric: the evaluation steps of ${r.id}@${v.version} are being written (G-Eval's auto-CoT, evaluation ` +
      `${v.stepsEvaluationId ?? '?'}) and were not ready within ${waitSeconds} s: retry after Retry-After ` +
      `(with the same Idempotency-Key), or see GET /v1/rubrics/${r.id}/versions/${v.version}`,
    undefined,
    { headers: { 'Retry-After': String(Math.min(waitSeconds, 10)) } },
  );
}

/** The `rubric-steps` evaluation of version `v`, written by the judge's own model (its `defaults`). */
function stepsRequest(judge: ResolvedJudge, rubricId: string, v: VersionRecord): CreateEvaluationRequest {
  const defaults = (judge.config as { defaults?: { model?: string; provider?: string } }).defaults ?? {};
  const model = {
    ...(defaults.model !== undefined ? { model: defaults.model } : {}),
    ...(defaults.provider !== undefined ? { provider: defaults.provider } : {}),
  };
  return {
    config: { method: 'rubric-steps', defaults: model },
    task: rubricStepsTask(v.content),
    rubric: `${rubricId}@${v.version}`,
  };
}

/** Waits on the steps evaluation's object up to `timeoutMs`; a failure to ask it is logged (D1 decides next). */
async function awaitSteps(env: Bindings, id: string, timeoutMs: number): Promise<void> {
  try {
    await evaluationStub(env, id).awaitEnd(id, timeoutMs);
  } catch (err) {
    log('warn', 'rubric.steps_await_failed', { evaluationId: id, error: messageOf(err) });
  }
}

/** The 502 of a steps evaluation this request watched end without steps, with its error. */
async function stepsFailed(env: Bindings, tenant: string, v: VersionRecord, failure: StepsFailure): Promise<ApiError> {
  let { code, message } = failure;
  if (message === '') {
    const stored = await storeStepsOf(env, tenant, v);
    if ('failure' in stored) ({ code, message } = stored.failure);
  }
  return new ApiError(
    502,
    'rubric_steps_failed',
    `rubric: writing the evaluation steps of ${v.rubricId}@${v.version} (G-Eval's auto-CoT, evaluation ` +
      `${failure.evaluationId}) failed: ${code}: ${message}. The next request claims them again.`,
  );
}
