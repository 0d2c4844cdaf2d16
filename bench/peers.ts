/**
 * Side by side with the peers: the same single-judge burst through autoevals (Battle), promptfoo
 * (llm-rubric) and Tribunal (`fastchat-pair`, calibration off: one LLM call per item), all against one
 * mock LLM process at latency L in the same run, closed loop with C items in flight. Prints items/s, the
 * ratio to autoevals and CPU ms per judged item per process (the judge's process: the library inside this
 * client, or Tribunal's local runtime; the mock; this client).
 *
 * A fourth row, `forward`, is the local runtime's floor: a Worker on the same workerd that only forwards
 * Tribunal's prompt for the item to the mock (bench/forward-worker.ts), with no validation, persistence or
 * judging. What Tribunal adds per item is the gap between its row and this one. A fifth, `bare`
 * (bench/bare-worker.ts), adds to it only what the architecture asks of every verdict (a D1 row at accept, a new
 * object storing the task and the LLM's result, the final D1 write): the part of that gap the design itself costs
 * on the local runtime, apart from what Tribunal's own code costs.
 *
 * The peers live in bench/peers (own package.json) so the service's install stays lean; without them this
 * says how to install them and exits 2.
 *
 * ```
 * npm run bench:peers -- [--items 200] [--concurrency 16] [--latency 250] [--tools autoevals,promptfoo,tribunal] [--wait prefer] [--var K=V]
 * ```
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceOption, intOption, isMain, runCli, varsOption } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startLocalStack } from '../src/cli/local-stack.js';
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import type { LocalStack } from '../src/cli/local-stack.js';
import { createEvaluation, readyCalls } from '../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../src/engine/registry.js';
import { LOG_LEVELS } from '../src/log/log.js';
import type { LogLevel } from '../src/log/log.js';
import type { PairwiseTask } from '../src/engine/task.js';
import { TOOLS, closedLoop, item, note } from './closed-loop.js';
import type { PeerTool, Row } from './closed-loop.js';
import { startForwardProcess } from './forward-worker.js';
import type { ForwardVariant } from './forward-worker.js';
import { fetchWithin } from './serving-child.js';
import { MODEL, runAutoevals, runPromptfoo } from './peer-libraries.js';
import { startMockProcess } from './mock-process.js';
import type { MockProcess } from './mock-process.js';
import { groupCpuMs, ownCpuMs, runtimeCpuMs } from './proc-cpu.js';
import { profileIsolates, splitCpu, splitTable, threadSplitMs, workerdPid } from './isolate-cpu.js';
import { freePort } from '../src/cli/ports.js';
import { benchStateDir, benchStateRoot } from './state-dir.js';

const WAITS = ['prefer', 'sse'] as const;
type Wait = (typeof WAITS)[number];

const CLI = {
  usage: `usage: npm run bench:peers -- [options]

Single-judge burst, one LLM call per item, through autoevals, promptfoo and Tribunal against one mock.

  --items N           items per tool (default 200)
  --concurrency C     items in flight (default 16)
  --latency L         mock LLM latency in ms (default 250)
  --tools T,T         which to run (default autoevals,promptfoo,tribunal,forward,bare; forward: a
                      Worker on the same local runtime that only forwards the prompt to the mock; bare:
                      forward with the architecture's minimum of persistence, bench/bare-worker.ts)
  --wait W            how Tribunal's client awaits a verdict: prefer (POST with Prefer: wait, the
                      verdict in the response) or sse (POST, then the event stream) (default prefer)
  --peers-dir D       where the peers are installed (default bench/peers)
  --log-level V       Tribunal's LOG_LEVEL (debug, info, warn, error; default info, as deployed)
  --split S           yes: after the measured items, as many again with V8's profiler in each isolate,
                      to split workerd's CPU into the Worker's isolates, the local runtime's emulation and
                      workerd outside them (bench/isolate-cpu.ts); no: skip (default yes)
  --var K=V           a Worker variable for Tribunal's run (repeatable), e.g. PROVIDER_CONCURRENCY_MAX=0
  -h, --help          this text

Needs the peers installed: npm --prefix bench/peers ci`,
  options: {
    items: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16' },
    latency: { type: 'string', default: '250' },
    tools: { type: 'string', default: TOOLS.join(',') },
    wait: { type: 'string', default: 'prefer' },
    'peers-dir': { type: 'string', default: join(REPO_ROOT, 'bench', 'peers') },
    'log-level': { type: 'string', default: 'info' },
    split: { type: 'string', default: 'yes' },
    var: { type: 'string', multiple: true },
  },
} as const satisfies CliSpec<CliOptions>;

/** The judge Tribunal runs for every item: `fastchat-pair` without calibration (one call). */
const TRIBUNAL_CONFIG = { calibration: { enabled: false } };

