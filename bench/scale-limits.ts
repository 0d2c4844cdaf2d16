/**
 * @module
 * The scale model (pure): a measured per-verdict footprint (bench/capacity-footprint.json), a load (verdicts per
 * day, the peak factor, retention) and a layout (D1 databases and how work is spread over them; the shards of
 * each object that many requests pass through) give, per platform limit, the use at the peak, its share of
 * the limit, the verdicts per day at which it binds, and the days of retention a store holds. docs/scale.md
 * explains the rows; bench/scale-model.ts prints them. Limits as Cloudflare documents them (docs/scale.md cites
 * each page).
 */
import { RESERVE_AHEAD_SECONDS } from '../src/tenants/reservations.js';
import type { PresetFootprint } from './capacity-footprint.js';

/** Cloudflare's limits the model checks (Workers Paid). */
const LIMITS = {
  /** D1: bytes per database (10 GB, cannot be raised). */
  d1DatabaseBytes: 10e9,
  /** D1: storage per account (1 TB). */
  d1AccountBytes: 1e12,
  /** D1: databases per account (50,000 on the limits page; newer copies say 1,000,000). */
  d1Databases: 50_000,
  /** D1 runs one query at a time: busy seconds per second. */
  d1BusyShare: 1,
  /** Durable Objects: soft limit of requests per second per object. */
  doRequestsPerSecond: 1_000,
  /** Durable Objects: bytes per object (10 GB). */
  doObjectBytes: 10e9,
  /** Queues: messages per second per queue. */
  queueMessagesPerSecond: 5_000,
  /** Workers: subrequests per invocation (Workers Paid). */
  subrequests: 10_000,
  /** D1: queries per Worker invocation (Workers Paid). */
  d1QueriesPerInvocation: 1_000,
  /** Workers: simultaneous outgoing connections per invocation. */
  connections: 6,
} as const;

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
}

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
  note: string;
}

/**
 * Provider gate slots one shard holds: src/provider-gate/worker-gate.ts's `GATE_SLOTS_PER_SHARD`, copied since
 * that module's worker types are outside the Node typecheck the benches run under;
 * tests/worker/provider-gate-shards.test.ts pins the two equal.
 */
export const GATE_SLOTS_PER_SHARD = 64;

const perSecond = (perDay: number) => perDay / 86_400;

