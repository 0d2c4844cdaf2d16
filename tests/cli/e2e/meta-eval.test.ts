/**
 * The meta-evaluation runner end to end: 10 FairEval items through the real pipeline (local workerd,
 * local D1/Queues/DOs) against the mock LLM; the report's numbers are recomputed here from the verdicts
 * stored by the service, read back through the API independently of the runner. Then the CLI as a user
 * runs it (in this process, but for the run that starts its own stack): the README's own-data example, a run
 * whose items fail (exit 1, reasons on the terminal), and a wrong preset refused once before any item is sent,
 * by a given target and by the stack the runner starts itself (which leaves nothing in the temporary
 * directory). And `--compare` on the same stack: a comparison of
 * three MT-Bench models on two questions, its report read back through the API.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_EXIT_CODES } from '../../../src/client/index.js';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import { runMetaEval } from '../../../src/cli/meta-eval.js';
import type { MetaEvalResult } from '../../../src/cli/meta-eval.js';
import { loadFairEval } from '../../../src/datasets/loaders.js';
import { runCompare } from '../../../src/cli/meta-eval-compare.js';
import type { ProcessResult } from '../../support/run-process.js';
import type { CliRun } from '../../support/cli-in-process.js';
import { runCliInProcess } from '../../support/cli-in-process.js';
import { runProcess, stopLeftovers } from '../../support/run-process.js';
import { keepTsxCache } from '../../support/run-tmpdir.js';
import { seededState } from '../../support/seed-state.js';
import { preparedWorker } from '../../support/worker-ready.js';

type Label = 'A' | 'B' | 'tie';

/** Cohen's κ written out from its definition, independently of src/metrics/agreement.ts. */
function kappa(human: Label[], judge: Label[]): number {
  const labels: Label[] = ['A', 'B', 'tie'];
  const n = human.length;
  const po = human.filter((h, i) => h === judge[i]).length / n;
  const pe = labels.reduce(
    (s, l) => s + (human.filter((h) => h === l).length / n) * (judge.filter((j) => j === l).length / n),
    0,
  );
  return (po - pe) / (1 - pe);
}

let stack: LocalStack | undefined;
let run: MetaEvalResult;
const dir = mkdtempSync(join(tmpdir(), 'tribunal-meta-test-'));

beforeAll(async () => {
  stack = await startLocalStack({
    port: 0,
    mockPort: 0,
    persistTo: seededState(join(dir, 'state')),
    // The failing run's calls each wait out 4 backoffs before giving up (0.5-8 s apart as deployed): short
    // here, their number as deployed.
    vars: { LLM_RETRY_BASE_MS: '20' },
    worker: preparedWorker(),
    reuseRuntime: true,
  });
  run = await runMetaEval({
    dataset: 'faireval',
    preset: 'chateval-faireval',
    limit: 10,
    concurrency: 5,
    target: stack.url,
    out: join(dir, 'report.json'),
    progress: false,
  });
}, 180_000);

afterAll(async () => {
  await stopLeftovers();
  await stack?.stop();
});

