/**
 * @module
 * The published price sheet (docs/pricing.md): USD per 1,000 verdicts of the sheet's presets, at the price
 * table's list prices (src/llm/pricing.ts), per tier, with and without verdict cache hits, plus Cloudflare's
 * side from what one verdict cost the platform on a real local run (bench/platform-usage.json, written by
 * `npm run bench:platform`). {@link renderSheet} is pure over its inputs: `npm run pricing` writes its output
 * and a test fails when docs/pricing.md differs from it.
 */
import { PRESETS, getMethod, resolveMethodConfig } from '../src/engine/registry.js';
import type { Task } from '../src/engine/task.js';
import { createCallMeter } from '../src/budgets/meter.js';
import { createPromptCounter, loadTokenizer } from '../src/budgets/prompt-tokens.js';
import { estimateTask } from '../src/budgets/estimate.js';
import { costOf, DEFAULT_PRICES, priceFor } from '../src/llm/pricing.js';
import { settingsFromEnv } from '../src/llm/settings.js';
import type { Tier } from '../src/llm/tiers.js';

/** The presets the sheet prices, in its order. */
export const SHEET_PRESETS = [
  'fastchat-pair',
  'chateval-faireval',
  'debate-summeval',
  'samre-mtbench',
  'poll-3',
] as const;

/** The models the sheet prices every agent at (a preset that names its own models keeps them). */
export const SHEET_MODELS = ['gpt-4o-mini', 'gpt-5-mini'] as const;

/** The tiers, in the sheet's order. */
const TIERS: readonly Tier[] = ['standard', 'flex', 'batch'];

/** Share of verdicts the verdict cache serves in the "with cache hits" columns. */
export const ASSUMED_HIT_RATE = 0.3;

/** Where bench:platform writes and the sheet reads the platform's per-verdict counts (repository-relative). */
export const PLATFORM_USAGE_PATH = 'bench/platform-usage.json';

/** What one verdict cost the platform (means over a run). */
export interface VerdictFootprint {
  /** Worker invocations: API requests and queue consumer batches. */
  workerRequests: number;
  /** Durable Object requests: RPC calls and alarms. */
  doRequests: number;
  /** Wall time of those requests, ms (billed duration's stand-in). */
  doWallMs: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  d1Queries: number;
  /** Queue messages sent (each a write, a read and a delete). */
  queueMessages: number;
  /** CPU of the whole local runtime process per verdict, ms: an upper bound on Workers CPU. */
  runtimeCpuMs: number;
}

/** bench/platform-usage.json. */
export interface PlatformUsage {
  /** UTC date of the run (YYYY-MM-DD). */
  measuredAt: string;
  /** Verdicts per preset and round. */
  items: number;
  /** Per preset: a first verdict (a cache miss, LLM calls made) and a repeat (a verdict cache hit). */
  presets: Record<string, { miss: VerdictFootprint; hit: VerdictFootprint }>;
}

/**
 * Cloudflare's published Workers Paid rates beyond the included amounts (USD), as read on the date given,
 * from developers.cloudflare.com: workers/platform/pricing, durable-objects/platform/pricing,
 * d1/platform/pricing, queues/platform/pricing.
 */
export const CLOUDFLARE_RATES = {
  readOn: '2026-11-27',
  workerRequestsPerMillion: 0.3,
  workerCpuMsPerMillion: 0.02,
  doRequestsPerMillion: 0.15,
  /** Per million GB-s; an object is billed at 128 MB. */
  doGbSecondsPerMillion: 12.5,
  doMemoryGb: 0.128,
  d1RowsReadPerMillion: 0.001,
  d1RowsWrittenPerMillion: 1.0,
  queueOperationsPerMillion: 0.4,
  /** Operations per message under 64 KB: write, read, delete. */
  queueOperationsPerMessage: 3,
} as const;

/** A representative task of a preset's kind (MT-Bench-sized pairwise answers, a SummEval-sized summary), made distinct by `i`. */
export function sheetTask(preset: string, i: number): Task {
  const kind = PRESETS.find((p) => p.id === preset)?.taskKind;
  if (kind === 'pointwise')
    return {
      kind: 'pointwise',
      source:
        `(${i}) The city council approved a protected cycling lane on Main Street after a two-year consultation with residents and shop owners. ` +
        'Construction starts in May and is expected to last six weeks; during the works, parking moves to the side streets and two bus stops are relocated. ' +
        'Supporters cite safer commutes and fewer cars downtown; some shop owners worry about deliveries and lost parking. The council will review the lane after a year.',
      output:
        'The council approved a Main Street cycling lane after two years of consultation; six weeks of works start in May, moving parking and two bus stops.',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
    };
  return {
    kind: 'pairwise',
    question: `(${i}) Explain how vaccines train the immune system, and why booster doses are sometimes needed.`,
    answerA:
      'A vaccine shows the immune system a harmless piece or weakened form of a pathogen. B cells learn to make antibodies against it and T cells learn to ' +
      'recognise infected cells; some of both become memory cells, so a later real infection is met quickly. Boosters are needed when memory fades over ' +
      'time or when the pathogen changes (as influenza and coronaviruses do), so the response is refreshed or retargeted.',
    answerB:
      'Vaccines put a small amount of the disease in you so you get a bit sick and then you are immune forever. Boosters are mostly for people who missed the first dose.',
  };
}