function taskOf(i: number): PairwiseTask {
  return { kind: 'pairwise', ...item(i) };
}

function taskBody(i: number): string {
  return JSON.stringify({ preset: 'fastchat-pair', config: TRIBUNAL_CONFIG, task: taskOf(i) });
}

/**
 * The chat-completions bodies Tribunal sends the mock for items `from`..`to - 1` (the engine's own prompts),
 * built before the loop so the client's CPU per item is the HTTP call's, as in Tribunal's row.
 */
function promptBodies(from: number, to: number): Map<number, string> {
  const config = resolveMethodConfig('fastchat-pair', TRIBUNAL_CONFIG);
  const method = getMethod(config.method);
  const out = new Map<number, string>();
  for (let i = from; i < to; i++) {
    const [call] = readyCalls(method, createEvaluation(method, config, taskOf(i)));
    if (!call) throw new Error('fastchat-pair listed no call');
    out.set(
      i,
      JSON.stringify({
        model: MODEL,
        messages: call.messages,
        temperature: call.temperature,
        max_tokens: call.maxTokens,
      }),
    );
  }
  return out;
}

/** What the `forward` and `bare` rows are, as their `how` column says. */
const FLOOR_NOTES = {
  forward:
    "the local runtime's floor: a Worker on the same workerd that only forwards Tribunal's prompt to the mock (no Tribunal code)",
  bare: "the architecture's floor: forward plus a D1 insert, a new object storing the task and the result, a D1 update (bench/bare-worker.ts)",
} as const;

async function runForward(
  n: number,
  c: number,
  mock: MockProcess,
  split: boolean,
  variant: ForwardVariant,
): Promise<Row> {
  // The warm-up items are numbered -1..-WARM_UP, the profiled pass's n..2n-1 (see onRuntime).
  const bodies = promptBodies(-WARM_UP, split ? 2 * n : n);
  const inspectorPort = split ? await freePort() : undefined;
  const forward = await startForwardProcess(mock.baseUrl, inspectorPort, variant);
  try {
    const once = async (i: number) => {
      const prompt = bodies.get(i);
      if (prompt === undefined) throw new Error(`no prompt built for item ${i}`);
      const { ok, status, body } = await fetchWithin(
        `${variant}: item ${i}`,
        ITEM_MS,
        forward.url,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: prompt },
        async (r) => ({ ok: r.ok, status: r.status, body: (await r.json()) as { choices?: unknown[] } }),
      );
      if (!ok || !Array.isArray(body.choices)) throw new Error(`${variant}: HTTP ${status}`);
    };
    return await onRuntime(
      variant,
      forward.pgid,
      mock,
      n,
      c,
      once,
      FLOOR_NOTES[variant],
      inspectorPort === undefined ? undefined : { inspectorPort, own: [''] },
    );
  } finally {
    await forward.stop();
  }
}

/**
 * How long one bench item may wait for each answer (a POST, or a verdict's event stream): 180 s, three times the
 * `Prefer: wait=60` the API may hold a POST for. Past it the item fails naming what did not come.
 */
const ITEM_MS = 180_000;

/** POSTs item `i` and awaits its verdict the way `wait` says; throws unless it succeeded. */
export async function judgeOnce(url: string, i: number, wait: Wait): Promise<void> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(wait === 'prefer' ? { prefer: 'wait=60' } : {}),
  };
  const { status, body } = await fetchWithin(
    `POST /v1/evaluations (item ${i})`,
    ITEM_MS,
    `${url}/v1/evaluations`,
    { method: 'POST', headers, body: taskBody(i) },
    async (r) => ({ status: r.status, body: (await r.json()) as { id?: string; status?: string } }),
  );
  if (!body.id || (status !== 200 && status !== 202)) throw new Error(`POST /v1/evaluations: HTTP ${status}`);
  if (wait === 'prefer' && status === 200) {
    if (body.status !== 'succeeded') throw new Error(`evaluation ${body.id} ended ${body.status ?? '?'}`);
    return;
  }
  // The event stream closes after the terminal event (also the fallback when Prefer: wait timed out).
  const events = await fetchWithin(
    `the events of evaluation ${body.id}`,
    ITEM_MS,
    `${url}/v1/evaluations/${body.id}/events`,
    { headers: { accept: 'text/event-stream' } },
    (r) => r.text(),
  );
  if (!events.includes('event: verdict')) throw new Error(`evaluation ${body.id} ended without a verdict`);
}

