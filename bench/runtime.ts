/**
 * Runtime bench: what the local runtime itself costs per request, `wrangler dev` against the deployed
 * bundle on Miniflare's API directly (the local stack's two runtimes, same Worker, same mock).
 *
 * Per runtime, against the mock LLM in its own process at latency L, with C requests in flight (closed loop):
 * - GET /health (one D1 read): requests/s and the runtime's CPU ms per request;
 * - POST /v1/evaluations of a one-call preset: POSTs/s (accepting only), and CPU ms per POST until
 *   every evaluation has ended (accepted and judged);
 * - items: POST, then the verdict awaited over SSE (the stream ends after it): items/s and CPU ms per
 *   item of the runtime (its whole process group: Node side and workerd), the mock and this client.
 *
 * ```
 * npm run bench:runtime -- [--runtimes miniflare,wrangler] [--concurrency 16] [--latency 250]
 *   [--gets 2000] [--posts 300] [--items 300] [--preset bandi-baseline]
 * ```
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { choiceOption, intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import type { LocalRuntime } from '../src/cli/local-stack.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { groupCpuMs, ownCpuMs } from './proc-cpu.js';

const CLI = {
  usage: `usage: npm run bench:runtime -- [options]

Measures the local runtime's cost per request: wrangler dev vs the bundle on Miniflare directly.

  --runtimes R,R      runtimes to measure (default miniflare,wrangler)
  --concurrency C     requests in flight (default 16)
  --latency L         mock LLM latency in ms (default 250)
  --gets N            GET /health requests (default 2000)
  --posts N           POST /v1/evaluations, accept only (default 300)
  --items N           POST + verdict over SSE (default 300)
  --preset P          a one-call preset (default bandi-baseline)
  -h, --help          this text`,
  options: {
    runtimes: { type: 'string', default: 'miniflare,wrangler' },
    concurrency: { type: 'string', default: '16' },
    latency: { type: 'string', default: '250' },
    gets: { type: 'string', default: '2000' },
    posts: { type: 'string', default: '300' },
    items: { type: 'string', default: '300' },
    preset: { type: 'string', default: 'bandi-baseline' },
  },
} as const satisfies CliSpec<CliOptions>;

interface Phase {
  perSecond: number;
  runtimeCpuMs: number;
  mockCpuMs: number;
  clientCpuMs: number;
}

interface Row {
  runtime: LocalRuntime;
  startupMs: number;
  get: Phase;
  post: Phase;
  item: Phase;
}

/** Runs `task` `n` times with `concurrency` in flight; measures requests/s and CPU per request. */
async function closedLoop(
  n: number,
  concurrency: number,
  pgids: { runtime: number; mock: number },
  task: (i: number) => Promise<void>,
): Promise<Phase> {
  const before = { runtime: groupCpuMs(pgids.runtime), mock: groupCpuMs(pgids.mock), client: ownCpuMs() };
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < n; i = next++) await task(i);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return {
    perSecond: n / seconds,
    runtimeCpuMs: (groupCpuMs(pgids.runtime) - before.runtime) / n,
    mockCpuMs: (groupCpuMs(pgids.mock) - before.mock) / n,
    clientCpuMs: (ownCpuMs() - before.client) / n,
  };
}

function taskBody(preset: string, i: number): string {
  return JSON.stringify({
    preset,
    task: {
      kind: 'pairwise',
      question: `(${i}) Which answer explains recursion better?`,
      answerA: `A function that calls itself until a base case (${i}).`,
      answerB: 'Recursion is recursion.',
    },
  });
}

