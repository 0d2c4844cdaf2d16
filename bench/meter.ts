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
}
