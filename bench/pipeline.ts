/**
 * Pipeline bench: how much time the HTTP → Queue → Durable Object → D1 pipeline adds to the LLM calls.
 *
 * Runs the whole service on local workerd (the local stack: the bundle on Miniflare, or `wrangler dev`
 * with `--runtime wrangler`; local D1/Queues/DOs) against the project's
 * mock LLM over HTTP at a fixed latency L. Per protocol (one preset each) it submits K evaluations, and
 * once they end reads each one's event replay (`GET /v1/evaluations/:id/events`: every call's start and
 * stored-result times on the Durable Object's clock) and prints:
 * - wall / lower bound: evaluation wall time (D1 `createdAt` → `finishedAt`) over the critical-path lower
 *   bound, sequential LLM rounds × L; stages (waves of calls that depend on the wave before) are counted per
 *   evaluation by driving the same preset and task in-process, wave by wave, against the same deterministic
 *   mock, and a wave wider than the object runs at once (`MAX_PARALLEL_CALLS`, 6: the platform's open
 *   connections per invocation) takes ceil(width / 6) rounds (G-Eval's 20 samples: 4) — the one protocol where
 *   rounds and stages differ, unless `--supports-n true` sends its samples as one request;
 * - pipeline overhead per LLM call, p50 / p99: for every call after an evaluation's first, the time from
 *   the latest stored result before it to its start (persist, engine step, scheduling, prompt build);
 * - LLM transport: how much longer a call took, seen from the Worker, than the mock's L (local HTTP
 *   between workerd and the Node mock, plus the SDK; part of "the LLM call", not of the pipeline);
 * - start (submit → first call out: HTTP insert + queue hop + DO start) and finish (last result →
 *   verdict committed in D1);
 * - where the time beyond rounds × L went, as means that add up (start, in the calls, between waves,
 *   finish: `excessOf`);
 * then the same with `--inflight` evaluations submitted at once, with throughput.
 *
 * Two parts of the in-flight figure are the bench's own, and two options take them out (the default keeps both, as
 * every earlier figure was measured): `--wait prefer` submits with `Prefer: wait` instead of polling every
 * evaluation every 250 ms (the polls run on the same local workerd thread as the debates: 20 debates polled cost
 * it +10-62% CPU per debate in `npm run bench:debates --wait poll`, 3 pairs at load 20-35). It also moves every
 * evaluation onto the server's waited path, so it measures a different path than a polling client sees: the
 * object sets no start watchdog alarm, its final write carries the read-back statements, and the verdict returns
 * through the held call. Report a figure with the default options, with these beside it, never instead of it.
 * `--warmup N` runs the in-flight phase
 * N times unmeasured first, so the measured one finds the provider gate's window as a deployment keeps it (the
 * window is stored and survives restarts; a fresh state starts each shard at `PROVIDER_CONCURRENCY_START`, 32,
 * so only a burst of more asks than that on one shard waits a whole call for a slot).
 *
 * ```
 * npm run bench -- [--latency 250] [--k 5] [--inflight 100] [--presets a,b,c] [--step-budget 30000] [--fast-start false]
 *   [--runtime miniflare|wrangler] [--var K=V] [--wait poll|prefer] [--warmup N]
 * ```
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceOption, intOption, parseCliOrExit, varsOption } from '../src/cli/args.js';
import { isTerminal } from '../src/evaluations/status.js';
import type { LlmCallRequest } from '../src/engine/call.js';
import { applyResult, createEvaluation, outcome, readyCalls } from '../src/engine/protocol.js';
import { getMethod, PRESETS as PRESET_LIST, resolveMethodConfig } from '../src/engine/registry.js';
import type { Task } from '../src/engine/task.js';
import { startLocalStack } from '../src/cli/local-stack.js';
import { mean } from '../src/metrics/stats.js';
import { createLlmWithMock } from '../src/mock-llm/in-process.js';
import { spawn } from 'node:child_process';
import { freePort } from '../src/cli/ports.js';
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import { IN_PROCESS_MOCK_URL } from '../src/llm/settings.js';
import { MAX_PARALLEL_CALLS } from '../src/config/platform-limits.js';
import { benchStateDir, benchStateRoot } from './state-dir.js';

const CLI = {
  usage: `usage: npm run bench -- [options]

How much time the HTTP → Queue → Durable Object → D1 pipeline adds to the LLM calls (BENCHMARKS.md).

  --latency L          mock LLM latency in ms (default 250)
  --k K                evaluations per protocol (default 5)
  --inflight N         evaluations submitted at once in the last phase (default 100)
  --presets a,b        presets to run (default: one per protocol)
  --inflight-preset P  preset of the last phase (default chateval-faireval)
  --step-budget MS     STEP_BUDGET_MS for the run
  --fast-start B       FAST_START for the run (true / false)
  --supports-n B       LLM_SUPPORTS_N for the run (true / false; default false): the mock, like OpenAI,
                       answers n choices in one request, so G-Eval's 20 samples can be one call
  --runtime R          miniflare (default) or wrangler
  --var K=V            a Worker variable for the run (repeatable), e.g. PROVIDER_CONCURRENCY_START=256
  --wait W             poll (default: GET each evaluation every 250 ms) or prefer (each POST waits with
                       Prefer: wait=60, so the bench's polls add no work to the runtime's thread)
  --warmup N           in-flight phases run unmeasured before the measured one (default 0): the provider
                       gate's window is then the one a running deployment keeps, not a fresh state's
  -h, --help           this text`,
  options: {
    latency: { type: 'string', default: '250' },
    k: { type: 'string', default: '5' },
    inflight: { type: 'string', default: '100' },
    presets: { type: 'string' },
    'inflight-preset': { type: 'string', default: 'chateval-faireval' },
    'step-budget': { type: 'string' },
    'fast-start': { type: 'string' },
    'supports-n': { type: 'string' },
    runtime: { type: 'string', default: 'miniflare' },
    var: { type: 'string', multiple: true },
    wait: { type: 'string', default: 'poll' },
    warmup: { type: 'string', default: '0' },
  },
} as const;
const values = await parseCliOrExit(CLI, (v) => {
  choiceOption(v.runtime, 'runtime', ['miniflare', 'wrangler']);
  choiceOption(v.wait, 'wait', ['poll', 'prefer']);
  intOption(v.warmup, 'warmup', 0, 10);
  choiceOption(v['supports-n'], 'supports-n', ['true', 'false']);
  varsOption(v.var);
});
/** `--var K=V`, applied after the named options. */
const VARS = varsOption(values.var);
const RUNTIME = values.runtime === 'wrangler' ? 'wrangler' : 'miniflare';
const L = Number(values.latency);
const K = Number(values.k);
const INFLIGHT = Number(values.inflight);
const MODEL = 'mock-judge';
/** Whether each POST waits for its evaluation's end (`Prefer: wait`) instead of the bench polling it. */
const PREFER_WAIT = values.wait === 'prefer';
/** Unmeasured in-flight phases before the measured one. */
const WARMUP = Number(values.warmup);
/** The run's LLM_SUPPORTS_N: with it, G-Eval's samples are one request (one round). */
const SUPPORTS_N = values['supports-n'] === 'true';

