/**
 * @module
 * The monitors' part of a trace's object (durable-objects/trace/ drives it): the tenant's active monitors matched
 * against the spans as they arrive, and against the whole trace once it is complete.
 *
 * Exactly once: before an evaluation is made, the object stores the decision on (monitor, span) in its own
 * `judged` table (a trace-scope judgment is keyed by the root span); only the call that inserted the row counts
 * the match and judges it, and the evaluation is made with an idempotency key from (monitor, trace, span). A
 * redelivered queue message, a repeated alarm or a re-export therefore adds nothing; a judgment whose creation
 * failed (D1, the object) stays `pending` and is tried again by the next message or alarm (the error is rethrown,
 * so the queue or the alarm retries).
 *
 * Counts go to `monitor_days` once per message or alarm (one upsert per monitor that matched something).
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { configOf } from '../config/vars.js';
import type { Task } from '../engine/task.js';
import { log } from '../log/log.js';
import type { NormalizedSpan } from '../traces/span-schema.js';
import type { StoredTrace, TraceLink, TraceStore } from '../traces/store.js';
import { judgeableSpan, matchesFilter, sampled, spanTask, trajectoryTask } from './match.js';
import type { DayCounts, MonitorRecord } from './rows.js';
import { addDayCounts, dayOf } from './rows.js';
import { activeMonitors, judgeMatch } from './service.js';

/**
 * The `span_id` of a trace-scope decision: one per monitor and trace, whichever span is the root (a later span
 * without a parent would otherwise count as a second root).
 */
const TRACE_KEY = '';

/** A judgment's state in the object. */
type State = 'pending' | 'created' | 'skipped_budget' | 'refused' | 'unsampled';

/** What the runner needs from its object. */
export interface MonitorRunnerDeps {
  sql: SqlStorage;
  env: Bindings;
  store: TraceStore;
  now?: () => number;
}

/** The monitors of one trace's object (see the module note). */
export class MonitorRunner {
  private readonly now: () => number;

  constructor(private readonly deps: MonitorRunnerDeps) {
    this.now = deps.now ?? Date.now;
  }

  private table(): void {
    // Again on every use: the retention's erasure drops every table while the instance may live on.
    this.deps.sql.exec(
      `CREATE TABLE IF NOT EXISTS judged (monitor_id TEXT NOT NULL, span_id TEXT NOT NULL, state TEXT NOT NULL,
         evaluation_id TEXT, PRIMARY KEY (monitor_id, span_id))`,
    );
  }

  /** Inserts the decision on (monitor, span); true when this call made it (the match is new). */
  private decide(monitorId: string, spanId: string, state: State): boolean {
    return (
      this.deps.sql.exec(
        'INSERT INTO judged (monitor_id, span_id, state) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        monitorId,
        spanId,
        state,
      ).rowsWritten > 0
    );
  }

  private settle(monitorId: string, spanId: string, state: State, evaluationId: string | null): void {
    this.deps.sql.exec(
      'UPDATE judged SET state = ?, evaluation_id = ? WHERE monitor_id = ? AND span_id = ?',
      state,
      evaluationId,
      monitorId,
      spanId,
    );
  }

  private pending(): { monitor_id: string; span_id: string }[] {
    return this.deps.sql
      .exec<{ monitor_id: string; span_id: string }>("SELECT monitor_id, span_id FROM judged WHERE state = 'pending'")
      .toArray();
  }

  /**
   * New spans arrived: each matching, judgeable span of a `span`-scope monitor is decided (and judged when
   * sampled); with a `trace`-scope monitor and the root span ended, the quiet period (re)starts. Pending
   * judgments are tried again.
   */
  async onSpans(tenant: string, traceId: string, fresh: readonly NormalizedSpan[]): Promise<void> {
    this.table();
    const monitors = await activeMonitors(this.deps.env, tenant);
    const counts = new Map<string, DayCounts>();
    for (const m of monitors.filter((x) => x.definition.scope === 'span')) {
      for (const span of fresh) {
        if (!judgeableSpan(span) || !matchesFilter(m.definition.filter, span)) continue;
        const keep = sampled(m.definition.sampleRate, m.id, traceId, span.spanId);
        if (!this.decide(m.id, span.spanId, keep ? 'pending' : 'unsampled')) continue;
        bump(counts, m.id, { matched: 1, sampled: keep ? 1 : 0, skippedBudget: 0 });
      }
    }
    await addDayCounts(tenantDb(this.deps.env, tenant), tenant, dayOf(this.now()), counts);
    if (fresh.length > 0 && monitors.some((m) => m.definition.scope === 'trace')) {
      const root = this.deps.store.root();
      if (root?.endTimeUnixNano)
        await this.deps.store.setQuietUntil(this.now() + configOf(this.deps.env).TRACE_QUIET_MS);
    }
    await this.judgePending(tenant, traceId, monitors);
  }

