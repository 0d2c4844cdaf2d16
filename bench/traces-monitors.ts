/**
 * `bench:traces --monitors`: the monitors' side of the trace bench. Before the export it creates a span-scope
 * monitor (each `chat` span sampled, scored on an aspect, a daily budget, a priced mock model) and a trace-scope
 * monitor (each trace sampled, judged as a trajectory once quiet), both judging with the mock at 250 ms a call.
 * After it, it waits for their evaluations to end and measures: duplicate evaluations (two of one monitor for
 * one span, or for one trace: must be 0), the trace-scope verdicts' delay from the trace's end (the answer to the
 * export request that carried its last span) to its verdict (the evaluation's `finishedAt`), and whether the
 * budget monitor's spend stayed within its daily budget plus one evaluation; and that delay stage by stage, read
 * from the stack's log (./traces-stages.ts). The run fails (the bench exits 1) on a duplicate, a spend past the
 * budget, a run that did not settle, no delay measured at all, or a p95 delay above the contract's 10 s
 * ({@link monitorFailures}).
 */

import { pct, stageLines } from './traces-stages.js';

/** What the monitors are asked to do. */
export interface MonitorPlan {
  /** Share of matching `chat` spans the span monitor judges (0-1). */
  spanRate: number;
  /** Share of traces the trace monitor judges (0-1). */
  traceRate: number;
  /** The span monitor's daily budget, USD. */
  dailyBudgetUsd: number;
}

/** The two monitors' ids. */
export interface BenchMonitors {
  span: string;
  trace: string;
}

/** A judge model the mock answers in 250 ms, with a price (gpt-4o-mini's) so the budget is spent. */
const MODEL = 'gpt-4o-mini?latency=250';

async function send(base: string, path: string, body: unknown): Promise<{ id: string }> {
  const r = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as { id: string };
}

/** Creates the span monitor and the trace monitor of `plan` on the stack at `base`. */
export async function createBenchMonitors(base: string, plan: MonitorPlan): Promise<BenchMonitors> {
  const config = { defaults: { model: MODEL } };
  const span = await send(base, '/v1/monitors', {
    name: 'bench chat spans',
    filter: { service: 'support-agent', model: 'gpt-4o-mini' },
    scope: 'span',
    sampleRate: plan.spanRate,
    dailyBudgetUsd: plan.dailyBudgetUsd,
    judge: {
      preset: 'rubric-judge',
      config,
      aspect: { name: 'helpfulness', description: 'How well the reply helps the customer.', scale: { min: 1, max: 5 } },
    },
  });
  const trace = await send(base, '/v1/monitors', {
    name: 'bench agent runs',
    filter: { service: 'support-agent' },
    scope: 'trace',
    sampleRate: plan.traceRate,
    judge: { preset: 'trajectory-judge', config },
  });
  return { span: span.id, trace: trace.id };
}

interface ListItem {
  id: string;
  status: string;
  finishedAt: string | null;
  source: { traceId: string; spanId: string | null; monitorId: string | null } | null;
}