/** One preset per protocol. */
const DEFAULT_PRESETS = [
  'chateval-single',
  'faireval-mec-bpc',
  'fastchat-pair',
  'bandi-baseline',
  'geval-summeval',
  'ensemble-chateval-roles',
  'chateval-faireval',
  'chateval-simultaneous-talk',
  'chateval-summarizer',
  'chateval-topical-chat',
  'more-mtbench',
  'samre-mtbench',
  'debate-summeval',
  'debate-tie-breaker',
];
const PRESETS = values.presets ? values.presets.split(',') : DEFAULT_PRESETS;

function taskKindOf(preset: string): Task['kind'] {
  const p = PRESET_LIST.find((x) => x.id === preset);
  if (!p) throw new Error(`unknown preset ${preset}`);
  return p.taskKind;
}

/** Bench task number `n`: pairwise or pointwise as the preset needs, text varying with `n`. */
function taskFor(preset: string, n: number): Task {
  return taskKindOf(preset) === 'pairwise'
    ? {
        kind: 'pairwise',
        question: `(${n}) How do I keep a sourdough starter alive while travelling for two weeks?`,
        answerA: `Feed it, refrigerate it, and feed it again when you are back. Variant ${n}.`,
        answerB: `Dry some on parchment as a backup, refrigerate the rest after a feed; revive with two feeds. Variant ${n}.`,
      }
    : {
        kind: 'pointwise',
        source: `(${n}) The city council approved a new cycling lane on Main Street after a two-year consultation. Construction starts in May and lasts six weeks.`,
        output: `Council approves Main Street cycle lane; six weeks of works from May. (${n})`,
        aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
      };
}

