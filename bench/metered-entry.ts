/**
 * @module
 * Bench-only Worker entry (`npm run bench:platform`, never deployed): the production Worker and Durable
 * Objects unchanged, with their bindings wrapped to count what Cloudflare bills per verdict:
 * - Worker invocations: `fetch` (API requests) and `queue` (consumer batches), `scheduled` apart;
 * - Durable Object requests (every stub method call or fetch is one billed RPC session; every alarm is one),
 *   and their wall time (a stand-in for billed duration: an object awaiting its LLM call is not hibernatable);
 * - D1 queries, rows read and rows written, summed from each result's own `meta` (`rows_read`,
 *   `rows_written`), as D1 bills them, and D1's own `meta.duration` (the time the database was busy);
 * - queue messages sent (each is a write, a read and a delete: 3 operations under 64 KB);
 * - Durable Object requests by namespace and by object name (`idFromName`'s argument), so a bench sees which
 *   one object every request of a kind goes through (bench/capacity.ts).
 *
 * The counters are module state: locally the Worker and its objects share one isolate. `GET /_bench/meter`
 * answers them; `POST /_bench/meter/reset` zeroes them. Production paths are untouched: the wrapping lives
 * only in this entry, which `bench/platform.ts` bundles in place of src/index.ts.
 */
import worker, {
  EvaluationDO as BaseEvaluationDO,
  ProviderGateDO as BaseProviderGateDO,
  RateLimiterDO as BaseRateLimiterDO,
  TraceDO as BaseTraceDO,
  WaveCoordinatorDO as BaseWaveCoordinatorDO,
  WebhookLaneDO as BaseWebhookLaneDO,
} from '../src/index.js';
import type { Bindings } from '../src/config/bindings.js';
import type { Meter } from './meter.js';
import { SQL_KEY_CHARS } from './meter.js';

const zero = (): Meter => ({
  workerFetches: 0,
  queueInvocations: 0,
  queueMessagesReceived: 0,
  scheduled: 0,
  doRequests: 0,
  doAlarms: 0,
  doWallMs: 0,
  d1Queries: 0,
  d1RowsRead: 0,
  d1RowsWritten: 0,
  queueMessagesSent: 0,
  d1DurationMs: 0,
  doByBinding: {},
  doByObject: {},
  queueByBinding: {},
  d1BySql: {},
});

let meter = zero();

function countSql(result: D1Result | D1ExecResult | null | undefined, sql?: string): void {
  const meta = (
    result as { meta?: { rows_read?: number; rows_written?: number; duration?: number } } | null | undefined
  )?.meta;
  meter.d1Queries += 1;
  meter.d1RowsRead += meta?.rows_read ?? 0;
  meter.d1RowsWritten += meta?.rows_written ?? 0;
  meter.d1DurationMs += meta?.duration ?? 0;
  if (sql === undefined) return;
  const key = sql.replace(/\s+/g, ' ').trim().slice(0, SQL_KEY_CHARS);
  const s = (meter.d1BySql[key] ??= { n: 0, written: 0, read: 0 });
  s.n += 1;
  s.written += meta?.rows_written ?? 0;
  s.read += meta?.rows_read ?? 0;
}

/** Counts one request or alarm under namespace `binding` and its object `name`. */
function countUnder(binding: string, name: string): void {
  meter.doByBinding[binding] = (meter.doByBinding[binding] ?? 0) + 1;
  const objects = (meter.doByObject[binding] ??= {});
  objects[name] = (objects[name] ?? 0) + 1;
}

/** Object names by id (`idFromName`'s argument), so a stub's requests are counted under the name it was made from. */
const namesById = new Map<string, string>();

const inner = new WeakMap<object, D1PreparedStatement>();
/** Each wrapped statement's SQL (for {@link Meter.d1BySql}). */
const sqlOf = new WeakMap<object, string>();

/** A statement whose every execution is counted (`first` runs as `all`, so its meta is seen). */
function meteredStatement(s: D1PreparedStatement, sql: string): D1PreparedStatement {
  const count = (r: D1Result | D1ExecResult): void => {
    countSql(r, sql);
  };
  const wrapped = {
    bind: (...values: unknown[]) => meteredStatement(s.bind(...values), sql),
    async first(column?: string) {
      const r = await s.all();
      count(r);
      const row = r.results[0];
      if (row === undefined) return null;
      return column === undefined ? row : (row[column] ?? null);
    },
    async run() {
      const r = await s.run();
      count(r);
      return r;
    },
    async all() {
      const r = await s.all();
      count(r);
      return r;
    },
    async raw(options?: { columnNames?: boolean }) {
      // No meta on raw(): counted through all(), then shaped as raw() answers.
      const r = await s.all();
      count(r);
      const rows = r.results.map((row) => Object.values(row));
      return options?.columnNames === true ? [Object.keys(r.results[0] ?? {}), ...rows] : rows;
    },
  } as unknown as D1PreparedStatement;
  inner.set(wrapped, s);
  sqlOf.set(wrapped, sql);
  return wrapped;
}

function meteredDb(db: D1Database): D1Database {
  return {
    prepare: (sql: string) => meteredStatement(db.prepare(sql), sql),
    async batch(statements: D1PreparedStatement[]) {
      const results = await db.batch(statements.map((s) => inner.get(s) ?? s));
      results.forEach((r, i) => {
        countSql(r, sqlOf.get(statements[i] ?? {}));
      });
      return results;
    },
    async exec(sql: string) {
      const r = await db.exec(sql);
      meter.d1Queries += r.count;
      return r;
    },
    withSession: () => {
      throw new Error('metered D1: withSession is not wrapped');
    },
  } as unknown as D1Database;
}

