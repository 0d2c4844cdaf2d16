/**
 * @module
 * `POST /v1/fine_tuning/alpha/graders/run` and `/validate`: one grader on one sample (and item), answered in
 * OpenAI's `GraderRunResponse` shape (the reward, the sub-rewards of a `multi`, tokens per model, and which
 * kind of error happened, if any).
 */
import type { Bindings } from '../config/bindings.js';
import { checkGrader } from './grader-check.js';
import type { Grader, RunnableGrader } from './grader-schemas.js';
import type { GradeResult, ModelUsage } from './graders.js';
import { grade } from './graders.js';
import { graderDeps } from './llm.js';
import { claimGraderRunKey, releaseGraderRun, storeGraderRun } from './grader-run-keys.js';
import { tenantDb } from '../config/d1-shards.js';
import type { JudgeContext } from './judge-grader.js';
import { withJudges } from './judge-grader.js';
import type { GraderRunResponse } from './schemas.js';

/** Tokens per model, summed (`model_grader_token_usage_per_model`, a run's `per_model_usage`). */
export function usageByModel(usage: readonly ModelUsage[]): Map<string, ModelUsage> {
  const by = new Map<string, ModelUsage>();
  for (const u of usage) {
    const had = by.get(u.model);
    by.set(
      u.model,
      had
        ? {
            model: u.model,
            invocation_count: had.invocation_count + u.invocation_count,
            prompt_tokens: had.prompt_tokens + u.prompt_tokens,
            completion_tokens: had.completion_tokens + u.completion_tokens,
            total_tokens: had.total_tokens + u.total_tokens,
            cached_tokens: had.cached_tokens + u.cached_tokens,
          }
        : { ...u },
    );
  }
  return by;
}

function responseOf(grader: RunnableGrader, r: GradeResult, seconds: number): GraderRunResponse {
  const kind = r.error?.kind;
  const tokens = r.usage.reduce((n, u) => n + u.total_tokens, 0);
  const perModel = Object.fromEntries([...usageByModel(r.usage)].map(([model, { model: _m, ...u }]) => [model, u]));
  return {
    reward: r.score,
    sub_rewards: r.sub_rewards ?? {},
    model_grader_token_usage_per_model: perModel,
    metadata: {
      name: grader.name,
      type: grader.type,
      execution_time: seconds,
      sampled_model_name: null,
      scores: r.sub_rewards ?? { [grader.name]: r.score },
      token_usage: r.usage.length > 0 ? tokens : null,
      errors: {
        formula_parse_error: kind === 'formula_parse_error',
        invalid_variable_error: kind === 'invalid_variable_error',
        model_grader_parse_error: kind === 'model_grader_parse_error',
        model_grader_refusal_error: false,
        model_grader_server_error: kind === 'model_grader_server_error',
        model_grader_server_error_details: kind === 'model_grader_server_error' ? (r.error?.message ?? null) : null,
        other_error: kind === 'other_error',
        python_grader_runtime_error: false,
        python_grader_runtime_error_details: null,
        python_grader_server_error: false,
        python_grader_server_error_type: null,
        sample_parse_error: false,
        truncated_observation_error: false,
        unresponsive_reward_error: false,
      },
    },
  };
}

/**
 * Runs `grader` on `model_sample` and `item`; a Tribunal judge as its model runs as a new evaluation of
 * `by`'s tenant (./judge-grader.ts). With an `Idempotency-Key` (`idempotencyKey`), a retry with the same key
 * and body answers the first run's response (`replayed`) and grades nothing (./grader-run-keys.ts).
 * @throws ApiError 400 as `/validate`; 503 `llm_not_configured` for a model grader without LLM settings; 409
 *   `idempotency_conflict` (the key with another body, or its first request still running).
 */
export async function runGrader(
  env: Bindings,
  request: { grader: Grader; model_sample: string; item?: Record<string, unknown> | undefined },
  by: Omit<JudgeContext, 'keyOf'>,
  idempotencyKey?: string,
): Promise<{ response: GraderRunResponse; replayed: boolean }> {
  const grader = checkGrader(request.grader, 'grader', { itemSchema: null, sample: true, requireThreshold: false });
  if (idempotencyKey === undefined) return { response: await gradeOnce(env, grader, request, by), replayed: false };
  const db = tenantDb(env, by.tenant);
  const found = await claimGraderRunKey<GraderRunResponse>(db, by.tenant, idempotencyKey, request);
  if ('replay' in found) return { response: found.replay, replayed: true };
  let response: GraderRunResponse;
  try {
    response = await gradeOnce(env, grader, request, by);
  } catch (err) {
    await releaseGraderRun(db, by.tenant, found.claim);
    throw err;
  }
  await storeGraderRun(db, by.tenant, found.claim, response);
  return { response, replayed: false };
}

async function gradeOnce(
  env: Bindings,
  grader: RunnableGrader,
  request: { model_sample: string; item?: Record<string, unknown> | undefined },
  by: Omit<JudgeContext, 'keyOf'>,
): Promise<GraderRunResponse> {
  const started = Date.now();
  const deps = graderDeps(env);
  const r = await grade(
    grader,
    { item: request.item ?? {}, sample: { output_text: request.model_sample } },
    { ...deps, llm: withJudges(env, { ...by, keyOf: () => null }, deps.llm) },
  );
  return responseOf(grader, r, (Date.now() - started) / 1000);
}

/** Checks `grader` as `/run` would. @throws ApiError 400 naming the field (`unsupported_grader` for python). */
export function validateGrader(grader: Grader): { grader: Grader } {
  checkGrader(grader, 'grader', { itemSchema: null, sample: true, requireThreshold: false });
  return { grader };
}
