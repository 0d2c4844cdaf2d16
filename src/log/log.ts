/**
 * @module
 * Structured logs: one JSON object per line on `console.log`, which Workers Logs (`[observability]`)
 * indexes field by field. Every pipeline event carries `evaluationId` and, where there is one, `callId`.
 *
 * Lines below the isolate's level (`LOG_LEVEL`, applied at every entry by src/config/vars.ts
 * `applyLogLevel`) are not written: {@link log} returns before it builds or serialises anything, and a hot
 * path that would build its fields first asks {@link logs} (the four info lines of every verdict were the
 * largest share of the Worker's CPU per verdict in `npm run bench:profile`).
 */

import { redactSecrets } from './redact.js';

/** Severity of a log line, lowest first. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Severity of a log line. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Fields of one log line; values must be JSON-serialisable. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** The rank of the lowest level written; `debug` (everything) until an entry applies `LOG_LEVEL`. */
let threshold = RANK.debug;

/**
 * Sets the lowest level this isolate writes (module state: every entry of the isolate shares it, and one
 * deployment has one `LOG_LEVEL`).
 * @param level `debug` writes everything, `error` only errors.
 */
export function setLogLevel(level: LogLevel): void {
  threshold = RANK[level];
}

/** True when a line at `level` would be written: a hot path asks before it builds the line's fields. */
export function logs(level: LogLevel): boolean {
  return RANK[level] >= threshold;
}

/**
 * Writes one structured log line: `{ ts, level, event, ...fields }`, unless `level` is below the isolate's
 * level ({@link setLogLevel}).
 * @param level severity; `error` and `warn` go to `console.error` / `console.warn`.
 * @param event stable dotted event name, e.g. `call.finished`, `queue.retry`.
 * @param fields extra fields; `undefined` values are dropped.
 */
export function log(level: LogLevel, event: string, fields: LogFields = {}): void {
  if (RANK[level] < threshold) return;
  // Defence in depth: provider messages are redacted where they are built, and every line once more here.
  const line = redactSecrets(JSON.stringify({ ts: Date.now(), level, event, ...fields }));
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}

/** The message of any thrown value, for logs and stored error reasons. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
