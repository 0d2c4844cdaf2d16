/**
 * @module
 * `npm run meta-eval -- --compare`: a comparison of a dataset's candidates judged through the API
 * (`POST /v1/comparisons` with the typed client, on the local stack it starts or `--target`), its
 * leaderboard, pairs, gate and `summary`, and how the judge's ranking agrees with the humans' (their own
 * Bradley–Terry ranking from their pairwise votes, by the same statistics code).
 *
 * ```
 * npm run meta-eval -- --compare --dataset mt-bench-human --preset fastchat-pair [--candidates a,b,c]
 *   [--baseline a [--gate-candidate b] --min-win-rate 0.5 --confidence 0.95] [--limit N]
 *   [--target URL --token T] [--out FILE]
 * ```
 *
 * Exit codes, by the one gate rule (`GATE_EXIT_CODES`, src/client/comparisons.ts, as `npm run gate`): 0 the
 * comparison completed and its gate `passed` (or it has none); 1 the gate `failed`, an evaluation failed or was
 * cancelled, or another error; 2 a usage error; 3 the gate is `inconclusive` (a note on stderr says so); 4 no
 * comparison came back: the local stack did not start, or the request was refused (a key's 401, a body's 400) or
 * failed (unreachable, a 5xx after its retries, the wait timed out).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { backoffDelay } from '../backoff/backoff.js';
import type { Comparison, CreateComparisonRequest } from '../client/index.js';
import { createTribunalClient, GATE_EXIT_CODES, TribunalError } from '../client/index.js';
import type { ComparisonDataset } from '../datasets/mt-bench-comparison.js';
import { loadComparisonDataset } from '../datasets/mt-bench-comparison.js';
import type { ComparisonStats } from '../metrics/comparison.js';
import { comparisonStats } from '../metrics/comparison.js';
import type { RankingAgreement } from '../metrics/ranking-agreement.js';
import { rankingAgreement } from '../metrics/ranking-agreement.js';
import { describeError, UsageError } from './args.js';
import { startLocalStack } from './local-stack.js';
import { REPO_ROOT } from './worker-bundle.js';

/** Options of a comparison run. */
export interface CompareOptions {
  /** A comparison dataset (`mt-bench-human`). */
  dataset: string;
  preset: string;
  /** Candidates to compare (default: every one of the dataset's), at least 2. */
  candidates?: string[];
  /** Compare every other candidate with this one only, and gate on it. Default: all pairs, no gate. */
  baseline?: string;
  /** The gate's candidate; default the first listed candidate that is not the baseline. */
  gateCandidate?: string;
  /** The gate's bar, (0, 1); default 0.5. */
  minWinRate?: number;
  /** The gate's confidence, [0.5, 1); default 0.95. */
  confidence?: number;
  /** The first N items only. */
  limit?: number;
  config?: Record<string, unknown>;
  model?: string;
  target?: string;
  token?: string;
  baseUrl?: string;
  out?: string;
  /** Give up waiting after this many ms. Default 1 hour. */
  timeoutMs?: number;
  /** Progress on stderr. Default true. */
  progress?: boolean;
}

/** What a comparison run produces. */
export interface CompareResult {
  comparison: Comparison;
  human: ComparisonStats;
  agreement: RankingAgreement;
  wallMs: number;
  text: string;
  outFile: string;
  /** By the gate rule (`GATE_EXIT_CODES`): 0, 1 or 3 (4 is {@link NoComparisonError}'s, thrown). */
  exitCode: number;
  /** Lines for stderr (why the exit code is not 0, or the inconclusive note). */
  notes: string[];
}

