/**
 * Batch bench: one `POST /v1/batches` of N items of a single-call preset (default 1,000 items of
 * `fastchat-pair` with calibration off: one LLM call each) against the project's mock LLM at latency L, on
 * the local stack (the deployed bundle on Miniflare, local D1/Queues/DOs; src/cli/local-stack.ts). Prints:
 * - time to 202: the POST's round trip (validation, the D1 transaction, every id queued);
 * - time to the last verdict: from the POST to the batch's `completedAt` (set in the transaction of the
 *   last item's ending; same machine, same clock), and items/s;
 * - the ideal N × L / C for the batch's provider concurrency C (`BATCH_CONCURRENCY`, set for the run by
 *   `--c`) and the ratio to it;
 * - CPU ms per item of the runtime's process group (Node side + workerd; workerd's share apart) and of the
 *   mock (own process);
 * - where an item's time went, from the stack's log (bench/batch-timeline.ts): start → call out, the call,
 *   call → final write, final write → the next item's start, and how many of the C slots were busy;
 * - the excess over the ideal by stage, in seconds that add up to T − N × L / C (the ramp, each of those
 *   stages, the tail: `excessByStage`).
 *
 * ```
 * npm run bench:batch -- [--items 1000] [--latency 250] [--c 16] [--preset fastchat-pair] [--both-orders] [--ndjson] [--runs 1]
 * ```
 */
