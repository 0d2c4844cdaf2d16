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
 * Counts exactly once: what a call decides is written as a numbered count set in the same synchronous run as the
 * decisions (so a stored decision always has its count), and the call ends by sending the object's unsent sets to
 * D1 (`addCountSets`), which adds each set once whatever the repeats, and then forgets them. A failure between the
 * two (D1, an eviction) leaves the sets for the next message or alarm: the retry that finds the match decided
 * still counts it. Set numbers only grow: `max(last + 1, now × 1000)`, so even a trace erased and sent again
 * continues above its old mark.
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { configOf } from '../config/vars.js';
import type { Task } from '../engine/task.js';
import { deleteEvaluation } from '../evaluations/list.js';
import { log, logs } from '../log/log.js';
import type { NormalizedSpan } from '../traces/span-schema.js';
import type { StoredTrace, TraceLink, TraceStore } from '../traces/store.js';
import { judgeableSpan, matchesFilter, sampled, spanTask, trajectoryTask, unjudgeable } from './match.js';
import type { CountSet, DayCounts, MonitorRecord } from './rows.js';
import { addCountSets, dayOf, deleteCountMark } from './rows.js';
import { activeMonitors, judgeMatch } from './service.js';

/**
 * The `span_id` of a trace-scope decision: one per monitor and trace, whichever span is the root (a later span
 * without a parent would otherwise count as a second root).
 */
const TRACE_KEY = '';

