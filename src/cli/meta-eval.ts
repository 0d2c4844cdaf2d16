/**
 * @module
 * The meta-evaluation runner: submits every labelled item of a dataset through the pipeline's HTTP API
 * (a local `wrangler dev` it starts itself, or `--target` a deployed URL), waits for the verdicts and
 * prints the agreement report (markdown table plus a JSON file), parse failures, calls, tokens, cost and
 * wall time.
 *
 * ```
 * npm run meta-eval -- --dataset faireval --preset chateval-faireval [--limit 10] [--concurrency 8]
 *   [--aspect coherence] [--base-url https://api.openai.com/v1] [--model gpt-4o-mini]
 *   [--target https://… [--token T] [--run-id ID]] [--config '{"turns": 3}' | --config @overrides.json] [--out reports/run.json]
 * npm run meta-eval -- --replay reports/run.json [--preset P] [--config C]   # no LLM calls
 * ```
 *
 * The JSON report keeps every item's transcript, so `--replay` can re-aggregate the run under another preset
 * or config (./meta-replay.ts). Exits 1 when any item failed or no item could be scored, with the reasons on stderr.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LabelledItem } from '../meta/datasets.js';
import { loadDatasetByName } from '../meta/datasets.js';
import type { AgreementReport } from '../meta/metrics.js';
import { reportOfJudged, toMarkdown } from '../meta/metrics.js';
import { cascadeMarkdown, cascadeReportOfJudged } from '../meta/cascade.js';
import { reportOptionsFor } from '../meta/headline.js';
import type { StoredReply } from '../engine/replay.js';
import { runMetaReplay } from './meta-replay.js';
import type { Verdict } from '../engine/verdict.js';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import { describeError, intOption, isMain, jsonObjectOption, runCli, UsageError } from './args.js';
import { REPO_ROOT, startLocalStack } from './local-stack.js';
import { outcomeOfRun } from './meta-eval-outcome.js';

/** Options of {@link runMetaEval}. */
export interface MetaEvalOptions {
  /** Dataset name (`faireval`, `topical-chat`, `summeval`, `mt-bench`) or a path to a JSON/JSONL file of labelled items. */
  dataset: string;
  /** Preset id (see GET /v1/methods). */
  preset: string;
  /** Aspect for pointwise datasets (Topical-Chat, SummEval); required for them. */
  aspect?: string;
  /** Items to run, from the start of the dataset. Default: all. */
  limit?: number;
  /** Evaluations in flight at once. Default 8. */
  concurrency?: number;
  /** API base URL of a running deployment; default: start a local stack. */
  target?: string;
  /** OpenAI-compatible base URL for the local stack; default: the bundled mock. */
  baseUrl?: string;
  /** Model for every agent (sent as a config override, `defaults.model`, over `config`'s). */
  model?: string;
  /** Config overrides sent with every evaluation (merged over the preset by the API). */
  config?: Record<string, unknown>;
  /** Bearer token for `target` (its `API_KEYS`); sent as `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Names the run in every item's `Idempotency-Key` (`<runId>:<item id>`). Default: a new id per run.
   * Passing a crashed run's id again resumes it against the same `target`: items it submitted return
   * their evaluations instead of being judged (and billed) twice.
   */
  runId?: string;
  /** Where the JSON report goes; default `reports/meta-eval-<dataset>-<preset>-<time>.json`. */
  out?: string;
  /** Progress bar on stderr. Default true. */
  progress?: boolean;
  /** Give up on one evaluation after this many ms. Default 600000. */
  itemTimeoutMs?: number;
}

/** One item's result as the runner saw it. */
export interface ItemResult {
  item: LabelledItem;
  evaluationId: string;
  status: string;
  verdict?: Omit<Verdict, 'transcript'>;
  error?: { code: string; message: string };
  /** The stored replies (`GET /v1/evaluations/:id/transcript`), for `--replay`. */
  transcript?: StoredReply[];
}

/** What a run produces. */
export interface MetaEvalResult {
  report: AgreementReport;
  results: ItemResult[];
  totals: {
    items: number;
    succeeded: number;
    failed: number;
    unparsed: number;
    calls: number;
    promptTokens: number;
    completionTokens: number;
    costUsd: number;
    wallMs: number;
  };
  markdown: string;
  outFile: string;
}

