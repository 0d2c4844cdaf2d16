/**
 * `npm run bench:poll`: workerd's CPU per `GET /v1/evaluations/{id}` of a running evaluation, the work a
 * client polling its evaluations adds (`npm run bench`'s 20 in flight poll each every 250 ms on the thread
 * the debates need). Runs the local stack against the mock at a latency no call ends within, submits
 * `--evaluations` debates, waits until each shows `running`, then times `--requests` GETs across them, one
 * after another, `--reps` times, and prints the CPU per GET from /proc. For comparison it times the same
 * number of `GET /health` (one D1 statement, no auth) and of a `/v1` path that is not there (auth, 404), the
 * runtime's own cost per request. Counts, not wall time: a loaded machine moves these little.
 *
 * ```
 * npm run bench:poll -- [--evaluations 20] [--requests 300] [--reps 3] [--preset chateval-faireval]
 * ```
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { intOption, parseCliOrExit, varsOption } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { runtimeCpuMs } from './proc-cpu.js';
import { PERF_HZ, perfKinds, perfTable } from './perf-kinds.js';
import { freePort } from '../src/cli/ports.js';
import type { CpuProfile } from './cpu-profile.js';
import { session, tables } from './cpu-profile.js';
import { profileIsolates, splitCpu, splitTable, threadSplitMs, workerdPid } from './isolate-cpu.js';
import { fromWorkingDir } from './working-dir.js';

const CLI = {
  usage: `usage: npm run bench:poll -- [options]

  --evaluations N   running evaluations polled in turn (default 20)
  --requests R      GETs per measured rep (default 300)
  --reps K          measured reps of each path (default 3)
  --preset P        a pairwise preset (default chateval-faireval)
  --profile         then R more GETs of the running evaluations under V8's sampling profiler: workerd's
                    main thread per GET by isolate, and the Worker isolate's busiest functions
  --top K           rows of that table (default 25)
  --var K=V         a Worker variable for the run (repeatable)
  --perf FILE       then R more GETs of the running evaluations under Linux \`perf record -g\` of workerd
                    (data to FILE): its CPU per GET by kind of work, native code included
  -h, --help        this text`,
  options: {
    evaluations: { type: 'string', default: '20' },
    requests: { type: 'string', default: '300' },
    reps: { type: 'string', default: '3' },
    preset: { type: 'string', default: 'chateval-faireval' },
    profile: { type: 'boolean', default: false },
    top: { type: 'string', default: '25' },
    perf: { type: 'string' },
    var: { type: 'string', multiple: true },
  },
} as const;

const values = await parseCliOrExit(CLI, (v) => {
  for (const name of ['evaluations', 'requests', 'reps', 'top'] as const) intOption(v[name], name, 1);
  varsOption(v.var);
});
/** `--var K=V`. */
const VARS = varsOption(values.var);
const E = Number(values.evaluations);
const R = Number(values.requests);
const K = Number(values.reps);

/** Longer than the bench runs: every evaluation stays running, its first calls out at the mock. */
const MOCK_LATENCY_MS = 600_000;

const mock = await startMockProcess(MOCK_LATENCY_MS);
const inspectorPort = values.profile ? await freePort() : undefined;
const stack = await startBenchStack({
  runtime: 'miniflare',
  stateDir: 'tribunal-bench-poll-',
  mock,
  vars: VARS,
  ...(inspectorPort === undefined ? {} : { inspectorPort }),
});

/** workerd CPU ms per request of `paths` fetched in turn, `R` requests; each answer's status must be `want`. */
async function cpuPerRequest(paths: readonly string[], want: number): Promise<number> {
  const before = runtimeCpuMs(stack.runtimePid).workerd;
  await getAll(paths, want);
  return (runtimeCpuMs(stack.runtimePid).workerd - before) / R;
}

/** GETs `paths` in turn, `R` of them, each answering `want`. */
async function getAll(paths: readonly string[], want: number): Promise<void> {
  for (let i = 0; i < R; i++) {
    const r = await fetch(`${stack.url}${paths[i % paths.length] ?? ''}`);
    await r.arrayBuffer();
    if (r.status !== want) throw new Error(`GET ${paths[i % paths.length]}: HTTP ${r.status}, expected ${want}`);
  }
}

/**
 * `--profile`: an unprofiled pass of `R` GETs of `paths`, a pass as long with V8's profiler in every
 * per-request isolate (workerd's main thread per GET by isolate, bench/isolate-cpu.ts), then one with the
 * profiler in the Worker's isolate alone (its busiest functions, ms per GET).
 */
