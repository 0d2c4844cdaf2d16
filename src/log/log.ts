/**
 * @module
 * Structured logs: one JSON object per line on `console.log`, which Workers Logs (`[observability]`)
 * indexes field by field. Every pipeline event carries `evaluationId` and, where there is one, `callId`.
 */

import { redactSecrets } from './redact.js';

/** Severity of a log line. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Fields of one log line; values must be JSON-serialisable. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/**
 * Writes one structured log line: `{ ts, level, event, ...fields }`.
 * @param level severity; `error` and `warn` go to `console.error` / `console.warn`.
 * @param event stable dotted event name, e.g. `call.finished`, `queue.retry`.
 * @param fields extra fields; `undefined` values are dropped.
 */
export function log(level: LogLevel, event: string, fields: LogFields = {}): void {
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