/** Expected LLM tokens of one verdict, per model the preset's agents call. */
interface ModelTokens {
  model: string;
  promptTokens: number;
  completionTokens: number;
  calls: number;
}

/** The estimate's expected path for one verdict of `preset` with every unnamed agent on `model`. */
async function expectedTokens(preset: string, model: string): Promise<ModelTokens[]> {
  const config = resolveMethodConfig(preset, { defaults: { model } });
  const method = getMethod(config.method);
  const settings = settingsFromEnv({ LLM_MODEL: model, LLM_BASE_URL: 'https://api.openai.com/v1' });
  const counter = createPromptCounter(await loadTokenizer());
  const est = await estimateTask(method, config, sheetTask(preset, 0), {
    counter,
    meter: createCallMeter(settings, counter),
  });
  return est.models.map((m) => ({
    model: m.model,
    promptTokens: m.expected.promptTokens,
    completionTokens: m.expected.completionTokens,
    calls: m.expected.calls,
  }));
}

/** USD of one verdict's tokens at a tier (no prompt-cache discount: the list price of every token). */
function verdictUsd(tokens: readonly ModelTokens[], tier: Tier): number {
  return tokens.reduce(
    (sum, t) =>
      sum +
      costOf(
        { promptTokens: t.promptTokens, cachedPromptTokens: 0, completionTokens: t.completionTokens },
        priceFor(t.model, undefined, DEFAULT_PRICES),
        tier,
      ).costUsd,
    0,
  );
}

/** USD of one verdict's Cloudflare usage at {@link CLOUDFLARE_RATES}. */
export function platformUsd(f: VerdictFootprint): number {
  const r = CLOUDFLARE_RATES;
  return (
    (f.workerRequests * r.workerRequestsPerMillion +
      f.runtimeCpuMs * r.workerCpuMsPerMillion +
      f.doRequests * r.doRequestsPerMillion +
      (f.doWallMs / 1000) * r.doMemoryGb * r.doGbSecondsPerMillion +
      f.d1RowsRead * r.d1RowsReadPerMillion +
      f.d1RowsWritten * r.d1RowsWrittenPerMillion +
      f.queueMessages * r.queueOperationsPerMessage * r.queueOperationsPerMillion) /
    1_000_000
  );
}

const usd = (x: number): string => (x === 0 ? '$0' : x >= 0.1 ? `$${x.toFixed(2)}` : `$${x.toPrecision(2)}`);
const num = (x: number, digits = 1): string => x.toFixed(digits);

