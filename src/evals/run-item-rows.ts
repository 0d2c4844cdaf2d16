/**
 * @module
 * The D1 statements of an eval run's output items: store one graded item once (`ON CONFLICT DO NOTHING`),
 * page through them, and the counts a run reports. The run's own row is ./run-rows.ts's.
 */

/** A graded item as stored. */
export interface ItemRecord {
  idx: number;
  status: 'pass' | 'fail' | 'error';
  item: Record<string, unknown>;
  /** The sample as an output item shows it, or null. */
  sample: object | null;
  results: Record<string, unknown>[];
  /** Tokens per model call (`ModelUsage`). */
  usage: object[];
  createdAt: number;
}

interface ItemRow {
  idx: number;
  status: ItemRecord['status'];
  item: string;
  sample: string | null;
  results: string;
  usage: string;
  created_at: number;
}

function toItem(r: ItemRow): ItemRecord {
  return {
    idx: r.idx,
    status: r.status,
    item: JSON.parse(r.item) as Record<string, unknown>,
    sample: r.sample === null ? null : (JSON.parse(r.sample) as object),
    results: JSON.parse(r.results) as Record<string, unknown>[],
    usage: JSON.parse(r.usage) as object[],
    createdAt: r.created_at,
  };
}

/**
 * Stores a graded item once: a repeat (a resumed run) keeps the first. Nothing for a deleted run: a pass still
 * grading when its run (or eval) was deleted must not write the content the delete erased.
 */
export function insertItemStatement(db: D1Database, runId: string, i: ItemRecord): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO eval_run_items (run_id, idx, status, item, sample, results, usage, created_at)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM eval_runs WHERE id = ?1 AND deleted_at IS NULL)
       ON CONFLICT DO NOTHING`,
    )
    .bind(
      runId,
      i.idx,
      i.status,
      JSON.stringify(i.item),
      i.sample === null ? null : JSON.stringify(i.sample),
      JSON.stringify(i.results),
      JSON.stringify(i.usage),
      i.createdAt,
    );
}

/** The indexes of the run's items already graded. */
export async function gradedIndexes(db: D1Database, runId: string): Promise<Set<number>> {
  const { results } = await db
    .prepare(`SELECT idx FROM eval_run_items WHERE run_id = ?`)
    .bind(runId)
    .all<{ idx: number }>();
  return new Set(results.map((r) => r.idx));
}

/** One page of a run's items by index after `after`, `limit + 1` rows. */
export async function listItems(
  db: D1Database,
  runId: string,
  q: { after?: number | undefined; limit: number; order: 'asc' | 'desc'; status?: 'pass' | 'fail' | undefined },
): Promise<ItemRecord[]> {
  const cmp = q.order === 'asc' ? '>' : '<';
  const dir = q.order === 'asc' ? 'ASC' : 'DESC';
  const { results } = await db
    .prepare(
      `SELECT idx, status, item, sample, results, usage, created_at FROM eval_run_items
       WHERE run_id = ?1 AND (?2 IS NULL OR idx ${cmp} ?2) AND (?3 IS NULL OR status = ?3) ORDER BY idx ${dir} LIMIT ?4`,
    )
    .bind(runId, q.after ?? null, q.status ?? null, q.limit + 1)
    .all<ItemRow>();
  return results.map(toItem);
}

/** One item, or null. */
export async function getItem(db: D1Database, runId: string, idx: number): Promise<ItemRecord | null> {
  const r = await db
    .prepare(
      `SELECT idx, status, item, sample, results, usage, created_at FROM eval_run_items WHERE run_id = ? AND idx = ?`,
    )
    .bind(runId, idx)
    .first<ItemRow>();
  return r ? toItem(r) : null;
}

/** What a run reports, counted from its stored items. */
export interface RunCounts {
  byStatus: Record<'pass' | 'fail' | 'error', number>;
  byCriterion: { name: string; passed: number; failed: number }[];
  byModel: {
    model: string;
    invocation_count: number;
    prompt_tokens: number;
    completion_tokens: number;
    cached_tokens: number;
  }[];
  /** Model grader calls answered from the verdict cache, and what they had cost (USD). */
  cache: { hits: number; savedUsd: number };
}

/**
 * The counts of each of `runIds` (a run without items has zero counts), in one D1 round trip whatever
 * their number: a page of runs is counted at once, not run by run.
 */
export async function runCounts(db: D1Database, runIds: readonly string[]): Promise<Map<string, RunCounts>> {
  const ids = JSON.stringify(runIds);
  const of = `i.run_id IN (SELECT value FROM json_each(?))`;
  const [statuses, criteria, models, hits] = await db.batch<Record<string, unknown>>([
    db
      .prepare(`SELECT i.run_id, status, count(*) AS n FROM eval_run_items i WHERE ${of} GROUP BY i.run_id, status`)
      .bind(ids),
    db
      .prepare(
        `SELECT i.run_id, json_extract(r.value, '$.name') AS name, sum(json_extract(r.value, '$.passed')) AS passed, count(*) AS n
         FROM eval_run_items i, json_each(i.results) r WHERE ${of} GROUP BY i.run_id, name ORDER BY i.run_id, min(r.key)`,
      )
      .bind(ids),
    db
      .prepare(
        `SELECT i.run_id, json_extract(u.value, '$.model') AS model, sum(json_extract(u.value, '$.invocation_count')) AS calls,
           sum(json_extract(u.value, '$.prompt_tokens')) AS prompt, sum(json_extract(u.value, '$.completion_tokens')) AS completion,
           sum(json_extract(u.value, '$.cached_tokens')) AS cached
         FROM eval_run_items i, json_each(i.usage) u WHERE ${of} GROUP BY i.run_id, model ORDER BY i.run_id, model`,
      )
      .bind(ids),
    db
      .prepare(
        `SELECT i.run_id, count(*) AS n, sum(i.cache_saved_usd) AS saved FROM eval_run_calls i
         WHERE ${of} AND i.cache_saved_usd IS NOT NULL GROUP BY i.run_id`,
      )
      .bind(ids),
  ]);
  const counts = new Map<string, RunCounts>(
    runIds.map((id) => [
      id,
      { byStatus: { pass: 0, fail: 0, error: 0 }, byCriterion: [], byModel: [], cache: { hits: 0, savedUsd: 0 } },
    ]),
  );
  const at = (r: Record<string, unknown>) => counts.get(String(r.run_id));
  for (const r of statuses?.results ?? []) {
    const c = at(r);
    if (c) c.byStatus[r.status as keyof RunCounts['byStatus']] = Number(r.n);
  }
  for (const r of criteria?.results ?? []) {
    at(r)?.byCriterion.push({ name: String(r.name), passed: Number(r.passed), failed: Number(r.n) - Number(r.passed) });
  }
  for (const r of models?.results ?? []) {
    at(r)?.byModel.push({
      model: String(r.model),
      invocation_count: Number(r.calls),
      prompt_tokens: Number(r.prompt),
      completion_tokens: Number(r.completion),
      cached_tokens: Number(r.cached),
    });
  }
  for (const r of hits?.results ?? []) {
    const c = at(r);
    if (c) c.cache = { hits: Number(r.n), savedUsd: Number(r.saved) };
  }
  return counts;
}
