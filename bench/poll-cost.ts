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
import { readFileSync } from 'node:fs';
import { intOption, parseCliOrExit } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { runtimeCpuMs } from './proc-cpu.js';

const CLI = {
  usage: `usage: npm run bench:poll -- [options]

  --evaluations N   running evaluations polled in turn (default 20)
  --requests R      GETs per measured rep (default 300)
  --reps K          measured reps of each path (default 3)
  --preset P        a pairwise preset (default chateval-faireval)
  -h, --help        this text`,
  options: {
    evaluations: { type: 'string', default: '20' },
    requests: { type: 'string', default: '300' },
    reps: { type: 'string', default: '3' },
    preset: { type: 'string', default: 'chateval-faireval' },
  },
} as const;

const values = await parseCliOrExit(CLI, (v) => {
  for (const name of ['evaluations', 'requests', 'reps'] as const) intOption(v[name], name, 1);
});
const E = Number(values.evaluations);
const R = Number(values.requests);
const K = Number(values.reps);

/** Longer than the bench runs: every evaluation stays running, its first calls out at the mock. */
const MOCK_LATENCY_MS = 600_000;

const mock = await startMockProcess(MOCK_LATENCY_MS);
const stack = await startBenchStack({ runtime: 'miniflare', stateDir: 'tribunal-bench-poll-', mock });

/** workerd CPU ms per request of `paths` fetched in turn, `R` requests; each answer's status must be `want`. */
async function cpuPerRequest(paths: readonly string[], want: number): Promise<number> {
  const before = runtimeCpuMs(stack.runtimePid).workerd;
  for (let i = 0; i < R; i++) {
    const r = await fetch(`${stack.url}${paths[i % paths.length] ?? ''}`);
    await r.arrayBuffer();
    if (r.status !== want) throw new Error(`GET ${paths[i % paths.length]}: HTTP ${r.status}, expected ${want}`);
  }
  return (runtimeCpuMs(stack.runtimePid).workerd - before) / R;
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
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await stack.stop();
  await mock.stop();
}
