/**
 * @module
 * `TraceDO`: one per tenant and trace id (`idFromName("<tenant>:<traceId>")`, src/traces/rpc.ts). A thin
 * driver over src/traces/store.ts: the spans the queue consumer appends, the reads of `GET /v1/traces/{id}`,
 * and the alarm that erases the trace past its tenant's retention.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../../src/config/bindings.js';
import { tenantDb } from '../../src/config/d1-shards.js';
import type { TraceRpc } from '../../src/traces/rpc.js';
import type { AppendOutcome, SpanRow } from '../../src/traces/store.js';
import { TraceStore } from '../../src/traces/store.js';

/** The Durable Object that keeps one trace's spans. */
export class TraceDO extends DurableObject<Bindings> implements TraceRpc {
  private readonly store: TraceStore;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    this.store = new TraceStore({ sql: ctx.storage.sql, storage: ctx.storage, d1: (tenant) => tenantDb(env, tenant) });
  }

  /** Keeps the spans not yet kept (idempotent on span id). */
  append(tenant: string, traceId: string, spans: SpanRow[], retentionDays: number): Promise<AppendOutcome> {
    return this.store.append(tenant, traceId, spans, retentionDays);
  }

  /** The trace in tree order as JSON text, or null. */
  read(tenant: string): Promise<string | null> {
    const trace = this.store.read(tenant);
    return Promise.resolve(trace && JSON.stringify(trace));
  }

  /** Retention. */
  override alarm(): Promise<void> {
    return this.store.alarm();
  }
}
