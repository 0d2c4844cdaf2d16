/**
 * @module
 * Validation of a judge request beyond its JSON schema: the preset and config are resolved by the engine
 * and the task kind checked by `createEvaluation`, before anything is stored, so a job that is accepted
 * can run. Engine errors become 400s with the engine's stable code.
 */
import { createEvaluation, plannedCalls } from '../engine/protocol.js';
import { EngineInputError } from '../engine/errors.js';
import { getMethod, resolveMethodConfig } from '../engine/registry.js';
import type { AnyMethod } from '../engine/method.js';
import type { EngineState } from '../engine/state.js';
import type { Task } from '../engine/task.js';
import type { RubricContent } from '../engine/rubric.js';
import type { LlmEnv } from '../llm/settings.js';
import { settingsFromEnv } from '../llm/settings.js';
import { LlmSettingsError } from '../llm/settings-error.js';
import { ApiError, fromEngineError, invalidRequest } from '../http/errors.js';
import type { BuiltTask } from '../http/errors.js';

/** A resolved judge: the method and its full config (defaults filled). */
export interface ResolvedJudge {
  method: AnyMethod;
  config: EngineState['config'];
}

/**
 * Resolves `{ preset, config }` into a method and full config.
 * @throws ApiError 400 `unknown_preset` | `unknown_method` | `invalid_config`.
 */
export function resolveJudge(
  preset: string | undefined,
  overrides: Record<string, unknown> | undefined,
): ResolvedJudge {
  try {
    const config = resolveMethodConfig(preset, overrides);
    return { method: getMethod(config.method), config };
  } catch (err) {
    if (err instanceof EngineInputError) throw fromEngineError(err);
    throw err;
  }
}

/**
 * The judge run `n` times on each task (a request's `repeat`: method `repeat` around it, runs with ids
 * `r<k>/…`), its budget moved to the whole; the judge itself when `n` is undefined. The verdict cache never
 * answers repeats (their point is asking again): `cache: "use"` or `"refresh"` with `repeat` is refused.
 * @throws ApiError 400 `invalid_request` naming `cache`.
 */
export function repeatJudge(
  judge: ResolvedJudge,
  n: number | undefined,
  cache: string | undefined,
  field = 'repeat',
): ResolvedJudge {
  if (n === undefined) return judge;
  if (cache === 'use' || cache === 'refresh')
    throw invalidRequest([
      { path: 'cache', message: `the verdict cache cannot answer repeats: leave cache unset (or "off") with ${field}` },
    ]);
  const { budget, ...inner } = judge.config;
  return resolveJudge(undefined, { method: 'repeat', n, judge: inner, ...(budget !== undefined ? { budget } : {}) });
}

/**
 * Checks that the judge accepts the task and returns its planned first-attempt calls.
 * @param where prefix for the error message, e.g. `items.3.task` in a meta-evaluation.
 * @param rubric the rubric's content it judges by (src/rubrics resolves the request's `rubric`).
 * @param built for a task the service built: the caller's field a refusal of its kind names (`fromEngineError`).
 * @throws ApiError 400 `task_kind_unsupported` (or another engine code).
 */
export function planTask(
  judge: ResolvedJudge,
  task: Task,
  where?: string,
  rubric?: RubricContent,
  built?: BuiltTask,
): number {
  try {
    return plannedCalls(judge.method, createEvaluation(judge.method, judge.config, task, rubric));
  } catch (err) {
    if (err instanceof EngineInputError) throw fromEngineError(err, where, built);
    throw err;
  }
}

/** Every `provider` field in a resolved config, with its path (agents name providers at many depths). */
function providerFields(value: unknown, path: string[] = []): { path: string; provider: string }[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => providerFields(v, [...path, String(i)]));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === 'provider' && typeof v === 'string'
      ? [{ path: [...path, k].join('.'), provider: v }]
      : providerFields(v, [...path, k]),
  );
}

/**
 * The providers a judge's calls go to: every `provider` its config names, and the one of `defaults` (else the
 * deployment's default provider), which any agent that names none falls back to. Sorted, without repeats.
 */
export function judgeProviders(judge: ResolvedJudge, defaultProvider: string): string[] {
  const defaults = (judge.config as { defaults?: { provider?: string } }).defaults;
  const named = providerFields(judge.config).map((f) => f.provider);
  return [...new Set([...named, defaults?.provider ?? defaultProvider])].sort();
}

/**
 * Checks, before anything is stored, that this deployment can run the judge: its LLM settings are valid
 * and every provider the config names exists. Why here: a job accepted with a typo'd provider would only
 * fail later, as a `failed` evaluation, for what is a user's mistake.
 * @throws ApiError 503 `llm_not_configured` (the operator must fix the deployment) or 400 `invalid_config`.
 */
export function checkLlmConfig(env: LlmEnv, judge: ResolvedJudge): void {
  let providers: string[];
  try {
    providers = Object.keys(settingsFromEnv(env).providers);
  } catch (err) {
    // err.message is caller-safe; the diagnosis went to the operator's logs (llm.settings_invalid).
    if (err instanceof LlmSettingsError) throw new ApiError(503, 'llm_not_configured', err.message);
    throw err;
  }
  for (const f of providerFields(judge.config)) {
    if (!providers.includes(f.provider)) {
      // The deployment's other provider ids are not listed: they are the operator's business.
      throw new ApiError(
        400,
        'invalid_config',
        `config.${f.path}: unknown provider "${f.provider}": this deployment has no provider by that name`,
      );
    }
  }
}
