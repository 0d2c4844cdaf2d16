/**
 * @module
 * `TraceDO`: one per tenant and trace id (`idFromName("<tenant>:<traceId>")`, src/traces/rpc.ts). A thin
 * driver over src/traces/store.ts and src/monitors/runner.ts: the spans the queue consumer appends (then matched
 * by the tenant's monitors), the reads of `GET /v1/traces/{id}`, the evaluations recorded on the trace, and the
 * one alarm: the trace complete after its quiet period (trace-scope monitors judge it), and the retention.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel } from '../../src/config/vars.js';
import { tenantDb } from '../../src/config/d1-shards.js';
import { MonitorRunner } from '../../src/monitors/runner.js';
import type { TraceRpc } from '../../src/traces/rpc.js';
import type { AppendOutcome, SpanRow, TraceLink } from '../../src/traces/store.js';
import { TraceStore } from '../../src/traces/store.js';

/** The Durable Object that keeps one trace's spans. */
export class TraceDO extends DurableObject<Bindings> implements TraceRpc {
  private readonly store: TraceStore;
  private readonly monitors: MonitorRunner;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    applyLogLevel(env);
    this.store = new TraceStore({ sql: ctx.storage.sql, storage: ctx.storage, d1: (tenant) => tenantDb(env, tenant) });
    this.monitors = new MonitorRunner({ sql: ctx.storage.sql, env, store: this.store });
  }

  /** Keeps the spans not yet kept (idempotent on span id), then the tenant's monitors match the new ones. */
  async append(tenant: string, traceId: string, spans: SpanRow[], retentionDays: number): Promise<AppendOutcome> {
    const { added, index, fresh } = await this.store.append(tenant, traceId, spans, retentionDays);
    await this.monitors.onSpans(tenant, traceId, fresh);
    return { added, index };
  }

  /** The trace in tree order as JSON text, or null. */
  read(tenant: string): Promise<string | null> {
    const trace = this.store.read(tenant);
    return Promise.resolve(trace && JSON.stringify(trace));
  }

  /** Records an evaluation made of the trace. */
  link(tenant: string, traceId: string, link: TraceLink): Promise<void> {
    this.store.link(tenant, traceId, link);
    return Promise.resolve();
  }

  /** The quiet period over: trace-scope monitors judge the trace; then the retention. */
  override async alarm(): Promise<void> {
    const ids = this.store.ids();
    if (ids && this.store.quietDue()) {
      await this.monitors.onQuiet(ids.tenant, ids.traceId);
      await this.store.setQuietUntil(null);
    }
    await this.store.alarm();
  }
}
