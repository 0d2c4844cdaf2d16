/**
 * @module
 * The scale model (pure): a measured per-verdict footprint (bench/capacity-footprint.json), a load (verdicts per
 * day, the peak factor, retention) and a layout (D1 databases and how work is spread over them; the shards of
 * each object that many requests pass through) give, per platform limit, the use at the peak, its share of
 * the limit, the verdicts per day at which it binds, and the days of retention a store holds. docs/scale.md
 * explains the rows; bench/scale-model.ts prints them; the loads and layouts it is given are ./scale-layouts.ts's. Limits as Cloudflare documents them (docs/scale.md cites
 * each page).
 */
import { RESERVE_AHEAD_SECONDS } from '../src/tenants/reservations.js';
import { QUEUED_STARTS_PER_SECOND } from '../src/batches/start-pace.js';

import { MAX_ATTEMPTS_PER_INVOCATION, MAX_PARALLEL_CALLS } from '../src/config/platform-limits.js';
import type { PresetFootprint } from './capacity-footprint.js';
import type { Layout, Load } from './scale-layouts.js';
import { CRON } from './scale-layouts.js';

/**
 * Cloudflare's limits the model checks (Workers Paid), each as its page states it (docs/scale.md cites them:
 * D1, Durable Objects (limits and FAQ), Queues, Workers and R2 limits pages, checked 2026-12-05 and 2026-12-07).
 */
const LIMITS = {
  /** D1: bytes per database (10 GB, cannot be raised). */
  d1DatabaseBytes: 10e9,
  /** D1: storage per account (1 TB). */
  d1AccountBytes: 1e12,
  /** D1: databases per account (1,000,000 on the limits page as of 2026-12-07; an older copy said 50,000). */
  d1Databases: 1_000_000,
  /** D1 runs one query at a time: busy seconds per second. */
  d1BusyShare: 1,
  /** D1: queries per Worker invocation (Workers Paid). */
  d1QueriesPerInvocation: 1_000,
  /** Durable Objects: soft limit of requests per second per object. */
  doRequestsPerSecond: 1_000,
  /** Durable Objects: bytes per object (10 GB, SQLite-backed). */
  doObjectBytes: 10e9,
  /** Queues: messages per second per queue. */
  queueMessagesPerSecond: 5_000,
  /** Workers: subrequests per invocation (Workers Paid default; configurable to 10 million). */
  subrequests: 10_000,
  /** Workers: simultaneous outgoing connections per invocation. */
  connections: 6,
  /** R2: concurrent writes to one key per second. */
  r2WritesPerKeyPerSecond: 1,
} as const;

/** `WEBHOOK_CONCURRENCY`'s bound: attempts one receiver's lane has in flight (its invocation's 6 connections). */
const LANE_CONNECTIONS = MAX_ATTEMPTS_PER_INVOCATION;

/** One row of the model's table. */
export interface LimitRow {
  store: string;
  limit: string;
  /** Use at the peak of the load, in the limit's unit. */
  atPeak: number;
  /** The limit, same unit. */
  of: number;
  /** Share of the limit at the peak (0-1+). */
  share: number;
  /** Verdicts per day at which the use reaches the limit (Infinity: never, by this measure). */
  bindsAt: number;
  /** Days of retention the store holds at the load (rows about storage only). */
  retentionDays?: number;
  /** A bound the code keeps by design (a 7th connection waits): shown, not a load that grows with verdicts. */
  cap?: boolean;
  note: string;
}

/**
 * Provider gate slots one shard holds: src/provider-gate/worker-gate.ts's `GATE_SLOTS_PER_SHARD`, copied since
 * that module's worker types are outside the Node typecheck the benches run under;
 * tests/worker/provider-gate-shards.test.ts pins the two equal.
 */
export const GATE_SLOTS_PER_SHARD = 64;

const perSecond = (perDay: number) => perDay / 86_400;

