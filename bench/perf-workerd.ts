/**
 * `npm run bench:perf`: where the whole workerd process spends its CPU per single-call verdict, native code
 * included (SQLite, making objects, the runtime's I/O, the collector), which `bench:profile` (one isolate's JS)
 * cannot show. Drives `bench:peers`' closed loop (its `closedLoop`, `judgeOnce` and warm-up: `fastchat-pair`,
 * calibration off, `Prefer: wait`, the same prompts) on the local stack, samples workerd with Linux
 * `perf record -g` over the measured items, and prints each kind of work's share and ms per verdict, by what a
 * sample's stack holds (SQLite's parts first, then the kind of its leaf-most frame). Shares move less with the
 * machine's load than the CPU per verdict does (BENCHMARKS.md).
 * Needs `perf` on the PATH and permission to sample the process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intOption, parseCliOrExit } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { closedLoop } from './closed-loop.js';
import { WARM_UP, judgeOnce } from './peers.js';
import { PERF_HZ, perfKinds, perfTable } from './perf-kinds.js';
import { runtimeCpuMs } from './proc-cpu.js';
import { benchStateDir } from './state-dir.js';
import { fromWorkingDir } from './working-dir.js';

const CLI = {
  usage: `usage: npm run bench:perf -- [options]

  --items N         measured items (default 300, after ${WARM_UP} warm-up items)
  --concurrency C   in flight (default 16)
  --out FILE        where perf's data goes (default $TMPDIR/tribunal-workerd-<pid>.perf.data)
  -h, --help        this text`,
  options: {
    items: { type: 'string', default: '300' },
    concurrency: { type: 'string', default: '16' },
    // The pid in the name: two runs at once on this shared machine would write one file.
    out: { type: 'string', default: join(tmpdir(), `tribunal-workerd-${process.pid}.perf.data`) },
  },
} as const;

const values = await parseCliOrExit(CLI, (v) => {
  intOption(v.items, 'items', 1);
  intOption(v.concurrency, 'concurrency', 1);
});
const N = Number(values.items);
const C = Number(values.concurrency);
const mock = await startMockProcess(250);
// The log beside the run's own state, as bench:batch keeps it: a shared file in the temp directory mixed
// the lines of two runs at once.
const dir = benchStateDir('tribunal-bench-perf-');
const stack = await startBenchStack({
  runtime: 'miniflare',
  persistTo: join(dir, 'state'),
  mock,
  logFile: join(dir, 'stack.log'),
  crons: false,
  vars: { LOG_LEVEL: 'info' },
});
/** Where perf writes its data: `--out` from where the command was run. */
const perfOut = fromWorkingDir(values.out);
try {
  const url = stack.url;
  // As bench:peers numbers them: warm-up items -1..-WARM_UP, then the measured 0..N-1.
  const warm = await closedLoop(WARM_UP, C, (i) => judgeOnce(url, -1 - i, 'prefer'));
  if (warm.firstError) throw new Error(`warm-up: ${warm.failed} failed, first: ${warm.firstError}`);
  const workerd = execFileSync('pgrep', ['-g', String(stack.runtimePid), 'workerd'], { encoding: 'utf8' })
    .trim()
    .split('\n')[0];
  if (!workerd) throw new Error('no workerd process in the local stack');
  const perf = spawn('perf', ['record', '-F', String(PERF_HZ), '-g', '-o', perfOut, '-p', workerd], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  // perf attaches within a few ms; a second of margin keeps the first items sampled.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const before = runtimeCpuMs(stack.runtimePid);
  const { seconds, failed, firstError } = await closedLoop(N, C, (i) => judgeOnce(url, i, 'prefer'));
  const after = runtimeCpuMs(stack.runtimePid);
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('exit', resolve));
  const kinds = perfKinds(perfOut);
  const total = kinds.total;
  const msPerSample = 1000 / PERF_HZ;
  console.log(
    [
      `${N} items, C = ${C}: ${(N / seconds).toFixed(1)} items/s, ${failed} failed${firstError ? ` (first: ${firstError})` : ''}, workerd ${((after.workerd - before.workerd) / N).toFixed(2)} CPU ms per verdict (from /proc); ${total} samples, ${((total * msPerSample) / N).toFixed(2)} ms per verdict sampled; perf data in ${perfOut}`,
      '',
      ...perfTable(kinds, N, 'verdict'),
    ].join('\n'),
  );
} finally {
  await stack.stop();
  await mock.stop();
}
process.exit(0);
