/**
 * Trace ingest bench: how many spans per second `POST /v1/traces` takes and stores, sustained, and that none is
 * lost.
 *
 * Starts the local stack (Miniflare, state on tmpfs, crons off) and exports realistic GenAI agent traces to it
 * over loopback as an OpenTelemetry SDK's batch processor would: OTLP protobuf, `--batch` spans a request (the
 * SDK's default 512), the spans in the order they end (children before their root, so a trace may straddle two
 * requests). Each trace is an agent run: the root `invoke_agent` span, then per step a `chat` span (input and
 * output messages, a tool call, token usage) and an `execute_tool` span (arguments, result), and a final `chat`.
 * The exporter is open loop: a request is due every `batch / rate` seconds, at most `--concurrency` in flight
 * (a request that cannot start on time starts late, and the achieved rate says so).
 *
 * After `--duration` seconds it reads every trace back (`GET /v1/traces/{id}`) until all its spans are stored
 * (or 120 s more pass), and prints: spans exported and accepted, the rate over the export, the queue's backlog (a
 * marker trace exported after the last request: the seconds until it is stored), the stored rate over the whole, spans lost
 * (accepted but not stored), the export requests' p50/p95 latency, workerd's CPU per 1,000 spans (taking them
 * and storing them, up to the marker: the figure that holds whatever the machine's load), and the load (`uptime`)
 * before and after.
 *
 * With `--monitors`, a span monitor and a trace monitor judge the traces as they arrive (./traces-monitors.ts):
 * it then also prints duplicate evaluations, the p95 from a trace's end to its verdict, and the budget's spend.
 *
 * ```
 * npm run bench:traces -- [--duration 60] [--rate 2000] [--batch 512] [--steps 5] [--concurrency 8] [--monitors]
 * ```
 */
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { intOption, isMain, runCli } from '../src/cli/args.js';
import type { CliOptions, CliSpec, CliValues } from '../src/cli/args.js';
import { startBenchStack } from './bench-stack.js';
import type { PbSpan } from './agent-traces.js';
import { agentRun, exportBody } from './agent-traces.js';
import { opentelemetry } from '../src/traces/otlp-proto/otlp.js';
import { runtimeCpuMs } from './proc-cpu.js';
import { benchStateRoot } from './state-dir.js';
import type { MonitorPlan } from './traces-monitors.js';
import { createBenchMonitors, monitorFigures } from './traces-monitors.js';

const CLI = {
  usage: `usage: npm run bench:traces -- [options]

Spans/s that POST /v1/traces takes and stores on the local stack (OTLP protobuf over loopback).

  --duration S      seconds of exporting (default 60)
  --rate R          spans per second offered (default 2000)
  --batch B         spans per export request (default 512, the SDK batch processor's)
  --steps K         tool steps per agent run: 2K + 2 spans a trace (default 5)
  --concurrency C   export requests in flight at most (default 8)
  --monitors        a span monitor (5% of chat spans, $0.0008 a day) and a trace monitor (10% of traces) judge
                    with the mock at 250 ms; prints duplicates, trace end → verdict and the budget's spend
  -h, --help        this text`,
  options: {
    duration: { type: 'string', default: '60' },
    rate: { type: 'string', default: '2000' },
    batch: { type: 'string', default: '512' },
    steps: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '8' },
    monitors: { type: 'boolean', default: false },
  },
} as const satisfies CliSpec<CliOptions>;

const pb = opentelemetry.proto;

/** How long the marker is waited for after the last export: 300 s (past it the backlog prints as `> 300`). */
const MARKER_WAIT_MS = 300_000;
/** The stack's quiet period before a trace counts as complete (wrangler.toml `TRACE_QUIET_MS`), ms. */
const QUIET_MS = 5000;
/** What `--monitors` asks of the monitors. */
const MONITOR_PLAN: MonitorPlan = { spanRate: 0.05, traceRate: 0.1, dailyBudgetUsd: 0.0008 };

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A GET of a trace: its span count, 0 while it is not there; a dropped connection is tried again. */
async function spanCountOf(base: string, traceId: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      const r = await fetch(`${base}/v1/traces/${traceId}`);
      if (r.status !== 200) {
        await r.arrayBuffer();
        return 0;
      }
      return ((await r.json()) as { spanCount: number }).spanCount;
    } catch (e) {
      if (attempt >= 5) throw e;
      await new Promise((res) => setTimeout(res, 200 * attempt));
    }
  }
}

