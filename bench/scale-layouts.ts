/**
 * @module
 * What the scale model (./scale-limits.ts) is given: a load, and a layout of databases and objects, with the
 * layouts it compares (as built, the one the reference footprint was measured on, the target) and the
 * maintenance run's pages they share, copied from the Worker code.
 */
import { VARS } from '../src/config/vars.js';

/**
 * One shard's maintenance run (queues/maintenance.ts: the cron sends a message per shard a minute, each its own
 * invocation), its pages and D1 queries copied from the Worker code (its modules are outside the Node typecheck the
 * benches run under; tests/worker/archive.test.ts pins them equal). A D1 `batch()` counts as one query: it is one
 * call, the subrequest the per-invocation limit counts.
 */
export const CRON = {
  /** Runs per day of each shard's message (the cron fires every minute). */
  runsPerDay: 1_440,
  /** queues/sweeper.ts SWEEP_LIMIT: evaluations re-kicked per shard run (admit + touch: 2 queries and an object RPC each). */
  kicks: 50,
  /** queues/sweeper.ts TOP_UP_LIMIT and COMPARISONS_LIMIT: open batches topped up, comparisons finished (about 3 queries each). */
  topUps: 10,
  comparisons: 10,
  /**
   * src/retention/sweep.ts erasuresPerRun(25) (TENANTS_PER_RUN × RETENTION_PAGE, up to ERASURES_PER_RUN): evaluations
   * erased in D1 per shard run, outside a batch or a batch's items, whichever part is due.
   */
  retentionErasures: 20 * 25,
  /** src/retention/sweep.ts retentionQueries(25): the retention run's D1 queries (erasures 10 a batch; a batch's items with their batch). */
  retentionQueries: 149,
  /** src/retention/archive.ts ARCHIVE_PAGE: evaluations moved per shard run. */
  archiveMoves: 500,
  /** src/retention/archive.ts moveQueries(): the moves' D1 queries (10 evaluations' reads a batch, a re-check, an erasure batch). */
  moveQueries: 151,
  /** src/retention/archive.ts ARCHIVE_ERASE_PAGE × ARCHIVE_ERASE_PAGES: archived evaluations erased from R2 per run (one message). */
  archiveErasures: 500 * 40,
  /** src/webhooks/dispatch.ts SWEEP_LIMIT: overdue deliveries handed on per shard run (one lane RPC each at worst). */
  deliveries: 500,
  /** Reads a shard run makes however little it finds: stalled evaluations, batches, comparisons, overdue deliveries. */
  readsPerShard: 4,
} as const;

/** D1 queries one shard's maintenance run makes at its pages' bounds (counted from the code, {@link CRON}). */
export const SHARD_RUN_QUERIES =
  CRON.readsPerShard + 2 * CRON.kicks + 3 * (CRON.topUps + CRON.comparisons) + CRON.retentionQueries + CRON.moveQueries;

/**
 * Subrequests one shard's run makes at its pages' bounds: its D1 queries, a start RPC per re-kick, the window's
 * starts of a top-up (16 each), a lane RPC per delivery, an object RPC and an R2 read per erasure, and per move
 * 2 object RPCs (transcript, snapshot), 2 R2 puts (the copy, its marker) and the object's erasure.
 */
export const SHARD_RUN_SUBREQUESTS =
  SHARD_RUN_QUERIES +
  CRON.kicks +
  16 * CRON.topUps +
  CRON.deliveries +
  2 * CRON.retentionErasures +
  5 * CRON.archiveMoves;

/** `ARCHIVE_AFTER_DAYS`'s default (src/config/vars.ts), days: what D1 keeps before the archive. */
export const ARCHIVE_AFTER_DAYS = Number(VARS.ARCHIVE_AFTER_DAYS.default);

/** `WEBHOOK_LANES`'s default (src/config/vars.ts): lanes per receiver. */
export const WEBHOOK_LANES = Number(VARS.WEBHOOK_LANES.default);

/** The load the model replays. */
export interface Load {
  verdictsPerDay: number;
  /** Peak rate over the day's mean. Default 10. */
  peak: number;
  /** Days every store must keep a verdict. Default 365. */
  retentionDays: number;
  /** The largest tenant's share of all verdicts (0-1). Default 0.3. */
  largestTenantShare: number;
  /** A burst of single `POST /v1/evaluations`: items, and the seconds the client takes to send them. */
  burst: { items: number; seconds: number };
  /** Worker isolates a burst's requests spread over (each reserves its own tokens). Default 16. */
  burstIsolates: number;
  /** Mean LLM call latency, s: the provider window needed is calls/s × latency. Default 2. */
  callLatencySeconds: number;
  /** Webhook deliveries per verdict (an endpoint subscribed to every ending). Default 1. */
  deliveriesPerVerdict: number;
  /** A receiver's mean response time, s: one lane's 6 connections deliver 6 / this per second. Default 0.2. */
  receiverLatencySeconds: number;
  /** Spans messages per second for one trace (an exporter flushing each second). Default 1. */
  traceMessagesPerSecond: number;
  /**
   * The share of verdicts that come as single evaluations (`POST /v1/evaluations`, one verdict a request), the
   * rest as batch items. Default 0.5: online judging (a guardrail, an agent's step, chat completions, triggers)
   * and offline runs (evals, pay-per-use bursts) are both named users; neither is measured in production yet.
   */
  singleShare: number;
  /**
   * Keyed API requests a single verdict brings: its POST and the client's polls. Default 5: a client polling every
   * 2 s through an 8 s debate (one with `Prefer: wait` sends 1). A batch item's are its batch's polls over its
   * items, taken as 0.05 (a 100-item batch polled 5 times).
   */
  requestsPerSingle: number;
}