  /** The trace is complete: each matching `trace`-scope monitor decides it (and judges it when sampled). */
  async onQuiet(tenant: string, traceId: string): Promise<void> {
    this.table();
    const trace = this.deps.store.read(tenant);
    const root = trace?.spans.find((s) => s.spanId === trace.rootSpanId);
    const monitors = await activeMonitors(this.deps.env, tenant);
    const counts = new Map<string, DayCounts>();
    if (trace && root) {
      for (const m of monitors.filter((x) => x.definition.scope === 'trace')) {
        if (!trace.spans.some((s) => matchesFilter(m.definition.filter, s))) continue;
        const keep = sampled(m.definition.sampleRate, m.id, traceId, null);
        if (!this.decide(m.id, TRACE_KEY, keep ? 'pending' : 'unsampled')) continue;
        bump(counts, m.id, { matched: 1, sampled: keep ? 1 : 0, skippedBudget: 0 });
      }
    }
    await addDayCounts(tenantDb(this.deps.env, tenant), tenant, dayOf(this.now()), counts);
    await this.judgePending(tenant, traceId, monitors, trace);
  }

  /**
   * Every pending judgment made into its evaluation (or skipped, or refused). @throws the first failure, after trying all.
   * @param read the stored trace when the caller has read it already (each read parses every span)
   */
  private async judgePending(
    tenant: string,
    traceId: string,
    monitors: readonly MonitorRecord[],
    read?: StoredTrace | null,
  ): Promise<void> {
    const rows = this.pending();
    if (rows.length === 0) return;
    const trace = read === undefined ? this.deps.store.read(tenant) : read;
    const counts = new Map<string, DayCounts>();
    let failure: Error | null = null;
    for (const row of rows) {
      const m = monitors.find((x) => x.id === row.monitor_id);
      const task = m && trace ? taskFor(m, trace, row.span_id) : null;
      // A trace's judgment is shown on its root span.
      const spanId = row.span_id === TRACE_KEY ? trace?.rootSpanId : row.span_id;
      if (!m || !task || !spanId) {
        // Deleted or paused meanwhile, or nothing to judge: decided, never judged.
        this.settle(row.monitor_id, row.span_id, 'refused', null);
        continue;
      }
      const source = { traceId, spanId, monitorId: m.id };
      try {
        const outcome = await judgeMatch(this.deps.env, m, task, source, this.now());
        if (outcome.kind === 'created') {
          const link: TraceLink = { evaluationId: outcome.evaluationId, spanId, monitorId: m.id };
          this.deps.store.link(tenant, traceId, link);
          this.settle(m.id, row.span_id, 'created', outcome.evaluationId);
        } else if (outcome.kind === 'skipped_budget') {
          this.settle(m.id, row.span_id, 'skipped_budget', null);
          bump(counts, m.id, { matched: 0, sampled: 0, skippedBudget: 1 });
        } else {
          log('warn', 'monitors.judge_refused', {
            tenant,
            monitorId: m.id,
            traceId,
            spanId: row.span_id,
            code: outcome.code,
            message: outcome.message,
          });
          this.settle(m.id, row.span_id, 'refused', null);
        }
      } catch (err) {
        failure ??= err instanceof Error ? err : new Error(String(err));
      }
    }
    await addDayCounts(tenantDb(this.deps.env, tenant), tenant, dayOf(this.now()), counts);
    if (failure !== null) throw failure;
  }
}

/** The task a monitor judges for a decision on `spanId`: the span's, or the whole trace's (keyed by its root). */
function taskFor(m: MonitorRecord, trace: StoredTrace, spanId: string): Task | null {
  if (m.definition.scope === 'trace') return trajectoryTask(trace.spans, m.definition);
  const span = trace.spans.find((s) => s.spanId === spanId);
  return span ? spanTask(span, m.definition) : null;
}

function bump(counts: Map<string, DayCounts>, id: string, add: DayCounts): void {
  const c = counts.get(id) ?? { matched: 0, sampled: 0, skippedBudget: 0 };
  counts.set(id, {
    matched: c.matched + add.matched,
    sampled: c.sampled + add.sampled,
    skippedBudget: c.skippedBudget + add.skippedBudget,
  });
}