/** docs/pricing.md from the price table, the estimator and the measured platform usage. */
export async function renderSheet(platform: PlatformUsage): Promise<string> {
  const h = ASSUMED_HIT_RATE;
  const lines: string[] = [
    '# Price sheet',
    '',
    '<!-- Generated by `npm run pricing` (bench/pricing.ts): do not edit by hand. A test fails when this file is stale. -->',
    '',
    "What 1,000 verdicts cost, in USD: the LLM providers' side at the price table's list prices (src/llm/pricing.ts, USD per",
    "million tokens), and Cloudflare's side from what one verdict cost the platform on a real run on the local stack.",
    '',
    "- **Tokens per verdict**: the estimator's `expected` path (POST /v1/estimates: the longest path, 256-token replies) on a",
    "  representative task of the preset's kind (an MT-Bench-sized pairwise question, a SummEval-sized summary); every prompt",
    '  token at the uncached input price. Provider prompt caching lowers this further (`npm run bench:prefix` gives each',
    "  preset's cacheable share); the sheet does not count it.",
    "- **Tiers**: `standard`, `flex` and `batch` at the table's price for that tier; a model with no published price for a tier",
    '  is billed (and shown) at its standard price.',
    `- **With cache hits**: ${Math.round(h * 100)}% of verdicts served by the verdict cache (an identical request of the same`,
    '  tenant within VERDICT_CACHE_TTL_DAYS: 0 LLM calls, $0 LLM), e.g. a CI gate re-judging unchanged candidates; the other',
    `  ${Math.round((1 - h) * 100)}% judged. The Cloudflare side counts a hit at its own measured footprint.`,
    '',
  ];
  /** USD per 1,000 judged verdicts of each preset on the first sheet model, by tier (for the totals). */
  const llmPer1000 = new Map<string, number[]>();
  for (const model of SHEET_MODELS) {
    lines.push(
      `## LLM side, every agent on \`${model}\``,
      '',
      '| preset | calls | prompt tokens | completion tokens | standard | flex | batch | standard, with hits | flex, with hits | batch, with hits |',
      '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    );
    const named = new Set<string>();
    let footnote = '';
    for (const preset of SHEET_PRESETS) {
      const tokens = await expectedTokens(preset, model);
      const own = tokens.filter((t) => t.model !== model).map((t) => t.model);
      own.forEach((m) => named.add(m));
      if (own.length > 0) footnote = preset;
      const sum = (k: 'calls' | 'promptTokens' | 'completionTokens') => tokens.reduce((s, t) => s + t[k], 0);
      const per1000 = TIERS.map((tier) => 1000 * verdictUsd(tokens, tier));
      if (model === SHEET_MODELS[0]) llmPer1000.set(preset, per1000);
      lines.push(
        `| ${preset}${own.length > 0 ? ' ¹' : ''} | ${sum('calls')} | ${sum('promptTokens')} | ${sum('completionTokens')} | ` +
          `${per1000.map(usd).join(' | ')} | ${per1000.map((x) => usd(x * (1 - h))).join(' | ')} |`,
      );
    }
    lines.push('');
    if (named.size > 0)
      lines.push(
        `¹ ${footnote} names its own models (PoLL's three families), priced at their own list prices: ${[...named].join(', ')}.`,
        '',
      );
  }
  const r = CLOUDFLARE_RATES;
  lines.push(
    '## Cloudflare side',
    '',
    `Counted by \`npm run bench:platform\` on ${platform.measuredAt}: ${platform.items} verdicts per preset, each a`,
    '`POST /v1/evaluations` with `Prefer: wait` against the bundled mock, then the same requests again (every one a verdict',
    'cache hit). The Worker ran from bench/metered-entry.ts, the production Worker with its bindings wrapped: D1 rows are',
    "summed from D1's own `meta` (`rows_read`, `rows_written`) of every query; Durable Object requests are stub calls and",
    'alarms, their wall time the duration; Worker requests are API requests and queue consumer invocations; CPU is the',
    "whole local runtime's (an upper bound); queue operations are 3 per message sent.",
    '',
    '| preset | verdict | Worker requests | DO requests | DO wall ms | D1 rows read | D1 rows written | queue messages | CPU ms | USD per 1,000 verdicts |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const preset of SHEET_PRESETS) {
    const m = platform.presets[preset];
    if (!m) {
      lines.push(`| ${preset} | not measured | | | | | | | | |`);
      continue;
    }
    for (const [label, f] of [
      ['judged', m.miss],
      ['cache hit', m.hit],
    ] as const) {
      lines.push(
        `| ${preset} | ${label} | ${num(f.workerRequests, 2)} | ${num(f.doRequests, 2)} | ${num(f.doWallMs, 0)} | ${num(f.d1RowsRead)} | ` +
          `${num(f.d1RowsWritten)} | ${num(f.queueMessages, 2)} | ${num(f.runtimeCpuMs)} | ${usd(1000 * platformUsd(f))} |`,
      );
    }
  }
  lines.push(
    '',
    `Rates (Workers Paid, beyond the included amounts, read on ${r.readOn} from developers.cloudflare.com's pricing pages for`,
    'Workers, Durable Objects, D1 and Queues):',
    '',
    '| item | USD |',
    '|---|--:|',
    `| Worker requests, per million | ${r.workerRequestsPerMillion} |`,
    `| Worker CPU, per million ms | ${r.workerCpuMsPerMillion} |`,
    `| Durable Object requests, per million | ${r.doRequestsPerMillion} |`,
    `| Durable Object duration, per million GB-s (${r.doMemoryGb * 1000} MB per object) | ${r.doGbSecondsPerMillion} |`,
    `| D1 rows read, per million | ${r.d1RowsReadPerMillion} |`,
    `| D1 rows written, per million | ${r.d1RowsWrittenPerMillion} |`,
    `| Queue operations, per million (${r.queueOperationsPerMessage} per message) | ${r.queueOperationsPerMillion} |`,
    '',
    "The Workers Paid plan's $5 monthly minimum and its included amounts (10M requests, 30M CPU ms, 1M DO requests,",
    '400,000 GB-s, 25B D1 rows read, 50M D1 rows written, 1M queue operations a month) are left out: the figures are the',
    'marginal cost of a verdict past them.',
    '',
    `## Total per 1,000 verdicts, every agent on \`${SHEET_MODELS[0]}\``,
    '',
    `LLM plus Cloudflare; "with hits": ${Math.round(h * 100)}% of verdicts served by the verdict cache (at a hit's platform cost).`,
    '',
    '| preset | standard | flex | batch | standard, with hits | flex, with hits | batch, with hits |',
    '|---|--:|--:|--:|--:|--:|--:|',
  );
  for (const preset of SHEET_PRESETS) {
    const llm = llmPer1000.get(preset) ?? [];
    const m = platform.presets[preset];
    const judged = m ? 1000 * platformUsd(m.miss) : 0;
    const hit = m ? 1000 * platformUsd(m.hit) : 0;
    const plain = llm.map((x) => usd(x + judged));
    const withHits = llm.map((x) => usd((1 - h) * (x + judged) + h * hit));
    lines.push(`| ${preset} | ${plain.join(' | ')} | ${withHits.join(' | ')} |`);
  }
  lines.push('');
  return lines.join('\n');
}
