/**
 * @module
 * What bench/metered-entry.ts counts and `GET /_bench/meter` answers (read by bench/platform.ts).
 */

/** The counters of a metered run, since the last reset. */
export interface Meter {
  workerFetches: number;
  queueInvocations: number;
  queueMessagesReceived: number;
  scheduled: number;
  doRequests: number;
  doAlarms: number;
  doWallMs: number;
  d1Queries: number;
  d1RowsRead: number;
  d1RowsWritten: number;
  queueMessagesSent: number;
  /** Sum of D1's own `meta.duration` over every query, ms: how long the database was busy (it runs one query at a time). */
  d1DurationMs: number;
  /** Durable Object requests (RPC calls, fetches and alarms) by namespace binding (`EVALUATION`, `PROVIDER_GATE`, …). */
  doByBinding: Record<string, number>;
  /** Per namespace binding, requests by object name (`idFromName`'s argument; an id made otherwise counts under its hex). */
  doByObject: Record<string, Record<string, number>>;
  /** Queue messages sent by producer binding (`JOBS`, `WEBHOOKS`, …). */
  queueByBinding: Record<string, number>;
  /**
   * D1 by statement: its SQL (whitespace folded, first {@link SQL_KEY_CHARS} characters) to executions, rows
   * written and rows read, so a bench shows which statements a verdict's rows come from.
   */
  d1BySql: Record<string, { n: number; written: number; read: number }>;
}

/** How much of a statement's SQL keys {@link Meter.d1BySql} (120 characters). */
export const SQL_KEY_CHARS = 120;
