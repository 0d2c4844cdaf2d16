/**
 * Tiers bench: one `POST /v1/batches` of N `chateval-faireval` items at each service tier against the project's
 * mock LLM (latency L) on the local stack, priced with the mock model at a list price whose flex price is half
 * (`LLM_PRICES`). Prints per tier: the USD the verdicts report, the ratio to standard, the wall time to the last
 * verdict, and whether every verdict equals the standard run's. Then a fault run at flex with the mock refusing
 * a share of flex requests for capacity (`--flex-refusal-rate`), once per `flexFallback`, with the counts:
 * evaluations lost must be 0. The batch tier runs in waves against the mock's Batch API (turnaround T): its
 * row adds the waves it took (the provider batches the mock created) and its wall time against waves × T; its
 * fault run has the mock fail and expire a share of batch lines (half each), with the counts.
 *
 * ```
 * npm run bench:tiers -- [--items 200] [--latency 100] [--c 64] [--refusals 0.2] [--turnaround 3000] [--line-faults 0.2]
 *   [--tiers standard,flex,batch] [--faults yes|no] [--log FILE]
 * ```
 *
 * With `--log FILE` the local runtime's log of the main run goes to FILE and the batch run's wave timeline
 * (bench/wave-timeline.ts) is printed: close → submitted → seen terminal → delivered → next close, per wave.
 */
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { choiceOption, intOption, runCli, UsageError } from '../src/cli/args.js';
import type { CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import { startMockProcess } from './mock-process.js';
import { groupCpuMs, runtimeCpuMs } from './proc-cpu.js';
import type { CpuSample } from './wave-timeline.js';
import { formatWaveTimeline, waveTimeline } from './wave-timeline.js';

const CLI = {
  usage: `usage: npm run bench:tiers -- [options]

Cost, wall time and verdicts of one batch at each service tier against the mock LLM (BENCHMARKS.md).

  --items N        items in the batch (default 200)
  --latency L      mock LLM latency in ms (default 100)
  --c C            BATCH_CONCURRENCY for the run (default 64)
  --refusals R     share of flex requests the mock refuses in the fault run, 0-1 (default 0.2)
  --turnaround T   the mock's batch turnaround in ms (default 3000)
  --line-faults F  share of batch lines that fail or expire in the fault run, half each, 0-1 (default 0.2)
  --tiers LIST     tiers to run, comma-separated (default standard,flex,batch); "× standard" needs standard
  --faults yes|no  the fault runs of the tiers run (default yes)
  --log FILE       write the local runtime's log of the main run to FILE and print the batch run's wave timeline
  -h, --help       this text`,
  options: {
    items: { type: 'string', default: '200' },
    latency: { type: 'string', default: '100' },
    c: { type: 'string', default: '64' },
    refusals: { type: 'string', default: '0.2' },
    turnaround: { type: 'string', default: '3000' },
    'line-faults': { type: 'string', default: '0.2' },
    tiers: { type: 'string', default: 'standard,flex,batch' },
    faults: { type: 'string', default: 'yes' },
    log: { type: 'string' },
  },
} as const;

/** gpt-4o-mini's list price for the mock's model, flex and batch at half. */
/** The service tiers, in the order they run. */
const TIERS = ['standard', 'flex', 'batch'] as const;

const PRICES = JSON.stringify({
  'mock-judge': {
    input: 0.15,
    output: 0.6,
    flex: { input: 0.075, output: 0.3 },
    batch: { input: 0.075, output: 0.3 },
  },
});

/** How many provider batches the mock has created (each wave of the run's one coordinator is one). */
async function mockBatchCount(mockUrl: string): Promise<number> {
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const q: string = after ? `&after=${after}` : '';
    const r = await fetch(`${mockUrl}/batches?limit=100${q}`, { headers: { authorization: 'Bearer bench' } });
    const page = (await r.json()) as { data: { id: string }[]; has_more: boolean };
    count += page.data.length;
    if (!page.has_more || page.data.length === 0) return count;
    after = page.data.at(-1)?.id ?? null;
  }
}

