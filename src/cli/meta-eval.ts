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
import type { LabelledItem } from '../metrics/labelled.js';
import { loadDatasetByName } from '../datasets/loaders.js';
import type { AgreementReport } from '../metrics/agreement.js';
import { reportOfJudged } from '../metrics/agreement.js';
import { toMarkdown } from '../metrics/agreement-markdown.js';
import { cascadeDetailsOf, cascadeMarkdown, cascadeReportOfJudged } from '../metrics/cascade.js';
import { calibrateCascade, calibrationMarkdown, escalateItemsOf } from '../metrics/escalate.js';
import { reportOptionsFor } from '../metrics/headline.js';
import type { StoredReply } from '../engine/replay.js';
import { runMetaReplay } from './meta-replay.js';
import type { Verdict } from '../engine/verdict.js';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import { describeError, intOption, isMain, jsonObjectOption, runCli, UsageError } from './args.js';
import { startLocalStack } from './local-stack.js';
import { REPO_ROOT } from './worker-bundle.js';
import { outcomeOfRun } from './meta-eval-outcome.js';
import {
  checkModeOptions,
  COMPARE_CLI_OPTIONS,
  COMPARE_USAGE,
  compareMain,
  compareOptionsOf,
} from './meta-eval-compare.js';
import type { MetaEvalOptions } from './meta-eval-client.js';
import { authOf, checkJudge, reachable, submitItem, transcriptOf, waitFor } from './meta-eval-client.js';

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

function bar(done: number, total: number, failed: number, startedAt: number): string {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const secs = ((Date.now() - startedAt) / 1000).toFixed(0);
  return `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}  failed ${failed}  ${secs}s `;
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
      // Labels per aspect and a multi-aspect verdict: the printed report gains a row per aspect.
      humanAspects: r.item.humanAspects ?? null,
      aspectScores: r.verdict?.aspects
        ? Object.fromEntries(r.verdict.aspects.map((a) => [a.name, a.score ?? null]))
        : null,
    })),
    reportOptionsFor(options.dataset),
  );
  // A cascade's stages: agreement and cost per stage, savings, thresholds priced from the recorded verdicts.
  const cascade = cascadeReportOfJudged(
    results.map((r) => ({ human: r.item.human, status: r.status, details: r.verdict?.details })),
  );
  // Trust or Escalate: each stage's threshold for the paper's α = 0.2, δ = 0.1, from a labelled pairwise run.
  const escalate = cascade
    ? escalateItemsOf(
        results.flatMap((r) => {
          const details = r.status === 'succeeded' ? cascadeDetailsOf(r.verdict?.details) : undefined;
          return details ? [{ human: r.item.human, cascade: details }] : [];
        }),
      )
    : [];
  const calibration = escalate.length > 0 ? calibrateCascade(escalate) : undefined;
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
    ...(calibration ? ['', calibrationMarkdown(calibration)] : []),
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
        ...(calibration ? { calibration } : {}),
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

Exit codes: 0 every item judged; 1 an item failed, none could be scored, or an error; 2 a usage error.
${COMPARE_USAGE}`,
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
    ...COMPARE_CLI_OPTIONS,
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
  checkModeOptions(values);
  if (values.compare) {
    const token = values.token ?? process.env.TRIBUNAL_TOKEN;
    if (values.token && !values.target)
      throw new UsageError('--token goes with --target (the local stack has no API keys)');
    const limit = intOption(values.limit, 'limit', 1);
    const config = jsonObjectOption(values.config, 'config');
    return compareMain(compareOptionsOf(values, { limit, config, token: values.target ? token : undefined }));
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