async function profiled(port: number, paths: readonly string[]): Promise<string[]> {
  const pid = workerdPid(stack.runtimePid);
  const t0 = threadSplitMs(pid);
  await getAll(paths, 200);
  const t1 = threadSplitMs(pid);
  const profiles = await profileIsolates(port, ['tribunal']);
  const p0 = threadSplitMs(pid);
  await getAll(paths, 200);
  const p1 = threadSplitMs(pid);
  const isolates = await profiles.stop();
  const split = splitCpu(
    { main: (t1.main - t0.main) / R, helpers: (t1.helpers - t0.helpers) / R },
    { cpu: (p1.main - p0.main) / R, runQueue: (p1.mainRunQueue - p0.mainRunQueue) / R },
    isolates,
    R,
  );
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    title: string;
    webSocketDebuggerUrl: string;
  }[];
  const target = targets.find((t) => t.title.includes('core:user:tribunal'));
  if (!target) throw new Error(`no Worker isolate among ${targets.map((t) => t.title).join(', ')}`);
  const s = await session(target.webSocketDebuggerUrl);
  await s.send('Profiler.enable');
  await s.send('Profiler.setSamplingInterval', { interval: 100 });
  await s.send('Profiler.start');
  await getAll(paths, 200);
  const { profile } = (await s.send('Profiler.stop')) as { profile: CpuProfile };
  s.close();
  const t = tables(profile, R, 100);
  const top = Number(values.top);
  const rows = (list: [string, number][]) =>
    list.slice(0, top).map(([k, ms]) => `| ${ms.toFixed(3)} | ${((100 * ms) / t.total).toFixed(1)}% | \`${k}\` |`);
  return [
    'workerd per GET of a running evaluation, by whose it is (ms):',
    '',
    ...splitTable([{ tool: 'GET', split }]),
    '',
    `the Worker's isolate held the thread ${t.total.toFixed(3)} ms per GET under the profiler (every 100 µs)`,
    '',
    '| self ms / GET | share | function |',
    '|---|---|---|',
    ...rows(t.self),
    '',
    '| inclusive ms / GET | share | function |',
    '|---|---|---|',
    ...rows(t.inclusive),
  ];
}

/** `--perf`: `R` GETs of `paths` under `perf record -g` of workerd (data to `file`), by kind of work. */
async function perfPass(file: string, paths: readonly string[]): Promise<string[]> {
  const perf = spawn(
    'perf',
    ['record', '-F', String(PERF_HZ), '-g', '-o', file, '-p', String(workerdPid(stack.runtimePid))],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  // perf attaches within a few ms; a second of margin keeps the first GETs sampled.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await getAll(paths, 200);
  perf.kill('SIGINT');
  await new Promise((resolve) => perf.once('exit', resolve));
  return [
    `workerd per GET of a running evaluation by kind of work (perf data in ${file}):`,
    '',
    ...perfTable(perfKinds(file), R, 'GET'),
  ];
}

try {
  const ids: string[] = [];
  for (let n = 0; n < E; n++) {
    const r = await fetch(`${stack.url}/v1/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        preset: values.preset,
        task: { kind: 'pairwise', question: `(${n}) Which answer is better?`, answerA: `A ${n}`, answerB: `B ${n}` },
      }),
    });
    const body = (await r.json()) as { id?: string };
    if (!body.id) throw new Error(`POST /v1/evaluations: HTTP ${r.status}`);
    ids.push(body.id);
  }
  for (const id of ids) {
    for (;;) {
      const v = (await (await fetch(`${stack.url}/v1/evaluations/${id}`)).json()) as { status: string };
      if (v.status === 'running') break;
      if (v.status !== 'queued') throw new Error(`${id}: ${v.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const paths = {
    running: ids.map((id) => `/v1/evaluations/${id}`),
    health: ['/health'],
    missing: ['/v1/no-such-path'],
  };
  // A warm-up of each, so the first rep pays no compile.
  for (const [name, p] of Object.entries(paths)) await cpuPerRequest(p, name === 'missing' ? 404 : 200);
  const lines = [
    `${E} running ${values.preset} evaluations, ${R} GETs per rep, local runtime Miniflare`,
    '',
    '| rep | GET a running evaluation (workerd CPU ms) | GET /health | GET a missing /v1 path | load (1 min) |',
    '|---|---|---|---|---|',
  ];
  for (let k = 1; k <= K; k++) {
    const running = await cpuPerRequest(paths.running, 200);
    const health = await cpuPerRequest(paths.health, 200);
    const missing = await cpuPerRequest(paths.missing, 404);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '';
    lines.push(`| ${k} | ${running.toFixed(2)} | ${health.toFixed(2)} | ${missing.toFixed(2)} | ${load} |`);
  }
  if (values.perf !== undefined) lines.push('', ...(await perfPass(fromWorkingDir(values.perf), paths.running)));
  if (inspectorPort !== undefined) lines.push('', ...(await profiled(inspectorPort, paths.running)));
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await stack.stop();
  await mock.stop();
}