/** A stub whose method calls (RPC sessions) and fetches are counted and timed. */
function meteredStub<T extends object>(stub: T, binding: string, name: string): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function' || typeof prop === 'symbol' || prop === 'then') return value;
      return async (...args: unknown[]) => {
        meter.doRequests += 1;
        countUnder(binding, name);
        const t0 = Date.now();
        try {
          return await (target as Record<string, (...a: unknown[]) => Promise<unknown>>)[prop]?.(...args);
        } finally {
          meter.doWallMs += Date.now() - t0;
        }
      };
    },
  });
}

function meteredNamespace(ns: DurableObjectNamespace, binding: string): DurableObjectNamespace {
  return new Proxy(ns, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (prop === 'idFromName')
        return (name: string) => {
          const id = (value as (n: string) => DurableObjectId).call(target, name);
          namesById.set(id.toString(), name);
          return id;
        };
      if (prop === 'get' || prop === 'getByName')
        return (...args: unknown[]) => {
          const first = args[0];
          const name = typeof first === 'string' ? first : String(first);
          const stub = (value as (...a: unknown[]) => object).apply(target, args) as DurableObjectStub;
          return meteredStub(stub, binding, namesById.get(name) ?? name);
        };
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function meteredQueue<T>(q: Queue<T>, binding: string): Queue<T> {
  const sent = (n: number) => {
    meter.queueMessagesSent += n;
    meter.queueByBinding[binding] = (meter.queueByBinding[binding] ?? 0) + n;
  };
  return {
    send: (body: T, options?: QueueSendOptions) => {
      sent(1);
      return q.send(body, options);
    },
    sendBatch: (messages: Iterable<MessageSendRequest<T>>, options?: QueueSendBatchOptions) => {
      const list = [...messages];
      sent(list.length);
      return q.sendBatch(list, options);
    },
  } as Queue<T>;
}

/**
 * Runs an alarm of an object of `binding`, counted as one request to it (its name is not known inside:
 * `(alarm)`). `timed` adds its wall time to `doWallMs`: only the evaluation's alarms are timed, as when
 * bench/platform-usage.json was measured, so its `doWallMs` stays comparable.
 */
async function meteredAlarm(binding: string, alarm: () => Promise<void>, timed = false): Promise<void> {
  meter.doAlarms += 1;
  countUnder(binding, '(alarm)');
  const t0 = Date.now();
  try {
    await alarm();
  } finally {
    if (timed) meter.doWallMs += Date.now() - t0;
  }
}

const wrapped = new WeakMap<object, Bindings>();

/** The Durable Object namespace bindings (wrangler.toml). */
const NAMESPACES = new Set(['EVALUATION', 'RATE_LIMITER', 'PROVIDER_GATE', 'WEBHOOK_LANE', 'WAVES', 'TRACE']);

/** The bindings with D1, the object namespaces and the queue producers counted (one wrapper per env). */
function metered(env: Bindings): Bindings {
  const known = wrapped.get(env);
  if (known) return known;
  const out: Record<string, unknown> = { ...env };
  for (const [name, value] of Object.entries(env)) {
    // The control database and every tenant shard (src/config/d1-shards.ts): a verdict's rows go to its shard.
    if (/^DB(_\d{2})?$/.test(name)) out[name] = meteredDb(value as D1Database);
    else if (NAMESPACES.has(name)) out[name] = meteredNamespace(value as DurableObjectNamespace, name);
    else if (value !== null && typeof value === 'object' && 'sendBatch' in value)
      out[name] = meteredQueue(value as Queue, name);
  }
  const bindings = out as unknown as Bindings;
  wrapped.set(env, bindings);
  return bindings;
}

// One class per namespace, named as wrangler.toml binds it (workerd needs each as a class of its own): the
// production class with its bindings counted, and its alarm counted through meteredAlarm.

export class EvaluationDO extends BaseEvaluationDO {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, metered(env));
  }

  override alarm(): Promise<void> {
    return meteredAlarm('EVALUATION', () => super.alarm(), true);
  }
}

export class RateLimiterDO extends BaseRateLimiterDO {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, metered(env));
  }
}

export class ProviderGateDO extends BaseProviderGateDO {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, metered(env));
  }

  override alarm(): Promise<void> {
    return meteredAlarm('PROVIDER_GATE', () => super.alarm());
  }
}

export class WebhookLaneDO extends BaseWebhookLaneDO {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, metered(env));
  }

  override alarm(): Promise<void> {
    return meteredAlarm('WEBHOOK_LANE', () => super.alarm());
  }
}

export class WaveCoordinatorDO extends BaseWaveCoordinatorDO {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, metered(env));
  }

  override alarm(): Promise<void> {
    return meteredAlarm('WAVES', () => super.alarm());
  }
}

export class TraceDO extends BaseTraceDO {
  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, metered(env));
  }

  override alarm(): Promise<void> {
    return meteredAlarm('TRACE', () => super.alarm());
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/_bench/meter') return Response.json(meter);
    if (url.pathname === '/_bench/meter/reset') {
      meter = zero();
      return Response.json(meter);
    }
    meter.workerFetches += 1;
    return worker.fetch(request, metered(env), ctx);
  },
  async queue(batch, env, ctx) {
    meter.queueInvocations += 1;
    meter.queueMessagesReceived += batch.messages.length;
    return worker.queue(batch, metered(env), ctx);
  },
  async scheduled(controller, env, ctx) {
    meter.scheduled += 1;
    return worker.scheduled(controller, metered(env), ctx);
  },
} satisfies ExportedHandler<Bindings>;