/** How work is laid out over databases and objects. */
export interface Layout {
  name: string;
  d1: {
    /** Databases verdicts are spread over. */
    databases: number;
    /**
     * `hash`: every tenant over every database evenly; `tenant`: one database per tenant (the largest tenant's
     * holds its share); `tenant-hash` (as built, src/config/d1-shards.ts): a tenant's rows in the one of the
     * `databases` its id hashes to, so the largest tenant's database holds its share and 1/N of the rest.
     */
    key: 'hash' | 'tenant' | 'tenant-hash';
    /**
     * With `tenant-hash`: D1 databases the largest tenant's evaluations and batches hash over (its `spread`, set
     * per tenant by the operator: src/config/d1-shards.ts), at most `databases`; 1 (absent) = whole in one.
     */
    largestTenantSpread?: number;
    /** Days D1 keeps a verdict's rows before they move to the archive (null: D1 keeps them for the whole retention). */
    hotDays: number | null;
    /** Per-verdict figures over the measured ones (a target layout not yet built). */
    bytesPerVerdict?: number;
    rowsWrittenPerVerdict?: number;
  };
  /** Provider gate shards per provider and model: `window` = the deployment window / 64 slots (at least 1). */
  providerGateShards: number | 'window';
  /** The tenant's rate limiter: one take per request, or one per isolate's reservation. */
  rateLimiter: 'per-request' | 'per-reservation';
  /** Shards of a queue. */
  queueShards: number;
  /**
   * The cron's sweeps: `one-invocation` (every shard's pages in the scheduled run's one invocation, one shared
   * budget: before the fan-out), or `per-shard` (as built: a message per shard each run, each its own invocation
   * and budget); the evaluations one page moves and erases in D1, the archived ones erased from R2 a run, and the
   * D1 queries of a run (of one shard, or of all of them in one invocation).
   */
  sweeps: {
    mode: 'one-invocation' | 'per-shard';
    archiveMoves: number;
    retentionErasures: number;
    archiveErasures: number;
    /** D1 queries of a run: `shards` = the shards one invocation reads (1 per shard, all in one invocation). */
    queries: (shards: number) => number;
    subrequests: number;
  };
  /** Delivery lanes per receiver (1 as built: one lane, 6 connections, per endpoint). */
  lanesPerReceiver: number;
}

/**
 * As built, at the defaults (src/config/d1-shards.ts, wrangler.toml): tenants hashed over `D1_SHARDS` databases
 * (64 for 10M a day; 4 locally), each tenant in its home shard except the largest, whose spread the operator
 * sets to every shard (`PATCH /v1/admin/tenants/{id}` with `limits.spread` 64); the footprint as measured;
 * `ARCHIVE_AFTER_DAYS` in D1, then the archive, moved and erased by a maintenance message per shard;
 * `WEBHOOK_LANES` lanes per receiver.
 */
export const AS_BUILT: Layout = {
  name: 'as built',
  d1: { databases: 64, key: 'tenant-hash', hotDays: ARCHIVE_AFTER_DAYS, largestTenantSpread: 64 },
  providerGateShards: 'window',
  rateLimiter: 'per-reservation',
  queueShards: 1,
  sweeps: {
    mode: 'per-shard',
    archiveMoves: CRON.archiveMoves,
    retentionErasures: CRON.retentionErasures,
    archiveErasures: CRON.archiveErasures,
    queries: (shards) => shards * SHARD_RUN_QUERIES,
    subrequests: SHARD_RUN_SUBREQUESTS,
  },
  lanesPerReceiver: WEBHOOK_LANES,
};

/** The model's defaults: 10M verdicts a day, 10× peaks, a year of retention. */
export const DEFAULT_LOAD: Load = {
  verdictsPerDay: 10_000_000,
  peak: 10,
  retentionDays: 365,
  largestTenantShare: 0.3,
  burst: { items: 10_000, seconds: 10 },
  burstIsolates: 16,
  callLatencySeconds: 2,
  deliveriesPerVerdict: 1,
  receiverLatencySeconds: 0.2,
  traceMessagesPerSecond: 1,
  singleShare: 0.5,
  requestsPerSingle: 5,
};

/**
 * The layout the reference footprint was measured on (1216088): one D1 database, one gate object per provider
 * and model, one limiter take per request, no archive. The gate shards and the limiter's reservations came after it.
 */
export const TODAY: Layout = {
  name: 'today',
  d1: { databases: 1, key: 'hash', hotDays: null },
  providerGateShards: 1,
  rateLimiter: 'per-request',
  queueShards: 1,
  sweeps: {
    mode: 'one-invocation',
    archiveMoves: 0,
    retentionErasures: 4 * 25,
    archiveErasures: 0,
    // Before the fan-out: 8 reads a shard, 100 re-kicks and 100 erasures of 2 queries each, in one invocation.
    queries: (shards) => 8 * shards + 2 * 100 + 2 * 100,
    subrequests: 8 + 400 + 100 + 100 + 1_000,
  },
  lanesPerReceiver: 1,
};

/**
 * The target (docs/scale.md): ≤ 1 KB and ≤ 8 rows of D1 per verdict over 64 databases holding 30 days with any
 * one tenant spread over all of them, older rows in the archive; the sweeps a run per shard with pages of 500;
 * 64 lanes per busy receiver; gate shards from the window; reservations per isolate.
 */
export const TARGET: Layout = {
  name: 'target',
  d1: { databases: 64, key: 'hash', hotDays: 30, bytesPerVerdict: 1000, rowsWrittenPerVerdict: 8 },
  providerGateShards: 'window',
  rateLimiter: 'per-reservation',
  queueShards: 1,
  sweeps: AS_BUILT.sweeps,
  lanesPerReceiver: 64,
};
