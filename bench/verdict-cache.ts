/**
 * Verdict cache bench: one `POST /v1/batches` of N `chateval-faireval` items on the local stack, then the
 * same batch again with the cache on (the default). Prints, per run, the LLM requests the mock received
 * (counted at the mock), the billed calls (the batch's usage rows), the items served from the cache and the
 * wall time to completion: the repeat makes 0 LLM calls.
 *
 * ```
 * npm run bench:cache -- [--items 200] [--preset chateval-faireval]
 * ```
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { startMockServer } from '../src/mock-llm/node.js';

const CLI = {
  usage: `usage: npm run bench:cache -- [options]

A batch on the local stack, then the same batch again with the verdict cache on: LLM requests at the mock,
billed calls, cache hits and wall time of each.

  --items N      items in the batch (default 200)
  --preset P     preset (default chateval-faireval)
  -h, --help     this text`,
  options: { items: { type: 'string', default: '200' }, preset: { type: 'string', default: 'chateval-faireval' } },
} as const satisfies CliSpec<CliOptions>;

interface BatchView {
  completedAt: string | null;
  counts: { succeeded: number; failed: number; cancelled: number };
  usage: { calls: number; costUsd: number };
}

/** GET as JSON; a dropped connection is retried (3 attempts, 1 s apart) and reported. */
async function getJson<T>(url: string): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await (await fetch(url, { signal: AbortSignal.timeout(30_000) })).json()) as T;
    } catch (e) {
      process.stderr.write(`GET ${url}: ${e instanceof Error ? e.message : String(e)} (attempt ${attempt})\n`);
      if (attempt >= 3) throw e;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 200;
  let llmRequests = 0;
  const mock = await startMockServer({
    port: 0,
    around: (request, next) => {
      if (new URL(request.url).pathname.endsWith('/chat/completions')) llmRequests += 1;
      return next(request);
    },
  });
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-bench-cache-'));
  const stack = await startBenchStack({
    persistTo: join(dir, 'state'),
    mock,
    crons: false,
    logFile: true,
  });
  console.log(`runtime log: ${stack.logFile ?? ''}`);
  const body = JSON.stringify({
    preset: values.preset,
    items: Array.from({ length: n }, (_, i) => ({
      id: `i${i}`,
      task: {
        kind: 'pairwise',
        question: `(${i}) Which answer explains recursion better?`,
        answerA: `A function that calls itself until a base case (${i}).`,
        answerB: 'Recursion is recursion.',
      },
    })),
  });
  try {
    console.log(`| run | items | LLM requests (mock) | billed calls | cache hits | succeeded | wall s |`);
    console.log(`|---|--:|--:|--:|--:|--:|--:|`);
    for (const run of ['first', 'repeat']) {
      const before = llmRequests;
      const t0 = Date.now();
      process.stderr.write(`POST /v1/batches (${run})\n`);
      const r = await fetch(`${stack.url}/v1/batches`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const { id } = (await r.json()) as { id?: string };
      if (r.status !== 202 || id === undefined) throw new Error(`POST /v1/batches: HTTP ${r.status}`);
      let view = await getJson<BatchView>(`${stack.url}/v1/batches/${id}`);
      while (view.completedAt === null) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        view = await getJson<BatchView>(`${stack.url}/v1/batches/${id}`);
      }
      const completedAt = view.completedAt;
      const usage = await getJson<{ verdictCache: { hits: number } }>(`${stack.url}/v1/usage`);
      console.log(
        `| ${run} | ${n} | ${llmRequests - before} | ${view.usage.calls} | ${run === 'first' ? 0 : usage.verdictCache.hits} | ` +
          `${view.counts.succeeded} | ${((Date.parse(completedAt) - t0) / 1000).toFixed(1)} |`,
      );
    }
  } finally {
    await stack.stop();
    await mock.close();
  }
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
