/**
 * @module
 * `TraceDO`: one per tenant and trace id (`idFromName("<tenant>:<traceId>")`, src/traces/rpc.ts). A thin
 * driver over src/traces/store.ts and src/monitors/runner.ts: the spans the queue consumer appends (then matched
 * by the tenant's monitors), the reads of `GET /v1/traces/{id}`, the evaluations recorded on the trace, and the
 * one alarm: the trace complete after its quiet period (trace-scope monitors judge it, then a tenant that stores
 * no content has its texts hashed), and the retention; and `DELETE /v1/traces/{id}`'s erasure.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel, configOf } from '../../src/config/vars.js';
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

  /**
   * Keeps the spans not yet kept (idempotent on span id), then the tenant's monitors match the new ones; texts a
   * tenant does not store are erased at the quiet period's alarm, once the monitors have judged them.
   */
  async append(
    tenant: string,
    traceId: string,
    spans: SpanRow[],
    retentionDays: number,
    storeContent = true,
  ): Promise<AppendOutcome> {
    const appended = await this.store.append(tenant, traceId, spans, retentionDays, storeContent);
    // Held texts: each new span restarts the quiet period (an SDK exports a trace in batches, its root last). Armed
    // before the monitors match, so a failure there never keeps the texts past it.
    if (appended.holdsContent && (appended.added > 0 || this.store.quietUntil() === null)) {
      const arrived = this.store.lastSpanAt() ?? Date.now();
      await this.store.setQuietUntil(arrived + configOf(this.env).TRACE_QUIET_MS);
    }
    await this.monitors.onSpans(tenant, traceId, appended.fresh);
    return { added: appended.added, index: appended.index };
  }

  /** The evaluations recorded on the trace, or null. */
  links(tenant: string): Promise<TraceLink[] | null> {
    const ids = this.store.ids();
    return Promise.resolve(ids?.tenant === tenant && !this.store.deleted() ? this.store.links() : null);
  }

  /** Erases the trace (a tombstone stays) and its monitors' mark in D1. */
  async erase(tenant: string): Promise<boolean> {
    const ids = this.store.ids();
    if (!ids || ids.tenant !== tenant) return false;
    await this.monitors.forget(ids.tenant, ids.traceId);
    return this.store.erase(tenant);
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
    // Judged (a failure above retries the alarm with the texts still there): a tenant that stores none keeps hashes,
    // once the root span has ended (its trace-scope monitors judge the whole trace), or at the cap.
    if (ids && this.store.holdsContent() && this.store.quietUntil() === null) {
      const cap = this.store.contentHoldEnds();
      if (this.store.root()?.endTimeUnixNano || cap === null || cap <= Date.now()) await this.store.eraseContent();
      else await this.store.setQuietUntil(cap);
    }
    // Before the erasure, which forgets the ids: a failure retries the alarm with the trace still there.
    if (ids && this.store.expired()) await this.monitors.forget(ids.tenant, ids.traceId);
    await this.store.alarm();
  }
}