describe('npm run meta-eval', () => {
  it('judges every item and reports what the stored verdicts say', async () => {
    expect(run.totals.items).toBe(10);
    expect(run.totals.succeeded).toBe(10);
    const items = loadFairEval().slice(0, 10);
    const stored = await Promise.all(
      run.results.map(async (r) => {
        const res = await fetch(`${stack!.url}/v1/evaluations/${r.evaluationId}`);
        return (await res.json()) as {
          status: string;
          metadata: { item: string };
          verdict: { winner: Label; positionFlip: boolean | null; calls: number; usage: { promptTokens: number } };
        };
      }),
    );
    // Each evaluation is the item it claims to be, and ran the preset in both orders.
    expect(stored.map((s) => s.metadata.item)).toEqual(items.map((i) => i.id));
    expect(stored.every((s) => s.status === 'succeeded' && typeof s.verdict.positionFlip === 'boolean')).toBe(true);

    const human = items.map((i) => i.human as Label);
    const judge = stored.map((s) => s.verdict.winner);
    const report = run.report;
    if (report.kind !== 'pairwise') throw new Error('expected a pairwise report');
    expect(report.n).toBe(10);
    expect(report.nScored).toBe(10);
    expect(report.accuracy.value).toBeCloseTo(human.filter((h, i) => h === judge[i]).length / 10, 12);
    const k = kappa(human, judge);
    if (Number.isFinite(k)) expect(report.kappa.value).toBeCloseTo(k, 12);
    else expect(report.kappa.value).toBeNull();
    expect(report.tieRate).toBeCloseTo(judge.filter((j) => j === 'tie').length / 10, 12);
    expect(report.flipRate).toBeCloseTo(stored.filter((s) => s.verdict.positionFlip).length / 10, 12);
    expect(run.totals.calls).toBe(stored.reduce((n, s) => n + s.verdict.calls, 0));
    expect(run.totals.promptTokens).toBe(stored.reduce((n, s) => n + s.verdict.usage.promptTokens, 0));
    // ChatEval FairEval preset: 2 agents × 2 turns × 2 orders, no repairs against the mock.
    expect(run.totals.calls).toBe(80);
  });

  it('writes the JSON report and a markdown table', () => {
    const json = JSON.parse(readFileSync(run.outFile, 'utf8')) as {
      report: { kind: string; n: number };
      results: unknown[];
    };
    expect(json.report).toMatchObject({ kind: 'pairwise', n: 10 });
    expect(json.results).toHaveLength(10);
    expect(run.markdown).toContain('| accuracy');
    expect(run.markdown).toContain('calls 80');
  });
});

const META_EVAL = new URL('../../../src/cli/meta-eval.ts', import.meta.url).pathname;

/**
 * The runner's CLI in this process (its own entry code, output and exit code, tests/support/cli-in-process.ts):
 * a `node --import tsx` process of it cost ~1.2-1.8 CPU-s to start. The one run that starts its own stack is a
 * real process.
 */
const metaEvalCli = (args: readonly string[]): Promise<CliRun> => runCliInProcess(META_EVAL, args);

