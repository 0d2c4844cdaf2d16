/**
 * `npm run bench:debates`: workerd's CPU per debate with many debates in flight, the figure behind
 * `npm run bench -- --inflight 20`'s wall ratio (each round's results of every debate come back together and
 * are handled on workerd's one thread, so the last result of a round waits for the others' CPU). Wall ratios
 * mean nothing on a loaded machine; CPU per debate and perf's shares do. Runs the local stack against the mock
 * at L ms, a warm-up round, then `--rounds` rounds of `--inflight` debates submitted at once (each POST with
 * `Prefer: wait`, so the bench's own polling adds no work; `--wait poll` polls as `npm run bench` does), and
 * prints workerd's CPU per debate and per LLM call of each round (from /proc), optionally with `perf record -g`
 * of workerd (`--perf`, the kinds of bench/perf-kinds.ts) or a V8 profile of the Worker's isolate (`--profile`).
 *
 * ```
 * npm run bench:debates -- [--inflight 20] [--rounds 5] [--latency 250] [--preset chateval-faireval]
 *   [--wait prefer|poll] [--perf] [--profile] [--log-level info]
 * ```
 */
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { choiceOption, intOption, parseCliOrExit, varsOption } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { freePort } from '../src/cli/ports.js';
import { LOG_LEVELS } from '../src/log/log.js';
import type { CpuProfile } from './cpu-profile.js';
import { session, tables } from './cpu-profile.js';
import { startMockProcess } from './mock-process.js';
import { PERF_HZ, perfKinds, perfTable } from './perf-kinds.js';
import { groupCpuMs, runtimeCpuMs } from './proc-cpu.js';
import { workerdPid } from './isolate-cpu.js';

/** V8's sampling interval while profiling, µs: the tables count each sample as this much time. */
const SAMPLING_US = 500;

const CLI = {
  usage: `usage: npm run bench:debates -- [options]

  --inflight N      debates submitted at once per round (default 20)
  --rounds R        measured rounds (default 5, after one warm-up round)
  --latency L       mock LLM latency in ms (default 250)
  --preset P        a pairwise preset (default chateval-faireval)
  --wait W          prefer (default: each POST waits with Prefer: wait) or poll (GET every 250 ms, as npm run bench)
  --perf            sample workerd with perf record -g over the measured rounds
  --profile         take a V8 CPU profile of the Worker's isolate over the measured rounds
  --top K           rows per profile table (default 25)
  --log-level V     the Worker's LOG_LEVEL (default info, as deployed)
  --var K=V         a Worker variable for the run (repeatable), e.g. PROVIDER_CONCURRENCY_MAX=0 (the gate off)
  -h, --help        this text`,
  options: {
    inflight: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '5' },
    latency: { type: 'string', default: '250' },
    preset: { type: 'string', default: 'chateval-faireval' },
    wait: { type: 'string', default: 'prefer' },
    perf: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
    'log-level': { type: 'string', default: 'info' },
    var: { type: 'string', multiple: true },
  },
} as const;

const values = await parseCliOrExit(CLI, (v) => {
  for (const name of ['inflight', 'rounds', 'latency', 'top'] as const) intOption(v[name], name, 1);
  choiceOption(v.wait, 'wait', ['prefer', 'poll']);
  choiceOption(v['log-level'], 'log-level', LOG_LEVELS);
  varsOption(v.var);
});
/** The run's Worker variables from `--var`. */
const VARS = varsOption(values.var);
const N = Number(values.inflight);
const R = Number(values.rounds);
const L = Number(values.latency);

/** An ended debate as the API shows it (the fields read here). */
interface Ended {
  status: string;
  createdAt: string;
  finishedAt: string | null;
  progress?: { callsDone: number };
}

/** Debate `n`'s task: pairwise, its text varying with `n` as `npm run bench`'s does. */
function taskOf(n: number) {
  return {
    kind: 'pairwise',
    question: `(${n}) How do I keep a sourdough starter alive while travelling for two weeks?`,
    answerA: `Feed it, refrigerate it, and feed it again when you are back. Variant ${n}.`,
    answerB: `Dry some on parchment as a backup, refrigerate the rest after a feed; revive with two feeds. Variant ${n}.`,
  };
}

/** Submits debate `n` and resolves once it ended. */
async function debate(url: string, n: number): Promise<Ended> {
  const headers = {
    'content-type': 'application/json',
    // A connection dropped on a loaded machine is tried again: the key makes the repeat the same evaluation.
    'idempotency-key': `bench-debates-${process.pid}-${n}`,
    ...(values.wait === 'prefer' ? { prefer: 'wait=60' } : {}),
  };
  const body = JSON.stringify({ preset: values.preset, task: taskOf(n) });
  let got: Ended & { id?: string } = { status: 'queued', createdAt: '', finishedAt: null };
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(`${url}/v1/evaluations`, { method: 'POST', headers, body });
      got = (await r.json()) as Ended & { id?: string };
      if (!got.id) throw new Error(`debate ${n}: HTTP ${r.status} ${JSON.stringify(got).slice(0, 200)}`);
      break;
    } catch (e) {
      if (attempt >= 3 || !(e instanceof TypeError)) throw e;
    }
  }
  while (!['succeeded', 'failed', 'cancelled'].includes(got.status)) {
    // Polling as `npm run bench` does (its loop asks each in turn every 250 ms).
    await new Promise((resolve) => setTimeout(resolve, 250));
    got = (await (await fetch(`${url}/v1/evaluations/${got.id ?? ''}`)).json()) as Ended & { id: string };
  }
  if (got.status !== 'succeeded') throw new Error(`debate ${n}: ${got.status}`);
  return got;
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length / 2) - 1] ?? Number.NaN;

