/**
 * Estimates bench: what budgets and estimates cost, on the deployed bundle (Miniflare, the local stack).
 *
 * - the bundle: bytes and gzip bytes of `wrangler deploy --dry-run` (the tokenizer is in it, evaluated lazily);
 * - POST /v1/estimates latency: the first one (the isolate evaluates the cl100k vocabulary), then the median
 *   of the next ones, for one evaluation and for batches (up to 100 items estimated one by one, larger ones
 *   from a sample of 100), with the runtime's CPU ms per request.
 *
 * ```
 * npm run bench:estimates -- [--preset samre-mtbench] [--repeat 10]
 * ```
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { buildWorker } from '../src/cli/worker-bundle.js';
import { groupCpuMs } from './proc-cpu.js';

const CLI = {
  usage: `usage: npm run bench:estimates -- [options]

Bundle size with the tokenizer, and POST /v1/estimates latency and CPU on the local stack (Miniflare).

  --preset P     preset to estimate (default samre-mtbench)
  --repeat N     warm requests per body (default 10)
  -h, --help     this text`,
  options: {
    preset: { type: 'string', default: 'samre-mtbench' },
    repeat: { type: 'string', default: '10' },
  },
} as const satisfies CliSpec<CliOptions>;

const task = (i: number) => ({
  kind: 'pairwise',
  question: `(${i}) What are the main causes of inflation, and how do central banks respond?`,
  answerA: `Demand outpacing supply, rising input costs and expectations; central banks raise rates (${i}).`,
  answerB: 'Prices rise when there is more money.',
});

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const repeat = intOption(values.repeat, 'repeat', 1, 1000) ?? 10;
  const preset = values.preset;
  const dir = mkdtempSync(join(tmpdir(), 'tribunal-bench-estimates-'));
  const bundle = readFileSync(await buildWorker(join(dir, 'dist')));
  console.log(
    `bundle: ${(bundle.length / 1024).toFixed(1)} KiB, gzip ${(gzipSync(bundle).length / 1024).toFixed(1)} KiB`,
  );

  const stack = await startBenchStack({ persistTo: join(dir, 'state'), crons: false });
  try {
    const post = async (body: unknown): Promise<{ ms: number; cpuMs: number }> => {
      const cpu0 = groupCpuMs(stack.runtimePid);
      const t0 = performance.now();
      const r = await fetch(`${stack.url}/v1/estimates`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      await r.text();
      if (r.status !== 200) throw new Error(`POST /v1/estimates: HTTP ${r.status}`);
      return { ms: performance.now() - t0, cpuMs: groupCpuMs(stack.runtimePid) - cpu0 };
    };
    const first = await post({ preset, task: task(0) });
    console.log(`first estimate (cold tokenizer): ${first.ms.toFixed(0)} ms, runtime CPU ${first.cpuMs.toFixed(0)} ms`);
    for (const n of [1, 10, 100, 1000]) {
      const runs: { ms: number; cpuMs: number }[] = [];
      for (let k = 0; k < repeat; k++) {
        const body =
          n === 1
            ? { preset, task: task(k + 1) }
            : { preset, items: Array.from({ length: n }, (_, i) => ({ task: task(k * n + i) })) };
        runs.push(await post(body));
      }
      console.log(
        `${preset}, ${n} item${n === 1 ? '' : 's'}${n > 100 ? ' (sample of 100)' : ''}: median ${median(runs.map((r) => r.ms)).toFixed(0)} ms, runtime CPU ${median(runs.map((r) => r.cpuMs)).toFixed(0)} ms (${repeat} requests)`,
      );
    }
  } finally {
    await stack.stop();
  }
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
