/**
 * @module
 * The verdict cache for a run's model graders (`cache` at create; src/verdict-cache/plan.ts decides the mode):
 * a grader call's answer is kept per tenant under a key over everything that decides it, and a later call
 * with the same key (another item, another run, another eval) is answered from it: no LLM call, $0, its
 * first cost counted as saved in the run's `cache`. The sampler's calls are never cached (a run samples to
 * see what the model says now). A Tribunal judge as the grader's model uses the evaluations' own verdict
 * cache under the run's mode (./judge-grader.ts); its hits count here too.
 *
 * ```
 * key = sha256(canonicalJson({ v: 1, model, provider: <the default provider's base URL>, messages,
 *                              temperature, maxTokens, parser }))
 * ```
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../engine/call.js';
import { ZERO_USAGE } from '../engine/call.js';
import { canonicalJson, sha256Hex } from '../http/request-hash.js';
import { llmEnvOf, settingsFromEnv } from '../llm/settings.js';
import { servesSince } from '../verdict-cache/rows.js';
import type { CacheDecision } from '../verdict-cache/plan.js';
import { isJudgeModel } from './judge-grader.js';

/** Bump when the key's parts change: every older entry then misses. */
const KEY_FORMAT = 1;

/** A call's result, marked when the verdict cache answered it (what the answer had cost, USD). */
export type CachedResult = LlmCallResult & { verdictCacheSavedUsd?: number };

/** The key of a grader call (see the module note). */
async function keyOf(env: Bindings, request: LlmCallRequest): Promise<string> {
  const settings = settingsFromEnv(llmEnvOf(env));
  const provider = settings.providers[request.provider ?? settings.defaultProvider]?.baseUrl ?? null;
  return sha256Hex(
    canonicalJson({
      v: KEY_FORMAT,
      model: request.model ?? settings.defaultModel,
      provider,
      messages: request.messages,
      temperature: request.temperature,
      maxTokens: request.maxTokens,
      parser: request.parser,
    }),
  );
}

/**
 * `llm` with the verdict cache of `tenant` under `mode` for model graders' calls (`agent: 'grader'`, not a
 * Tribunal judge): `use` answers a live entry (marked {@link CachedResult}, zero usage, 0 attempts) and
 * caches a miss's answer; `refresh` calls anew and replaces the entry; `off` and `bypass` pass every call on.
 */
export function withVerdictCache(
  env: Bindings,
  db: D1Database,
  tenant: string,
  mode: CacheDecision,
  llm: LlmFunction,
): LlmFunction {
  if (mode !== 'use' && mode !== 'refresh') return llm;
  return async (request): Promise<CachedResult> => {
    if (request.agent !== 'grader' || isJudgeModel(request.model)) return llm(request);
    const key = await keyOf(env, request);
    if (mode === 'use') {
      const since = servesSince(Date.now(), configOf(env).VERDICT_CACHE_TTL_DAYS);
      const hit = await db
        .prepare(`SELECT result, cost_usd FROM eval_verdict_cache WHERE tenant = ? AND key = ? AND created_at >= ?`)
        .bind(tenant, key, since)
        .first<{ result: string; cost_usd: number }>();
      if (hit) {
        const cached = JSON.parse(hit.result) as Extract<LlmCallResult, { ok: true }>;
        return { ...cached, id: request.id, usage: ZERO_USAGE, attempts: 0, verdictCacheSavedUsd: hit.cost_usd };
      }
    }
    const result = await llm(request);
    if (result.ok) {
      await db
        .prepare(
          `INSERT INTO eval_verdict_cache (tenant, key, result, cost_usd, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (tenant, key) DO UPDATE SET result = excluded.result, cost_usd = excluded.cost_usd, created_at = excluded.created_at`,
        )
        .bind(tenant, key, JSON.stringify(result), result.usage.costUsd, Date.now())
        .run();
    }
    return result;
  };
}