/** Pointwise presets written for Topical-Chat need one of its aspects. */
function fixAspect(preset: string, task: Task): Task {
  if (task.kind !== 'pointwise' || !preset.includes('topical-chat')) return task;
  return { ...task, aspect: { name: 'naturalness', scale: { min: 1, max: 3 } } };
}

const inProcessLlm = createLlmWithMock({
  providers: { default: { baseUrl: IN_PROCESS_MOCK_URL, supportsN: SUPPORTS_N } },
  defaultModel: MODEL,
});

/**
 * Sequential LLM stages of a preset on a task, driven in-process wave by wave against the same mock, and the
 * rounds they take where a wave is wider than the calls the object runs at once ({@link MAX_PARALLEL_CALLS}).
 */
async function criticalStages(
  preset: string,
  task: Task,
  supportsN: boolean,
): Promise<{ stages: number; rounds: number }> {
  const config = resolveMethodConfig(preset, {});
  const method = getMethod(config.method);
  let state = createEvaluation(method, config, task);
  let stages = 0;
  let rounds = 0;
  while (!outcome(method, state)) {
    const ready: LlmCallRequest[] = readyCalls(method, state, { supportsN: () => supportsN });
    stages += 1;
    rounds += Math.ceil(ready.length / MAX_PARALLEL_CALLS);
    const results = await Promise.all(ready.map((r) => inProcessLlm(r)));
    for (const r of results) state = applyResult(method, state, r);
  }
  return { stages, rounds };
}

function pct(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? Number.NaN;
}

interface Submitted {
  preset: string;
  task: Task;
  id: string;
  stages: number;
  /** Sequential rounds of at most {@link MAX_PARALLEL_CALLS} calls: the lower bound's unit. */
  rounds: number;
  /** The evaluation as the POST returned it once it had ended (`--wait prefer`), else undefined. */
  ended?: Finished;
}

/** A bench task with its critical-path stage and round counts, computed before anything is submitted. */
async function prepare(preset: string, n: number): Promise<Omit<Submitted, 'id'>> {
  const task = fixAspect(preset, taskFor(preset, n));
  return { preset, task, ...(await criticalStages(preset, task, SUPPORTS_N)) };
}

/**
 * `fetch`, tried again (up to 3 times in all) when the connection failed (a TypeError: dropped or refused on a
 * loaded machine), as bench:debates does; an HTTP answer of any status is returned as it is.
 */
async function fetchRetrying(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt >= 3 || !(e instanceof TypeError)) throw e;
      process.stderr.write(`${init?.method ?? 'GET'} ${url}: ${String(e)}; trying again\n`);
    }
  }
}

async function submit(api: string, p: Omit<Submitted, 'id'>): Promise<Submitted> {
  const r = await fetchRetrying(`${api}/v1/evaluations`, {
    method: 'POST',
    // No idempotency key (it would add its own work to what is measured): a repeat after a connection dropped
    // once the request was in may leave one extra evaluation running unwatched, which the bench can live with.
    headers: { 'content-type': 'application/json', ...(PREFER_WAIT ? { prefer: 'wait=60' } : {}) },
    body: JSON.stringify({ preset: p.preset, task: p.task }),
  });
  const body = (await r.json()) as Partial<Finished> & { id?: string; error?: { message: string } };
  if (!body.id) throw new Error(`submit ${p.preset}: ${r.status} ${body.error?.message ?? ''}`);
  const { status, createdAt, finishedAt } = body;
  const ended =
    status && createdAt && isTerminal(status) ? { status, createdAt, finishedAt: finishedAt ?? null } : undefined;
  return { ...p, id: body.id, ...(ended ? { ended } : {}) };
}