/** The body of `POST /v1/comparisons` for `dataset` under `options`. @throws UsageError for a name the dataset lacks. */
export function comparisonBodyOf(dataset: ComparisonDataset, options: CompareOptions): CreateComparisonRequest {
  const candidates = options.candidates ?? dataset.candidates;
  for (const c of candidates)
    if (!dataset.candidates.includes(c))
      throw new UsageError(`--candidates: "${c}" is not in ${dataset.name} (${dataset.candidates.join(', ')})`);
  if (candidates.length < 2) throw new UsageError('--candidates: give at least 2');
  const { baseline } = options;
  if (baseline !== undefined && !candidates.includes(baseline))
    throw new UsageError(`--baseline: "${baseline}" is not among the candidates (${candidates.join(', ')})`);
  const gateCandidate = options.gateCandidate ?? candidates.find((c) => c !== baseline);
  if (options.gateCandidate !== undefined && (baseline === undefined || !candidates.includes(options.gateCandidate)))
    throw new UsageError('--gate-candidate goes with --baseline and names one of the candidates');
  const overrides = options.model
    ? { ...options.config, defaults: { ...(options.config?.defaults as object | undefined), model: options.model } }
    : options.config;
  const items = options.limit !== undefined ? dataset.items.slice(0, options.limit) : dataset.items;
  return {
    preset: options.preset,
    ...(overrides ? { config: overrides } : {}),
    candidates,
    items: items.map((it) => ({
      id: it.id,
      question: it.question,
      ...(it.reference !== undefined ? { reference: it.reference } : {}),
      outputs: Object.fromEntries(candidates.map((c) => [c, it.outputs[c] ?? ''])),
    })),
    design: baseline === undefined ? 'all-pairs' : { baseline },
    ...(baseline !== undefined && gateCandidate !== undefined
      ? {
          gate: {
            candidate: gateCandidate,
            baseline,
            minWinRate: options.minWinRate ?? 0.5,
            confidence: options.confidence ?? 0.95,
          },
        }
      : {}),
  };
}

/** The humans' statistics on the same candidates and items: their votes as pair outcomes, the same maths. */
export function humanStatsOf(dataset: ComparisonDataset, body: CreateComparisonRequest): ComparisonStats {
  const items = new Set(body.items.map((i) => i.id));
  const votes = dataset.votes.filter(
    (v) =>
      items.has(v.item.slice(0, v.item.lastIndexOf('#'))) &&
      body.candidates.includes(v.a) &&
      body.candidates.includes(v.b),
  );
  // At the level of the comparison's own pair and strength intervals (the API's default, 0.95).
  return comparisonStats(body.candidates, votes, { level: 0.95, resamples: 1000, seed: 0 });
}

const TERMINAL = new Set(['completed', 'cancelled']);

/** Attempts of one request: a lost answer (network error), 429 or 5xx is sent again. */
const ATTEMPTS = 4;

/**
 * `send` until it answers with neither 429 nor 5xx, backing off between attempts (a POST carries its
 * `Idempotency-Key`, so a repeat returns the same comparison).
 */
async function retried<R extends { status: number }>(send: () => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await send();
      if ((r.status !== 429 && r.status < 500) || attempt >= ATTEMPTS) return r;
    } catch (e) {
      if (attempt >= ATTEMPTS) throw e;
    }
    await new Promise((res) => setTimeout(res, backoffDelay(attempt, { base: 200, max: 5000 })));
  }
}
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
const interval = (i: readonly [number, number] | null) => (i ? `[${pct(i[0])}, ${pct(i[1])}]` : '–');