import { readFileSync } from 'node:fs';
import { choiceOption, intOption, runCli } from '../src/cli/args.js';
import type { CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { oneOrderOf } from './batch-args.js';
import { LOG_LEVELS } from '../src/log/log.js';
import { doneItems, excessByStage, itemTimeline } from './batch-timeline.js';
import { startMockProcess } from './mock-process.js';
import { groupCpuMs, runtimeCpuMs } from './proc-cpu.js';
import { benchStateRoot } from './state-dir.js';

const CLI = {
  usage: `usage: npm run bench:batch -- [options]

Time to 202 and to the last verdict of one batch against the mock LLM (BENCHMARKS.md).

  --items N        items in the batch (default 1000)
  --latency L      mock LLM latency in ms (default 250)
  --c C            BATCH_CONCURRENCY for the run: items in flight, the C of N × L / C (default 16)
  --preset P       preset (default fastchat-pair, calibration off: one call per item)
  --both-orders    fastchat-pair as a batch without config runs it (calibration on: both orders, two calls
                   per item at once, e.g. a burst sent to npm start); the ideal N × L / C is the same.
                   With another preset it is refused (exit 2)
  --ndjson         send the batch as NDJSON instead of JSON
  --runs R         batches measured one after the other (default 1)
  --log-level V    the Worker's LOG_LEVEL (debug, info, warn, error; default info, as deployed); the table of
                   where an item's time went needs debug (the start and call lines it reads are debug lines)
  -h, --help       this text`,
  options: {
    items: { type: 'string', default: '1000' },
    latency: { type: 'string', default: '250' },
    c: { type: 'string', default: '16' },
    preset: { type: 'string', default: 'fastchat-pair' },
    'both-orders': { type: 'boolean', default: false },
    ndjson: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    'log-level': { type: 'string', default: 'info' },
  },
} as const;

/** Whether `preset` runs with calibration off (one call per item): fastchat-pair unless `--both-orders`. */
function oneOrder(preset: string, bothOrders: boolean): boolean {
  return oneOrderOf(preset, bothOrders);
}

function body(
  preset: string,
  n: number,
  run: number,
  ndjson: boolean,
  bothOrders: boolean,
): { text: string; type: string } {
  const header = { preset, ...(oneOrder(preset, bothOrders) ? { config: { calibration: { enabled: false } } } : {}) };
  const items = Array.from({ length: n }, (_, i) => ({
    id: `r${run}-${i}`,
    task: {
      kind: 'pairwise',
      question: `(${run}/${i}) Which answer explains recursion better?`,
      answerA: `A function that calls itself until a base case (${i}).`,
      answerB: 'Recursion is recursion.',
    },
  }));
  if (ndjson)
    return { text: [header, ...items].map((x) => JSON.stringify(x)).join('\n'), type: 'application/x-ndjson' };
  return { text: JSON.stringify({ ...header, items }), type: 'application/json' };
}

interface BatchView {
  completedAt: string | null;
  counts: { succeeded: number; failed: number; cancelled: number };
}

/** Submits one batch and waits for its completion, polling every second (the time comes from `completedAt`). */
async function runBatch(
  url: string,
  preset: string,
  n: number,
  run: number,
  ndjson: boolean,
  bothOrders: boolean,
): Promise<{ t0: number; acceptMs: number; lastMs: number; view: BatchView }> {
  const { text, type } = body(preset, n, run, ndjson, bothOrders);
  const t0 = Date.now();
  const r = await fetch(`${url}/v1/batches`, { method: 'POST', headers: { 'content-type': type }, body: text });
  const acceptMs = Date.now() - t0;
  const accepted = (await r.json()) as { id?: string };
  if (r.status !== 202 || !accepted.id)
    throw new Error(`POST /v1/batches: HTTP ${r.status} ${JSON.stringify(accepted)}`);
  for (;;) {
    let view: BatchView;
    try {
      view = (await (
        await fetch(`${url}/v1/batches/${accepted.id}`, { signal: AbortSignal.timeout(15_000) })
      ).json()) as BatchView;
    } catch (e) {
      // A slow answer must not stop the bench; say so (it is part of what is measured).
      process.stderr.write(
        `GET /v1/batches/${accepted.id} at +${((Date.now() - t0) / 1000).toFixed(1)} s: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 1000));
      continue;
    }
    if (view.completedAt !== null) return { t0, acceptMs, lastMs: Date.parse(view.completedAt) - t0, view };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 1000;
  const latency = intOption(values.latency, 'latency', 0) ?? 250;
  const c = intOption(values.c, 'c', 1) ?? 16;
  const runs = intOption(values.runs, 'runs', 1, 20) ?? 1;
  const logLevel = choiceOption(values['log-level'], 'log-level', LOG_LEVELS) ?? 'info';
  // Refused before anything starts: `--both-orders` with another preset would be silently ignored.
  oneOrder(values.preset, values['both-orders']);
  const mock = await startMockProcess(latency);
  // The log beside the run's own state: a shared file in the temp directory took the lines of another
  // engineer's run at the same time into this run's timeline.
  const stack = await startBenchStack({
    stateDir: 'tribunal-bench-batch-',
    mock,
    vars: { BATCH_CONCURRENCY: String(c), LOG_LEVEL: logLevel },
    logFile: true,
  });
  const logFile = stack.logFile ?? '';
  try {
    // Warm-up: the isolate, D1, the queue and the Durable Object namespace are ready before anything is measured.
    await runBatch(stack.url, values.preset, 20, -1, values.ndjson, values['both-orders']);
    const rows: string[] = [];
    const timelines: string[] = [];
    const excesses: string[] = [];
    for (let run = 0; run < runs; run++) {
      const cpu = { runtime: runtimeCpuMs(stack.runtimePid), mock: groupCpuMs(mock.pgid) };
      const from = Date.now();
      const r = await runBatch(stack.url, values.preset, n, run, values.ndjson, values['both-orders']);
      const items = doneItems(readFileSync(logFile, 'utf8'));
      const t = itemTimeline(items, from, from + r.lastMs);
      const x = excessByStage(items, { t0: r.t0, end: r.t0 + r.lastMs, n, latency, c });
      if (x)
        excesses.push(
          `| ${run + 1} | ${x.total.toFixed(2)} | ${x.ramp.toFixed(2)} (${x.rampMeanMs.toFixed(0)} ms) | ${x.startToCall.toFixed(2)} | ${x.transport.toFixed(2)} | ${x.finalWrite.toFixed(2)} | ${x.handover.toFixed(2)} | ${x.tail.toFixed(2)} |`,
        );
      if (t)
        timelines.push(
          `| ${run + 1} | ${t.items} | ${t.startToCall.toFixed(1)} | ${t.call.toFixed(1)} | ${t.callToFinal.toFixed(1)} | ${t.handover.toFixed(1)} | ${t.busy.toFixed(2)} of ${c} |`,
        );
      const runtimeAfter = runtimeCpuMs(stack.runtimePid);
      const runtimeCpu = (runtimeAfter.total - cpu.runtime.total) / n;
      const workerdCpu = (runtimeAfter.workerd - cpu.runtime.workerd) / n;
      const mockCpu = (groupCpuMs(mock.pgid) - cpu.mock) / n;
      const ideal = (n * latency) / c;
      const { succeeded, failed, cancelled } = r.view.counts;
      rows.push(
        `| ${run + 1} | ${n} | ${(r.acceptMs / 1000).toFixed(2)} | ${(r.lastMs / 1000).toFixed(2)} | ${(n / (r.lastMs / 1000)).toFixed(1)} | ` +
          `${(ideal / 1000).toFixed(2)} | ${(r.lastMs / ideal).toFixed(2)} | ${runtimeCpu.toFixed(2)} (${workerdCpu.toFixed(2)}) | ${mockCpu.toFixed(2)} | ${succeeded}/${failed}/${cancelled} |`,
      );
    }
    console.log(
      [
        `${values.ndjson ? 'NDJSON' : 'JSON'} batch of ${n} × ${values.preset}${oneOrder(values.preset, values['both-orders']) ? ' (calibration off: 1 call per item)' : values.preset === 'fastchat-pair' ? ' (both orders: 2 calls per item at once)' : ''}, mock LLM latency ${latency} ms, local stack (Miniflare), LOG_LEVEL ${logLevel}, state on ${benchStateRoot().why}`,
        '',
        `| run | items | time to 202 (s) | time to last verdict (s) | items/s | ideal N·L/C, C = ${c} (s) | ratio | runtime CPU ms / item (workerd) | mock CPU ms / item | succeeded/failed/cancelled |`,
        '|---|---|---|---|---|---|---|---|---|---|',
        ...rows,
        '',
        `Where an item's time went (means, ms, on the object's clock; bench/batch-timeline.ts${logLevel === 'debug' ? '' : '; its lines are debug lines: --log-level debug'}):`,
        '',
        '| run | items | start → call out | the call | call → final write | latest final write → start | slots busy |',
        '|---|---|---|---|---|---|---|',
        ...timelines,
        '',
        `The excess over the ideal by stage, s (they add up; bench/batch-timeline.ts \`excessByStage\`; debug lines):`,
        '',
        '| run | T − N·L/C | ramp (mean of the first C starts) | start → call out | transport (call − L) | call → final write | k-th final write → (C+k)-th start | tail |',
        '|---|---|---|---|---|---|---|---|',
        ...excesses,
      ].join('\n'),
    );
    return 0;
  } finally {
    await stack.stop();
    await mock.stop();
  }
}

await runCli(CLI, main);