/** The share of all verdicts the busiest D1 database holds. */
function busiestDbShare(layout: Layout, load: Load): number {
  const n = layout.d1.databases;
  if (layout.d1.key === 'tenant') return load.largestTenantShare;
  if (layout.d1.key === 'tenant-hash') {
    const spread = Math.min(Math.max(layout.d1.largestTenantSpread ?? 1, 1), n);
    return load.largestTenantShare / spread + (1 - load.largestTenantShare) / n;
  }
  return 1 / n;
}

/** Which database the size row is about: one of the hashed ones, or the largest tenant's (over its spread). */
function dbLabel(layout: Layout): string {
  if (layout.d1.key === 'hash') return `1 of ${layout.d1.databases}`;
  const spread = Math.min(layout.d1.largestTenantSpread ?? 1, layout.d1.databases);
  return layout.d1.key === 'tenant-hash' && spread > 1
    ? `the largest tenant's, spread over ${spread}`
    : "the largest tenant's";
}

/** Keyed API requests a batch item brings: its batch's status polls over its items (see `Load.requestsPerSingle`). */
export const REQUESTS_PER_BATCH_ITEM = 0.05;

/**
 * The D1 figures per verdict of the load's mix: `load.singleShare` of the verdicts as single evaluations (each
 * figure the larger of a judged one and a verdict cache hit, measured by bench:capacity), the rest as batch items.
 * A footprint measured before single evaluations were counted replays its batch figures alone.
 */
export function mixedPerVerdict(f: PresetFootprint, load: Load): PresetFootprint['perVerdict'] {
  const v = f.perVerdict;
  const single = f.single;
  if (!single) return v;
  const s = load.singleShare;
  const mix = (k: 'd1Bytes' | 'd1RowsWritten' | 'd1RowsRead' | 'd1Statements' | 'd1BusyMs') =>
    (1 - s) * v[k] + s * Math.max(single.judged.perVerdict[k], single.hit.perVerdict[k]);
  return {
    ...v,
    d1Bytes: mix('d1Bytes'),
    d1RowsWritten: mix('d1RowsWritten'),
    d1RowsRead: mix('d1RowsRead'),
    d1Statements: mix('d1Statements'),
    d1BusyMs: mix('d1BusyMs'),
  };
}

