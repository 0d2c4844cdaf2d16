/**
 * @module
 * Booking an evaluation's usage (migrations/0019_usage_rollup.sql): its calls added to one `usage_rollup` row
 * per (tenant, UTC hour, model, tier, preset, key), and its own sums on its `evaluations` row, once. The
 * per-call detail stays in the evaluation's object (its transcript). `billed_calls` is NULL until booked,
 * so a repeated final write adds nothing. Also the SQL of an evaluation's booked sums, for every reader.
 */
import type { Usage } from '../engine/call.js';

/** What booking needs of a stored call (src/evaluations/ending.ts `StoredCall`): its model, usage and time (epoch ms). */
export interface BilledCall {
  model: string;
  usage: Usage;
  at: number;
}

/** One hour in ms: the roll-up's time grain. */
export const USAGE_HOUR_MS = 3_600_000;

/** The start of the UTC hour holding `at` (epoch ms). */
export function hourOf(at: number): number {
  return Math.floor(at / USAGE_HOUR_MS) * USAGE_HOUR_MS;
}

interface Sums {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  estimated: boolean;
  costUsd: number;
  cacheSavedUsd: number;
}

const zero = (): Sums => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd: 0,
  cacheSavedUsd: 0,
});

function add(s: Sums, c: BilledCall): void {
  s.calls += 1;
  s.promptTokens += c.usage.promptTokens;
  s.completionTokens += c.usage.completionTokens;
  s.cachedPromptTokens += c.usage.cachedPromptTokens;
  s.estimated ||= c.usage.estimated;
  s.costUsd += c.usage.costUsd;
  s.cacheSavedUsd += c.usage.cacheSavedUsd ?? 0;
}

/** The calls' sums per roll-up group (hour, model, tier), in first-seen order. */
export function rollupGroups(
  calls: readonly BilledCall[],
): { hour: number; model: string; tier: string; sums: Sums }[] {
  const groups = new Map<string, { hour: number; model: string; tier: string; sums: Sums }>();
  for (const c of calls) {
    const hour = hourOf(c.at);
    const tier = c.usage.tier ?? 'standard';
    const key = JSON.stringify([hour, c.model, tier]);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { hour, model: c.model, tier, sums: zero() }));
    add(g.sums, c);
  }
  return [...groups.values()];
}

/**
 * The statements booking evaluation `id`'s calls, for the final write's transaction: one roll-up upsert per
 * group, then the evaluation's sums; all of them only while `billed_calls` is NULL (the last one sets it).
 * Written whatever the status (every call was made and billed) and after a deletion too.
 */
export function bookUsageStatements(db: D1Database, id: string, calls: readonly BilledCall[]): D1PreparedStatement[] {
  const total = zero();
  for (const c of calls) add(total, c);
  const upserts = rollupGroups(calls).map(({ hour, model, tier, sums: s }) =>
    db
      .prepare(
        `INSERT INTO usage_rollup (tenant, hour, model, tier, preset, key_id, calls, prompt_tokens, completion_tokens,
           cached_prompt_tokens, estimated, cost_usd, cache_saved_usd)
         SELECT e.tenant, ?, ?, ?, COALESCE(e.preset, ''), COALESCE(e.key_id, ''), ?, ?, ?, ?, ?, ?, ?
         FROM evaluations e WHERE e.id = ? AND e.billed_calls IS NULL
         ON CONFLICT DO UPDATE SET calls = calls + excluded.calls, prompt_tokens = prompt_tokens + excluded.prompt_tokens,
           completion_tokens = completion_tokens + excluded.completion_tokens,
           cached_prompt_tokens = cached_prompt_tokens + excluded.cached_prompt_tokens,
           estimated = MAX(estimated, excluded.estimated), cost_usd = cost_usd + excluded.cost_usd,
           cache_saved_usd = cache_saved_usd + excluded.cache_saved_usd`,
      )
      .bind(
        hour,
        model,
        tier,
        s.calls,
        s.promptTokens,
        s.completionTokens,
        s.cachedPromptTokens,
        s.estimated ? 1 : 0,
        s.costUsd,
        s.cacheSavedUsd,
        id,
      ),
  );
  const book = db
    .prepare(
      `UPDATE evaluations SET billed_calls = ?, prompt_tokens = ?, completion_tokens = ?, cached_prompt_tokens = ?,
         usage_estimated = ?, cost_usd = ?, prompt_cache_saved_usd = ?
       WHERE id = ? AND billed_calls IS NULL`,
    )
    .bind(
      total.calls,
      total.promptTokens,
      total.completionTokens,
      total.cachedPromptTokens,
      total.estimated ? 1 : 0,
      total.costUsd,
      total.cacheSavedUsd,
      id,
    );
  return [...upserts, book];
}

/**
 * SQL columns of the booked sums of the evaluations `alias` stands for, aggregated (`SUM`/`MAX`), named
 * `calls, p, c, k, e, cost, saved`: for one evaluation or a batch's.
 */
export function bookedSumsSql(alias: string): string {
  return `COALESCE(SUM(${alias}.billed_calls), 0) AS calls, COALESCE(SUM(${alias}.prompt_tokens), 0) AS p,
    COALESCE(SUM(${alias}.completion_tokens), 0) AS c, COALESCE(SUM(${alias}.cached_prompt_tokens), 0) AS k,
    COALESCE(MAX(${alias}.usage_estimated), 0) AS e, COALESCE(SUM(${alias}.cost_usd), 0) AS cost,
    COALESCE(SUM(${alias}.prompt_cache_saved_usd), 0) AS saved`;
}