/** Every evaluation of monitor `id` (the list's pages followed). */
async function evaluationsOf(base: string, id: string): Promise<ListItem[]> {
  const out: ListItem[] = [];
  let cursor: string | null = null;
  do {
    const q = new URLSearchParams({ monitor: id, limit: '100', ...(cursor ? { cursor } : {}) });
    const page = (await (await fetch(`${base}/v1/evaluations?${q.toString()}`)).json()) as {
      data: ListItem[];
      nextCursor: string | null;
    };
    out.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return out;
}

async function countsOf(base: string, id: string): Promise<Counts> {
  return ((await (await fetch(`${base}/v1/monitors/${id}`)).json()) as { counts: Counts }).counts;
}

/** A monitor's counts as `GET /v1/monitors/{id}` answers them (the bench reads the API, not the Worker's types). */
interface Counts {
  matched: number;
  sampled: number;
  succeeded: number;
  failed: number;
  skippedBudget: number;
}

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * Waits until both monitors are done (every sampled match made into an evaluation or skipped, every evaluation
 * ended, and the trace monitor's decisions steady for two quiet periods), at most `timeoutMs`.
 */
async function settled(base: string, m: BenchMonitors, quietMs: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let steadySince = Date.now();
  let last = '';
  while (Date.now() < deadline) {
    const [span, trace, spanEvs, traceEvs] = await Promise.all([
      countsOf(base, m.span),
      countsOf(base, m.trace),
      evaluationsOf(base, m.span),
      evaluationsOf(base, m.trace),
    ]);
    const now = JSON.stringify([span, trace]);
    if (now !== last) {
      last = now;
      steadySince = Date.now();
    }
    const ended = [...spanEvs, ...traceEvs].every((e) => ENDED.has(e.status));
    const made = span.succeeded + span.failed + span.skippedBudget === span.sampled;
    if (ended && made && Date.now() - steadySince > 2 * quietMs) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return false;
}

/** The trace contract's p95 from a trace's end to its verdict, s (README, "Traces"): above it the bench fails. */
export const TRACE_VERDICT_P95_TARGET_S = 10;

/** What the monitors' run must show to pass. */
export interface MonitorChecks {
  /** Every sampled match became an evaluation (or was skipped) within the bench's wait. */
  settled: boolean;
  /** Evaluations of one monitor for one span (or trace) beyond the first. */
  duplicates: number;
  /** The span monitor spent at most its daily budget plus one evaluation. */
  withinBudget: boolean;
  /** Trace end → verdict delays measured, s. */
  delays: readonly number[];
}

/**
 * Why the run fails, one reason a line; empty when it passes. A p95 above {@link TRACE_VERDICT_P95_TARGET_S},
 * or no delay measured at all, fails it as a duplicate or a budget overrun does.
 */
export function monitorFailures(c: MonitorChecks): string[] {
  const p95 = pct([...c.delays], 95);
  return [
    ...(c.settled ? [] : ['the monitors did not settle within 300 s']),
    ...(c.duplicates > 0 ? [`${c.duplicates} duplicate evaluations`] : []),
    ...(c.withinBudget ? [] : ['the span monitor spent past its daily budget plus one evaluation']),
    ...(c.delays.length === 0 ? ['no trace end → verdict delay was measured'] : []),
    ...(p95 > TRACE_VERDICT_P95_TARGET_S
      ? [`trace end → verdict p95 ${p95.toFixed(1)} s is above the ${TRACE_VERDICT_P95_TARGET_S} s target`]
      : []),
  ];
}

/** How many evaluations share a key with an earlier one. */
function duplicates(items: readonly ListItem[], key: (e: ListItem) => string): number {
  return items.length - new Set(items.map(key)).size;
}

/**
 * The monitors' figures as Markdown lines, once they settled. `lastSpanAt`: each trace's end, epoch ms (when the
 * export request carrying its last span was answered). `uptime` is read beside the figures.
 */
export async function monitorFigures(
  base: string,
  m: BenchMonitors,
  plan: MonitorPlan,
  lastSpanAt: ReadonlyMap<string, number>,
  quietMs: number,
  uptime: () => string,
  logFile: string,
): Promise<{ lines: string[]; ok: boolean }> {
  const done = await settled(base, m, quietMs, 300_000);
  const [spanEvs, traceEvs, spanCounts, traceCounts] = await Promise.all([
    evaluationsOf(base, m.span),
    evaluationsOf(base, m.trace),
    countsOf(base, m.span),
    countsOf(base, m.trace),
  ]);
  const dupes =
    duplicates(spanEvs, (e) => `${e.source?.traceId ?? ''}:${e.source?.spanId ?? ''}`) +
    duplicates(traceEvs, (e) => e.source?.traceId ?? '');
  const judged = traceEvs.flatMap((e) => {
    const traceId = e.source?.traceId ?? '';
    const endAt = lastSpanAt.get(traceId);
    return endAt !== undefined && e.finishedAt
      ? [{ evaluationId: e.id, traceId, endAt, finishedAt: Date.parse(e.finishedAt) }]
      : [];
  });
  const delays = judged.map((j) => (j.finishedAt - j.endAt) / 1000);
  const costs: number[] = [];
  for (const e of spanEvs) {
    const ev = (await (await fetch(`${base}/v1/evaluations/${e.id}`)).json()) as { usage: { costUsd: number } };
    costs.push(ev.usage.costUsd);
  }
  const spent = costs.reduce((a, b) => a + b, 0);
  const one = costs.length > 0 ? Math.max(...costs) : 0;
  const withinOne = spent <= plan.dailyBudgetUsd + one;
  const p95 = pct(delays, 95);
  const lines = [
    '',
    `monitors: a span monitor (chat spans, sample ${plan.spanRate}, daily budget $${plan.dailyBudgetUsd}) and a trace monitor (sample ${plan.traceRate}), judge ${MODEL}, quiet period ${quietMs} ms${done ? '' : '; NOT SETTLED within 300 s'}`,
    `load at the figures: ${uptime()}`,
    '',
    '| monitor | matched | sampled | evaluations | skipped (budget) | duplicate evaluations | trace end → verdict p50 / p95 (s) | spent / budget (USD) |',
    '|---|---|---|---|---|---|---|---|',
    `| span | ${spanCounts.matched} | ${spanCounts.sampled} | ${spanEvs.length} | ${spanCounts.skippedBudget} | ${duplicates(spanEvs, (e) => `${e.source?.traceId ?? ''}:${e.source?.spanId ?? ''}`)} | — | ${spent.toFixed(6)} / ${plan.dailyBudgetUsd} (${withinOne ? 'within' : 'PAST'} one evaluation, max ${one.toFixed(6)}) |`,
    `| trace | ${traceCounts.matched} | ${traceCounts.sampled} | ${traceEvs.length} | ${traceCounts.skippedBudget} | ${duplicates(traceEvs, (e) => e.source?.traceId ?? '')} | ${pct(delays, 50).toFixed(1)} / ${p95.toFixed(1)} (${delays.length} verdicts) | — |`,
    ...stageLines(logFile, judged),
  ];
  const failures = monitorFailures({ settled: done, duplicates: dupes, withinBudget: withinOne, delays });
  lines.push('', ...(failures.length === 0 ? ['monitors: passed'] : failures.map((f) => `monitors FAILED: ${f}`)));
  return { lines, ok: failures.length === 0 };
}