interface EvaluationView {
  id: string;
  status: string;
  verdict?: Omit<Verdict, 'transcript'>;
  error?: { code: string; message: string };
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** The config overrides every item is sent with: `config`, with `model` as `defaults.model` over it. */
function overridesOf(options: MetaEvalOptions): Record<string, unknown> | undefined {
  if (!options.model) return options.config;
  const defaults = options.config?.defaults;
  const base = typeof defaults === 'object' && defaults !== null ? defaults : {};
  return { ...options.config, defaults: { ...base, model: options.model } };
}

function authOf(options: MetaEvalOptions): Record<string, string> {
  return options.token ? { authorization: `Bearer ${options.token}` } : {};
}

/** Attempts per item's POST: a lost answer (network error), 429 or 5xx is sent again with the same key. */
export const SUBMIT_ATTEMPTS = 4;

/**
 * Submits one item. The `Idempotency-Key` makes a retry safe: a POST whose answer was lost may have
 * created the evaluation, and the same key returns it instead of creating a second one.
 */
export async function submitItem(
  base: string,
  options: MetaEvalOptions,
  runId: string,
  item: LabelledItem,
): Promise<string> {
  const config = overridesOf(options);
  const body = JSON.stringify({
    preset: options.preset,
    ...(config ? { config } : {}),
    task: item.task,
    metadata: { item: item.id },
  });
  const headers = { 'content-type': 'application/json', 'idempotency-key': `${runId}:${item.id}`, ...authOf(options) };
  for (let attempt = 1; ; attempt++) {
    let r: Response;
    try {
      r = await fetch(`${base}/v1/evaluations`, { method: 'POST', headers, body });
    } catch (e) {
      if (attempt >= SUBMIT_ATTEMPTS) throw new Error(`submit: ${describeError(e)} (${attempt} attempts)`);
      await backoff(attempt);
      continue;
    }
    const json = (await r.json().catch(() => ({}))) as { id?: string; error?: { message: string } };
    if (r.ok && json.id) return json.id;
    const transient = r.status === 429 || r.status >= 500;
    if (!transient || attempt >= SUBMIT_ATTEMPTS)
      throw new Error(`submit: HTTP ${r.status} ${json.error?.message ?? ''}`.trimEnd());
    await backoff(attempt, r.headers.get('retry-after'));
  }
}

function backoff(attempt: number, retryAfter?: string | null): Promise<void> {
  const seconds = Number(retryAfter);
  const ms = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, 30_000) : 200 * 2 ** (attempt - 1);
  return new Promise((res) => setTimeout(res, ms));
}

async function waitFor(
  base: string,
  id: string,
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<EvaluationView> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    const r = await fetch(`${base}/v1/evaluations/${id}`, { headers });
    const view = (await r.json()) as EvaluationView & { error?: { message?: string } };
    // An error answer (401, 404, 5xx) has no status: it ends the wait, with the service's reason.
    if (!r.ok)
      return {
        id,
        status: 'failed',
        error: { code: 'runner_error', message: `poll: HTTP ${r.status} ${view.error?.message ?? ''}`.trimEnd() },
      };
    if (TERMINAL.has(view.status)) return view;
    if (Date.now() > deadline)
      return { ...view, error: { code: 'runner_timeout', message: `no verdict after ${timeoutMs} ms` } };
    await new Promise((res) => setTimeout(res, delay));
    delay = Math.min(500, delay * 1.5);
  }
}

async function transcriptOf(
  base: string,
  id: string,
  headers: Record<string, string>,
): Promise<StoredReply[] | undefined> {
  const r = await fetch(`${base}/v1/evaluations/${id}/transcript`, { headers });
  if (!r.ok) return undefined;
  const body = (await r.json()) as { messages?: StoredReply[] };
  return body.messages?.map(({ callId, model, content }) => ({ callId, model, content }));
}

