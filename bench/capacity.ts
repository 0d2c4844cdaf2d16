/**
 * `npm run bench:capacity`: what one verdict leaves in and asks of each store, measured from the outside on
 * the local stack with the mock LLM, whatever the schema. For each preset it starts a stack on fresh state
 * (the metered Worker of bench/metered-entry.ts, one API key, so requests pass the tenant's rate limiter),
 * submits one batch of `--items` distinct pairwise tasks (~240-word answers), waits for the batch to end,
 * and prints per verdict:
 * - D1: bytes in use (pages, after a WAL checkpoint of a copy: bench/state-sizes.ts), rows written and read
 *   and statements (D1's own `meta`), and the time the database was busy (the sum of `meta.duration`: D1 runs
 *   one query at a time);
 * - Durable Objects: requests (RPC calls, fetches, alarms) by namespace, the busiest single object of each,
 *   and SQLite bytes per class;
 * - queue messages by queue; the runtime's CPU (Node side + workerd; workerd's share apart), an upper bound on
 *   the Worker's CPU (local D1 and object SQLite run in workerd too).
 *
 * The batch's status polls (one `GET /v1/batches/{id}` every 2 s) are measured on their own and taken out.
 * Then, on the same stack, `--singles` single evaluations (`POST /v1/evaluations` with `Prefer: wait`, the same
 * kind of task) are measured the same way, judged and then again as verdict cache hits.
 * The figures go to `--out` (a path from the directory the command was run from; default the repository's
 * bench/out/capacity.json); `--reference` also writes bench/capacity-footprint.json, the committed copy
 * `npm run bench:scale-model` reads.
 *
 * ```
 * npm run bench:capacity -- [--items 50] [--presets fastchat-pair,chateval-faireval,samre-mtbench] [--reference]
 * ```
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import type { PreparedWorker } from '../src/cli/worker-bundle.js';
import type { Meter } from './meter.js';
import { httpJson, preparedMeteredWorker, readMeter } from './metered-build.js';
import { runtimeCpuMs } from './proc-cpu.js';
import { benchStateDir, benchStateRoot } from './state-dir.js';
import type { StateSizes } from './state-sizes.js';
import { stateSizes } from './state-sizes.js';
import type { CapacityFootprint, PresetFootprint } from './capacity-footprint.js';
import { CAPACITY_FOOTPRINT_PATH, capacityTable } from './capacity-footprint.js';
import { fromWorkingDir } from './working-dir.js';

const CLI = {
  usage: `usage: npm run bench:capacity -- [options]

Per verdict of each preset, on the local stack with the mock LLM: D1 bytes, rows written and read, statements
and busy time; Durable Object requests (by namespace, the busiest object) and storage; queue messages; CPU.

  --items N        verdicts per preset: one batch of N items (default 50)
  --presets LIST   comma-separated presets (default fastchat-pair,chateval-faireval,samre-mtbench)
  --words W        words per answer (default 240)
  --singles N      then N single evaluations (POST /v1/evaluations, Prefer: wait) per preset, judged, and the
                   same N again (verdict cache hits); 0 skips them (default 20)
  --out FILE       where the figures go, from the directory you run in (default the repository's
                   bench/out/capacity.json)
  --reference      also write ${CAPACITY_FOOTPRINT_PATH} (the committed copy the scale model reads)
  -h, --help       this text`,
  options: {
    items: { type: 'string', default: '50' },
    presets: { type: 'string', default: 'fastchat-pair,chateval-faireval,samre-mtbench' },
    words: { type: 'string', default: '240' },
    singles: { type: 'string', default: '20' },
    out: { type: 'string' },
    reference: { type: 'boolean', default: false },
  },
} as const satisfies CliSpec<CliOptions>;

const ROOT = new URL('..', import.meta.url).pathname;
const KEY = 'bench-capacity-key';
const AUTH = { authorization: `Bearer ${KEY}` };

const WORDS =
  'the model answer explains each step in plain terms and gives a short example before it states why the result holds under the usual assumptions while noting where it may fail'.split(
    ' ',
  );

/** An answer of about `words` words, distinct per item and side. */
function longAnswer(item: number, side: string, words: number): string {
  const out = [`(${side}${item})`];
  for (let i = 1; i < words; i++) out.push(WORDS[(i * (item + 7) + side.charCodeAt(0)) % WORDS.length] ?? 'word');
  return `${out.join(' ')}.`;
}