interface ResultLine {
  index: number;
  status: string;
  verdict: { winner?: string | null; score?: number | null; usage: { costUsd: number } } | null;
}

interface RunFigures {
  /** The Tribunal batch's id ('' when refused). */
  id: string;
  /** When it was posted, epoch ms. */
  postedAt: number;
  /** When the POST was answered, epoch ms. */
  answeredAt: number;
  status: number;
  message?: string;
  seconds: number;
  costUsd: number;
  lines: ResultLine[];
}

function body(n: number, tier: string, flexFallback: string): string {
  const items = Array.from({ length: n }, (_, i) => ({
    id: `i${i}`,
    task: {
      kind: 'pairwise',
      question: `(${i}) Which answer explains recursion better?`,
      answerA: `A function that calls itself until a base case (${i}).`,
      answerB: 'Recursion is recursion.',
    },
  }));
  // The verdict cache off: each tier's run pays for its own verdicts (a repeat would cost $0, bench:cache's point).
  return JSON.stringify({ preset: 'chateval-faireval', tier, flexFallback, cache: 'off', items });
}

async function results(url: string, id: string): Promise<ResultLine[]> {
  const out: ResultLine[] = [];
  let next: string | null = `${url}/v1/batches/${id}/results?limit=1000`;
  while (next) {
    const r = await fetch(next);
    const text = await r.text();
    for (const line of text.split('\n')) if (line.trim()) out.push(JSON.parse(line) as ResultLine);
    const link = /<([^>]+)>; rel="next"/.exec(r.headers.get('link') ?? '');
    next = link?.[1] ? `${url}${link[1]}` : null;
  }
  return out;
}