function bar(done: number, total: number, failed: number, startedAt: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const secs = ((Date.now() - startedAt) / 1000).toFixed(0);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  failed ${failed}  ${secs}s `;
}

/** The judge, config or task was refused before any item was sent (every item would have been). */
export class JudgeRefusedError extends Error {
  override name = 'JudgeRefusedError';
}

/**
 * Checks the judge (`--preset`, `--config`, `--model`) with the first item's task once, before any item is
 * submitted: `POST /v1/estimates` validates a body exactly as `POST /v1/evaluations` does, and creates
 * nothing and calls no LLM. A refusal (an unknown preset, a bad config, a task kind the preset does not
 * take, a missing or wrong token) throws {@link JudgeRefusedError} with the service's reason. A service
 * without that route, or a transient failure, leaves the check to the items.
 */
export async function checkJudge(base: string, options: MetaEvalOptions, item: LabelledItem): Promise<void> {
  const config = overridesOf(options);
  let r: Response;
  try {
    r = await fetch(`${base}/v1/estimates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authOf(options) },
      body: JSON.stringify({ preset: options.preset, ...(config ? { config } : {}), task: item.task }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    return;
  }
  if (r.ok) {
    await r.body?.cancel();
    return;
  }
  const body = (await r.json().catch(() => ({}))) as {
    error?: { code?: string; message?: string; issues?: { path?: string; message?: string }[] };
  };
  const code = body.error?.code ?? '';
  if (r.status === 429 || r.status >= 500 || code === 'not_found' || code === 'method_not_allowed') return;
  const issues = (body.error?.issues ?? []).map((i) => `${i.path ?? ''}: ${i.message ?? ''}`);
  throw new JudgeRefusedError(
    `the service refused this run before any item was sent (HTTP ${r.status} ${code}): ${body.error?.message ?? ''}` +
      (issues.length > 0 ? ` (${issues.join('; ')})` : ''),
  );
}