/** The pairwise task of item `i` (`tag` keeps the batch's and the single evaluations' tasks distinct). */
function pairTask(i: number, words: number, tag = '') {
  return {
    kind: 'pairwise',
    question: `(${tag}${i}) Explain how vaccines train the immune system, and why booster doses are sometimes needed.`,
    answerA: longAnswer(i, 'A', words),
    answerB: longAnswer(i, 'B', words),
  };
}

/** Waits for batch `id` to end; answers how many status polls it took. */
async function awaitBatch(url: string, id: string): Promise<number> {
  for (let polls = 1; ; polls++) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const r = await httpJson(`${url}/v1/batches/${id}`, { headers: AUTH });
    const view = r.body as { completedAt?: string | null };
    if (r.status !== 200) throw new Error(`GET /v1/batches/${id}: HTTP ${r.status} ${JSON.stringify(view)}`);
    if (view.completedAt) return polls;
  }
}

const delta = (a: Record<string, number>, b: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.keys(b).map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]));

/** `b - a - polls × poll`, divided by n. */
function perVerdict(a: Meter, b: Meter, poll: Meter, pollCount: number, n: number) {
  const f = (k: 'd1RowsRead' | 'd1RowsWritten' | 'd1Queries' | 'd1DurationMs' | 'doRequests' | 'doAlarms') =>
    (b[k] - a[k] - pollCount * poll[k]) / n;
  return {
    d1RowsWritten: f('d1RowsWritten'),
    d1RowsRead: f('d1RowsRead'),
    d1Statements: f('d1Queries'),
    d1BusyMs: f('d1DurationMs'),
    doRequests: f('doRequests') + f('doAlarms'),
    queueMessages: (b.queueMessagesSent - a.queueMessagesSent) / n,
  };
}

/** Requests by namespace: per verdict, objects touched, and the busiest object (name and its requests per verdict). */
function byNamespace(a: Meter, b: Meter, poll: Meter, pollCount: number, n: number): PresetFootprint['objects'] {
  const out: PresetFootprint['objects'] = {};
  for (const [binding, objects] of Object.entries(b.doByObject)) {
    const diff = delta(a.doByObject[binding] ?? {}, objects);
    const pollDiff = poll.doByObject[binding] ?? {};
    for (const [name, k] of Object.entries(pollDiff)) diff[name] = (diff[name] ?? 0) - pollCount * k;
    const named = Object.entries(diff).filter(([name, k]) => name !== '(alarm)' && k > 0);
    const total = Object.values(diff).reduce((s, k) => s + k, 0);
    if (total <= 0) continue;
    const busiest = named.sort((x, y) => y[1] - x[1])[0];
    out[binding] = {
      requestsPerVerdict: total / n,
      alarmsPerVerdict: (diff['(alarm)'] ?? 0) / n,
      objectsTouched: named.length,
      busiestObject: busiest?.[0] ?? null,
      busiestObjectPerVerdict: (busiest?.[1] ?? 0) / n,
    };
  }
  return out;
}

