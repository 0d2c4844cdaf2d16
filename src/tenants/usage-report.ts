/**
 * @module
 * Usage reports from the usage roll-up (`usage_rollup`: every billed LLM call, added with its evaluation's end
 * to the row of its tenant, UTC hour, model, tier, preset and key): calls, prompt / cached prompt / completion
 * tokens, cost and what the prompt caches saved in USD, per day (UTC), model, preset or key, over a time
 * range; and their CSV form. The roll-up is the one source, with the open batches' usage not rolled up yet
 * (`TENANT_USAGE_ROWS`): a report's totals are its sums. Verdict cache hits make no call, so they have no row: the report counts them apart
 * (`verdictCache`, src/verdict-cache/rows.ts `hitSums`).
 */
import { TENANT_USAGE_ROWS, hourOf } from './usage-rollup.js';

/** What a report groups by: the call's UTC day, its model, its evaluation's preset or the key that created it. */
export const USAGE_GROUPS = ['day', 'model', 'preset', 'key'] as const;
/** One of {@link USAGE_GROUPS}. */
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** Sums over a set of billed calls. */
export interface UsageSums {
  calls: number;
  promptTokens: number;
  cachedPromptTokens: number;
  completionTokens: number;
  costUsd: number;
  /** USD the providers' prompt caches saved on these calls. */
  cacheSavedUsd: number;
  /** True when some token counts were estimated (the provider sent none). */
  estimated: boolean;
}

/** One group of a report: its key (a day `YYYY-MM-DD`, a model, a preset or a key id; null = none) and sums. */
export interface UsageGroupRow extends UsageSums {
  group: string | null;
}

/** SQL of each grouping over `usage_rollup` (preset and key '' mean none). */
const GROUP_SQL: Record<UsageGroup, string> = {
  day: "strftime('%Y-%m-%d', hour / 1000, 'unixepoch')",
  model: 'model',
  preset: "NULLIF(preset, '')",
  key: "NULLIF(key_id, '')",
};

/**
 * Usage of `tenant` for calls recorded in `[from, to)` (epoch ms), grouped, ordered by group (nulls first).
 * Calls are counted per UTC hour, so a bound inside an hour counts that whole hour (dates are always whole).
 * With several databases (the D1 shards of a tenant's spread: each rolls up the calls of its own evaluations)
 * the groups of each are added up, so the report is exact.
 */
export async function usageReport(
  dbs: readonly D1Database[],
  tenant: string,
  range: { from: number; to: number; groupBy: UsageGroup },
): Promise<{ rows: UsageGroupRow[]; totals: UsageSums }> {
  const each = await Promise.all(dbs.map((db) => groupsIn(db, tenant, range)));
  const rows = each.length === 1 ? (each[0] ?? []) : addedUp(each.flat());
  const totals: UsageSums = {
    calls: 0,
    promptTokens: 0,
    cachedPromptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    cacheSavedUsd: 0,
    estimated: false,
  };
  for (const r of rows) add(totals, r);
  return { rows, totals };
}

function add(to: UsageSums, r: UsageSums): void {
  to.calls += r.calls;
  to.promptTokens += r.promptTokens;
  to.cachedPromptTokens += r.cachedPromptTokens;
  to.completionTokens += r.completionTokens;
  to.costUsd += r.costUsd;
  to.cacheSavedUsd += r.cacheSavedUsd;
  to.estimated ||= r.estimated;
}

/** Rows of the same group added into one, ordered as SQL orders them (null first, then by binary text). */
function addedUp(rows: readonly UsageGroupRow[]): UsageGroupRow[] {
  const byGroup = new Map<string | null, UsageGroupRow>();
  for (const r of rows) {
    const into = byGroup.get(r.group);
    if (into) add(into, r);
    else byGroup.set(r.group, { ...r });
  }
  return [...byGroup.values()].sort((a, b) =>
    a.group === b.group ? 0 : a.group === null ? -1 : b.group === null ? 1 : a.group < b.group ? -1 : 1,
  );
}

async function groupsIn(
  db: D1Database,
  tenant: string,
  range: { from: number; to: number; groupBy: UsageGroup },
): Promise<UsageGroupRow[]> {
  const { results } = await db
    .prepare(
      `SELECT ${GROUP_SQL[range.groupBy]} AS grp, SUM(calls) AS calls, SUM(prompt_tokens) AS p,
         SUM(cached_prompt_tokens) AS k, SUM(completion_tokens) AS c, SUM(cost_usd) AS cost, SUM(cache_saved_usd) AS saved,
         MAX(estimated) AS est
       FROM (${TENANT_USAGE_ROWS}) WHERE hour >= ?2 AND hour < ?3
       GROUP BY grp ORDER BY grp`,
    )
    .bind(tenant, hourOf(range.from), range.to)
    .all<{
      grp: string | null;
      calls: number;
      p: number;
      k: number;
      c: number;
      cost: number;
      saved: number;
      est: number;
    }>();
  return results.map((r) => ({
    group: r.grp,
    calls: r.calls,
    promptTokens: r.p,
    cachedPromptTokens: r.k,
    completionTokens: r.c,
    costUsd: r.cost,
    cacheSavedUsd: r.saved,
    estimated: r.est !== 0,
  }));
}

/** A CSV field (RFC 4180): quoted when it holds a comma, quote or line break. */
function csvField(v: string | number | boolean | null): string {
  const s = v === null ? '' : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** A report as CSV (RFC 4180, CRLF line ends): a header row, then one row per group; the group column is named after `groupBy`. */
export function usageCsv(groupBy: UsageGroup, rows: readonly UsageGroupRow[]): string {
  const header = [
    groupBy,
    'calls',
    'prompt_tokens',
    'cached_prompt_tokens',
    'completion_tokens',
    'cost_usd',
    'cache_saved_usd',
    'estimated',
  ];
  const lines = rows.map((r) =>
    [
      r.group,
      r.calls,
      r.promptTokens,
      r.cachedPromptTokens,
      r.completionTokens,
      r.costUsd,
      r.cacheSavedUsd,
      r.estimated,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[header.join(','), ...lines].join('\r\n')}\r\n`;
}
