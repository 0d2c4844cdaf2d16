/**
 * @module
 * Booking an evaluation's usage (migrations/0019_usage_rollup.sql): its calls added to one `usage_rollup` row
 * per (tenant, UTC hour, model, tier, preset, key), and its own sums on its `evaluations` row, once. The
 * per-call detail stays in the evaluation's object (its transcript). `billed_calls` is NULL until booked,
 * so a repeated final write adds nothing. Also the SQL of an evaluation's booked sums, for every reader.
 */
import type { Usage } from '../engine/call.js';

/** What booking needs of a stored call (src/evaluations/final-write.ts `StoredCall`): its model, usage and time (epoch ms). */
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

/** An evaluation's usage sums as booked on its row (`billed_calls`, …): calls, tokens, USD. */
export interface UsageTotals {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  estimated: boolean;
  costUsd: number;
  cacheSavedUsd: number;
}

const zero = (): UsageTotals => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd: 0,
  cacheSavedUsd: 0,
});

function add(s: UsageTotals, c: BilledCall): void {
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
): { hour: number; model: string; tier: string; sums: UsageTotals }[] {
  const groups = new Map<string, { hour: number; model: string; tier: string; sums: UsageTotals }>();
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

/** The sums of `calls`: what booking them sets on their evaluation's row. */
export function usageTotals(calls: readonly BilledCall[]): UsageTotals {
  const total = zero();
  for (const c of calls) add(total, c);
  return total;
}

/** The upsert's tail: a group's sums added to its roll-up row. */
const ADD_TO_ROLLUP = `ON CONFLICT DO UPDATE SET calls = calls + excluded.calls,
  prompt_tokens = prompt_tokens + excluded.prompt_tokens, completion_tokens = completion_tokens + excluded.completion_tokens,
  cached_prompt_tokens = cached_prompt_tokens + excluded.cached_prompt_tokens,
  estimated = MAX(estimated, excluded.estimated), cost_usd = cost_usd + excluded.cost_usd,
  cache_saved_usd = cache_saved_usd + excluded.cache_saved_usd`;

/**
 * The roll-up upserts of evaluation `id`'s calls, one per group, each only while its `billed_calls` is NULL:
 * they must run before whatever books the row's sums ({@link BOOK_SET_SQL} or {@link bookStatement}).
 * @param unless SQL condition on the evaluation `e` under which another statement of the same transaction takes
 *   the calls instead (a batch item's ending appends them to its batch's pending list: {@link pendingAppendSql});
 *   default none.
 */
export function rollupStatements(
  db: D1Database,
  id: string,
  calls: readonly BilledCall[],
  unless?: string,
): D1PreparedStatement[] {
  return rollupGroups(calls).map((g) =>
    db
      .prepare(
        `INSERT INTO usage_rollup (tenant, hour, model, tier, preset, key_id, calls, prompt_tokens, completion_tokens,
           cached_prompt_tokens, estimated, cost_usd, cache_saved_usd)
         SELECT e.tenant, ?, ?, ?, COALESCE(e.preset, ''), COALESCE(e.key_id, ''), ?, ?, ?, ?, ?, ?, ?
         FROM evaluations e WHERE e.id = ? AND e.billed_calls IS NULL${unless === undefined ? '' : ` AND NOT (${unless})`}
         ${ADD_TO_ROLLUP}`,
      )
      .bind(...groupValues(g), id),
  );
}

/**
 * The `SET` terms that book an evaluation's sums on its row unless already booked (each term reads the row
 * before the update, so `billed_calls IS NULL` holds in all of them); binds {@link bookBinds}. Part of the
 * final write's status update, so booking writes no row of its own.
 */
export const BOOK_SET_SQL = `billed_calls = COALESCE(billed_calls, ?),
  prompt_tokens = CASE WHEN billed_calls IS NULL THEN ? ELSE prompt_tokens END,
  completion_tokens = CASE WHEN billed_calls IS NULL THEN ? ELSE completion_tokens END,
  cached_prompt_tokens = CASE WHEN billed_calls IS NULL THEN ? ELSE cached_prompt_tokens END,
  usage_estimated = CASE WHEN billed_calls IS NULL THEN ? ELSE usage_estimated END,
  cost_usd = CASE WHEN billed_calls IS NULL THEN ? ELSE cost_usd END,
  prompt_cache_saved_usd = CASE WHEN billed_calls IS NULL THEN ? ELSE prompt_cache_saved_usd END`;

/** The values {@link BOOK_SET_SQL} binds, in order. */
export function bookBinds(t: UsageTotals): (number | null)[] {
  return [
    t.calls,
    t.promptTokens,
    t.completionTokens,
    t.cachedPromptTokens,
    t.estimated ? 1 : 0,
    t.costUsd,
    t.cacheSavedUsd,
  ];
}

/** Books `total` on evaluation `id`'s row while its `billed_calls` is NULL (changes nothing once booked). */
export function bookStatement(db: D1Database, id: string, total: UsageTotals): D1PreparedStatement {
  return db
    .prepare(`UPDATE evaluations SET ${BOOK_SET_SQL} WHERE id = ? AND billed_calls IS NULL`)
    .bind(...bookBinds(total), id);
}

/**
 * The statements booking evaluation `id`'s calls on their own (an Evals run's ledger evaluation): the roll-up
 * upserts, then the evaluation's sums; all of them only while `billed_calls` is NULL (the last one sets it).
 * Written whatever the status (every call was made and billed) and after a deletion too.
 */
export function bookUsageStatements(db: D1Database, id: string, calls: readonly BilledCall[]): D1PreparedStatement[] {
  return [...rollupStatements(db, id, calls), bookStatement(db, id, usageTotals(calls))];
}

/** The booked sums' columns: the row's column, the name it is read by, and how a set of rows sums it. */
const BOOKED_COLUMNS = [
  ['billed_calls', 'calls', 'SUM'],
  ['prompt_tokens', 'p', 'SUM'],
  ['completion_tokens', 'c', 'SUM'],
  ['cached_prompt_tokens', 'k', 'SUM'],
  ['usage_estimated', 'e', 'MAX'],
  ['cost_usd', 'cost', 'SUM'],
  ['prompt_cache_saved_usd', 'saved', 'SUM'],
] as const;

/**
 * SQL columns of the booked sums of the evaluations `alias` stands for, aggregated (`SUM`/`MAX`), named
 * `calls, p, c, k, e, cost, saved`: for one evaluation or a batch's.
 */
export function bookedSumsSql(alias: string): string {
  return BOOKED_COLUMNS.map(([column, name, sum]) => `COALESCE(${sum}(${alias}.${column}), 0) AS ${name}`).join(', ');
}

/**
 * {@link bookedSumsSql} of the one row `alias` names, without an aggregate: for a RETURNING clause, which takes none.
 */
export function bookedOfRowSql(alias: string): string {
  return BOOKED_COLUMNS.map(([column, name]) => `COALESCE(${alias}.${column}, 0) AS ${name}`).join(', ');
}

/**
 * A batch's pending list (`batches.usage_pending`, migrations/0039) holds its ended items' usage until it reaches
 * {@link PENDING_FLUSH_AT} items or the batch completes: the update that counts an item's ending appends the item's
 * groups to it ({@link pendingAppendSql}), so a batch item's usage writes no row of its own; {@link flushPendingStatement}
 * adds the list to the roll-up. Readers of the roll-up add the lists of the open batches ({@link TENANT_USAGE_ROWS}).
 */
export const PENDING_FLUSH_AT = 32;

/** One roll-up group's values in the roll-up's column order: hour, model, tier, then its sums. */
function groupValues({ hour, model, tier, sums: s }: ReturnType<typeof rollupGroups>[number]) {
  return [
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
  ] as const;
}

/** An item's calls as its pending list entry's groups: `[[hour, model, tier, calls, prompt, completion, cached, estimated, usd, saved], …]`. */
export function pendingGroupsJson(calls: readonly BilledCall[]): string {
  return JSON.stringify(rollupGroups(calls).map(groupValues));
}

/**
 * The `SET` term of the update of a `batches` row that counts an ending (in its `WHERE`): appends evaluation `id`'s
 * groups ({@link pendingGroupsJson}) to the list with its preset and key, unless its usage is booked already; a list
 * {@link flushPendingStatement} flushed before it (at {@link PENDING_FLUSH_AT} items) starts again. With groups it
 * binds `[groups, id]` ({@link pendingAppendBinds}); without (an ending that books nothing) it only empties a flushed
 * list, binding nothing.
 */
export function pendingAppendSql(withGroups: boolean): string {
  const base = `CASE WHEN json_array_length(usage_pending) >= ${PENDING_FLUSH_AT} THEN NULL ELSE usage_pending END`;
  if (!withGroups) return `usage_pending = ${base}`;
  return `usage_pending = COALESCE(json_insert(COALESCE(${base}, '[]'), '$[#]',
      (SELECT json_array(COALESCE(e.preset, ''), COALESCE(e.key_id, ''), json(?)) FROM evaluations e
       WHERE e.id = ? AND e.billed_calls IS NULL)), ${base})`;
}

/** What {@link pendingAppendSql} binds with groups, in order. */
export function pendingAppendBinds(id: string, groups: string): string[] {
  return [groups, id];
}

/**
 * The rows of the pending lists of the batches `from` names as `b`, as `usage_rollup`'s columns (one per item and
 * group, not summed).
 */
const pendingRows = (from: string) => `SELECT b.tenant AS tenant, json_extract(g.value, '$[0]') AS hour,
    json_extract(g.value, '$[1]') AS model, json_extract(g.value, '$[2]') AS tier, json_extract(i.value, '$[0]') AS preset,
    json_extract(i.value, '$[1]') AS key_id, json_extract(g.value, '$[3]') AS calls,
    json_extract(g.value, '$[4]') AS prompt_tokens, json_extract(g.value, '$[5]') AS completion_tokens,
    json_extract(g.value, '$[6]') AS cached_prompt_tokens, json_extract(g.value, '$[7]') AS estimated,
    json_extract(g.value, '$[8]') AS cost_usd, json_extract(g.value, '$[9]') AS cache_saved_usd
  FROM ${from}, json_each(b.usage_pending) i, json_each(i.value, '$[2]') g`;

/**
 * Adds the pending list of the batch rows `where` selects (SQL on `b`, binding `binds`) to the roll-up, summed per
 * roll-up row, before the statement that empties it (the next ending's count, or the batch's completion mark).
 * @param atLeast flush only a list of at least this many items (default 1: any).
 */
export function flushPendingStatement(
  db: D1Database,
  where: string,
  binds: readonly unknown[],
  atLeast = 1,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO usage_rollup (tenant, hour, model, tier, preset, key_id, calls, prompt_tokens, completion_tokens,
         cached_prompt_tokens, estimated, cost_usd, cache_saved_usd)
       SELECT tenant, hour, model, tier, preset, key_id, SUM(calls), SUM(prompt_tokens), SUM(completion_tokens),
         SUM(cached_prompt_tokens), MAX(estimated), SUM(cost_usd), SUM(cache_saved_usd)
       FROM (${pendingRows('batches b')} WHERE ${where} AND json_array_length(b.usage_pending) >= ${atLeast})
       WHERE true GROUP BY tenant, hour, model, tier, preset, key_id
       ${ADD_TO_ROLLUP}`,
    )
    .bind(...binds);
}

/**
 * A tenant's roll-up rows with its open batches' pending lists (binds the tenant as `?1`): what every reader of
 * the usage sums reads (usage reports, the monthly spend quota), so a batch's items count from their ending.
 */
export const TENANT_USAGE_ROWS = `SELECT hour, model, tier, preset, key_id, calls, prompt_tokens, completion_tokens,
    cached_prompt_tokens, estimated, cost_usd, cache_saved_usd FROM usage_rollup WHERE tenant = ?1
  UNION ALL
  SELECT hour, model, tier, preset, key_id, calls, prompt_tokens, completion_tokens, cached_prompt_tokens, estimated,
    cost_usd, cache_saved_usd FROM (${pendingRows('batches b INDEXED BY batches_open')}
    WHERE b.tenant = ?1 AND b.completed_at IS NULL AND b.usage_pending IS NOT NULL)`;