const mock = await startMockProcess(L);
const inspectorPort = values.profile ? await freePort() : undefined;
const stack = await startBenchStack({
  runtime: 'miniflare',
  stateDir: 'tribunal-bench-debates-',
  mock,
  logFile: true,
  crons: false,
  ...(inspectorPort !== undefined ? { inspectorPort } : {}),
  vars: { LOG_LEVEL: values['log-level'], ...VARS },
});
const { dir } = stack;
try {
  const url = stack.url;
  let n = 0;
  const round = async () => {
    const from = n;
    n += N;
    return await Promise.all(Array.from({ length: N }, (_, i) => debate(url, from + i)));
  };
  await round();
  const workerd = String(workerdPid(stack.runtimePid));
  const perfOut = join(dir, 'workerd.perf.data');
  const perf =
    values.perf && workerd
      ? spawn('perf', ['record', '-F', String(PERF_HZ), '-g', '-o', perfOut, '-p', workerd], {
          stdio: ['ignore', 'ignore', 'inherit'],
        })
      : null;
  // perf attaches within a few ms; a second of margin keeps the first round sampled.
  if (perf) await new Promise((resolve) => setTimeout(resolve, 1_000));
  let profiler: Awaited<ReturnType<typeof session>> | null = null;
  if (inspectorPort !== undefined) {
    const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as {
      title: string;
      webSocketDebuggerUrl: string;
    }[];
    const target = targets.find((t) => t.title.includes('core:user:'));
    if (!target) throw new Error(`no Worker isolate among ${targets.map((t) => t.title).join(', ')}`);
    profiler = await session(target.webSocketDebuggerUrl);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: SAMPLING_US });
    await profiler.send('Profiler.start');
  }
  const lines: string[] = [
    `${values.preset}, ${N} in flight, L = ${L} ms, LOG_LEVEL ${values['log-level']}, wait ${values.wait}${Object.keys(VARS).length > 0 ? `, ${(values.var ?? []).join(' ')}` : ''}${perf ? ', perf on' : ''}${profiler ? ', V8 profiler on' : ''}`,
    '',
    '| round | wall p50 (ms, created → finished) | workerd CPU ms / debate | ms / LLM call | the mock CPU ms / debate | load (1 min) |',
    '|---|---|---|---|---|---|',
  ];
  let cpuTotal = 0;
  for (let r = 1; r <= R; r++) {
    const before = runtimeCpuMs(stack.runtimePid).workerd;
    const mockBefore = groupCpuMs(mock.pgid);
    const ended = await round();
    const cpu = runtimeCpuMs(stack.runtimePid).workerd - before;
    cpuTotal += cpu;
    const calls = ended.reduce((s, e) => s + (e.progress?.callsDone ?? 0), 0);
    const walls = ended.map((e) => Date.parse(e.finishedAt ?? '') - Date.parse(e.createdAt));
    const load = execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ')[0] ?? '';
    lines.push(
      `| ${r} | ${p50(walls).toFixed(0)} | ${(cpu / N).toFixed(2)} | ${(cpu / Math.max(1, calls)).toFixed(2)} | ${((groupCpuMs(mock.pgid) - mockBefore) / N).toFixed(2)} | ${load} |`,
    );
  }
  lines.push('', `Mean over the ${R} rounds: workerd ${(cpuTotal / (R * N)).toFixed(2)} CPU ms per debate.`);
  if (perf) {
    perf.kill('SIGINT');
    await new Promise((resolve) => perf.once('exit', resolve));
    lines.push(
      '',
      `perf record of workerd (data in ${perfOut}):`,
      '',
      ...perfTable(perfKinds(perfOut), R * N, 'debate'),
    );
  }
  if (profiler) {
    const { profile } = (await profiler.send('Profiler.stop')) as { profile: CpuProfile };
    profiler.close();
    const out = join(dir, 'debates.cpuprofile');
    writeFileSync(out, JSON.stringify(profile));
    const t = tables(profile, R * N, SAMPLING_US);
    const top = Number(values.top);
    const rows = (list: [string, number][]) =>
      list.slice(0, top).map(([k, ms]) => `| ${ms.toFixed(3)} | ${((100 * ms) / t.total).toFixed(1)}% | \`${k}\` |`);
    lines.push(
      '',
      `V8 profile of the Worker's isolate (in ${out}): ${t.total.toFixed(2)} ms per debate holding the thread (samples × the sampler's ${t.periodUs} µs), (idle) included`,
      '',
      '| self ms / debate | share | function |',
      '|---|---|---|',
      ...rows(t.self),
      '',
      '| inclusive ms / debate | share | function |',
      '|---|---|---|',
      ...rows(t.inclusive),
    );
  }
  console.log(lines.join('\n'));
} finally {
  await stack.stop();
  await mock.stop();
}
process.exit(0);