interface Finished {
  status: string;
  createdAt: string;
  finishedAt: string | null;
}

async function waitAll(api: string, subs: readonly Submitted[], timeoutMs: number): Promise<Map<string, Finished>> {
  const done = new Map<string, Finished>();
  for (const s of subs) if (s.ended) done.set(s.id, s.ended);
  const deadline = Date.now() + timeoutMs;
  while (done.size < subs.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    for (const s of subs) {
      if (done.has(s.id)) continue;
      try {
        const v = (await (await fetchRetrying(`${api}/v1/evaluations/${s.id}`)).json()) as Finished;
        if (isTerminal(v.status)) done.set(s.id, v);
      } catch (e) {
        process.stderr.write(`poll ${s.id}: ${String(e)}\n`);
      }
    }
  }
  return done;
}

interface CallTiming {
  startedAt: number;
  finishedAt: number;
  latencyMs: number;
}

/** Every call's timings from the evaluation's event replay (SSE). */
async function callTimings(api: string, id: string): Promise<CallTiming[]> {
  const text = await (
    await fetchRetrying(`${api}/v1/evaluations/${id}/events`, { headers: { accept: 'text/event-stream' } })
  ).text();
  const out: CallTiming[] = [];
  for (const block of text.split('\n\n')) {
    if (!block.includes('event: call.finished')) continue;
    const data = block.split('\n').find((l) => l.startsWith('data: '));
    if (!data) continue;
    const d = JSON.parse(data.slice(6)) as CallTiming;
    out.push({ startedAt: d.startedAt, finishedAt: d.finishedAt, latencyMs: d.latencyMs });
  }
  return out;
}

interface Row {
  label: string;
  evals: number;
  failed: number;
  stages: string;
  ratioP50: number;
  ratioMax: number;
  observedRatioP50: number;
  overheadP50: number;
  overheadP99: number;
  transportP50: number;
  startP50: number;
  finishP50: number;
  calls: number;
  /** Means per evaluation, ms, that add up to its wall time over rounds × L (see {@link excessOf}). */
  excess: Excess;
}

/** An evaluation's wall time beyond rounds × L, ms, by part (see {@link excessOf}). */
type Excess = { start: number; calls: number; between: number; finish: number };

/**
 * Where an evaluation's wall time beyond rounds × L went, ms, in parts that add up: the start (created → its
 * first call out), the waves' calls beyond L per round (the transport and the calls of a wave not sent or not
 * answered together), between waves (a wave's last result → the next wave's first call out: the persist, the
 * engine's step, the next prompts, the provider gate) and the finish (last result → `finishedAt`). Calls in
 * the order they went out; one opens a new wave when it went out after every result of the wave before it.
 */
function excessOf(timings: readonly CallTiming[], created: number, finished: number, rounds: number): Excess {
  const waves: { from: number; to: number }[] = [];
  for (const t of timings) {
    const last = waves.at(-1);
    if (last && t.startedAt < last.to) last.to = Math.max(last.to, t.finishedAt);
    else waves.push({ from: t.startedAt, to: t.finishedAt });
  }
  const first = waves[0];
  const last = waves.at(-1);
  if (!first || !last) return { start: Number.NaN, calls: Number.NaN, between: Number.NaN, finish: Number.NaN };
  let between = 0;
  for (let i = 1; i < waves.length; i++) between += (waves[i]?.from ?? 0) - (waves[i - 1]?.to ?? 0);
  return {
    start: first.from - created,
    calls: waves.reduce((s, w) => s + (w.to - w.from), 0) - rounds * L,
    between,
    finish: finished - last.to,
  };
}

