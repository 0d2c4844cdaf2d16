/**
 * @module
 * The two judge libraries `bench:peers` (bench/peers.ts) runs beside Tribunal: autoevals and promptfoo, imported
 * from their own install in bench/peers so the service's install stays lean.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closedLoop, item, note } from './closed-loop.js';
import type { Row } from './closed-loop.js';
import { groupCpuMs, ownCpuMs } from './proc-cpu.js';
import type { MockProcess } from './mock-process.js';

/** The model name every tool asks the mock for. */
export const MODEL = 'mock-judge';

/** Imports a package installed in bench/peers. */
async function importPeer(peers: string, name: string, entry: string): Promise<unknown> {
  return (await import(pathToFileURL(join(peers, 'node_modules', name, entry)).href)) as unknown;
}

type BattleFn = (args: Record<string, unknown>) => Promise<{ score: number | null }>;

/**
 * autoevals' `Battle` on `n` items, `c` in flight, inside this process, against `mock`.
 * @param peers where the peers are installed (bench/peers by default)
 */
export async function runAutoevals(peers: string, n: number, c: number, mock: MockProcess): Promise<Row> {
  const { Battle } = (await importPeer(peers, 'autoevals', 'jsdist/index.mjs')) as { Battle: BattleFn };
  // Warm-up: module and connection set-up are not part of the burst.
  await Battle({
    instructions: 'warm-up',
    output: 'a',
    expected: 'b',
    model: MODEL,
    openAiApiKey: 'bench',
    openAiBaseUrl: mock.baseUrl,
  });
  const before = { mock: groupCpuMs(mock.pgid), client: ownCpuMs() };
  const r = await closedLoop(n, c, async (i) => {
    const { question, answerA, answerB } = item(i);
    const score = await Battle({
      instructions: question,
      output: answerB,
      expected: answerA,
      model: MODEL,
      openAiApiKey: 'bench',
      openAiBaseUrl: mock.baseUrl,
    });
    if (typeof score.score !== 'number') throw new Error('Battle returned no score');
  });
  const client = (ownCpuMs() - before.client) / n;
  return {
    tool: 'autoevals',
    itemsPerSecond: n / r.seconds,
    failed: r.failed,
    judgeCpuMs: client,
    workerdCpuMs: null,
    mockCpuMs: (groupCpuMs(mock.pgid) - before.mock) / n,
    clientCpuMs: client,
    split: null,
    note: note('Battle, in this process', r.firstError),
  };
}

type EvaluateFn = (
  suite: Record<string, unknown>,
  options: Record<string, unknown>,
) => Promise<{ toEvaluateSummary(): Promise<{ results: { success: boolean; error?: string }[] }> }>;

/**
 * promptfoo's `llm-rubric` on `n` items with `maxConcurrency` `c`, inside this process, against `mock`.
 * @param peers where the peers are installed (bench/peers by default)
 */
export async function runPromptfoo(peers: string, n: number, c: number, mock: MockProcess): Promise<Row> {
  // Offline and quiet: no telemetry, no update check, its config and cache in a scratch directory.
  Object.assign(process.env, {
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_CACHE_ENABLED: 'false',
    PROMPTFOO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'tribunal-bench-promptfoo-')),
    NO_COLOR: '1',
  });
  const promptfoo = (await importPeer(peers, 'promptfoo', 'dist/src/index.js')) as {
    evaluate?: EvaluateFn;
    default?: { evaluate: EvaluateFn };
  };
  const evaluate = promptfoo.evaluate ?? promptfoo.default?.evaluate;
  if (!evaluate) throw new Error('promptfoo exports no evaluate()');
  const grader = { id: `openai:chat:${MODEL}`, config: { apiBaseUrl: mock.baseUrl, apiKey: 'bench' } };
  const suite = (count: number, offset: number) => ({
    prompts: ['{{answer}}'],
    providers: ['echo'],
    defaultTest: { options: { provider: grader } },
    tests: Array.from({ length: count }, (_, k) => {
      const { question, answerB } = item(offset + k);
      return {
        vars: { answer: answerB },
        assert: [{ type: 'llm-rubric', value: `The answer explains the question well: ${question}` }],
      };
    }),
    writeLatestResults: false,
  });
  const options = { maxConcurrency: c, showProgressBar: false, cache: false };
  await (await evaluate(suite(2, -10), options)).toEvaluateSummary();
  const before = { mock: groupCpuMs(mock.pgid), client: ownCpuMs() };
  const t0 = performance.now();
  const summary = await (await evaluate(suite(n, 0), options)).toEvaluateSummary();
  const seconds = (performance.now() - t0) / 1000;
  const errored = summary.results.filter((r) => r.error !== undefined && !r.success);
  const client = (ownCpuMs() - before.client) / n;
  return {
    tool: 'promptfoo',
    itemsPerSecond: n / seconds,
    failed: errored.length,
    judgeCpuMs: client,
    workerdCpuMs: null,
    mockCpuMs: (groupCpuMs(mock.pgid) - before.mock) / n,
    clientCpuMs: client,
    split: null,
    note: note(`llm-rubric, maxConcurrency ${c}, in this process`, errored[0]?.error),
  };
}