/** The printed report (markdown) of a finished comparison. */
export function compareText(
  dataset: string,
  preset: string,
  c: Comparison,
  human: ComparisonStats,
  a: RankingAgreement,
  wallMs: number,
): string {
  const humanRank = (name: string) => a.humanOrder.indexOf(name) + 1;
  return [
    `## Comparison: ${preset} on ${dataset} (${String(c.items)} items, ${String(c.candidates.length)} candidates, ${c.design === 'all-pairs' ? 'all pairs' : `against ${c.design.baseline}`})`,
    '',
    "| rank | candidate | strength | interval | humans' rank | humans' strength |",
    '|---|---|---|---|---|---|',
    ...c.ranking.map((r) => {
      const h = human.ranking.find((x) => x.candidate === r.candidate);
      return `| ${String(r.rank)} | ${r.candidate} | ${signed(r.strength)} | ${r.interval ? `[${signed(r.interval[0])}, ${signed(r.interval[1])}]` : '–'} | ${String(humanRank(r.candidate))} | ${h ? signed(h.strength) : '–'} |`;
    }),
    '',
    "| a | b | wins | ties | losses | win rate | interval | humans' win rate | humans' interval | same winner |",
    '|---|---|---|---|---|---|---|---|---|---|',
    ...c.pairs.map((p) => {
      const g = a.pairs.find((x) => x.a === p.a && x.b === p.b);
      const same = g?.sameWinner === null || g === undefined ? '–' : g.sameWinner ? 'yes' : 'no';
      return `| ${p.a} | ${p.b} | ${String(p.wins)} | ${String(p.ties)} | ${String(p.losses)} | ${pct(p.winRate)} | ${interval(p.interval)} | ${pct(g?.humanWinRate ?? null)} | ${interval(g?.humanInterval ?? null)} | ${same} |`;
    }),
    '',
    `agreement with the humans: Kendall τ ${a.kendallTau === null ? '–' : a.kendallTau.toFixed(3)} between the rankings; ` +
      `same winner on ${a.decidedPairs === 0 ? '–' : `${String(Math.round((a.sameWinnerRate ?? 0) * a.decidedPairs))} of ${String(a.decidedPairs)}`} pairs ` +
      `(humans: ${String(human.judge.decided)} votes)`,
    `gate: ${c.gate ? c.gate.outcome : 'none'}`,
    `summary: ${c.summary}`,
    `evaluations ${String(c.counts.total)} · succeeded ${String(c.counts.succeeded)} · failed ${String(c.counts.failed)} · ` +
      `cancelled ${String(c.counts.cancelled)} · flip rate ${pct(c.judge.flipRate)} · tie rate ${pct(c.judge.tieRate)} · ` +
      `calls ${String(c.usage.calls)} · tokens ${String(c.usage.promptTokens)} in / ${String(c.usage.completionTokens)} out · ` +
      `cost $${c.usage.costUsd.toFixed(4)} · wall ${(wallMs / 1000).toFixed(1)} s`,
  ].join('\n');
}

/** Exit code and stderr lines of a finished comparison (see the module note). */
export function compareOutcome(c: Comparison): { exitCode: number; notes: string[] } {
  const notes: string[] = [];
  if (c.counts.failed + c.counts.cancelled > 0)
    notes.push(
      `${String(c.counts.failed)} evaluations failed and ${String(c.counts.cancelled)} were cancelled of ${String(c.counts.total)} (GET /v1/comparisons/${c.id}/results lists each)`,
    );
  if (c.gate?.outcome === 'failed') notes.push(`gate failed: ${c.gate.summary}`);
  if (notes.length > 0) return { exitCode: GATE_EXIT_CODES.failed, notes };
  if (c.gate?.outcome === 'inconclusive') {
    const code = String(GATE_EXIT_CODES.inconclusive);
    notes.push(`note: the gate is inconclusive (exit code ${code}, as npm run gate): ${c.gate.summary}`);
    return { exitCode: GATE_EXIT_CODES.inconclusive, notes };
  }
  return { exitCode: GATE_EXIT_CODES.passed, notes };
}

/**
 * No comparison came back (exit {@link GATE_EXIT_CODES}.request): the stack did not start, or the request was
 * refused or failed; `cause` says how. Nothing is known of the candidates, so not the failed gate's code.
 */
export class NoComparisonError extends Error {
  constructor(cause: unknown) {
    super(describeError(cause), { cause });
    this.name = 'NoComparisonError';
  }
}

/** `step`, whose failure means no comparison came back ({@link NoComparisonError}). */
async function requesting<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (e) {
    throw new NoComparisonError(e);
  }
}

/** Polls the comparison until it ends, backing off from 100 ms to 2 s (its result is live meanwhile). */
async function waitForComparison(
  client: ReturnType<typeof createTribunalClient>,
  id: string,
  timeoutMs: number,
  progress: boolean,
): Promise<Comparison> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 1; ; attempt++) {
    const r = await retried(() => client.request('get', '/v1/comparisons/{id}', { params: { id } }));
    if (!r.ok)
      throw new TribunalError(`GET /v1/comparisons/${id}: HTTP ${String(r.status)}`, r.status, 'http_error', r.body);
    const c = r.body;
    if (progress) process.stderr.write(`\r${String(c.counts.ended)}/${String(c.counts.total)} evaluations ended `);
    if (TERMINAL.has(c.status)) {
      if (progress) process.stderr.write('\n');
      return c;
    }
    if (Date.now() > deadline) throw new Error(`comparison ${id} had not ended after ${String(timeoutMs)} ms`);
    await new Promise((res) => setTimeout(res, backoffDelay(attempt, { base: 100, max: 2000 })));
  }
}