async function summarise(
  api: string,
  label: string,
  subs: readonly Submitted[],
  results: Map<string, Finished>,
): Promise<Row> {
  const overheads: number[] = [];
  const transports: number[] = [];
  const starts: number[] = [];
  const finishes: number[] = [];
  const ratios: number[] = [];
  const observedRatios: number[] = [];
  const excesses: Excess[] = [];
  let failed = 0;
  let calls = 0;
  for (const s of subs) {
    const f = results.get(s.id);
    if (!f || f.status !== 'succeeded' || !f.finishedAt) {
      failed += 1;
      continue;
    }
    const timings = (await callTimings(api, s.id)).sort((a, b) => a.startedAt - b.startedAt);
    calls += timings.length;
    const created = Date.parse(f.createdAt);
    const finished = Date.parse(f.finishedAt);
    const first = timings[0];
    if (first) starts.push(first.startedAt - created);
    for (const t of timings) transports.push(t.latencyMs - L);
    for (const t of timings.slice(1)) {
      const before = timings.filter((x) => x.finishedAt <= t.startedAt).map((x) => x.finishedAt);
      if (before.length > 0) overheads.push(t.startedAt - Math.max(...before));
    }
    const lastResult = Math.max(...timings.map((t) => t.finishedAt));
    if (Number.isFinite(lastResult)) finishes.push(finished - lastResult);
    ratios.push((finished - created) / (s.rounds * L));
    excesses.push(excessOf(timings, created, finished, s.rounds));
    // The same wall time over the calls' latencies as the Worker saw them (mock + local HTTP): what is
    // left above 1 is the pipeline's own share.
    const observed = pct(
      timings.map((t) => t.latencyMs),
      50,
    );
    observedRatios.push((finished - created) / (s.rounds * observed));
  }
  const range = (xs: readonly number[]) => {
    const counts = [...new Set(xs)].sort((a, b) => a - b);
    return counts.length > 1 ? `${counts[0]}-${counts.at(-1)}` : String(counts[0] ?? '');
  };
  const stages = range(subs.map((s) => s.stages));
  const rounds = range(subs.map((s) => s.rounds));
  return {
    label,
    evals: subs.length,
    failed,
    stages: rounds === stages ? stages : `${stages} (${rounds} rounds)`,
    ratioP50: pct(ratios, 50),
    ratioMax: pct(ratios, 100),
    observedRatioP50: pct(observedRatios, 50),
    overheadP50: pct(overheads, 50),
    overheadP99: pct(overheads, 99),
    transportP50: pct(transports, 50),
    startP50: pct(starts, 50),
    finishP50: pct(finishes, 50),
    calls,
    excess: {
      start: mean(excesses.map((e) => e.start)),
      calls: mean(excesses.map((e) => e.calls)),
      between: mean(excesses.map((e) => e.between)),
      finish: mean(excesses.map((e) => e.finish)),
    },
  };
}

const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : 'n/a');
const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');

