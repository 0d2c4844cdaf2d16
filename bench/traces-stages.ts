/**
 * `bench:traces --monitors`: where the time goes between a trace's end and its verdict, stage by stage, read from
 * the stack's log: the bench runs it at `LOG_LEVEL` debug, which adds the trace monitor's `monitors.trace_judged`
 * line per trace judged and each evaluation's `evaluation.started` and `call.finished` lines the stages also read
 * (info writes only `evaluation.finalized`). Per trace judged:
 *
 * - **queue**: the export answered → its last span kept by the trace's object (the spans queue and its consumer);
 * - **quiet**: kept → the quiet period over (`TRACE_QUIET_MS` from the last span's arrival);
 * - **alarm late**: the quiet period over → the object's alarm running;
 * - **judgment**: the alarm → the evaluation started (the trace read, the decision, creating the evaluation);
 * - **LLM**: started → its call finished (the provider gate and the mock's latency);
 * - **verdict**: the call finished → the evaluation's `finishedAt` (the final write).
 */
import { readFileSync } from 'node:fs';

/** One trace-scope verdict: its evaluation, its trace's end (epoch ms) and its `finishedAt` (epoch ms). */
export interface JudgedTrace {
  evaluationId: string;
  traceId: string;
  endAt: number;
  finishedAt: number;
}

interface LogLine {
  ts: number;
  event: string;
  evaluationId?: string;
  traceId?: string;
  lastSpanAt?: number | null;
  quietUntil?: number | null;
  firedAt?: number;
}

/** The `p`th percentile of `xs` (nearest rank), NaN for none. */
export function pct(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The log's JSON lines of the events the stages need (other output is skipped). */
function readLog(file: string): LogLine[] {
  const wanted = new Set(['monitors.trace_judged', 'evaluation.started', 'call.finished']);
  const out: LogLine[] = [];
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const start = raw.indexOf('{"ts":');
    if (start < 0) continue;
    try {
      const line = JSON.parse(raw.slice(start)) as LogLine;
      if (wanted.has(line.event)) out.push(line);
    } catch {
      // A line cut by the runtime's output buffering: not one of ours.
    }
  }
  return out;
}

/** The stages' p50 / p95 as Markdown lines (seconds), from the stack's log `file`. */
export function stageLines(file: string, judged: readonly JudgedTrace[]): string[] {
  const lines = readLog(file);
  const trace = new Map<string, LogLine>();
  const started = new Map<string, number>();
  const called = new Map<string, number>();
  for (const l of lines) {
    const id = l.evaluationId ?? '';
    if (l.event === 'monitors.trace_judged') trace.set(id, l);
    else if (l.event === 'evaluation.started' && !started.has(id)) started.set(id, l.ts);
    else if (l.event === 'call.finished') called.set(id, Math.max(called.get(id) ?? 0, l.ts));
  }
  const stages: Record<string, number[]> = {
    queue: [],
    quiet: [],
    'alarm late': [],
    judgment: [],
    LLM: [],
    verdict: [],
    total: [],
  };
  let complete = 0;
  for (const j of judged) {
    const t = trace.get(j.evaluationId);
    const s = started.get(j.evaluationId);
    const c = called.get(j.evaluationId);
    if (!t?.lastSpanAt || !t.quietUntil || t.firedAt === undefined || s === undefined || c === undefined) continue;
    complete += 1;
    const add = (name: string, ms: number) => stages[name]?.push(ms / 1000);
    add('queue', t.lastSpanAt - j.endAt);
    add('quiet', t.quietUntil - t.lastSpanAt);
    add('alarm late', t.firedAt - t.quietUntil);
    add('judgment', s - t.firedAt);
    add('LLM', c - s);
    add('verdict', j.finishedAt - c);
    add('total', j.finishedAt - j.endAt);
  }
  const names = Object.keys(stages);
  return [
    '',
    `trace end → verdict by stage (s; ${complete} of ${judged.length} verdicts with every stage in the log; each column's own percentile, so they do not add up):`,
    '',
    `| | ${names.join(' | ')} |`,
    `|---|${names.map(() => '---').join('|')}|`,
    ...[50, 95, 99].map((p) => `| p${p} | ${names.map((n) => pct(stages[n] ?? [], p).toFixed(2)).join(' | ')} |`),
  ];
}