async function runTribunal(
  n: number,
  c: number,
  mock: MockProcess,
  wait: Wait,
  logLevel: LogLevel,
  split: boolean,
  vars: Record<string, string>,
): Promise<Row> {
  let stack: LocalStack | undefined;
  const inspectorPort = split ? await freePort() : undefined;
  try {
    stack = await startLocalStack({
      runtime: 'miniflare',
      port: 0,
      persistTo: join(benchStateDir('tribunal-bench-peers-'), 'state'),
      llmBaseUrl: mock.baseUrl,
      llmApiKey: 'bench',
      llmModel: MODEL,
      logFile: join(tmpdir(), 'tribunal-bench-peers.log'),
      crons: false,
      vars: { LOG_LEVEL: logLevel, ...vars },
      ...(inspectorPort === undefined ? {} : { inspectorPort }),
    });
    const url = stack.url;
    const varNote = Object.entries(vars)
      .map(([k, v]) => `; ${k}=${v}`)
      .join('');
    const how = `fastchat-pair, calibration off; LOG_LEVEL ${logLevel}${varNote}; local runtime Miniflare; verdict ${wait === 'prefer' ? 'in the POST response (Prefer: wait)' : 'over SSE after the POST'}`;
    // workerd makes the evaluation's new object inside the API's RPC to it (`fastStart`), under the API's lock;
    // deployed, the object is made elsewhere (perf: 282 of 284 samples of Actor::Actor under that call).
    const profiled =
      inspectorPort === undefined ? undefined : { inspectorPort, own: ['tribunal'], inCall: ['fastStart'] };
    return await onRuntime('tribunal', stack.runtimePid, mock, n, c, (i) => judgeOnce(url, i, wait), how, profiled);
  } finally {
    await stack?.stop();
  }
}

/** Warm-up items before a runtime-served tool is measured (32). */
export const WARM_UP = 32;

/**
 * The closed loop of a tool served by a local runtime (process group `pgid`): {@link WARM_UP} warm-up items
 * (numbered -1, -2, …), then `n` measured ones, with the runtime's CPU (workerd apart), the mock's and this
 * client's. With `profiled` (the runtime's inspector port and the Worker's service names), `n` more items
 * (n..2n-1) with V8's profiler in each isolate split workerd's CPU by whose it is (bench/isolate-cpu.ts).
 */
async function onRuntime(
  tool: PeerTool,
  pgid: number,
  mock: MockProcess,
  n: number,
  c: number,
  once: (i: number) => Promise<void>,
  how: string,
  profiled?: { inspectorPort: number; own: string[]; inCall?: string[] },
): Promise<Row> {
  await closedLoop(WARM_UP, c, (i) => once(-1 - i));
  const pid = workerdPid(pgid);
  const threads = threadSplitMs(pid);
  const before = { runtime: runtimeCpuMs(pgid), mock: groupCpuMs(mock.pgid), client: ownCpuMs() };
  const r = await closedLoop(n, c, once);
  const runtime = runtimeCpuMs(pgid);
  const client = ownCpuMs();
  const mockCpu = groupCpuMs(mock.pgid);
  const threadsAfter = threadSplitMs(pid);
  let split: Row['split'] = null;
  if (profiled) {
    const profiles = await profileIsolates(profiled.inspectorPort, profiled.own, profiled.inCall);
    const start = threadSplitMs(pid);
    const p = await closedLoop(n, c, (i) => once(n + i));
    const end = threadSplitMs(pid);
    const isolates = await profiles.stop();
    if (p.failed > 0) throw new Error(`profiled pass: ${p.failed} failed, first: ${p.firstError ?? '?'}`);
    const unprofiled = {
      main: (threadsAfter.main - threads.main) / n,
      helpers: (threadsAfter.helpers - threads.helpers) / n,
    };
    const profiledMain = { cpu: (end.main - start.main) / n, runQueue: (end.mainRunQueue - start.mainRunQueue) / n };
    split = {
      upper: splitCpu(unprofiled, profiledMain, isolates, n, false),
      lower: splitCpu(unprofiled, profiledMain, isolates, n),
    };
  }
  return {
    split,
    tool,
    itemsPerSecond: n / r.seconds,
    failed: r.failed,
    judgeCpuMs: (runtime.total - before.runtime.total) / n,
    workerdCpuMs: (runtime.workerd - before.runtime.workerd) / n,
    mockCpuMs: (mockCpu - before.mock) / n,
    clientCpuMs: (client - before.client) / n,
    note: note(how, r.firstError),
  };
}

const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

