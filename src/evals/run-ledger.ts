/**
 * @module
 * What makes a run's LLM calls idempotent and billed as Tribunal's evaluations are: each call an item makes
 * (the sampler's, each model grader's) is stored under its stable id before the item goes on, with its
 * `usage` row, in one D1 batch; a repeat of the item (a redelivered queue message, a run resumed after its
 * worker died) reads the stored result back and calls nothing. The usage rows belong to the item's own
 * `evaluations` row (the ledger row: ended, hidden by `deleted_at`, method {@link EVAL_ITEM_METHOD}), so the
 * monthly evaluation cap counts a run's items, and the spend cap and `GET /v1/usage` count its calls.
 */
import type { BilledCall } from '../tenants/usage-rollup.js';
import { bookUsageStatements } from '../tenants/usage-rollup.js';
import type { LlmCallResult, LlmFunction } from '../engine/call.js';
import { isJudgeModel } from './judge-grader.js';
import type { RunRecord } from './run-rows.js';
import type { CachedResult } from './run-cache.js';

/** The `method` of an eval run item's ledger row. */
export const EVAL_ITEM_METHOD = 'openai-eval-item';

/** The ledger evaluation id of item `idx` of run `runId`. */
export function ledgerId(runId: string, idx: number): string {
  return `ev_${runId.slice('evalrun_'.length)}_${String(idx)}`;
}

/** Inserts item `idx`'s ledger row once (a repeat changes nothing). */
export function ledgerStatement(db: D1Database, run: RunRecord, idx: number, now: number): D1PreparedStatement {
  const metadata = JSON.stringify({ eval_id: run.evalId, run_id: run.id, datasource_item_id: idx });
  return db
    .prepare(
      `INSERT INTO evaluations (id, tenant, status, method, preset, config, task, metadata, calls_done, calls_planned,
         created_at, updated_at, started_at, finished_at, deleted_at, key_id)
       VALUES (?1, ?2, 'succeeded', ?3, NULL, '{}', '{}', ?4, 0, 0, ?5, ?5, ?5, ?5, ?5, ?6) ON CONFLICT DO NOTHING`,
    )
    .bind(ledgerId(run.id, idx), run.tenant, EVAL_ITEM_METHOD, metadata, now, run.keyId);
}

/**
 * The statements booking item `idx`'s billed calls (those with a usage row: a Tribunal judge's evaluation
 * books its own, a verdict cache hit made none) into the tenant's usage roll-up, once: its ledger row's
 * `billed_calls` is set by the first. `calls` are those {@link storedLlm} answered for the item, made now or
 * replayed, so booking reads nothing again.
 */
export function bookItemStatements(
  db: D1Database,
  run: RunRecord,
  idx: number,
  calls: readonly BilledCall[],
): D1PreparedStatement[] {
  return bookUsageStatements(db, ledgerId(run.id, idx), calls);
}

/** A stored call's result, or null. */
async function storedCall(
  db: D1Database,
  runId: string,
  idx: number,
  callId: string,
): Promise<{ result: LlmCallResult; billed: BilledCall | null } | null> {
  const row = await db
    .prepare(
      `SELECT result, created_at, cache_saved_usd FROM eval_run_calls WHERE run_id = ? AND idx = ? AND call_id = ?`,
    )
    .bind(runId, idx, callId)
    .first<{ result: string; created_at: number; cache_saved_usd: number | null }>();
  if (!row) return null;
  const result = JSON.parse(row.result) as LlmCallResult;
  const billable = result.ok && !isJudgeModel(result.model) && row.cache_saved_usd === null;
  return { result, billed: billable ? { model: result.model, usage: result.usage, at: row.created_at } : null };
}

/**
 * `llm` for item `idx` of `run`: a call whose result is stored answers it again; any other is made, and an
 * answered one stored once with its usage row (the first stored wins when two workers raced, and both go on
 * with it). A failed call is not stored (nothing was billed): a repeat tries it again. Each answered call with
 * a usage row, made or replayed, is added to `billed` for {@link bookItemStatements}.
 */
export function storedLlm(
  db: D1Database,
  run: RunRecord,
  idx: number,
  llm: LlmFunction,
  billed: BilledCall[],
): LlmFunction {
  const answer = (stored: NonNullable<Awaited<ReturnType<typeof storedCall>>>) => {
    if (stored.billed) billed.push(stored.billed);
    return stored.result;
  };
  return async (request) => {
    const earlier = await storedCall(db, run.id, idx, request.id);
    if (earlier) return answer(earlier);
    const result: CachedResult = await llm(request);
    if (!result.ok) return result;
    const now = Date.now();
    const saved = result.verdictCacheSavedUsd ?? null;
    const stored = [
      ledgerStatement(db, run, idx, now),
      db
        .prepare(
          // Not for a deleted run (its delete erased its calls); the call's usage is billed all the same.
          `INSERT INTO eval_run_calls (run_id, idx, call_id, result, created_at, cache_saved_usd)
           SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM eval_runs WHERE id = ?1 AND deleted_at IS NULL)
           ON CONFLICT DO NOTHING`,
        )
        .bind(run.id, idx, request.id, JSON.stringify(result), now, saved),
    ];
    // A Tribunal judge's evaluation has billed its own calls (its usage rows); a cache hit made none.
    const billed = isJudgeModel(request.model) || saved !== null;
    await db.batch([...stored, ...(billed ? [] : [usageStatement(db, run, idx, request.id, result, now)])]);
    const kept = await storedCall(db, run.id, idx, request.id);
    return kept ? answer(kept) : result;
  };
}

/** The usage row of an answered call, once. */
function usageStatement(
  db: D1Database,
  run: RunRecord,
  idx: number,
  callId: string,
  result: Extract<LlmCallResult, { ok: true }>,
  now: number,
): D1PreparedStatement {
  const u = result.usage;
  return db
    .prepare(
      `INSERT INTO usage (evaluation_id, call_id, tenant, model, prompt_tokens, completion_tokens, cached_prompt_tokens,
             estimated, cost_usd, cache_saved_usd, attempts, latency_ms, created_at, tier)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    )
    .bind(
      ledgerId(run.id, idx),
      callId,
      run.tenant,
      result.model,
      u.promptTokens,
      u.completionTokens,
      u.cachedPromptTokens,
      u.estimated ? 1 : 0,
      u.costUsd,
      u.cacheSavedUsd ?? 0,
      result.attempts ?? 1,
      result.latencyMs ?? null,
      now,
      u.tier ?? 'standard',
    );
}
