/**
 * @module
 * What the verdict cache does for a request: the mode each of its evaluations runs under and the key it is
 * cached under.
 *
 * - `cache: "use"` (the default): look the key up when the evaluation is created (a hit takes the cached
 *   verdict, no LLM call); on a miss, a succeeded verdict is written under the key.
 * - `"refresh"`: never served from the cache, but the new verdict replaces the entry.
 * - `"off"`: neither read nor written.
 * - `bypass`, chosen for a request that did not set `cache`: a judge that samples (any temperature above 0)
 *   without a `seed`, and each repeat of a reliability run, since their point is a fresh sample each time.
 *   Setting `cache` explicitly (or giving a `seed`) asks for the cache anyway.
 */
import type { AnyMethod } from '../engine/method.js';
import { engineVersionOf } from '../engine/version.js';
import type { LlmSettings } from '../llm/settings.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import type { DeploymentDefaults } from './key.js';
import { judgeHash, keyOf, NO_RUBRIC } from './key.js';
import type { CacheMode } from './schemas.js';

/** What the cache does for one evaluation: a request's mode, or `bypass` (see the module note). */
export type CacheDecision = CacheMode | 'bypass';

/** The cache's part of an evaluation row: its decision, and its key when the decision reads or writes. */
export interface CachePlan {
  mode: CacheDecision;
  /** The key (lower-case hex); null for `off` and `bypass`. */
  key: string | null;
}

/** The cache fields of a request, and what kind of run it is. */
export interface CacheRequest {
  /** `cache` as the caller sent it; undefined: not set (default `use`, with the bypasses). */
  mode?: CacheMode | undefined;
  /** `seed`: the sample or seed index; undefined: none. */
  seed?: number | undefined;
  /** True for a repeat of a reliability run (several verdicts of the same item on purpose). */
  repeat?: boolean;
}

/** The highest `temperature` anywhere in a resolved config (agents set theirs at many depths); 0 without one. */
export function maxTemperature(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((m: number, v) => Math.max(m, maxTemperature(v)), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let max = 0;
  for (const [k, v] of Object.entries(value))
    max = Math.max(max, k === 'temperature' && typeof v === 'number' ? v : maxTemperature(v));
  return max;
}

/**
 * The decision for a request (see the module note). Every method samples at temperature 0 unless its config
 * says otherwise (the engine's fallback), so the config's temperatures are the judge's.
 */
export function cacheDecision(request: CacheRequest, config: unknown): CacheDecision {
  if (request.mode !== undefined) return request.mode;
  if (request.repeat === true) return 'bypass';
  if (request.seed === undefined && maxTemperature(config) > 0) return 'bypass';
  return 'use';
}

/** The deployment's defaults a key depends on, from its LLM settings (never a key or a header). */
export function deploymentOf(
  settings: Pick<LlmSettings, 'defaultModel' | 'defaultProvider' | 'providers'>,
): DeploymentDefaults {
  return {
    model: settings.defaultModel,
    provider: settings.defaultProvider,
    endpoints: Object.fromEntries(Object.entries(settings.providers).map(([id, p]) => [id, p.baseUrl])),
  };
}

/** A request's judge as the cache keys it. */
export interface CacheJudge {
  /** `engineVersionOf(method)` (src/engine/version.ts). */
  engineVersion: string;
  /** The fully resolved config. */
  config: Readonly<Record<string, unknown>>;
  deployment: DeploymentDefaults;
  /** The rubric version's content hash; `NO_RUBRIC` (./key.ts) without one. */
  rubricHash: string | null;
}

/**
 * The plan of each of a request's tasks, in order: one decision for the request, and a key per task where
 * the decision reads or writes the cache (the judge hashed once).
 */
export async function planCache(
  request: CacheRequest,
  judge: CacheJudge,
  tasks: readonly unknown[],
): Promise<CachePlan[]> {
  const mode = cacheDecision(request, judge.config);
  if (mode === 'off' || mode === 'bypass') return tasks.map(() => ({ mode, key: null }));
  const hash = await judgeHash(judge);
  const seed = request.seed ?? null;
  return Promise.all(
    tasks.map(async (task) => ({
      mode,
      key: await keyOf(judge.engineVersion, hash, { rubricHash: judge.rubricHash, task, seed }),
    })),
  );
}

/**
 * The plan of each task of a request to a deployment (its LLM settings give the defaults a key depends on):
 * the one place the creating endpoints (evaluations, batches, meta-evaluations, triggers, chat completions)
 * get their plans from.
 * @param judge the method, its resolved config, and the content hash of the rubric version it judges by
 *   (`record.hash` of a resolved rubric, src/rubrics; `rubricHash`, src/engine/rubric.ts); null or absent
 *   for none ({@link NO_RUBRIC}).
 */
export async function requestCachePlans(
  env: object,
  judge: { method: Pick<AnyMethod, 'method' | 'version'>; config: object; rubricHash?: string | null },
  request: CacheRequest,
  tasks: readonly unknown[],
): Promise<CachePlan[]> {
  return planCache(
    request,
    {
      engineVersion: engineVersionOf(judge.method),
      config: judge.config as Readonly<Record<string, unknown>>,
      deployment: deploymentOf(settingsFromEnv(llmEnvOf(env))),
      rubricHash: judge.rubricHash ?? NO_RUBRIC,
    },
    tasks,
  );
}
