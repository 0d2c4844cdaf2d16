/**
 * @module
 * The meta-evaluation runner: submits every labelled item of a dataset through the pipeline's HTTP API
 * (a local `wrangler dev` it starts itself, or `--target` a deployed URL), waits for the verdicts and
 * prints the agreement report (markdown table plus a JSON file), parse failures, calls, tokens, cost and
 * wall time.
 *
 * ```
 * npm run meta-eval -- --dataset faireval --preset chateval-faireval [--limit 10] [--concurrency 8]
 *   [--aspect coherence] [--base-url https://api.openai.com/v1] [--model gpt-4o-mini] [--target https://…]
 *   [--out reports/run.json]
 * npm run meta-eval -- --replay reports/run.json [--preset P] [--config overrides.json]   # no LLM calls
 * ```
 * The JSON report keeps every item's transcript, so `--replay` can re-aggregate the run under another preset
 * or config (`meta-replay.ts`).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { LabelledItem } from '../meta/datasets.js';
import { loadDatasetByName } from '../meta/datasets.js';
import type { AgreementReport } from '../meta/metrics.js';
import { reportOfJudged, toMarkdown } from '../meta/metrics.js';
import { reportOptionsFor } from '../meta/headline.js';
import type { StoredReply } from '../engine/replay.js';
import { runMetaReplay } from './meta-replay.js';
import type { Verdict } from '../engine/verdict.js';
import { REPO_ROOT, startLocalStack } from './local-stack.js';

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
  /** Model for every agent (sent as a config override). */
  model?: string;
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
  totals: { items: number; succeeded: number; failed: number; unparsed: number; calls: number; promptTokens: number; completionTokens: number; costUsd: number; wallMs: number };
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

async function submit(base: string, options: MetaEvalOptions, runId: string, item: LabelledItem): Promise<string> {
  const body = {
    preset: options.preset,
    ...(options.model ? { config: { defaults: { model: options.model } } } : {}),
    task: item.task,
    metadata: { item: item.id },
  };
  const r = await fetch(`${base}/v1/evaluations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `${runId}:${item.id}` },
    body: JSON.stringify(body),
  });
  const json = (await r.json()) as { id?: string; error?: { message: string } };
  if (!r.ok || !json.id) throw new Error(`submit ${item.id}: HTTP ${r.status} ${json.error?.message ?? ''}`);
  return json.id;
}

async function waitFor(base: string, id: string, timeoutMs: number): Promise<EvaluationView> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    const r = await fetch(`${base}/v1/evaluations/${id}`);
    const view = (await r.json()) as EvaluationView;
    if (TERMINAL.has(view.status)) return view;
    if (Date.now() > deadline) return { ...view, error: { code: 'runner_timeout', message: `no verdict after ${timeoutMs} ms` } };
    await new Promise((res) => setTimeout(res, delay));
    delay = Math.min(500, delay * 1.5);
  }
}

async function transcriptOf(base: string, id: string): Promise<StoredReply[] | undefined> {
  const r = await fetch(`${base}/v1/evaluations/${id}/transcript`);
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

/** Runs a meta-evaluation end to end and writes the JSON report. */
export async function runMetaEval(options: MetaEvalOptions): Promise<MetaEvalResult> {
  const all = loadDatasetByName(options.dataset, options.aspect !== undefined ? { aspect: options.aspect } : {});
  const items = options.limit !== undefined ? all.slice(0, options.limit) : all;
  const stack = options.target
    ? undefined
    : await startLocalStack({
        port: 0,
        mockPort: 0,
        persistTo: join(tmpdir(), `tribunal-meta-${process.pid}-${Date.now()}`),
        ...(options.baseUrl ? { llmBaseUrl: options.baseUrl } : {}),
        ...(options.model ? { llmModel: options.model } : {}),
      });
  const base = (options.target ?? stack?.url ?? '').replace(/\/$/, '');
  const runId = `meta-${Date.now().toString(36)}`;
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
          const id = await submit(base, options, runId, item);
          const view = await waitFor(base, id, options.itemTimeoutMs ?? 600_000);
          const transcript = view.status === 'succeeded' ? await transcriptOf(base, id) : undefined;
          result = {
            item,
            evaluationId: id,
            status: view.status,
            ...(view.verdict ? { verdict: view.verdict } : {}),
            ...(view.error ? { error: view.error } : {}),
            ...(transcript ? { transcript } : {}),
          };
        } catch (e) {
          result = { item, evaluationId: '', status: 'failed', error: { code: 'runner_error', message: String(e) } };
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
    await stack?.stop();
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
    { items: results.length, succeeded: 0, failed: 0, unparsed: 0, calls: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, wallMs },
  );
  const markdown = [
    `## Meta-evaluation: ${options.preset} on ${options.dataset}${options.aspect ? ` (${options.aspect})` : ''}`,
    '',
    toMarkdown(report),
    '',
    `items ${totals.items} · succeeded ${totals.succeeded} · failed ${totals.failed} · unparsed replies ${totals.unparsed} · ` +
      `calls ${totals.calls} · tokens ${totals.promptTokens} in / ${totals.completionTokens} out · ` +
      `cost $${totals.costUsd.toFixed(4)} · wall ${(wallMs / 1000).toFixed(1)} s`,
  ].join('\n');
  const outFile =
    options.out ??
    join(REPO_ROOT, 'reports', `meta-eval-${options.dataset.replace(/[^a-z0-9-]/gi, '_')}-${options.preset}-${Date.now()}.json`);
  mkdirSync(dirname(outFile), { recursive: true });
  writeFileSync(
    outFile,
    JSON.stringify({ options: { ...options, out: undefined }, totals, report, results: results.map((r) => ({ id: r.item.id, evaluationId: r.evaluationId, status: r.status, human: r.item.human, winner: r.verdict?.winner, score: r.verdict?.score, positionFlip: r.verdict?.positionFlip, error: r.error, transcript: r.transcript })) }, null, 2),
  );
  return { report, results, totals, markdown, outFile };
}

