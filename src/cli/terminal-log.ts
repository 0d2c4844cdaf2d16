/**
 * @module
 * The local runtime's output as `npm start` shows it. The Worker writes one JSON object per line
 * (src/log/log.ts: `{ ts, level, event, ...fields }`), which suits Workers Logs but not a person at a
 * terminal: by default (quiet) the terminal gets one readable line per ended evaluation (batch items
 * excepted), per ended batch and per ended Evals run, and the warnings and errors, each on one line;
 * `--verbose` or `LOG_LEVEL` give the JSON lines themselves, from that level up. Lines that are not the Worker's JSON (workerd's own
 * messages, a stack trace) are shown, except, when quiet, workerd's warning that a cancel removed a running
 * alarm (an expected event). Quiet output is held until {@link TerminalLog.ready} (the banner
 * is out): a restart's resumed work does not print above it. Node only.
 */
import { UsageError } from './args.js';
import type { Described, EndedBatch, EndedEvaluation, EndedRef } from './ended.js';
import { LOG_LEVELS } from '../log/log.js';
import type { LogLevel } from '../log/log.js';

/** What reaches the terminal: readable lines (default), or the JSON lines from `level` up. */
export type OutputMode = { kind: 'quiet' } | { kind: 'json'; level: LogLevel };

/**
 * The mode `npm start` runs in: `LOG_LEVEL` (debug, info, warn, error) gives the JSON lines from that
 * level up, `--verbose` all of them; neither: quiet. Throws {@link UsageError} for another level.
 */
export function outputModeOf(verbose: boolean, logLevel: string | undefined): OutputMode {
  const level = logLevel?.trim().toLowerCase() ?? '';
  if (level !== '') {
    if (!(LOG_LEVELS as readonly string[]).includes(level))
      throw new UsageError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(logLevel)}`);
    return { kind: 'json', level: level as LogLevel };
  }
  return verbose ? { kind: 'json', level: 'debug' } : { kind: 'quiet' };
}

/** One of the Worker's JSON log lines. */
export interface LogLine {
  ts: number;
  level: LogLevel;
  event: string;
  fields: Record<string, unknown>;
}

/** The Worker's JSON log line in `line`, or null for any other output. */
export function parseLogLine(line: string): LogLine | null {
  if (!line.startsWith('{')) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { ts, level, event, ...fields } = value as Record<string, unknown>;
  if (typeof ts !== 'number' || typeof event !== 'string' || !(LOG_LEVELS as readonly unknown[]).includes(level))
    return null;
  return { ts, level: level as LogLevel, event, fields };
}

/** `HH:MM:SS` of an epoch-ms time, local. */
function clock(ts: number): string {
  return new Date(ts).toLocaleTimeString('en-GB', { hour12: false });
}

function duration(ms: number | null): string | null {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return null;
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function usd(x: number): string {
  return x === 0 ? '$0' : x < 0.01 ? `$${x.toFixed(4)}` : `$${x.toFixed(2)}`;
}

function fieldText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text);
}

/** A warning or error as one line: `12:03:04 warn  sweeper.kicked  evaluationId=ev_… status=running`. */
export function problemLine(l: LogLine): string {
  const fields = Object.entries(l.fields)
    .filter(([, v]) => v !== null && v !== undefined)
    .map(([k, v]) => `${k}=${fieldText(v)}`);
  return `${clock(l.ts)} ${l.level.padEnd(5)} ${l.event}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}`;
}

/**
 * One ended evaluation's line, e.g.
 * `12:03:04 evaluation ev_… chateval-faireval succeeded: A is better (confidence 83%) · 8 calls · $0.0012 · 4.2 s`.
 */
export function evaluationLine(e: EndedEvaluation, ts: number): string {
  const outcome =
    e.status === 'succeeded'
      ? e.winner !== null
        ? e.winner === 'tie'
          ? 'tie'
          : `${e.winner} is better`
        : e.score !== null
          ? `score ${e.score}`
          : // Neither a winner nor a score: a certified judge abstained (its confidence under the
            // guarantee's threshold).
            'abstained, no verdict'
      : (e.errorCode ?? e.status);
  const confidence =
    e.status === 'succeeded' && e.confidence !== null ? ` (confidence ${Math.round(e.confidence * 100)}%)` : '';
  const figures = [`${e.calls} call${e.calls === 1 ? '' : 's'}`, usd(e.costUsd), duration(e.durationMs)].filter(
    (x): x is string => x !== null,
  );
  const why = e.status === 'failed' && e.errorMessage ? ` (${e.errorMessage})` : '';
  return `${clock(ts)} evaluation ${e.id} ${e.preset ?? e.method} ${e.status}: ${outcome}${confidence}${why} · ${figures.join(' · ')}`;
}

/**
 * `12:03:30 batch ba_… fastchat-pair completed: 98 succeeded, 2 failed of 100 · $0.04 · 42.1 s`, at the batch's
 * own end (not the item's whose ending found it ended); a meta-evaluation or comparison says so.
 */
export function batchLine(b: EndedBatch): string {
  const counts = (
    [
      [b.succeeded, 'succeeded'],
      [b.failed, 'failed'],
      [b.cancelled, 'cancelled'],
    ] as const
  )
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`);
  const figures = [usd(b.costUsd), duration(b.durationMs)].filter((x): x is string => x !== null);
  const what = b.kind === 'meta_evaluation' ? 'meta-evaluation' : b.kind;
  return `${clock(b.completedAt)} ${what} ${b.id} ${b.preset ?? b.method} ${b.status}: ${counts.join(', ') || 'no items'} of ${b.itemsTotal} · ${figures.join(' · ')}`;
}