/** Fails at once, naming the URL, when `--target` does not answer (instead of one failure per item). */
async function reachable(base: string): Promise<void> {
  try {
    await fetch(`${base}/health`, { signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw new Error(`cannot reach --target ${base}: ${describeError(e)}`);
  }
}

/** Runs a meta-evaluation end to end and writes the JSON report. */
export async function runMetaEval(options: MetaEvalOptions): Promise<MetaEvalResult> {
  const all = loadDatasetByName(options.dataset, options.aspect !== undefined ? { aspect: options.aspect } : {});
  const items = options.limit !== undefined ? all.slice(0, options.limit) : all;
  // The self-started stack's state lives only as long as the run: removed whichever way the run ends.
  const stateDir = options.target ? undefined : mkdtempSync(join(tmpdir(), 'tribunal-meta-'));
  const removeState = () => {
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  };
  let stack: Awaited<ReturnType<typeof startLocalStack>> | undefined;
  // Ctrl+C: the stack and its state go too (the runtime's group would be killed anyway, the folder would stay).
  const onSignal = () => {
    void (stack?.stop() ?? Promise.resolve()).finally(() => {
      removeState();
      process.exit(130);
    });
  };
  if (stateDir) for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, onSignal);
  try {
    stack = stateDir
      ? await startLocalStack({
          port: 0,
          mockPort: 0,
          persistTo: join(stateDir, 'state'),
          ...(options.baseUrl ? { llmBaseUrl: options.baseUrl } : {}),
          ...(options.model ? { llmModel: options.model } : {}),
        })
      : undefined;
    const base = (options.target ?? stack?.url ?? '').replace(/\/$/, '');
    if (options.target) await reachable(base);
    const first = items[0];
    if (first) await checkJudge(base, options, first);
    return await judgeItems(base, options, items);
  } finally {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.off(signal, onSignal);
    await stack?.stop();
    removeState();
  }
}

/** Judges `items` against `base`, then writes the report. */
async function judgeItems(base: string, options: MetaEvalOptions, items: LabelledItem[]): Promise<MetaEvalResult> {
  const runId = options.runId ?? `meta-${Date.now().toString(36)}`;
  if (options.target && !options.runId)
    process.stderr.write(
      `run id ${runId} (if this run stops, --run-id ${runId} resumes it without judging anything twice)\n`,
    );
  const startedAt = Date.now();
  const results = new Array<ItemResult>(items.length);
  let next = 0;
  let done = 0;
  let failed = 0;
  const showProgress = options.progress ?? true;
  try {
    const worker = async () => {
      for (;;) {
        const i = next++;
        const item = items[i];
        if (!item) return;
        let result: ItemResult;
        try {
          const id = await submitItem(base, options, runId, item);
          const view = await waitFor(base, id, options.itemTimeoutMs ?? 600_000, authOf(options));
          const transcript = view.status === 'succeeded' ? await transcriptOf(base, id, authOf(options)) : undefined;
          result = {
            item,
            evaluationId: id,
            status: view.status,
            ...(view.verdict ? { verdict: view.verdict } : {}),
            ...(view.error ? { error: view.error } : {}),
            ...(transcript ? { transcript } : {}),
          };
        } catch (e) {
          result = {
            item,
            evaluationId: '',
            status: 'failed',
            error: { code: 'runner_error', message: describeError(e) },
          };
        }
        results[i] = result;
        done += 1;
        if (result.status !== 'succeeded') failed += 1;
        if (showProgress) process.stderr.write(bar(done, items.length, failed, startedAt));
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  } finally {
    if (showProgress) process.stderr.write('\n');
  }
  const wallMs = Date.now() - startedAt;

  // The same report the meta-evaluation API stores, from the same rules.
  const report = reportOfJudged(
    results.map((r) => ({
      itemId: r.item.id,
      status: r.status,
      human: r.item.human,
      group: r.item.group ?? null,
      winner: r.verdict?.winner ?? null,
      score: r.verdict?.score ?? null,
      positionFlip: r.verdict?.positionFlip ?? null,
      decided: r.verdict?.votes.some((v) => v.parsed) === true,
    })),
    reportOptionsFor(options.dataset),
  );
  // A cascade's stages: agreement and cost per stage, savings, thresholds priced from the recorded verdicts.
  const cascade = cascadeReportOfJudged(
    results.map((r) => ({ human: r.item.human, status: r.status, details: r.verdict?.details })),
  );
  const totals = results.reduce(
    (t, r) => ({
      ...t,
      succeeded: t.succeeded + (r.status === 'succeeded' ? 1 : 0),
      failed: t.failed + (r.status === 'succeeded' ? 0 : 1),
      unparsed: t.unparsed + (r.verdict?.unparsed.length ?? 0),
      calls: t.calls + (r.verdict?.calls ?? 0),
      promptTokens: t.promptTokens + (r.verdict?.usage.promptTokens ?? 0),
      completionTokens: t.completionTokens + (r.verdict?.usage.completionTokens ?? 0),
      costUsd: t.costUsd + (r.verdict?.usage.costUsd ?? 0),
    }),
    {
      items: results.length,
      succeeded: 0,
      failed: 0,
      unparsed: 0,
      calls: 0,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
      wallMs,
    },
  );
  const markdown = [
    `## Meta-evaluation: ${options.preset} on ${options.dataset}${options.aspect ? ` (${options.aspect})` : ''}`,
    '',
    toMarkdown(report),
    '',
    `items ${totals.items} · succeeded ${totals.succeeded} · failed ${totals.failed} · unparsed replies ${totals.unparsed} · ` +
      `calls ${totals.calls} · tokens ${totals.promptTokens} in / ${totals.completionTokens} out · ` +
      `cost $${totals.costUsd.toFixed(4)} · wall ${(wallMs / 1000).toFixed(1)} s`,
    ...(cascade ? ['', cascadeMarkdown(cascade)] : []),
  ].join('\n');
  const outFile =
    options.out ??
    join(
      REPO_ROOT,
      'reports',
      `meta-eval-${options.dataset.replace(/[^a-z0-9-]/gi, '_')}-${options.preset}-${Date.now()}.json`,
    );
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    JSON.stringify(
      {
        options: { ...options, out: undefined },
        totals,
        report,
        ...(cascade ? { cascade } : {}),
        results: results.map((r) => ({
          id: r.item.id,
          evaluationId: r.evaluationId,
          status: r.status,
          human: r.item.human,
          winner: r.verdict?.winner,
          score: r.verdict?.score,
          positionFlip: r.verdict?.positionFlip,
          error: r.error,
          transcript: r.transcript,
        })),
      },
      null,
      2,
    ),
  );
  return { report, results, totals, markdown, outFile };
}

/** Command line of `npm run meta-eval`. */
export const META_EVAL_CLI = {
  usage: `usage: npm run meta-eval -- --dataset D --preset P [options]
       npm run meta-eval -- --replay RUN.json [--preset P] [--config C] [--out FILE]

Judges every labelled item through the HTTP API and prints agreement with the human labels.

  --dataset D         faireval, topical-chat, summeval, mt-bench, or a .json/.jsonl file of
                      { id, task, human, group? } items (e.g. datasets/examples/my-labels.jsonl)
  --preset P          preset id (GET /v1/methods lists them)
  --aspect A          aspect for topical-chat and summeval (e.g. coherence)
  --limit N           the first N items only
  --concurrency C     evaluations in flight at once (default 8)
  --config C          config overrides for every item: inline JSON or @file.json
  --model M           model for every agent (config defaults.model)
  --target URL        a running deployment; default: a local stack started for this run
  --token T           bearer token for --target (default TRIBUNAL_TOKEN)
  --run-id ID         resume a run that stopped (its id is printed at the start): items it submitted
                      to --target are not judged again (each item's Idempotency-Key is ID:<item id>)
  --base-url URL      OpenAI-compatible endpoint for the local stack (default: the bundled mock)
  --out FILE          JSON report (default reports/meta-eval-<dataset>-<preset>-<time>.json)
  --replay RUN.json   re-aggregate a finished run's stored transcripts under --preset / --config,
                      without LLM calls (items needing replies the run never recorded are listed)
  -h, --help          this text

Exit codes: 0 every item judged; 1 an item failed, none could be scored, or an error; 2 a usage error.`,
  options: {
    dataset: { type: 'string' },
    preset: { type: 'string' },
    aspect: { type: 'string' },
    limit: { type: 'string' },
    concurrency: { type: 'string' },
    config: { type: 'string' },
    target: { type: 'string' },
    token: { type: 'string' },
    'run-id': { type: 'string' },
    'base-url': { type: 'string' },
    model: { type: 'string' },
    out: { type: 'string' },
    replay: { type: 'string' },
  },
} as const satisfies CliSpec<CliOptions>;

/** Options of a run from the command line; throws {@link UsageError} for what is missing or malformed. */
export function metaEvalOptionsOf(
  values: CliValues<typeof META_EVAL_CLI.options>,
  env: NodeJS.ProcessEnv = process.env,
): MetaEvalOptions {
  if (!values.dataset) throw new UsageError('--dataset is required');
  if (!values.preset) throw new UsageError('--preset is required');
  const token = values.token ?? env.TRIBUNAL_TOKEN;
  if (token && !values.target) throw new UsageError('--token goes with --target (the local stack has no API keys)');
  const runId = values['run-id'];
  if (runId !== undefined && !values.target)
    throw new UsageError('--run-id goes with --target (the local stack starts empty on every run)');
  if (runId !== undefined && !/^[\x21-\x7e]{1,200}$/.test(runId))
    throw new UsageError('--run-id must be 1-200 visible ASCII characters');
  if (values.target && values['base-url'])
    throw new UsageError('--base-url configures the local stack; a --target uses its own LLM settings');
  const limit = intOption(values.limit, 'limit', 1);
  const concurrency = intOption(values.concurrency, 'concurrency', 1, 1000);
  const config = jsonObjectOption(values.config, 'config');
  return {
    dataset: values.dataset,
    preset: values.preset,
    ...(values.aspect ? { aspect: values.aspect } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(values.target ? { target: values.target } : {}),
    ...(token ? { token } : {}),
    ...(runId !== undefined ? { runId } : {}),
    ...(config ? { config } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(values.out ? { out: values.out } : {}),
  };
}

async function main(values: CliValues<typeof META_EVAL_CLI.options>): Promise<number> {
  if (values.replay) {
    if (values.dataset || values.target || values['base-url'])
      throw new UsageError('--replay reads a finished run: no --dataset, --target or --base-url');
    const config = jsonObjectOption(values.config, 'config');
    const r = runMetaReplay({
      from: values.replay,
      ...(values.preset ? { preset: values.preset } : {}),
      ...(config ? { config } : {}),
      ...(values.out ? { out: values.out } : {}),
    });
    console.log(`${r.markdown}\n\nJSON report: ${r.outFile}`);
    return 0;
  }
  const options = metaEvalOptionsOf(values);
  try {
    // Checked before anything starts: a wrong path, aspect or item is the user's to fix (exit 2).
    loadDatasetByName(options.dataset, options.aspect !== undefined ? { aspect: options.aspect } : {});
  } catch (e) {
    throw new UsageError(`--dataset ${options.dataset}: ${describeError(e)}`);
  }
  const run = await runMetaEval(options);
  console.log(run.markdown);
  console.log(`\nJSON report: ${run.outFile}`);
  const outcome = outcomeOfRun(run);
  for (const line of outcome.lines) console.error(line);
  return outcome.exitCode;
}

if (isMain(import.meta.url)) await runCli(META_EVAL_CLI, main);