/** The model's rows for a preset's footprint, a load and a layout. */
export function limitRows(f: PresetFootprint, load: Load, layout: Layout): LimitRow[] {
  const v = f.perVerdict;
  const peakVps = perSecond(load.verdictsPerDay) * load.peak;
  const bindsAt = (share: number) => (share > 0 ? load.verdictsPerDay / share : Infinity);
  const rows: LimitRow[] = [];
  const row = (r: Omit<LimitRow, 'share' | 'bindsAt'> & { bindsAt?: number }) => {
    const share = r.atPeak / r.of;
    rows.push({ ...r, share, bindsAt: r.bindsAt ?? bindsAt(share) });
  };

  // D1: bytes per database and per account, the one-query-at-a-time database, databases per account.
  const bytes = layout.d1.bytesPerVerdict ?? v.d1Bytes;
  const rowsWritten = layout.d1.rowsWrittenPerVerdict ?? v.d1RowsWritten;
  const busyMs = v.d1BusyMs * (rowsWritten / Math.max(v.d1RowsWritten, 1e-9));
  const dbShare =
    layout.d1.key === 'tenant'
      ? load.largestTenantShare
      : layout.d1.key === 'tenant-hash'
        ? load.largestTenantShare + (1 - load.largestTenantShare) / layout.d1.databases
        : 1 / layout.d1.databases;
  const keptDays = Math.min(layout.d1.hotDays ?? load.retentionDays, load.retentionDays);
  const dbBytesPerDay = load.verdictsPerDay * bytes * dbShare;
  row({
    store: 'D1',
    limit: `10 GB per database (${layout.d1.key === 'hash' ? `1 of ${layout.d1.databases}` : "the largest tenant's"}, ${keptDays} days kept)`,
    atPeak: dbBytesPerDay * keptDays,
    of: LIMITS.d1DatabaseBytes,
    retentionDays: LIMITS.d1DatabaseBytes / dbBytesPerDay,
    bindsAt: (LIMITS.d1DatabaseBytes / (bytes * dbShare * keptDays)) * 1,
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

  // Durable Objects that many requests pass through.
  const gate = f.objects.PROVIDER_GATE;
  // All gate objects' requests, which the layout's shards then divide: a footprint measured on a sharded gate
  // spreads them over its shards, so its busiest object would count them divided twice.
  const gatePerVerdict = gate?.requestsPerVerdict ?? 0;
  const callsPerSecond = (peakVps * gatePerVerdict) / 2;
  const shards =
    layout.providerGateShards === 'window'
      ? Math.max(1, Math.ceil((callsPerSecond * load.callLatencySeconds) / GATE_SLOTS_PER_SHARD))
      : layout.providerGateShards;
  row({
    store: 'Durable Object',
    limit: `1,000 req/s: provider gate (${shards} shard${shards === 1 ? '' : 's'} per provider and model)`,
    atPeak: (peakVps * gatePerVerdict) / shards,
    of: LIMITS.doRequestsPerSecond,
    note: `every tenant's LLM attempts: acquire + release, ${gatePerVerdict.toFixed(1)} per verdict`,
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
  const tenantVps = peakVps * load.largestTenantShare;
  row({
    store: 'Durable Object',
    limit: "1,000 req/s: a webhook lane (one endpoint receiving the largest tenant's verdicts)",
    atPeak: tenantVps * 2,
    of: LIMITS.doRequestsPerSecond,
    note: 'a hand-over (take) and an alarm per delivery; one lane per endpoint',
  });
  row({
    store: 'Durable Object',
    limit: "1,000 req/s: a wave coordinator (the largest tenant's verdicts in one batch-tier batch)",
    atPeak: tenantVps * 1,
    of: LIMITS.doRequestsPerSecond,
    note: 'one registration per item as it starts; later waves ride on the delivery RPC',
  });
  const evalStore = f.storage.EvaluationDO;
  row({
    store: 'Durable Object',
    limit: "10 GB per object: an evaluation's object",
    atPeak: evalStore?.largestObjectBytes ?? 0,
    of: LIMITS.doObjectBytes,
    bindsAt: Infinity,
    note: `${((evalStore?.bytesPerVerdict ?? 0) / 1000).toFixed(0)} KB per verdict, one object each: grows with items, not with traffic`,
  });

  // Queues: each named queue's messages at the peak.
  for (const [queue, perVerdict] of Object.entries(f.queues)) {
    row({
      store: 'Queues',
      limit: `5,000 msg/s: ${queue} (${layout.queueShards} queue${layout.queueShards === 1 ? '' : 's'})`,
      atPeak: (peakVps * perVerdict) / layout.queueShards,
      of: LIMITS.queueMessagesPerSecond,
      note: `${perVerdict.toFixed(2)} per verdict`,
    });
  }
  return rows;
}

/**
 * As built (src/config/d1-shards.ts): tenants hashed over `D1_SHARDS` databases (64 in production, 4 locally),
 * each tenant whole in one; the footprint as measured (the thin index is the store work's); no archive yet.
 */
export const AS_BUILT: Layout = {
  name: 'as built',
  d1: { databases: 64, key: 'tenant-hash', hotDays: null },
  providerGateShards: 'window',
  rateLimiter: 'per-reservation',
  queueShards: 1,
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
};

/**
 * The layout the reference footprint was measured on (1216088): one D1 database, one gate object per provider
 * and model, one limiter take per request. The gate shards and the limiter's reservations came after it.
 */
export const TODAY: Layout = {
  name: 'today',
  d1: { databases: 1, key: 'hash', hotDays: null },
  providerGateShards: 1,
  rateLimiter: 'per-request',
  queueShards: 1,
};

/**
 * The target (docs/scale.md): ≤ 1 KB and ≤ 8 rows of D1 per verdict over 64 hashed databases holding 30 days,
 * older index rows in the archive; gate shards from the window; reservations per isolate.
 */
export const TARGET: Layout = {
  name: 'target',
  d1: { databases: 64, key: 'hash', hotDays: 30, bytesPerVerdict: 1000, rowsWrittenPerVerdict: 8 },
  providerGateShards: 'window',
  rateLimiter: 'per-reservation',
  queueShards: 1,
};