/** The split of workerd's CPU (`--split yes`), after the main table. */
function splitLines(rows: readonly Row[]): string[] {
  const split = rows.flatMap((r) =>
    r.split
      ? [
          { tool: `${r.tool}, run-queue wait as held (upper)`, split: r.split.upper },
          { tool: `${r.tool}, run-queue wait out (lower)`, split: r.split.lower },
        ]
      : [],
  );
  if (split.length === 0) return [];
  return [
    '',
    `workerd's CPU per item by whose it is, ms (bench/isolate-cpu.ts): its main thread's from /proc, split by the time each isolate held it in a second pass of as many items under V8's sampling profiler. V8 samples wall time while a lock is held: the upper row counts the thread's time waiting for a CPU as held, the lower spreads it over locked and unlocked work alike (it also holds the wake-ups' wait, unlocked); quiet, the two meet. "billed" = what a deployed Worker's isolates would count`,
    '',
    ...splitTable(split),
  ];
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1) ?? 200;
  const c = intOption(values.concurrency, 'concurrency', 1, 1000) ?? 16;
  const latency = intOption(values.latency, 'latency', 0) ?? 250;
  const wait = choiceOption(values.wait, 'wait', WAITS) ?? 'prefer';
  const logLevel = choiceOption(values['log-level'], 'log-level', LOG_LEVELS) ?? 'info';
  const split = (choiceOption(values.split, 'split', ['yes', 'no'] as const) ?? 'yes') === 'yes';
  const PEERS = values['peers-dir'];
  const vars = varsOption(values.var);
  const tools = values.tools.split(',').map((t) => choiceOption(t.trim(), 'tools', TOOLS) ?? 'tribunal');
  const missing = (['autoevals', 'promptfoo'] as const).filter(
    (p) => tools.includes(p) && !existsSync(join(PEERS, 'node_modules', p, 'package.json')),
  );
  if (missing.length > 0) {
    process.stderr.write(
      `the peers are not installed in ${PEERS} (${missing.join(', ')} missing): run  npm --prefix ${PEERS} ci\n`,
    );
    return 2;
  }
  const mock = await startMockProcess(latency);
  const rows: Row[] = [];
  try {
    // Tribunal first: the peers run inside this process and may leave timers or handles behind.
    for (const tool of [...tools].sort((a, b) => (a === 'tribunal' ? -1 : b === 'tribunal' ? 1 : 0))) {
      process.stderr.write(`running ${tool}…\n`);
      if (tool === 'autoevals') rows.push(await runAutoevals(PEERS, n, c, mock));
      else if (tool === 'promptfoo') rows.push(await runPromptfoo(PEERS, n, c, mock));
      else if (tool === 'forward' || tool === 'bare') rows.push(await runForward(n, c, mock, split, tool));
      else rows.push(await runTribunal(n, c, mock, wait, logLevel, split, vars));
    }
  } finally {
    await mock.stop();
  }
  rows.sort((a, b) => TOOLS.indexOf(a.tool) - TOOLS.indexOf(b.tool));
  const base = rows.find((r) => r.tool === 'autoevals')?.itemsPerSecond;
  const floor = rows.find((r) => r.tool === 'forward')?.itemsPerSecond;
  const ours = rows.find((r) => r.tool === 'tribunal')?.itemsPerSecond;
  const bare = rows.find((r) => r.tool === 'bare')?.itemsPerSecond;
  console.log(
    [
      `${n} items per tool, C = ${c} in flight (closed loop), mock LLM latency L = ${latency} ms (one process), one LLM call per item; ideal C / L = ${f1((c * 1000) / Math.max(latency, 1))} items/s; Tribunal's state on ${benchStateRoot().why}`,
      'CPU = user + system ms per judged item: judge = the process that judges (the library inside the bench client, or the local runtime: Node side + workerd, workerd also apart)',
      '',
      '| tool | items/s | × autoevals | failed | CPU ms / item: judge | of which workerd | mock | bench client | how |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.tool} | ${f1(r.itemsPerSecond)} | ${base ? f2(r.itemsPerSecond / base) : 'n/a'} | ${r.failed} | ${r.judgeCpuMs === null ? 'n/a' : f2(r.judgeCpuMs)} | ${r.workerdCpuMs === null ? 'n/a' : f2(r.workerdCpuMs)} | ${f2(r.mockCpuMs)} | ${r.tool === 'tribunal' || r.tool === 'forward' || r.tool === 'bare' ? f2(r.clientCpuMs) : '(= judge)'} | ${r.note} |`,
      ),
      ...(floor && ours ? ['', `tribunal / forward: ${f2(ours / floor)}×`] : []),
      ...(floor && bare ? ['', `bare / forward: ${f2(bare / floor)}×`] : []),
      ...(bare && ours ? ['', `tribunal / bare: ${f2(ours / bare)}×`] : []),
      ...splitLines(rows),
    ].join('\n'),
  );
  // The peers' HTTP agents and timers may hold the event loop open.
  process.exit(0);
}

if (isMain(import.meta.url)) await runCli(CLI, main);