/** Runs the comparison end to end (its own local stack unless `target`) and writes the JSON report. */
export async function runCompare(options: CompareOptions): Promise<CompareResult> {
  let dataset: ComparisonDataset;
  try {
    dataset = loadComparisonDataset(options.dataset);
  } catch (e) {
    throw new UsageError(`--dataset ${options.dataset}: ${describeError(e)}`);
  }
  const body = comparisonBodyOf(dataset, options);
  const human = humanStatsOf(dataset, body);
  const stateDir = options.target ? undefined : mkdtempSync(join(tmpdir(), 'tribunal-compare-'));
  const stack = stateDir
    ? await requesting(() =>
        startLocalStack({
          port: 0,
          mockPort: 0,
          persistTo: join(stateDir, 'state'),
          ...(options.baseUrl ? { llmBaseUrl: options.baseUrl } : {}),
        }).catch((e: unknown) => {
          rmSync(stateDir, { recursive: true, force: true });
          throw e;
        }),
      )
    : undefined;
  try {
    const client = createTribunalClient({ baseUrl: options.target ?? stack?.url ?? '', apiKey: options.token });
    const startedAt = Date.now();
    const key = `compare-${startedAt.toString(36)}`;
    const comparison = await requesting(async () => {
      const created = await retried(() =>
        client.request('post', '/v1/comparisons', { body, headers: { 'Idempotency-Key': key } }),
      );
      if (!created.ok) {
        const e = created.body as { error?: { code?: string; message?: string } };
        throw new Error(
          `the service refused the comparison (HTTP ${String(created.status)} ${e.error?.code ?? ''}): ${e.error?.message ?? ''}`,
        );
      }
      return waitForComparison(client, created.body.id, options.timeoutMs ?? 3_600_000, options.progress ?? true);
    });
    const wallMs = Date.now() - startedAt;
    const agreement = rankingAgreement(body.candidates, comparison, human);
    const text = compareText(options.dataset, options.preset, comparison, human, agreement, wallMs);
    const outFile =
      options.out ??
      join(REPO_ROOT, 'reports', `compare-${options.dataset}-${options.preset}-${String(Date.now())}.json`);
    mkdirSync(dirname(outFile), { recursive: true });
    const { token: _token, ...shown } = options;
    writeFileSync(
      outFile,
      JSON.stringify({ options: { ...shown, out: undefined }, wallMs, comparison, human, agreement }, null, 2),
    );
    const { exitCode, notes } = compareOutcome(comparison);
    return { comparison, human, agreement, wallMs, text, outFile, exitCode, notes };
  } finally {
    await stack?.stop();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  }
}

/** The options `--compare` adds to `npm run meta-eval` (merged into its spec). */
export const COMPARE_CLI_OPTIONS = {
  compare: { type: 'boolean' },
  candidates: { type: 'string' },
  baseline: { type: 'string' },
  'gate-candidate': { type: 'string' },
  'min-win-rate': { type: 'string' },
  confidence: { type: 'string' },
} as const;

/** Options only a labelled run takes, and options only `--compare` takes. */
const LABELLED_ONLY = ['aspect', 'concurrency', 'run-id', 'replay'] as const;
const COMPARE_ONLY = ['candidates', 'baseline', 'gate-candidate', 'min-win-rate', 'confidence'] as const;

/**
 * Refuses an option the chosen mode would ignore (with `--compare`, a labelled run's; without it, a
 * comparison's). @throws UsageError naming the option.
 */
export function checkModeOptions(values: Partial<Record<string, string | boolean | undefined>>): void {
  const given = (names: readonly string[]) => names.filter((n) => values[n] !== undefined);
  const wrong = values.compare ? given(LABELLED_ONLY) : given(COMPARE_ONLY);
  const [first] = wrong;
  if (first !== undefined)
    throw new UsageError(values.compare ? `--${first} does not go with --compare` : `--${first} goes with --compare`);
}