async function runBatch(url: string, n: number, tier: string, flexFallback = 'standard'): Promise<RunFigures> {
  const t0 = Date.now();
  const r = await fetch(`${url}/v1/batches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body(n, tier, flexFallback),
  });
  const accepted = (await r.json()) as { id?: string; error?: { message: string } };
  const answeredAt = Date.now();
  if (r.status !== 202 || !accepted.id)
    return {
      id: '',
      postedAt: t0,
      answeredAt,
      status: r.status,
      message: accepted.error?.message ?? '',
      seconds: 0,
      costUsd: 0,
      lines: [],
    };
  for (let polls = 0; ; polls++) {
    const view = (await (await fetch(`${url}/v1/batches/${accepted.id}`)).json()) as {
      completedAt: string | null;
      counts?: unknown;
    };
    if (polls % 20 === 19)
      process.stderr.write(
        `${tier} batch ${accepted.id}: ${JSON.stringify(view.counts)} at +${(Date.now() - t0) / 1000} s\n`,
      );
    if (polls === 40 && process.env.BENCH_DEBUG)
      for (const l of await results(url, accepted.id))
        if (l.status !== 'succeeded' && l.status !== 'failed') {
          const id = (l as unknown as { evaluationId: string }).evaluationId;
          process.stderr.write(`${await (await fetch(`${url}/v1/evaluations/${id}`)).text()}\n`);
          process.stderr.write(
            `${(await (await fetch(`${url}/v1/evaluations/${id}/transcript`)).text()).slice(0, 3000)}\n`,
          );
        }
    if (view.completedAt !== null) {
      const lines = await results(url, accepted.id);
      return {
        id: accepted.id,
        postedAt: t0,
        answeredAt,
        status: 202,
        seconds: (Date.parse(view.completedAt) - t0) / 1000,
        costUsd: lines.reduce((a, l) => a + (l.verdict?.usage.costUsd ?? 0), 0),
        lines,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const same = (a: ResultLine[], b: ResultLine[]): number =>
  a.filter(
    (l, i) =>
      JSON.stringify([l.verdict?.winner, l.verdict?.score]) ===
      JSON.stringify([b[i]?.verdict?.winner, b[i]?.verdict?.score]),
  ).length;

/** CPU used so far, ms: the local runtime's workerd and the mock's processes. */
interface CpuNow {
  workerd: number;
  mock: number;
}

async function withStack<T>(
  latency: number,
  c: number,
  mockFlags: readonly string[],
  fn: (url: string, mockUrl: string, cpu: () => CpuNow) => Promise<T>,
  logFile?: string,
): Promise<T> {
  const mock = await startMockProcess(latency, mockFlags);
  const stack = await startBenchStack({
    stateDir: 'tribunal-bench-tiers-',
    mock,
    vars: {
      BATCH_CONCURRENCY: String(c),
      LLM_SUPPORTS_FLEX: 'true',
      LLM_SUPPORTS_BATCH: 'true',
      LLM_PRICES: PRICES,
      // The mock's batches take seconds, not hours: a batch is polled every 100-200 ms (a real provider's
      // minutes, scaled like the turnaround). A wave's quiet stays the deployed 2 s: a batch's items start
      // side by side, and 1 s split 200 items' first wave in two on the loaded machine (8 waves for 4).
      BATCH_POLL_MIN_MS: '100',
      BATCH_POLL_MAX_MS: '200',
      // The wave timeline reads each item's `evaluation.started`, a debug line.
      ...(logFile !== undefined ? { LOG_LEVEL: 'debug' } : {}),
    },
    ...(logFile !== undefined ? { logFile } : {}),
  });
  try {
    return await fn(stack.url, mock.baseUrl, () => ({
      workerd: runtimeCpuMs(stack.runtimePid).workerd,
      mock: groupCpuMs(mock.pgid),
    }));
  } finally {
    await stack.stop();
    await mock.stop();
  }
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const n = intOption(values.items, 'items', 1, 10_000) ?? 200;
  const latency = intOption(values.latency, 'latency', 0) ?? 100;
  const c = intOption(values.c, 'c', 1) ?? 64;
  const refusals = Number(values.refusals);
  const turnaround = intOption(values.turnaround, 'turnaround', 1) ?? 3000;
  const lineFaults = Number(values['line-faults']);
  const tiers = values.tiers.split(',').map((t) => choiceOption(t.trim(), 'tiers', TIERS) ?? 'standard');
  if (tiers.length === 0) throw new UsageError('--tiers must name at least one tier');
  const faultRuns = choiceOption(values.faults, 'faults', ['yes', 'no'] as const) === 'yes';
  const rows: string[] = [];
  const faults: string[] = [];
  let wavesLine = '';
  let timeline = '';
  const batchFlags = ['--batch-turnaround', String(turnaround)];
  await withStack(
    latency,
    c,
    batchFlags,
    async (url, mockUrl, cpu) => {
      await runBatch(url, 10, 'standard'); // warm-up
      const standard = tiers.includes('standard') ? await runBatch(url, n, 'standard') : null;
      for (const tier of TIERS.filter((t) => tiers.includes(t))) {
        const before = await mockBatchCount(mockUrl);
        const cpuBefore = cpu();
        // workerd's CPU every 50 ms: the wave timeline reads how busy it was while each wave was handed over.
        const samples: CpuSample[] = [];
        const sampler = setInterval(() => samples.push({ at: Date.now(), ms: cpu().workerd }), 50);
        const r = tier === 'standard' && standard ? standard : await runBatch(url, n, tier);
        clearInterval(sampler);
        const cpuAfter = cpu();
        if (r.status !== 202) {
          rows.push(`| ${tier} | HTTP ${r.status}: ${r.message} | | | |`);
          continue;
        }
        const ok = r.lines.filter((l) => l.status === 'succeeded').length;
        const ratio = standard ? (r.costUsd / standard.costUsd).toFixed(3) : '-';
        const equal = standard ? `${same(r.lines, standard.lines)}/${n}` : '-';
        rows.push(
          `| ${tier} | ${r.costUsd.toFixed(6)} | ${ratio} | ${r.seconds.toFixed(1)} | ${equal} (${ok} succeeded) |`,
        );
        if (tier === 'batch') {
          const waves = (await mockBatchCount(mockUrl)) - before;
          const ideal = (waves * turnaround) / 1000;
          // CPU is what the waves' hand-overs cost, read apart from the machine's other load (the wall time is not).
          const cpuLine = `CPU during the batch run: workerd ${((cpuAfter.workerd - cpuBefore.workerd) / 1000).toFixed(1)} s, mock ${((cpuAfter.mock - cpuBefore.mock) / 1000).toFixed(1)} s (load ${loadavg()[0]?.toFixed(1) ?? '?'})`;
          wavesLine = `Batch tier: ${waves} waves (provider batches) × turnaround ${turnaround / 1000} s = ${ideal.toFixed(1)} s; wall time ${r.seconds.toFixed(1)} s = ${(r.seconds / ideal).toFixed(2)}× waves × turnaround. ${cpuLine}`;
          const t = values.log
            ? waveTimeline(readFileSync(values.log, 'utf8'), r.id, r.postedAt, r.answeredAt, samples)
            : null;
          if (t) timeline = formatWaveTimeline(t, turnaround);
        }
      }
    },
    values.log,
  );
  if (!faultRuns) {
    console.log(
      [
        `Batch of ${n} × chateval-faireval, mock LLM latency ${latency} ms, BATCH_CONCURRENCY ${c}, mock batch turnaround ${turnaround} ms, local stack (Miniflare)`,
        '',
        '| tier | USD | × standard | time to last verdict (s) | verdicts equal to standard |',
        '|---|---|---|---|---|',
        ...rows,
        '',
        wavesLine,
        '',
        timeline,
      ].join('\n'),
    );
    return 0;
  }
  const lineFlags = [
    ...batchFlags,
    '--batch-failure-rate',
    String(lineFaults / 2),
    '--batch-expiry-rate',
    String(lineFaults / 2),
  ];
  const lineFaultRows: string[] = [];
  if (tiers.includes('batch'))
    await withStack(latency, c, lineFlags, async (url, mockUrl) => {
      const before = await mockBatchCount(mockUrl);
      const r = await runBatch(url, n, 'batch');
      const count = (s: string) => r.lines.filter((l) => l.status === s).length;
      const lost = n - r.lines.length + count('failed');
      const waves = (await mockBatchCount(mockUrl)) - before;
      lineFaultRows.push(
        `| ${count('succeeded')} | ${count('failed')} | ${lost} | ${waves} | ${r.costUsd.toFixed(6)} | ${r.seconds.toFixed(1)} |`,
      );
    });
  if (tiers.includes('flex'))
    await withStack(latency, c, ['--flex-refusal-rate', String(refusals)], async (url) => {
      for (const fallback of ['standard', 'wait']) {
        const r = await runBatch(url, n, 'flex', fallback);
        const count = (s: string) => r.lines.filter((l) => l.status === s).length;
        const lost = n - r.lines.length + count('failed');
        faults.push(
          `| ${fallback} | ${count('succeeded')} | ${count('failed')} | ${lost} | ${r.costUsd.toFixed(6)} | ${r.seconds.toFixed(1)} |`,
        );
      }
    });
  console.log(
    [
      `Batch of ${n} × chateval-faireval, mock LLM latency ${latency} ms, BATCH_CONCURRENCY ${c}, mock batch turnaround ${turnaround} ms, local stack (Miniflare); mock-judge priced as gpt-4o-mini, flex and batch at half`,
      '',
      '| tier | USD | × standard | time to last verdict (s) | verdicts equal to standard |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Fault run at flex: the mock refuses ${refusals * 100}% of flex requests for capacity`,
      '',
      '| flexFallback | succeeded | failed | lost | USD | time (s) |',
      '|---|---|---|---|---|---|',
      ...faults,
      '',
      wavesLine,
      '',
      timeline,
      '',
      `Fault run at batch: the mock fails ${(lineFaults * 50).toFixed(0)}% and expires ${(lineFaults * 50).toFixed(0)}% of batch lines (each resubmission draws again)`,
      '',
      '| succeeded | failed | lost | waves | USD | time (s) |',
      '|---|---|---|---|---|---|',
      ...lineFaultRows,
    ].join('\n'),
  );
  return 0;
}

await runCli(CLI, main);