function uptime(): string {
  return execFileSync('uptime', { encoding: 'utf8' }).trim();
}

async function main(values: CliValues<typeof CLI.options>): Promise<number> {
  const duration = intOption(values.duration, 'duration', 1, 3600) ?? 60;
  const rate = intOption(values.rate, 'rate', 1, 1_000_000) ?? 2000;
  const batch = intOption(values.batch, 'batch', 1, 5000) ?? 512;
  const steps = intOption(values.steps, 'steps', 0, 100) ?? 5;
  const concurrency = intOption(values.concurrency, 'concurrency', 1, 256) ?? 8;
  const loadBefore = uptime();
  // This run's own log (others may bench at once): with monitors it is read for the stages of each verdict.
  const logFile = join(tmpdir(), `tribunal-bench-traces-${process.pid}.log`);
  const stack = await startBenchStack({
    stateDir: 'tribunal-bench-traces-',
    crons: false,
    logFile,
    // Debug adds the trace monitor's line per trace judged and each evaluation's start and call lines (the stages).
    ...(values.monitors ? { vars: { LOG_LEVEL: 'debug' } } : {}),
  });
  try {
    const endpoint = `${stack.url}/v1/traces`;
    const expected = new Map<string, number>();
    let pending: PbSpan[] = [];
    let clockMs = Date.now();
    const nextBatch = (): PbSpan[] => {
      while (pending.length < batch) {
        const run = agentRun(steps, clockMs, values.monitors);
        clockMs += 3;
        expected.set(run.traceId, run.spans.length);
        pending = pending.concat(run.spans);
      }
      const out = pending.slice(0, batch);
      pending = pending.slice(batch);
      return out;
    };
    const post = async (body: Uint8Array) =>
      fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/x-protobuf' }, body });
    // Warm up: one request, so the first figures do not include the bundle's first load.
    await (await post(exportBody(agentRun(1, Date.now()).spans))).arrayBuffer();
    const monitors = values.monitors ? await createBenchMonitors(stack.url, MONITOR_PLAN) : null;
    /** Each trace's end with monitors on: when the request carrying its last span was answered, epoch ms. */
    const lastSpanAt = new Map<string, number>();
    const arrived = (spans: readonly PbSpan[]) => {
      if (!monitors) return;
      const at = Date.now();
      for (const s of spans) lastSpanAt.set(Buffer.from(s.traceId ?? new Uint8Array()).toString('hex'), at);
    };

    const cpuBefore = runtimeCpuMs(stack.runtimePid).workerd;
    let exported = 0;
    let accepted = 0;
    let failed = 0;
    const latencies: number[] = [];
    const refusedTraces: string[] = [];
    let inFlight = 0;
    const freed: (() => void)[] = [];
    const started = Date.now();
    const end = started + duration * 1000;
    const interval = (batch / rate) * 1000;
    const sends: Promise<void>[] = [];
    for (let i = 0; ; i++) {
      const due = started + i * interval;
      if (due >= end) break;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      while (inFlight >= concurrency) await new Promise<void>((r) => freed.push(r));
      if (Date.now() >= end) break;
      const spans = nextBatch();
      const body = exportBody(spans);
      inFlight += 1;
      exported += spans.length;
      sends.push(
        (async () => {
          const t0 = Date.now();
          try {
            // As an SDK exporter does: a dropped connection or a retryable status is sent again (at most 3 tries).
            for (let attempt = 1; attempt <= 3; attempt++) {
              try {
                const r = await post(body);
                const answer = new Uint8Array(await r.arrayBuffer());
                if (r.status !== 200 && attempt < 3 && (r.status === 429 || r.status >= 500)) continue;
                latencies.push(Date.now() - t0);
                if (r.status !== 200) failed += spans.length;
                else {
                  arrived(spans);
                  const decoded = pb.collector.trace.v1.ExportTraceServiceResponse.decode(answer);
                  const rejected = Number(decoded.partialSuccess?.rejectedSpans ?? 0);
                  accepted += spans.length - rejected;
                  failed += rejected;
                }
                return;
              } catch {
                if (attempt === 3) {
                  failed += spans.length;
                  refusedTraces.push(...spans.map((s) => Buffer.from(s.traceId ?? new Uint8Array()).toString('hex')));
                }
              }
            }
          } finally {
            inFlight -= 1;
            freed.shift()?.();
          }
        })(),
      );
    }
    await Promise.all(sends);
    const exportEnded = Date.now();
    console.error(`exported ${exported} spans (${failed} refused); waiting for the backlog…`);
    const exportSeconds = (exportEnded - started) / 1000;
    // Spans still in the exporter's buffer, or in a request never answered, are not expected.
    for (const id of [
      ...pending.map((s) => Buffer.from(s.traceId ?? new Uint8Array()).toString('hex')),
      ...refusedTraces,
    ]) {
      const left = (expected.get(id) ?? 0) - 1;
      if (left > 0) expected.set(id, left);
      else expected.delete(id);
    }

    // The backlog: a marker trace exported now is stored once the queue has caught up (it is read in order).
    const marker = agentRun(0, Date.now());
    // A dropped connection (workerd under load) is tried again, as for every export.
    for (let attempt = 1; ; attempt++) {
      try {
        await (await post(exportBody(marker.spans))).arrayBuffer();
        break;
      } catch (e) {
        if (attempt >= 5) throw e;
        await new Promise((res) => setTimeout(res, 500 * attempt));
      }
    }
    arrived(marker.spans);
    let markerStoredAt = 0;
    while (markerStoredAt === 0 && Date.now() < exportEnded + MARKER_WAIT_MS) {
      if ((await spanCountOf(stack.url, marker.traceId)) >= marker.spans.length) markerStoredAt = Date.now();
      else await new Promise((res) => setTimeout(res, 50));
    }
    const backlogSeconds = markerStoredAt === 0 ? Number.NaN : (markerStoredAt - exportEnded) / 1000;
    const cpuMs = runtimeCpuMs(stack.runtimePid).workerd - cpuBefore;

    console.error(`backlog ${backlogSeconds} s; reading ${expected.size} traces back…`);
    // Read every trace back until all its spans are there (or the deadline).
    const missing = new Map(expected);
    const deadline = Date.now() + 120_000;
    while (missing.size > 0 && Date.now() < deadline) {
      const ids = [...missing.keys()];
      let next = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (next < ids.length) {
            const id = ids[next++] ?? '';
            if ((await spanCountOf(stack.url, id)) >= (missing.get(id) ?? 0)) missing.delete(id);
          }
        }),
      );
      if (missing.size > 0) await new Promise((r) => setTimeout(r, 500));
    }
    let lost = 0;
    for (const [id, want] of missing) {
      lost += want - (await spanCountOf(stack.url, id));
    }
    const expectedSpans = [...expected.values()].reduce((a, b) => a + b, 0);
    const judged = monitors
      ? await monitorFigures(stack.url, monitors, MONITOR_PLAN, lastSpanAt, QUIET_MS, uptime, logFile)
      : { lines: ['', 'duplicate evaluations and trace end → verdict: with --monitors'], ok: true };
    console.log(
      [
        `bench:traces: ${duration} s of OTLP protobuf exports at ${rate} spans/s offered, ${batch} spans a request, ` +
          `${2 * steps + 2} spans a trace, ≤ ${concurrency} requests in flight; state on ${benchStateRoot().why}`,
        `load before: ${loadBefore}`,
        `load after:  ${uptime()}`,
        '',
        '| spans exported | accepted | refused | export rate (spans/s) | request p50 / p95 (ms) | backlog: a marker stored (s after the last export) | stored rate (spans/s) | traces | spans lost | workerd CPU per 1,000 spans (ms) |',
        '|---|---|---|---|---|---|---|---|---|---|',
        `| ${exported} | ${accepted} | ${failed} | ${(exported / exportSeconds).toFixed(0)} | ${pct(latencies, 50)} / ${pct(latencies, 95)} | ${Number.isNaN(backlogSeconds) ? `> ${MARKER_WAIT_MS / 1000}` : backlogSeconds.toFixed(1)} | ${Number.isNaN(backlogSeconds) ? `< ${(expectedSpans / (exportSeconds + MARKER_WAIT_MS / 1000)).toFixed(0)}` : (expectedSpans / (exportSeconds + backlogSeconds)).toFixed(0)} | ${expected.size} | ${lost} | ${((cpuMs / exported) * 1000).toFixed(0)} |`,
        ...judged.lines,
      ].join('\n'),
    );
    return failed === 0 && lost === 0 && judged.ok ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

if (isMain(import.meta.url)) await runCli(CLI, main);