/** Usage lines of `--compare` (in `npm run meta-eval -- --help`). */
export const COMPARE_USAGE = `
Comparison mode (--compare): candidates' answers judged pair by pair (POST /v1/comparisons), the
leaderboard, pairs, gate and summary, and agreement with the humans' own ranking (Kendall τ, per pair).
  --compare           compare instead of scoring labelled items; --dataset mt-bench-human
  --candidates a,b    the candidates (default every model of the dataset)
  --baseline B        judge every other candidate against B only, and gate on it
  --gate-candidate C  the gate's candidate (default the first other candidate)
  --min-win-rate X    the gate's bar, (0, 1) (default 0.5)
  --confidence X      the gate's confidence, [0.5, 1) (default 0.95)
  (also --preset, --limit, --config, --model, --target, --token, --base-url, --out)
  Exit codes (the gate rule, as npm run gate): 0 completed and the gate passed (or no gate); 1 gate
  failed, an evaluation failed, or another error; 2 a usage error; 3 gate inconclusive (with a note);
  4 no comparison came back: the request was refused (key, body) or failed, or the stack did not start.`;

/** A number option inside `(lo, hi)` (`loClosed`: `lo` allowed). @throws UsageError naming the option. */
function rateOption(value: string | undefined, name: string, lo: number, loClosed: boolean): number | undefined {
  if (value === undefined) return undefined;
  const x = Number(value);
  if (!Number.isFinite(x) || x >= 1 || (loClosed ? x < lo : x <= lo))
    throw new UsageError(`--${name} must be a number in ${loClosed ? '[' : '('}${String(lo)}, 1)`);
  return x;
}

/** Options of a comparison run from the command line. @throws UsageError for what is missing or malformed. */
export function compareOptionsOf(
  values: {
    dataset?: string | undefined;
    preset?: string | undefined;
    candidates?: string | undefined;
    baseline?: string | undefined;
    'gate-candidate'?: string | undefined;
    'min-win-rate'?: string | undefined;
    confidence?: string | undefined;
    target?: string | undefined;
    token?: string | undefined;
    out?: string | undefined;
    model?: string | undefined;
    'base-url'?: string | undefined;
  },
  extra: { limit?: number | undefined; config?: Record<string, unknown> | undefined; token?: string | undefined },
): CompareOptions {
  if (!values.dataset) throw new UsageError('--dataset is required (--compare: mt-bench-human)');
  if (!values.preset) throw new UsageError('--preset is required');
  const minWinRate = rateOption(values['min-win-rate'], 'min-win-rate', 0, false);
  const confidence = rateOption(values.confidence, 'confidence', 0.5, true);
  if ((minWinRate !== undefined || confidence !== undefined) && values.baseline === undefined)
    throw new UsageError('--min-win-rate and --confidence set the gate: give --baseline too');
  const candidates = values.candidates
    ?.split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
  return {
    dataset: values.dataset,
    preset: values.preset,
    ...(candidates ? { candidates } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(values['gate-candidate'] !== undefined ? { gateCandidate: values['gate-candidate'] } : {}),
    ...(minWinRate !== undefined ? { minWinRate } : {}),
    ...(confidence !== undefined ? { confidence } : {}),
    ...(extra.limit !== undefined ? { limit: extra.limit } : {}),
    ...(extra.config ? { config: extra.config } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(values.target ? { target: values.target } : {}),
    ...(extra.token ? { token: extra.token } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values.out ? { out: values.out } : {}),
  };
}

/** `npm run meta-eval -- --compare …`: runs, prints and returns the exit code. */
export async function compareMain(options: CompareOptions): Promise<number> {
  let r: CompareResult;
  try {
    r = await runCompare(options);
  } catch (e) {
    if (!(e instanceof NoComparisonError)) throw e;
    console.error(`error: ${e.message}`);
    return GATE_EXIT_CODES.request;
  }
  console.log(r.text);
  console.log(`\nJSON report: ${r.outFile}`);
  for (const line of r.notes) console.error(line);
  return r.exitCode;
}