function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string' },
      preset: { type: 'string' },
      aspect: { type: 'string' },
      limit: { type: 'string' },
      concurrency: { type: 'string' },
      target: { type: 'string' },
      'base-url': { type: 'string' },
      model: { type: 'string' },
      out: { type: 'string' },
      replay: { type: 'string' },
      config: { type: 'string' },
    },
  });
  if (values.replay) {
    const config = values.config ? (JSON.parse(readFileSync(values.config, 'utf8')) as Record<string, unknown>) : undefined;
    const r = runMetaReplay({ from: values.replay, ...(values.preset ? { preset: values.preset } : {}), ...(config ? { config } : {}), ...(values.out ? { out: values.out } : {}) });
    console.log(`${r.markdown}\n\nJSON report: ${r.outFile}`);
    return Promise.resolve();
  }
  if (!values.dataset || !values.preset) {
    console.error('usage: npm run meta-eval -- --dataset <faireval|topical-chat|summeval|mt-bench|file> --preset <preset> [--aspect A] [--limit N] [--concurrency C] [--target URL] [--base-url URL] [--model M] [--out FILE]\n       npm run meta-eval -- --replay RUN.json [--preset P] [--config overrides.json] [--out FILE]');
    process.exit(2);
  }
  return runMetaEval({
    dataset: values.dataset,
    preset: values.preset,
    ...(values.aspect ? { aspect: values.aspect } : {}),
    ...(values.limit ? { limit: Number(values.limit) } : {}),
    ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
    ...(values.target ? { target: values.target } : {}),
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values.model ? { model: values.model } : {}),
    ...(values.out ? { out: values.out } : {}),
  }).then((r) => {
    console.log(r.markdown);
    console.log(`\nJSON report: ${r.outFile}`);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