/** A judgment's state in the object. */
type State = 'pending' | 'created' | 'skipped_budget' | 'skipped_unjudgeable' | 'refused' | 'unsampled';

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
         evaluation_id TEXT, PRIMARY KEY (monitor_id, span_id));
       CREATE TABLE IF NOT EXISTS count_sets (seq INTEGER NOT NULL, monitor_id TEXT NOT NULL, day TEXT NOT NULL,
         matched INTEGER NOT NULL, sampled INTEGER NOT NULL, skipped_budget INTEGER NOT NULL,
         skipped_unjudgeable INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (seq, monitor_id, day));
       CREATE TABLE IF NOT EXISTS count_seq (id INTEGER PRIMARY KEY CHECK (id = 0), seq INTEGER NOT NULL);`,
    );
  }

  /**
   * Keeps what decisions just made add to their monitors' day as one numbered set. Called in the same synchronous
   * run as the decisions (no await between): the object's storage commits both or neither.
   */
  private record(counts: ReadonlyMap<string, DayCounts>): void {
    const rows = [...counts].filter(([, c]) => c.matched + c.sampled + c.skippedBudget + c.skippedUnjudgeable > 0);
    if (rows.length === 0) return;
    if (rows.some(([, c]) => c.skippedUnjudgeable > 0)) this.unjudgeableColumn();
    const now = this.now();
    const { seq } = this.deps.sql
      .exec<{ seq: number }>(
        `INSERT INTO count_seq (id, seq) VALUES (0, ?) ON CONFLICT (id) DO UPDATE SET seq = MAX(seq + 1, excluded.seq)
         RETURNING seq`,
        now * 1000,
      )
      .one();
    const day = dayOf(now);
    for (const [monitorId, c] of rows) {
      // The column named only when used: a table made before it has it only once unjudgeableColumn added it.
      const extra = c.skippedUnjudgeable > 0 ? [c.skippedUnjudgeable] : [];
      this.deps.sql.exec(
        `INSERT INTO count_sets (seq, monitor_id, day, matched, sampled, skipped_budget${extra.length > 0 ? ', skipped_unjudgeable' : ''})
         VALUES (?, ?, ?, ?, ?, ?${extra.length > 0 ? ', ?' : ''})`,
        seq,
        monitorId,
        day,
        c.matched,
        c.sampled,
        c.skippedBudget,
        ...extra,
      );
    }
  }

  /** Adds `skipped_unjudgeable` to a `count_sets` made before it (rare: only when such a count is kept). */
  private unjudgeableColumn(): void {
    const columns = this.deps.sql.exec<{ name: string }>('PRAGMA table_info(count_sets)').toArray();
    if (!columns.some((c) => c.name === 'skipped_unjudgeable'))
      this.deps.sql.exec('ALTER TABLE count_sets ADD COLUMN skipped_unjudgeable INTEGER NOT NULL DEFAULT 0');
  }

  /** Sends the unsent count sets to D1 (added once each, however often sent), then forgets them. */
  private async flush(tenant: string, traceId: string): Promise<void> {
    const sets: CountSet[] = this.deps.sql
      .exec<{
        seq: number;
        monitor_id: string;
        day: string;
        matched: number;
        sampled: number;
        skipped_budget: number;
        skipped_unjudgeable?: number;
      }>('SELECT * FROM count_sets')
      .toArray()
      .map((r) => ({
        traceId,
        seq: r.seq,
        monitorId: r.monitor_id,
        day: r.day,
        matched: r.matched,
        sampled: r.sampled,
        skippedBudget: r.skipped_budget,
        skippedUnjudgeable: r.skipped_unjudgeable ?? 0,
      }));
    if (sets.length === 0) return;
    await addCountSets(tenantDb(this.deps.env, tenant), tenant, sets);
    // Only those sent: a concurrent call may have numbered a later one meanwhile.
    this.deps.sql.exec('DELETE FROM count_sets WHERE seq <= ?', Math.max(...sets.map((c) => c.seq)));
  }

  /** The trace is being erased: its mark in D1 goes too. */
  async forget(tenant: string, traceId: string): Promise<void> {
    await deleteCountMark(tenantDb(this.deps.env, tenant), tenant, traceId);
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
   * sampled). With the root span ended, a `trace`-scope monitor that does not sample the trace decides it at once
   * (it is never judged, so it waits for no quiet period), and one that samples it (re)starts the quiet period
   * from the spans' arrival. Pending judgments are tried again.
   */
  async onSpans(tenant: string, traceId: string, fresh: readonly NormalizedSpan[]): Promise<void> {
    this.table();
    const monitors = await activeMonitors(this.deps.env, tenant);
    const counts = new Map<string, DayCounts>();
    // Armed before the writes below, so the trace's quiet period starts when its spans arrived, not after them.
    if (fresh.length > 0 && this.traceArrivals(traceId, monitors, fresh, counts)) {
      const arrived = this.deps.store.lastSpanAt() ?? this.now();
      await this.deps.store.setQuietUntil(arrived + configOf(this.deps.env).TRACE_QUIET_MS);
    }
    for (const m of monitors.filter((x) => x.definition.scope === 'span')) {
      for (const span of fresh) {
        if (!judgeableSpan(span) || !matchesFilter(m.definition.filter, span)) continue;
        const keep = sampled(m.definition.sampleRate, m.id, traceId, span.spanId);
        if (!this.decide(m.id, span.spanId, keep ? 'pending' : 'unsampled')) continue;
        bump(counts, m.id, { matched: 1, sampled: keep ? 1 : 0, skippedBudget: 0, skippedUnjudgeable: 0 });
      }
    }
    this.record(counts);
    try {
      await this.judgePending(tenant, traceId, monitors);
    } finally {
      await this.flush(tenant, traceId);
    }
  }

  /**
   * The `trace`-scope monitors' part of new spans once the root span has ended: a monitor whose sample leaves the
   * trace out decides it as soon as a span matches (as {@link onQuiet} would, without an alarm per trace); true
   * when a monitor samples the trace, so its quiet period is to (re)start.
   */
  private traceArrivals(
    traceId: string,
    monitors: readonly MonitorRecord[],
    fresh: readonly NormalizedSpan[],
    counts: Map<string, DayCounts>,
  ): boolean {
    const traceMonitors = monitors.filter((m) => m.definition.scope === 'trace');
    if (traceMonitors.length === 0) return false;
    const root = this.deps.store.root();
    if (!root?.endTimeUnixNano) return false;
    const rootIsNew = fresh.some((s) => s.spanId === root.spanId);
    let quiet = false;
    let kept: readonly NormalizedSpan[] | undefined; // read (and parsed) once, by the first monitor that needs it
    for (const m of traceMonitors) {
      if (sampled(m.definition.sampleRate, m.id, traceId, null)) {
        quiet = true;
        continue;
      }
      const matches = (s: NormalizedSpan) => matchesFilter(m.definition.filter, s);
      // Spans kept before the root arrived were not looked at then (no root yet): once, when it arrives.
      const matched = fresh.some(matches) || (rootIsNew && (kept ??= this.deps.store.spans()).some(matches));
      if (matched && this.decide(m.id, TRACE_KEY, 'unsampled'))
        bump(counts, m.id, { matched: 1, sampled: 0, skippedBudget: 0, skippedUnjudgeable: 0 });
    }
    return quiet;
  }

  /** The trace is complete: each matching `trace`-scope monitor decides it (and judges it when sampled). */
  async onQuiet(tenant: string, traceId: string): Promise<void> {
    const firedAt = this.now();
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
        bump(counts, m.id, { matched: 1, sampled: keep ? 1 : 0, skippedBudget: 0, skippedUnjudgeable: 0 });
      }
    }
    this.record(counts);
    try {
      await this.judgePending(tenant, traceId, monitors, trace, firedAt);
    } finally {
      await this.flush(tenant, traceId);
    }
  }

  /**
   * Every pending judgment made into its evaluation (or skipped, or refused). @throws the first failure, after trying all.
   * @param read the stored trace when the caller has read it already (each read parses every span)
   * @param firedAt when the quiet period's alarm began, epoch ms (for the debug line of each trace judged)
   */
  private async judgePending(
    tenant: string,
    traceId: string,
    monitors: readonly MonitorRecord[],
    read?: StoredTrace | null,
    firedAt?: number,
  ): Promise<void> {
    const rows = this.pending();
    if (rows.length === 0) return;
    const trace = read === undefined ? this.deps.store.read(tenant) : read;
    let failure: Error | null = null;
    for (const row of rows) {
      const m = monitors.find((x) => x.id === row.monitor_id);
      // A trace whose texts were erased (a tenant that stores no content) would be judged on hashes.
      const erased = row.span_id === TRACE_KEY && this.deps.store.contentErasedAt() !== null;
      const task = m && trace && !erased ? taskFor(m, trace, row.span_id) : null;
      // A trace's judgment is shown on its root span.
      const spanId = row.span_id === TRACE_KEY ? trace?.rootSpanId : row.span_id;
      if (m && trace && task === null && row.span_id === TRACE_KEY) {
        // Counted and logged: a sampled trace never judged would otherwise vanish from the counts.
        const reason = erased ? 'content_erased' : (unjudgeable(trace.spans, m.definition) ?? 'no_task');
        log('info', 'monitors.trace_unjudgeable', { tenant, monitorId: m.id, traceId, reason });
        this.settle(m.id, row.span_id, 'skipped_unjudgeable', null);
        this.record(new Map([[m.id, { matched: 0, sampled: 0, skippedBudget: 0, skippedUnjudgeable: 1 }]]));
        continue;
      }
      if (!m || !task || !spanId) {
        // Deleted or paused meanwhile, or nothing to judge: decided, never judged.
        this.settle(row.monitor_id, row.span_id, 'refused', null);
        continue;
      }
      const source = { traceId, spanId, monitorId: m.id };
      try {
        const outcome = await judgeMatch(this.deps.env, m, task, source, this.now());
        if (outcome.kind === 'created' && this.deps.store.deleted()) {
          // `DELETE /v1/traces/{id}` ran while it was made (its table of decisions is gone): erased as the rest.
          await deleteEvaluation(this.deps.env, tenant, outcome.evaluationId);
        } else if (outcome.kind === 'created') {
          const link: TraceLink = { evaluationId: outcome.evaluationId, spanId, monitorId: m.id };
          this.deps.store.link(tenant, traceId, link);
          this.settle(m.id, row.span_id, 'created', outcome.evaluationId);
          // The stages from the trace's last span to its judgment (`npm run bench:traces -- --monitors`).
          if (row.span_id === TRACE_KEY && logs('debug'))
            log('debug', 'monitors.trace_judged', {
              tenant,
              monitorId: m.id,
              traceId,
              evaluationId: outcome.evaluationId,
              lastSpanAt: this.deps.store.lastSpanAt(),
              quietUntil: this.deps.store.quietUntil(),
              firedAt,
              judgedAt: this.now(),
            });
        } else if (outcome.kind === 'skipped_budget') {
          this.settle(m.id, row.span_id, 'skipped_budget', null);
          this.record(new Map([[m.id, { matched: 0, sampled: 0, skippedBudget: 1, skippedUnjudgeable: 0 }]]));
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
  const c = counts.get(id) ?? { matched: 0, sampled: 0, skippedBudget: 0, skippedUnjudgeable: 0 };
  counts.set(id, {
    matched: c.matched + add.matched,
    sampled: c.sampled + add.sampled,
    skippedBudget: c.skippedBudget + add.skippedBudget,
    skippedUnjudgeable: c.skippedUnjudgeable + add.skippedUnjudgeable,
  });
}