async function post(url: string, preset: string, i: number): Promise<string> {
  const r = await fetch(`${url}/v1/evaluations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: taskBody(preset, i),
  });
  const body = (await r.json()) as { id?: string };
  if (r.status !== 202 || !body.id) throw new Error(`POST /v1/evaluations: HTTP ${r.status}`);
  return body.id;
}

const ended = async (url: string, id: string) =>
  ['succeeded', 'failed', 'cancelled'].includes(
    ((await (await fetch(`${url}/v1/evaluations/${id}`)).json()) as { status: string }).status,
  );

/**
 * Waits until every evaluation in `ids` has ended, asking about one at a time (the oldest still
 * pending, every 100 ms) so the waiting adds next to no requests to what is measured.
 */
async function drain(url: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    while (!(await ended(url, id))) await new Promise((r) => setTimeout(r, 100));
  }
}

async function measure(runtime: LocalRuntime, values: CliValues<typeof CLI.options>): Promise<Row> {
  const concurrency = intOption(values.concurrency, 'concurrency', 1, 1000) ?? 16;
  const mock = await startMockProcess(intOption(values.latency, 'latency', 0) ?? 250);
  const t0 = performance.now();
  const stack = await startBenchStack({
    runtime,
    stateDir: `tribunal-bench-runtime-${runtime}-`,
    mock,
    logFile: join(tmpdir(), `tribunal-bench-runtime-${runtime}.log`),
  });
  const startupMs = performance.now() - t0;
  const pgids = { runtime: stack.runtimePid, mock: mock.pgid };
  const preset = values.preset;
  try {
    // Warm-up: the isolate, D1 and the Durable Object namespace are ready before anything is measured.
    await closedLoop(200, concurrency, pgids, async () => {
      await (await fetch(`${stack.url}/health`)).arrayBuffer();
    });
    await drain(stack.url, await Promise.all(Array.from({ length: 20 }, (_, i) => post(stack.url, preset, -1 - i))));

    const get = await closedLoop(intOption(values.gets, 'gets', 1) ?? 2000, concurrency, pgids, async () => {
      const r = await fetch(`${stack.url}/health`);
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`GET /health: HTTP ${r.status}`);
    });
    const posted: string[] = [];
    const posts = intOption(values.posts, 'posts', 1) ?? 300;
    const cpuBeforePosts = groupCpuMs(pgids.runtime);
    const postPhase = await closedLoop(posts, concurrency, pgids, async (i) => {
      posted.push(await post(stack.url, preset, i));
    });
    await drain(stack.url, posted);
    // Per POST: accepting it and judging it, whenever that happened.
    postPhase.runtimeCpuMs = (groupCpuMs(pgids.runtime) - cpuBeforePosts) / posts;
    const item = await closedLoop(intOption(values.items, 'items', 1) ?? 300, concurrency, pgids, async (i) => {
      const id = await post(stack.url, preset, 100_000 + i);
      // The event stream closes after the terminal event.
      const events = await (
        await fetch(`${stack.url}/v1/evaluations/${id}/events`, { headers: { accept: 'text/event-stream' } })
      ).text();
      if (!events.includes('event: verdict')) throw new Error(`evaluation ${id} ended without a verdict`);
    });
    return { runtime, startupMs, get, post: postPhase, item };
  } finally {
    await stack.stop();
    await mock.stop();
  }
}

const f0 = (x: number) => x.toFixed(0);
const f1 = (x: number) => x.toFixed(1);
const f2 = (x: number) => x.toFixed(2);

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const runtimes = values.runtimes
    .split(',')
    .map((r) => choiceOption(r.trim(), 'runtimes', ['miniflare', 'wrangler'] as const) ?? 'miniflare');
  const rows: Row[] = [];
  for (const runtime of runtimes) {
    process.stderr.write(`measuring ${runtime}…\n`);
    rows.push(await measure(runtime, values));
  }
  console.log(
    [
      `C = ${values.concurrency} in flight, mock LLM latency ${values.latency} ms, preset ${values.preset} (one LLM call); CPU = user + system ms of the runtime's process group (Node side + workerd) per request or item`,
      '',
      '| runtime | startup (s) | GET /health req/s | CPU ms / GET | POST req/s (accept) | runtime CPU ms / POST (accepted and judged) | items/s (POST + verdict) | runtime CPU ms / item | mock CPU ms / item | bench client CPU ms / item |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${r.runtime === 'wrangler' ? 'wrangler dev' : 'Miniflare direct'} | ${f1(r.startupMs / 1000)} | ${f0(r.get.perSecond)} | ${f2(r.get.runtimeCpuMs)} | ${f0(r.post.perSecond)} | ${f2(r.post.runtimeCpuMs)} | ${f1(r.item.perSecond)} | ${f2(r.item.runtimeCpuMs)} | ${f2(r.item.mockCpuMs)} | ${f2(r.item.clientCpuMs)} |`,
      ),
    ].join('\n'),
  );
  return 0;
}

if (isMain(import.meta.url)) await runCli(CLI, main);