/** The runner's CLI as a user runs it, waited on to its end (no wall-clock kill: tests/support/run-process.ts). */
function metaEvalProcess(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ProcessResult> {
  return runProcess(process.execPath, ['--import', 'tsx', META_EVAL, ...args], {
    env: { ...process.env, ...env },
  });
}

describe('npm run meta-eval on the command line', () => {
  it("judges the README's example file (datasets/examples/my-labels.jsonl) and exits 0", async () => {
    const r = await metaEvalCli([
      '--dataset',
      'datasets/examples/my-labels.jsonl',
      '--preset',
      'fastchat-pair',
      '--target',
      stack!.url,
      '--out',
      join(dir, 'example.json'),
    ]);
    expect(r.stderr).not.toMatch(/did not succeed|could be scored/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('items 6 · succeeded 6 · failed 0');
    const json = JSON.parse(readFileSync(join(dir, 'example.json'), 'utf8')) as { results: { status: string }[] };
    expect(json.results.map((x) => x.status)).toEqual(Array.from({ length: 6 }, () => 'succeeded'));
  });

  it('exits 1 when items fail, printing the reasons on the terminal', async () => {
    const r = await metaEvalCli([
      '--dataset',
      'datasets/examples/my-labels.jsonl',
      '--preset',
      'fastchat-pair',
      // Every attempt of every call gets a 500 from the mock: each item fails after its retries.
      '--model',
      'mock-judge?fail=500:99',
      '--target',
      stack!.url,
      '--limit',
      '4',
      '--out',
      join(dir, 'failed.json'),
    ]);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines).toContain('4 of 4 items did not succeed:');
    expect(lines.find((l) => l.startsWith('  4 × provider_error: '))).toMatch(/HTTP 500/);
    expect(lines).toContain('none of the 4 items could be scored (no verdict, or every reply unparsed)');
  });

  it('refuses a wrong preset once, before any item is sent: no evaluation is created', async () => {
    const listed = async () =>
      ((await (await fetch(`${stack!.url}/v1/evaluations?limit=100`)).json()) as { data: unknown[] }).data.length;
    const before = await listed();
    expect(before).toBeLessThan(100);
    const r = await metaEvalCli([
      '--dataset',
      'datasets/examples/my-labels.jsonl',
      '--preset',
      'no-such-preset',
      '--target',
      stack!.url,
      '--out',
      join(dir, 'refused.json'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: the service refused this run before any item was sent \(HTTP 400 unknown_preset\): .*no-such-preset/m,
    );
    expect(r.stderr).not.toContain('items did not succeed');
    expect(await listed()).toBe(before);
  });

  it('checks the judge on the stack it starts itself too, and leaves no state folder behind', async () => {
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    // tsx's cache of transforms, as the run's own temp folder has it: a cold one transformed the CLI and every
    // module it imports again (0.5 CPU-s more for the process).
    keepTsxCache(tmpdir(), tmp);
    // A process of its own: its exit code and its stack's folder as the shell sees them.
    const r = await metaEvalProcess(
      ['--dataset', 'datasets/examples/my-labels.jsonl', '--preset', 'no-such-preset', '--out', join(dir, 'own.json')],
      { TMPDIR: tmp },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('refused this run before any item was sent (HTTP 400 unknown_preset)');
    // Nothing of the run's stack is left (tsx's cache is linked there).
    expect(readdirSync(tmp).filter((f) => f.startsWith('tribunal-'))).toEqual([]);
    // The CLI compiles under tsx and starts a whole stack before its one request: over 120 s at load 30.
  }, 300_000);
});

describe('npm run meta-eval -- --compare', () => {
  it('compares the models through POST /v1/comparisons and sets the ranking against the humans', async () => {
    const r = await runCompare({
      dataset: 'mt-bench-human',
      preset: 'fastchat-pair',
      candidates: ['gpt-4', 'vicuna-13b-v1.2', 'llama-13b'],
      baseline: 'vicuna-13b-v1.2',
      limit: 2,
      target: stack!.url,
      out: join(dir, 'compare.json'),
      progress: false,
    });
    // Read back independently of the runner: the comparison it reports is the one the service stored.
    const stored = (await (await fetch(`${stack!.url}/v1/comparisons/${r.comparison.id}`)).json()) as {
      status: string;
      counts: { total: number; succeeded: number };
      ranking: { candidate: string }[];
      gate: { candidate: string; baseline: string; outcome: 'passed' | 'failed' | 'inconclusive' };
      summary: string;
    };
    expect(stored.status).toBe('completed');
    // 2 items × 2 pairs against the baseline, both orders inside each fastchat-pair evaluation.
    expect(stored.counts).toMatchObject({ total: 4, succeeded: 4 });
    expect(r.comparison.ranking.map((x) => x.candidate)).toEqual(stored.ranking.map((x) => x.candidate));
    expect(stored.gate).toMatchObject({ candidate: 'gpt-4', baseline: 'vicuna-13b-v1.2' });
    expect(r.exitCode).toBe(GATE_EXIT_CODES[stored.gate.outcome]);
    // The humans' side: their votes on the same two questions and three models.
    expect(r.human.candidates).toEqual(['gpt-4', 'vicuna-13b-v1.2', 'llama-13b']);
    expect(r.agreement.pairs.map((p) => [p.a, p.b])).toEqual([
      ['gpt-4', 'vicuna-13b-v1.2'],
      ['vicuna-13b-v1.2', 'llama-13b'],
    ]);
    expect(r.text).toContain(`summary: ${stored.summary}`);
    expect(r.text).toMatch(/agreement with the humans: Kendall τ /);
    const json = JSON.parse(readFileSync(r.outFile, 'utf8')) as { comparison: { id: string }; agreement: unknown };
    expect(json.comparison.id).toBe(r.comparison.id);
    expect(json.agreement).toEqual(r.agreement);
  });
});