/** Runs one preset's batch on a fresh stack and measures it. */
async function measurePreset(
  worker: PreparedWorker,
  preset: string,
  n: number,
  words: number,
  singles: number,
): Promise<PresetFootprint> {
  const stack = await startBenchStack({
    stateDir: 'tribunal-bench-capacity-',
    crons: false,
    worker,
    secrets: { API_KEYS: createHash('sha256').update(KEY).digest('hex') },
    logFile: true,
  });
  const persistTo = join(stack.dir, 'state');
  try {
    // One request first: the isolate, the tenant's limiter and D1 are warm, and its footprint is a poll's.
    const p0 = await readMeter(stack.url);
    await httpJson(`${stack.url}/v1/batches/b_none`, { headers: AUTH });
    const p1 = await readMeter(stack.url);
    const poll = subtractMeter(p0, p1);
    const sizes0 = stateSizes(persistTo);
    const m0 = await readMeter(stack.url);
    const cpu0 = runtimeCpuMs(stack.runtimePid);
    const t0 = Date.now();
    const items = Array.from({ length: n }, (_, i) => ({ id: `i${i}`, task: pairTask(i, words) }));
    const r = await httpJson(`${stack.url}/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...AUTH },
      body: JSON.stringify({ preset, items }),
    });
    const accepted = r.body as { id?: string };
    if (r.status !== 202 || !accepted.id)
      throw new Error(`POST /v1/batches: HTTP ${r.status} ${JSON.stringify(accepted)}`);
    const polls = await awaitBatch(stack.url, accepted.id);
    const seconds = (Date.now() - t0) / 1000;
    // After-commit work (admissions, the batch's last pump) settles before the counters are read.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const m1 = await readMeter(stack.url);
    const cpu1 = runtimeCpuMs(stack.runtimePid);
    const sizes1 = stateSizes(persistTo);
    // After the meter is read: the LLM calls the batch billed (a fresh stack, so the tenant's whole usage). The
    // gate's requests no longer tell them (a result's release rides on the next call's ask).
    const usage = await httpJson(`${stack.url}/v1/usage`, { headers: AUTH });
    const calls = (usage.body as { totals?: { calls?: number } }).totals?.calls;
    if (usage.status !== 200 || typeof calls !== 'number')
      throw new Error(`GET /v1/usage: HTTP ${usage.status} ${JSON.stringify(usage.body)}`);
    const f = footprint(preset, n, seconds, { m0, m1, poll, polls }, { sizes0, sizes1 }, { cpu0, cpu1 });
    const single = singles > 0 ? await measureSingles(stack, preset, singles, words) : undefined;
    return { ...f, perVerdict: { ...f.perVerdict, llmCalls: calls / n }, ...(single ? { single } : {}) };
  } finally {
    await stack.stop();
  }
}

/**
 * `n` single evaluations of `preset` on `stack` (after its batch), each `POST /v1/evaluations` with `Prefer:
 * wait` as a client waiting for its verdict sends it, one at a time; then the same `n` again, each a verdict
 * cache hit. Measured like a batch (no polls to take out), per verdict.
 */
async function measureSingles(
  stack: { url: string; dir: string; runtimePid: number },
  preset: string,
  n: number,
  words: number,
): Promise<NonNullable<PresetFootprint['single']>> {
  const persistTo = join(stack.dir, 'state');
  const post = async (i: number, expectCached: boolean) => {
    const r = await httpJson(`${stack.url}/v1/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: 'wait=60', ...AUTH },
      body: JSON.stringify({ preset, task: pairTask(i, words, 's') }),
    });
    const body = r.body as { status?: string; cache?: { hit?: boolean } };
    if (r.status !== 200 || body.status !== 'succeeded')
      throw new Error(`POST /v1/evaluations (${preset}, ${i}): HTTP ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    if (expectCached && body.cache?.hit !== true)
      throw new Error(`POST /v1/evaluations (${preset}, ${i}): expected a verdict cache hit`);
  };
  const none: Meter = subtractMeter(await readMeter(stack.url), await readMeter(stack.url));
  const round = async (expectCached: boolean): Promise<PresetFootprint> => {
    const sizes0 = stateSizes(persistTo);
    const m0 = await readMeter(stack.url);
    const cpu0 = runtimeCpuMs(stack.runtimePid);
    const t0 = Date.now();
    for (let i = 0; i < n; i++) await post(i, expectCached);
    const seconds = (Date.now() - t0) / 1000;
    // The final write's after-commit steps settle before the counters are read.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const m1 = await readMeter(stack.url);
    const cpu1 = runtimeCpuMs(stack.runtimePid);
    const sizes1 = stateSizes(persistTo);
    return footprint(preset, n, seconds, { m0, m1, poll: none, polls: 0 }, { sizes0, sizes1 }, { cpu0, cpu1 });
  };
  const judged = await round(false);
  const hit = await round(true);
  return { judged, hit };
}

function subtractMeter(a: Meter, b: Meter): Meter {
  const objects: Meter['doByObject'] = {};
  for (const [binding, o] of Object.entries(b.doByObject)) objects[binding] = delta(a.doByObject[binding] ?? {}, o);
  return {
    workerFetches: b.workerFetches - a.workerFetches,
    queueInvocations: b.queueInvocations - a.queueInvocations,
    queueMessagesReceived: b.queueMessagesReceived - a.queueMessagesReceived,
    scheduled: b.scheduled - a.scheduled,
    doRequests: b.doRequests - a.doRequests,
    doAlarms: b.doAlarms - a.doAlarms,
    doWallMs: b.doWallMs - a.doWallMs,
    d1Queries: b.d1Queries - a.d1Queries,
    d1RowsRead: b.d1RowsRead - a.d1RowsRead,
    d1RowsWritten: b.d1RowsWritten - a.d1RowsWritten,
    queueMessagesSent: b.queueMessagesSent - a.queueMessagesSent,
    d1DurationMs: b.d1DurationMs - a.d1DurationMs,
    doByBinding: delta(a.doByBinding, b.doByBinding),
    doByObject: objects,
    queueByBinding: delta(a.queueByBinding, b.queueByBinding),
    d1BySql: Object.fromEntries(
      Object.entries(b.d1BySql).map(([sql, x]) => {
        const y = a.d1BySql[sql] ?? { n: 0, written: 0, read: 0 };
        return [sql, { n: x.n - y.n, written: x.written - y.written, read: x.read - y.read }];
      }),
    ),
  };
}

/** How many statements {@link topStatements} lists (20: every statement of a single evaluation). */
const TOP_STATEMENTS = 20;

/** The statements that wrote the most rows between `a` and `b` (the polls taken out), per verdict. */
function topStatements(a: Meter, b: Meter, poll: Meter, pollCount: number, n: number) {
  return Object.entries(subtractMeter(a, b).d1BySql)
    .map(([sql, x]) => {
      const p = poll.d1BySql[sql] ?? { n: 0, written: 0, read: 0 };
      return {
        sql,
        runs: (x.n - pollCount * p.n) / n,
        written: (x.written - pollCount * p.written) / n,
        read: (x.read - pollCount * p.read) / n,
      };
    })
    .filter((t) => t.runs > 0)
    .sort((x, y) => y.written - x.written || y.read - x.read)
    .slice(0, TOP_STATEMENTS);
}

function footprint(
  preset: string,
  n: number,
  seconds: number,
  m: { m0: Meter; m1: Meter; poll: Meter; polls: number },
  s: { sizes0: StateSizes; sizes1: StateSizes },
  c: { cpu0: { total: number; workerd: number }; cpu1: { total: number; workerd: number } },
): PresetFootprint {
  const tables: PresetFootprint['d1Tables'] = {};
  for (const [name, t] of Object.entries(s.sizes1.d1.tables)) {
    const before = s.sizes0.d1.tables[name] ?? { rows: 0, bytes: 0 };
    if (t.rows === before.rows && t.bytes === before.bytes) continue;
    tables[name] = { rowsPerVerdict: (t.rows - before.rows) / n, bytesPerVerdict: (t.bytes - before.bytes) / n };
  }
  const storage: PresetFootprint['storage'] = {};
  for (const [cls, o] of Object.entries(s.sizes1.objects)) {
    const before = s.sizes0.objects[cls] ?? { objects: 0, bytes: 0, largest: 0 };
    storage[cls] = {
      objectsPerVerdict: (o.objects - before.objects) / n,
      bytesPerVerdict: (o.bytes - before.bytes) / n,
      largestObjectBytes: o.largest,
    };
  }
  const queues = delta(m.m0.queueByBinding, m.m1.queueByBinding);
  return {
    preset,
    items: n,
    seconds,
    perVerdict: {
      d1Bytes: (s.sizes1.d1.bytes - s.sizes0.d1.bytes) / n,
      ...perVerdict(m.m0, m.m1, m.poll, m.polls, n),
      doStorageBytes: Object.values(storage).reduce((sum, o) => sum + o.bytesPerVerdict, 0),
      cpuMs: (c.cpu1.total - c.cpu0.total) / n,
      workerdCpuMs: (c.cpu1.workerd - c.cpu0.workerd) / n,
    },
    d1Tables: tables,
    objects: byNamespace(m.m0, m.m1, m.poll, m.polls, n),
    storage,
    queues: Object.fromEntries(Object.entries(queues).map(([q, k]) => [q, k / n])),
    d1TopStatements: topStatements(m.m0, m.m1, m.poll, m.polls, n),
  };
}

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 50;
  const words = intOption(values.words, 'words', 1, 5_000) ?? 240;
  const singles = intOption(values.singles, 'singles', 0, 1_000) ?? 20;
  const presets = values.presets
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const worker = await preparedMeteredWorker(benchStateDir('tribunal-bench-capacity-build-'));
  const out: CapacityFootprint = {
    measuredAt: new Date().toISOString().slice(0, 10),
    commit: commit(),
    items: n,
    answerWords: words,
    state: benchStateRoot().why,
    presets: {},
  };
  for (const preset of presets) {
    process.stderr.write(`${preset}: ${n} items…\n`);
    out.presets[preset] = await measurePreset(worker, preset, n, words, singles);
  }
  console.log(capacityTable(out));
  const json = `${JSON.stringify(out, null, 2)}\n`;
  const file = values.out === undefined ? join(ROOT, 'bench/out/capacity.json') : fromWorkingDir(values.out);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, json);
  if (values.reference) writeFileSync(join(ROOT, CAPACITY_FOOTPRINT_PATH), json);
  console.log(
    `\nwrote ${relative(fromWorkingDir('.'), file)}${values.reference ? ` and ${CAPACITY_FOOTPRINT_PATH}` : ''}`,
  );
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