/** How many items of `total` a run's `evals.run_ended` line counts as `what` (0 when the field is missing). */
function itemCount(fields: Record<string, unknown>, what: string): number {
  const n = fields[what];
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/**
 * `12:03:30 eval run evalrun_… of eval_… completed: 8 passed, 2 failed of 10 · 4.2 s`, from the Worker's
 * `evals.run_ended` line (src/evals/run-events.ts); a failed run adds its error code.
 */
export function evalRunLine(l: LogLine): string {
  const f = l.fields;
  const counts = (['passed', 'failed', 'errored'] as const)
    .map((what) => [itemCount(f, what), what] as const)
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n} ${what}`);
  const code = typeof f.errorCode === 'string' ? ` (${f.errorCode})` : '';
  const took = duration(typeof f.durationMs === 'number' ? f.durationMs : null);
  return `${clock(l.ts)} eval run ${String(f.runId)} of ${String(f.evalId)} ${String(f.status)}${code}: ${counts.join(', ') || 'no items graded'} of ${itemCount(f, 'total')}${took ? ` · ${took}` : ''}`;
}

/** Options of {@link terminalLog}. */
export interface TerminalLogOptions {
  mode: OutputMode;
  /** Reads an ended evaluation or batch (the miniflare runtime's D1); null when it cannot. */
  describe?: (ref: EndedRef) => Promise<Described | null>;
  /** Writes one line (without its newline). */
  write: (line: string) => void;
}

/** A sink for the runtime's output lines (see {@link terminalLog}). */
export interface TerminalLog {
  (line: string): void;
  /** Writes the quiet output held so far, and from now on writes as it comes; idempotent. */
  ready(): void;
}

/**
 * Matches workerd's warning that an alarm was cancelled while its handler ran (what a cancel does to a running
 * evaluation). Only that one: `NOSENTRY` means "not for Sentry", not "expected" (a queue event's timeout has it too).
 */
const WORKERD_EXPECTED = /^workerd\/\S+: warning: NOSENTRY SQLite alarm handler canceled /;

/**
 * Events quiet output leaves out: `auth.open` says what the banner already said (npm start's auth line), and
 * the Worker logs it again at its first request.
 */
const SAID_BY_THE_BANNER: ReadonlySet<string> = new Set(['auth.open']);

/** A sink for the runtime's output lines that writes what the terminal should show (see the module note). */
export function terminalLog(options: TerminalLogOptions): TerminalLog {
  const { mode } = options;
  /** Quiet lines held until the banner is out (null once it is). */
  let held: string[] | null = mode.kind === 'quiet' ? [] : null;
  const write = (line: string) => {
    if (held) held.push(line);
    else options.write(line);
  };
  /** Whether the last line was a hidden workerd warning: its `stack:` line goes with it. */
  let hiding = false;
  /** Batches whose line was written: several endings may each find the batch ended. */
  const reported = new Set<string>();
  const describe = async (ref: EndedRef): Promise<Described | null> => {
    try {
      return (await options.describe?.(ref)) ?? null;
    } catch {
      return null;
    }
  };
  const reportBatch = (batch: EndedBatch | null) => {
    if (!batch || reported.has(batch.id)) return;
    reported.add(batch.id);
    write(batchLine(batch));
  };
  /**
   * Batches being looked up, and whether an item ended since the lookup started: one lookup per batch
   * at a time, and one more after it when an item ended meanwhile (a 10,000-item batch would otherwise
   * send the runtime a read per item while it judges them).
   */
  const checking = new Map<string, { again: boolean }>();
  const checkBatch = async (batchId: string) => {
    const running = checking.get(batchId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    checking.set(batchId, state);
    while (state.again && !reported.has(batchId)) {
      state.again = false;
      reportBatch((await describe({ batchId }))?.batch ?? null);
    }
    checking.delete(batchId);
  };
  const onEnded = async (l: LogLine) => {
    const id = l.fields.evaluationId;
    if (typeof id !== 'string') return;
    // An item of a batch (the object knew it): no line of its own, so only its batch is looked up.
    if (typeof l.fields.batchId === 'string') {
      await checkBatch(l.fields.batchId);
      return;
    }
    const d = await describe({ evaluationId: id });
    if (d?.evaluation) {
      if (d.evaluation.batchId === null) write(evaluationLine(d.evaluation, l.ts));
      reportBatch(d.batch);
      return;
    }
    // Not readable (the wrangler runtime, or a stop under way): what the log line says.
    const calls = typeof l.fields.calls === 'number' ? ` · ${l.fields.calls} calls` : '';
    write(`${clock(l.ts)} evaluation ${id} ${String(l.fields.status)}${calls}`);
  };
  const sink = (line: string) => {
    if (line.trim() === '') return;
    const l = parseLogLine(line);
    if (l === null) {
      if (mode.kind === 'quiet') {
        hiding = WORKERD_EXPECTED.test(line) || (hiding && line.startsWith('stack: '));
        if (hiding) return;
      }
      write(line);
      return;
    }
    hiding = false;
    if (mode.kind === 'json') {
      if (LOG_LEVELS.indexOf(l.level) >= LOG_LEVELS.indexOf(mode.level)) write(line);
      return;
    }
    if ((l.level === 'warn' || l.level === 'error') && !SAID_BY_THE_BANNER.has(l.event)) write(problemLine(l));
    if (l.event === 'evaluation.finalized') void onEnded(l);
    else if (l.event === 'evals.run_ended') write(evalRunLine(l));
    // A cancel's pages end items in D1 directly: the last one may complete the batch. The sweeper completes a
    // batch whose last item's completion was lost (a crash after its final write): no item ends then.
    else if (
      (l.event === 'batch.cancel_page' || l.event === 'batch.completed_late') &&
      typeof l.fields.batchId === 'string'
    )
      void checkBatch(l.fields.batchId);
  };
  const ready = () => {
    const lines = held ?? [];
    held = null;
    for (const line of lines) options.write(line);
  };
  return Object.assign(sink, { ready });
}