async function main(): Promise<void> {
  // The mock runs in its own process so its CPU work (judge replies, cache accounting) does not share an
  // event loop with this script's polling.
  const mockPort = await freePort();
  const mockProc = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli/mock-llm.ts', '--port', String(mockPort), '--latency', String(L)],
    {
      cwd: REPO_ROOT,
      stdio: 'ignore',
    },
  );
  const mock = {
    baseUrl: `http://127.0.0.1:${mockPort}/v1`,
    close: () => {
      mockProc.kill('SIGTERM');
      return Promise.resolve();
    },
  };
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${mock.baseUrl}/models`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const stack = await startLocalStack({
    runtime: RUNTIME,
    port: 0,
    persistTo: join(benchStateDir('tribunal-bench-pipeline-'), 'state'),
    llmBaseUrl: mock.baseUrl,
    llmApiKey: 'bench',
    llmModel: MODEL,
    logFile: join(tmpdir(), `tribunal-bench-${RUNTIME}.log`),
    vars: {
      ...(values['step-budget'] !== undefined ? { STEP_BUDGET_MS: values['step-budget'] } : {}),
      ...(values['fast-start'] !== undefined ? { FAST_START: values['fast-start'] } : {}),
      ...(values['supports-n'] !== undefined ? { LLM_SUPPORTS_N: values['supports-n'] } : {}),
      ...VARS,
    },
  });
  const rows: Row[] = [];
  let n = 1;
  try {
    for (const preset of PRESETS) {
      const prepared = await Promise.all(Array.from({ length: K }, () => prepare(preset, n++)));
      const subs = await Promise.all(prepared.map((p) => submit(stack.url, p)));
      const results = await waitAll(stack.url, subs, 180_000);
      const row = await summarise(stack.url, preset, subs, results);
      rows.push(row);
      process.stderr.write(
        `${preset}: ratio ${f2(row.ratioP50)}, overhead p50 ${f0(row.overheadP50)} ms, failed ${row.failed}\n`,
      );
    }
    const inflightPreset = values['inflight-preset'];
    for (let w = 0; w < WARMUP; w++) {
      const warm = await Promise.all(Array.from({ length: INFLIGHT }, () => prepare(inflightPreset, n++)));
      const warmSubs = await Promise.all(warm.map((p) => submit(stack.url, p)));
      const warmResults = await waitAll(stack.url, warmSubs, 600_000);
      process.stderr.write(`warm-up ${w + 1}: ${warmResults.size} of ${INFLIGHT} ended\n`);
    }
    const prepared = await Promise.all(Array.from({ length: INFLIGHT }, () => prepare(inflightPreset, n++)));
    const t0 = Date.now();
    const subs = await Promise.all(prepared.map((p) => submit(stack.url, p)));
    const results = await waitAll(stack.url, subs, 600_000);
    const lastFinish = Math.max(...[...results.values()].map((v) => (v.finishedAt ? Date.parse(v.finishedAt) : 0)));
    const wall = lastFinish - t0;
    const row = await summarise(stack.url, `${INFLIGHT} in flight (${inflightPreset})`, subs, results);
    rows.push(row);
    const lines = [
      `L = ${L} ms mock LLM latency over HTTP; K = ${K} evaluations per protocol; local workerd (${RUNTIME === 'wrangler' ? 'wrangler dev' : 'Miniflare direct'}); STEP_BUDGET_MS = ${values['step-budget'] ?? 'default'}; FAST_START = ${values['fast-start'] ?? 'default'}; LLM_SUPPORTS_N = ${values['supports-n'] ?? 'default (false)'}; wait ${PREFER_WAIT ? 'Prefer: wait' : 'poll every 250 ms'}; warm-up ${WARMUP} in-flight phase(s);${Object.keys(VARS).length > 0 ? ` ${(values.var ?? []).join(' ')};` : ''} state on ${benchStateRoot().why}`,
      '',
      '| protocol | evals | failed | LLM stages | wall / (rounds × L) p50 (max) | wall / (rounds × observed call) p50 | pipeline overhead per call p50 / p99 (ms) | LLM transport per call p50 (ms) | start p50 (ms) | finish p50 (ms) | LLM calls |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.label} | ${r.evals} | ${r.failed} | ${r.stages} | ${f2(r.ratioP50)} (${f2(r.ratioMax)}) | ${f2(r.observedRatioP50)} | ${f0(r.overheadP50)} / ${f0(r.overheadP99)} | ${f0(r.transportP50)} | ${f0(r.startP50)} | ${f0(r.finishP50)} | ${r.calls} |`,
      ),
      '',
      `Where the time beyond rounds × L went, mean ms per evaluation (the parts add up; bench/pipeline.ts \`excessOf\`):`,
      '',
      '| protocol | start (created → first call out) | in the calls, beyond L per round | between waves | finish (last result → finishedAt) | total |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        ({ label, excess: e }) =>
          `| ${label} | ${f0(e.start)} | ${f0(e.calls)} | ${f0(e.between)} | ${f0(e.finish)} | ${f0(e.start + e.calls + e.between + e.finish)} |`,
      ),
      '',
      `Throughput with ${INFLIGHT} in flight: ${f2(INFLIGHT / (wall / 1000))} evaluations/s, ${f2(row.calls / (wall / 1000))} LLM calls/s (first submit to last verdict ${(wall / 1000).toFixed(1)} s).`,
    ];
    console.log(lines.join('\n'));
  } finally {
    await stack.stop();
    await mock.close();
  }
}

await main().catch((e: unknown) => {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