/** The model's rows for a preset's footprint, a load and a layout. */
export function limitRows(f: PresetFootprint, load: Load, layout: Layout): LimitRow[] {
  const v = mixedPerVerdict(f, load);
  const peakVps = perSecond(load.verdictsPerDay) * load.peak;
  const tenantVps = peakVps * load.largestTenantShare;
  const bindsAt = (share: number) => (share > 0 ? load.verdictsPerDay / share : Infinity);
  const rows: LimitRow[] = [];
  const row = (r: Omit<LimitRow, 'share' | 'bindsAt'> & { bindsAt?: number }) => {
    const share = r.atPeak / r.of;
    rows.push({ ...r, share, bindsAt: r.bindsAt ?? (r.cap ? Infinity : bindsAt(share)) });
  };

  // D1: bytes per database and per account, the one-query-at-a-time database, databases per account.
  const bytes = layout.d1.bytesPerVerdict ?? v.d1Bytes;
  const rowsWritten = layout.d1.rowsWrittenPerVerdict ?? v.d1RowsWritten;
  const busyMs = v.d1BusyMs * (rowsWritten / Math.max(v.d1RowsWritten, 1e-9));
  const dbShare = busiestDbShare(layout, load);
  const keptDays = Math.min(layout.d1.hotDays ?? load.retentionDays, load.retentionDays);
  const dbBytesPerDay = load.verdictsPerDay * bytes * dbShare;
  row({
    store: 'D1',
    limit: `10 GB per database (${dbLabel(layout)}, ${keptDays} days kept)`,
    atPeak: dbBytesPerDay * keptDays,
    of: LIMITS.d1DatabaseBytes,
    retentionDays: LIMITS.d1DatabaseBytes / dbBytesPerDay,
    bindsAt: LIMITS.d1DatabaseBytes / (bytes * dbShare * keptDays),
    note: `${bytes.toFixed(0)} B and ${rowsWritten.toFixed(1)} rows written per verdict`,
  });
  row({
    store: 'D1',
    limit: `1 TB per account (${keptDays} days kept)`,
    atPeak: load.verdictsPerDay * bytes * keptDays,
    of: LIMITS.d1AccountBytes,
    retentionDays: LIMITS.d1AccountBytes / (load.verdictsPerDay * bytes),
    bindsAt: LIMITS.d1AccountBytes / (bytes * keptDays),
    note: layout.d1.hotDays === null ? 'no archive' : `older rows in the archive (R2)`,
  });
  row({
    store: 'D1',
    limit: 'one query at a time (busy s per s, busiest database)',
    atPeak: (peakVps * dbShare * busyMs) / 1000,
    of: LIMITS.d1BusyShare,
    note: `${busyMs.toFixed(2)} ms busy per verdict (local meta.duration${layout.d1.rowsWrittenPerVerdict ? ', scaled by rows written' : ''})`,
  });
  row({
    store: 'D1',
    limit: 'databases per account',
    atPeak:
      layout.d1.key === 'tenant' ? Math.max(layout.d1.databases, 1 / load.largestTenantShare) : layout.d1.databases,
    of: LIMITS.d1Databases,
    bindsAt: Infinity,
    note: layout.d1.key === 'tenant' ? 'one per tenant: grows with tenants, not verdicts' : 'fixed bindings',
  });
  // The control database (`DB`: tenants, keys): every keyed API request reads it once (src/tenants/auth.ts: the
  // key's lookup, or a secret key's limits), with no isolate cache; a key's last-used stamp writes at most once a
  // minute. Its query time is taken as the footprint's mean statement's (local meta.duration).
  const requestsPerVerdict =
    load.singleShare * load.requestsPerSingle + (1 - load.singleShare) * REQUESTS_PER_BATCH_ITEM;
  const msPerQuery = v.d1Statements > 0 ? v.d1BusyMs / v.d1Statements : 0;
  const controlReads = peakVps * requestsPerVerdict;
  row({
    store: 'D1',
    limit: 'one query at a time: the control database (every keyed request reads it)',
    atPeak: (controlReads * msPerQuery) / 1000,
    of: LIMITS.d1BusyShare,
    note: `${Math.round(controlReads).toLocaleString('en')} key reads/s (${requestsPerVerdict.toFixed(2)} keyed requests per verdict) × ${msPerQuery.toFixed(3)} ms a query`,
  });
  // The cron's sweeps: one invocation over every shard, or a message per shard (counted from the code, not measured).
  const perShard = layout.sweeps.mode === 'per-shard';
  const shardsInRun = perShard ? 1 : layout.d1.databases;
  const cronQueries = layout.sweeps.queries(shardsInRun);
  row({
    store: 'D1',
    limit: `1,000 queries per invocation: the cron's ${perShard ? 'run of one shard (its own message)' : `run over ${shardsInRun} shards`}`,
    atPeak: cronQueries,
    of: LIMITS.d1QueriesPerInvocation,
    // Grows with the shards, not the verdicts.
    bindsAt: Infinity,
    note: `${perShard ? CRON.readsPerShard : 8} reads a shard, ${perShard ? CRON.kicks : 100} re-kicks, ${layout.sweeps.retentionErasures} erasures, ${layout.sweeps.archiveMoves} archive moves (counted from the code)`,
  });

  // The sweeps' throughput: what the cron moves and erases a day against the verdicts a day.
  const sweepRuns = CRON.runsPerDay * (perShard ? layout.d1.databases : 1);
  if (layout.d1.hotDays !== null)
    row({
      store: 'R2 archive',
      limit: `moves a day (${layout.sweeps.archiveMoves} a run, ${perShard ? 'a run per shard' : 'one run'} a minute)`,
      atPeak: load.verdictsPerDay,
      of: layout.sweeps.archiveMoves * sweepRuns,
      note: 'the mean day, not the peak: a day behind is a day more in D1',
    });
  if (layout.d1.hotDays !== null)
    row({
      store: 'R2 archive',
      limit: `erasures a day at the end of retention (${layout.sweeps.archiveErasures} a run, one run a minute)`,
      atPeak: load.verdictsPerDay,
      of: layout.sweeps.archiveErasures * CRON.runsPerDay,
      note: 'every archived verdict is erased once its retention ends (R2 listed and deleted 500 at a time)',
    });
  row({
    store: 'D1',
    limit: `erasures a day at the end of retention in D1 (${layout.sweeps.retentionErasures} a run, ${perShard ? 'a run per shard' : 'one run'} a minute)`,
    atPeak: load.verdictsPerDay,
    of: layout.sweeps.retentionErasures * sweepRuns,
    note:
      layout.d1.hotDays === null
        ? 'every verdict is erased once its retention ends'
        : 'the verdicts that stay in D1 (a batch’s items, those another record names), counted as if all did (a batch’s items and the others take turns going first)',
  });
  if (layout.d1.hotDays !== null)
    row({
      store: 'R2 archive',
      limit: 'storage: unlimited per bucket; 1 write per second per key',
      atPeak: 2 / 86_400,
      of: LIMITS.r2WritesPerKeyPerSecond,
      bindsAt: Infinity,
      retentionDays: Infinity,
      note: 'one object per evaluation, written once at the move (again at a DELETE)',
    });

  // Durable Objects that many requests pass through.
  const gate = f.objects.PROVIDER_GATE;
  // All gate objects' requests, which the layout's shards then divide: a footprint measured on a sharded gate
  // spreads them over its shards, so its busiest object would count them divided twice.
  const gatePerVerdict = gate?.requestsPerVerdict ?? 0;
  // Calls as measured; an older footprint's gate made an acquire and a release per call.
  const callsPerSecond = peakVps * (f.perVerdict.llmCalls ?? gatePerVerdict / 2);
  const shards =
    layout.providerGateShards === 'window'
      ? Math.max(1, Math.ceil((callsPerSecond * load.callLatencySeconds) / GATE_SLOTS_PER_SHARD))
      : layout.providerGateShards;
  row({
    store: 'Durable Object',
    limit: `1,000 req/s: provider gate (${shards} shard${shards === 1 ? '' : 's'} per provider and model)`,
    atPeak: (peakVps * gatePerVerdict) / shards,
    of: LIMITS.doRequestsPerSecond,
    note: `every tenant's LLM attempts: asks and releases (a turn's in one exchange), ${gatePerVerdict.toFixed(1)} per verdict`,
  });
  const burstRate = load.burst.items / load.burst.seconds;
  const perIsolate = burstRate / load.burstIsolates;
  const limiterRate =
    layout.rateLimiter === 'per-request'
      ? burstRate
      : load.burstIsolates * Math.min(perIsolate, 1 / RESERVE_AHEAD_SECONDS + 1);
  row({
    store: 'Durable Object',
    limit: `1,000 req/s: a tenant's rate limiter (${load.burst.items.toLocaleString('en')} single items in ${load.burst.seconds} s)`,
    atPeak: limiterRate,
    of: LIMITS.doRequestsPerSecond,
    bindsAt: Infinity,
    note:
      layout.rateLimiter === 'per-request'
        ? 'one take per API request'
        : `one reservation per isolate per ${RESERVE_AHEAD_SECONDS * 1000} ms of its demand, ${load.burstIsolates} isolates`,
  });
  const deliveriesPerSecond = tenantVps * load.deliveriesPerVerdict;
  row({
    store: 'Durable Object',
    limit: "1,000 req/s: a webhook lane (one endpoint receiving the largest tenant's verdicts)",
    atPeak: deliveriesPerSecond / layout.lanesPerReceiver,
    of: LIMITS.doRequestsPerSecond,
    note: 'a hand-over (take) per delivery; its alarm runs attempts from within',
  });
  row({
    store: 'Durable Object',
    limit: "1,000 req/s: a wave coordinator (the largest tenant's verdicts in one batch-tier batch)",
    // A batch's hand-over makes at most this many items visible a second, whatever the load.
    atPeak: Math.min(tenantVps, QUEUED_STARTS_PER_SECOND),
    of: LIMITS.doRequestsPerSecond,
    bindsAt: Infinity,
    note: `one registration per item as it starts, at most ${QUEUED_STARTS_PER_SECOND} starts a second per batch; later waves ride on the delivery RPC`,
  });
  row({
    store: 'Durable Object',
    limit: '1,000 req/s: a trace (TraceDO, one per trace)',
    atPeak: load.traceMessagesPerSecond,
    of: LIMITS.doRequestsPerSecond,
    bindsAt: Infinity,
    note: "one append per spans message of the trace; a tenant's traces each have their own",
  });
  const evaluation = f.objects.EVALUATION;
  row({
    store: 'Durable Object',
    limit: "1,000 req/s: an evaluation's object",
    atPeak: evaluation?.busiestObjectPerVerdict ? evaluation.requestsPerVerdict : 0,
    of: LIMITS.doRequestsPerSecond,
    bindsAt: Infinity,
    note: 'one per evaluation: its requests over its whole life, counted as if in one second',
  });
  for (const [cls, s] of Object.entries(f.storage))
    row({
      store: 'Durable Object',
      limit: `10 GB per object: ${cls}`,
      atPeak: s.largestObjectBytes,
      of: LIMITS.doObjectBytes,
      bindsAt: Infinity,
      retentionDays: cls === 'EvaluationDO' ? Infinity : undefined,
      note:
        cls === 'EvaluationDO'
          ? `${(s.bytesPerVerdict / 1000).toFixed(0)} KB a verdict, one object each (unlimited per account); erased at the move or retention`
          : 'largest object measured: holds windows, buckets or pending work, not verdicts',
    });

  // Queues: each named queue's messages at the peak; webhooks by the load's deliveries.
  const queues: Record<string, number> = { ...f.queues, WEBHOOKS: load.deliveriesPerVerdict };
  for (const [queue, perVerdict] of Object.entries(queues)) {
    row({
      store: 'Queues',
      limit: `5,000 msg/s: ${queue} (${layout.queueShards} queue${layout.queueShards === 1 ? '' : 's'})`,
      atPeak: (peakVps * perVerdict) / layout.queueShards,
      of: LIMITS.queueMessagesPerSecond,
      note: `${perVerdict.toFixed(2)} per verdict${queue === 'WEBHOOKS' ? ' (the load: an endpoint on every ending)' : ''}`,
    });
  }

  // Workers: connections and subrequests per invocation.
  const laneRate = (LANE_CONNECTIONS / load.receiverLatencySeconds) * layout.lanesPerReceiver;
  row({
    store: 'Workers',
    limit: `6 connections per invocation: one receiver's deliveries (${layout.lanesPerReceiver} lane${layout.lanesPerReceiver === 1 ? '' : 's'} × 6 / ${load.receiverLatencySeconds} s)`,
    atPeak: deliveriesPerSecond,
    of: laneRate,
    note: "the largest tenant's deliveries to one endpoint: deliveries/s against what its lanes' connections send",
  });
  row({
    store: 'Workers',
    limit: "6 connections per invocation: an evaluation's LLM calls",
    atPeak: MAX_PARALLEL_CALLS,
    of: LIMITS.connections,
    cap: true,
    note: 'by design: a wave wider than 6 takes rounds (MAX_PARALLEL_CALLS)',
  });
  row({
    store: 'Workers',
    limit: `10,000 subrequests per invocation: the cron's ${perShard ? 'run of one shard' : 'run'}`,
    atPeak: layout.sweeps.subrequests,
    of: LIMITS.subrequests,
    bindsAt: Infinity,
    note: 'its D1 queries, object RPCs, R2 calls and lane hand-overs at the pages’ bounds',
  });
  return rows;
}

/** The row that binds first: the largest share among the loads (not the caps the code keeps). */
export function bindingRow(rows: readonly LimitRow[]): LimitRow | undefined {
  return rows
    .filter((r) => !r.cap)
    .reduce<LimitRow | undefined>((a, r) => (!a || r.share > a.share ? r : a), undefined);
}
