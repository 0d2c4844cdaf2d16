/**
 * @module
 * The object's rows: the `evaluation` row (config, task, status, counters), the `ended` marker, and the
 * `results` log every LLM result is written to before anything else happens. Every read and write of
 * the object's SQLite goes through {@link EvaluationStore}; all of them are synchronous, so none opens
 * the input gate (see docs/architecture.md).
 */
import type { LlmCallResult } from '../../src/engine/call.js';
import type { CallTiming } from '../../src/evaluations/rpc.js';
import type { EvaluationStatus } from '../../src/evaluations/status.js';
import type { StoredResultView } from './event-builders.js';
import type { LazyTable } from './migrations.js';
import { LAZY_TABLES, openSchema } from './migrations.js';
import { scrubSql } from '../../src/config/sqlite-scrub.js';
import { PendingCalls } from './pending.js';
import type { StoredCall } from '../../src/evaluations/final-write.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import type { EndedRow, KnownResult, MetaRow, NewResult, ResultRow } from './stored-rows.js';
import { META_COLUMNS } from './stored-rows.js';

/**
 * Typed access to the object's SQLite. The constructor migrates the schema (./migrations.ts). Reads whose
 * answer is known without asking are not made: a table the object does not have yet ({@link LAZY_TABLES})
 * holds no row, and neither does the `evaluation` row of an object whose schema this instance just made,
 * until {@link insertMeta} (each statement in a new object is parsed anew: CPU on every evaluation).
 */
export class EvaluationStore {
  private readonly sql: SqlStorage;
  /** Calls begun and not stored yet (./pending.ts). */
  readonly pending: PendingCalls;
  /** The lazy tables this object does not have yet. */
  private missing: Set<LazyTable>;
  /** True while the `evaluation` row is known not to exist (a new object, before {@link insertMeta}). */
  private noMeta: boolean;
  /**
   * Every `results` row, in recording order, while this instance knows them all (it made or emptied the table and
   * stored each row since; null: read the table): the final write reads its calls here, one statement less.
   */
  private knownResults: KnownResult[] | null;

  constructor(private readonly storage: DurableObjectStorage) {
    const opened = openSchema(storage);
    this.missing = opened.missing;
    this.noMeta = opened.madeNow;
    this.knownResults = this.noMeta ? [] : null;
    this.sql = storage.sql;
    this.pending = new PendingCalls(this.sql, this.noMeta);
  }

  /** Makes the lazy table `table` unless the object has it. */
  private ensure(table: LazyTable): void {
    if (!this.missing.has(table)) return;
    this.sql.exec(LAZY_TABLES[table]);
    this.missing.delete(table);
  }

  /** Records that the caller deleted the evaluation while its final write was owed (./erase.ts). */
  requestErase(at: number): void {
    this.ensure('erasure');
    this.sql.exec('INSERT OR IGNORE INTO erasure (singleton, requested_at) VALUES (1, ?)', at);
  }

  /** True when an erase waits for the final write. */
  eraseRequested(): boolean {
    if (this.missing.has('erasure')) return false;
    return this.sql.exec('SELECT 1 FROM erasure').toArray().length > 0;
  }

  /**
   * Erases everything the evaluation stored here (config, task, every result) in one transaction and
   * leaves only the `ended` marker with its terminal status, as for an evaluation that never ran here:
   * a late start, snapshot or subscriber sees it ended, and nothing can run it again.
   */
  eraseAll(marker: EndedRow): void {
    this.storage.transactionSync(() => {
      // Overwritten in place first: the platform refuses `secure_delete`, and a plain DELETE leaves the texts
      // readable in the file's free space (src/config/sqlite-scrub.ts).
      this.sql.exec(scrubSql('results', ['result'], '1'));
      this.sql.exec(scrubSql('evaluation', ['config', 'task', 'error', 'verdict', 'rubric', 'transcript'], '1'));
      this.sql.exec(scrubSql('pending', ['attempts'], '1'));
      if (!this.missing.has('ended')) this.sql.exec(scrubSql('ended', ['error'], '1'));
      if (!this.missing.has('held')) this.sql.exec(scrubSql('held', ['job'], '1'));
      for (const t of ['results', 'evaluation', 'pending', 'erasure', 'held'])
        if (!(this.missing as ReadonlySet<string>).has(t)) this.sql.exec(`DELETE FROM ${t}`);
      this.putEnded(marker);
    });
    this.pending.reset(true);
    this.knownResults = [];
  }

  /**
   * After {@link eraseAll}: the object's database is dropped whole (`deleteAll`: its files are made anew) and
   * made again with only the `ended` marker, so no earlier version of a row (an update moves a row and leaves
   * the old one in the page's free space, which {@link eraseAll} cannot reach) stays in the file. Null: no marker.
   */
  async dropFiles(marker: EndedRow | null): Promise<void> {
    await this.storage.deleteAll();
    const opened = openSchema(this.storage);
    this.missing = opened.missing;
    this.noMeta = opened.madeNow;
    this.knownResults = this.noMeta ? [] : null;
    this.pending.reset(this.noMeta);
    if (marker) this.putEnded(marker);
  }

  /** The `evaluation` row, or null when this object never started an evaluation. */
  meta(): MetaRow | null {
    if (this.noMeta) return null;
    return this.sql.exec<MetaRow>(`SELECT ${META_COLUMNS} FROM evaluation`).toArray()[0] ?? null;
  }

  /** Inserts the `evaluation` row (`INSERT OR IGNORE`: a second start keeps the first). */
  insertMeta(m: MetaRow): void {
    this.noMeta = false;
    this.sql.exec(
      `INSERT OR IGNORE INTO evaluation (singleton, id, tenant, method, config, task, status, calls_planned, started_at, updated_at,
         engine_version, rubric, tier, flex_fallback, wave_group)
       VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      m.id,
      m.tenant,
      m.method,
      m.config,
      m.task,
      m.status,
      m.calls_planned,
      m.started_at,
      m.updated_at,
      m.engine_version,
      m.rubric,
      m.tier,
      m.flex_fallback,
      m.wave_group,
    );
  }

  /** Writes status, error, verdict and `updated_at` of the `evaluation` row. */
  saveStatus(m: Pick<MetaRow, 'status' | 'error' | 'verdict' | 'updated_at'>): void {
    this.sql.exec(
      'UPDATE evaluation SET status = ?, error = ?, verdict = ?, updated_at = ?',
      m.status,
      m.error,
      m.verdict,
      m.updated_at,
    );
  }

  /** Writes one counter or flag of the `evaluation` row. */
  saveCounter(column: 'updated_at' | 'finalized' | 'alarm_failures' | 'finalize_failures', value: number): void {
    // `column` is one of the literal names above, never input.
    this.sql.exec(`UPDATE evaluation SET ${column} = ?`, value);
  }

  /**
   * Stores the transcript the final write built (JSON) in the `evaluation` row (its own table was one more table
   * in every new object); the same every time it is written again.
   */
  saveTranscript(json: string): void {
    this.sql.exec('UPDATE evaluation SET transcript = ?', json);
  }

  /** The stored transcript (JSON), or null before the final write or after an erase. */
  transcript(): string | null {
    if (this.noMeta) return null;
    return (
      this.sql.exec<{ transcript: string | null }>('SELECT transcript FROM evaluation').toArray()[0]?.transcript ?? null
    );
  }

  /** Holds a new evaluation's job before D1 knows it (src/evaluations/held-start.ts); replaces one held. */
  putHeld(job: StartJob): void {
    this.ensure('held');
    this.sql.exec('INSERT OR REPLACE INTO held (singleton, job) VALUES (1, ?)', JSON.stringify(job));
  }

  /** The held job, or null (none held: it started, was never held here, or was erased). */
  held(): StartJob | null {
    if (this.missing.has('held')) return null;
    const row = this.sql.exec<{ job: string }>('SELECT job FROM held').toArray()[0];
    return row ? (JSON.parse(row.job) as StartJob) : null;
  }

  /** Whether a job is held ({@link held} without reading it). */
  holds(): boolean {
    return !this.missing.has('held') && this.sql.exec('SELECT 1 FROM held').toArray().length > 0;
  }
  /** Drops the held job: the `evaluation` row holds its task now. */
  dropHeld(): void {
    if (!this.missing.has('held')) this.sql.exec('DELETE FROM held');
  }

  /** The `ended` marker, or null. */
  ended(): EndedRow | null {
    if (this.missing.has('ended')) return null;
    return this.sql.exec<EndedRow>('SELECT id, status, error, at FROM ended').toArray()[0] ?? null;
  }

  /** Writes the `ended` marker (replacing one that exists). */
  putEnded(row: EndedRow): void {
    this.ensure('ended');
    this.sql.exec(
      'INSERT OR REPLACE INTO ended (singleton, id, status, error, at) VALUES (1, ?, ?, ?, ?)',
      row.id,
      row.status,
      row.error,
      row.at,
    );
  }

  /** Takes D1's status and error into the `ended` marker. */
  adoptEnded(status: EvaluationStatus, error: string | null): void {
    if (this.missing.has('ended')) return;
    this.sql.exec('UPDATE ended SET status = ?, error = ?', status, error);
  }

  /** Drops the `ended` marker (D1 has no such evaluation). */
  deleteEnded(): void {
    if (this.missing.has('ended')) return;
    this.sql.exec('DELETE FROM ended');
  }

  /**
   * Stores one result (`INSERT OR IGNORE` on the call id): one statement. The `evaluation` row's `updated_at` is
   * not bumped with it: a reload takes the latest result's `finished_at` ({@link resultTally}), and the status
   * writes set it.
   * @returns false when a result with that call id was already stored (nothing written).
   */
  insertResult(r: NewResult): boolean {
    const result = JSON.stringify(r.result);
    const cursor = this.sql.exec(
      `INSERT OR IGNORE INTO results (call_id, agent, label, stage, ok, result, attempts, started_at, finished_at, latency_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      r.callId,
      r.agent,
      r.label,
      r.stage,
      r.result.ok ? 1 : 0,
      result,
      r.attempts,
      r.startedAt,
      r.finishedAt,
      r.latencyMs,
    );
    if (cursor.rowsWritten === 0) return false;
    // The text as stored, so a read from here is what a read of the table would give.
    this.knownResults?.push({
      agent: r.agent,
      label: r.label,
      stage: r.stage,
      ok: r.result.ok ? 1 : 0,
      result,
      attempts: r.attempts,
      finished_at: r.finishedAt,
      latency_ms: r.latencyMs,
    });
    return true;
  }

  /** Every stored result in recording order (the replay input). */
  *results(): Generator<LlmCallResult> {
    for (const row of this.sql.exec<Pick<ResultRow, 'result'>>('SELECT result FROM results ORDER BY seq')) {
      yield JSON.parse(row.result) as LlmCallResult;
    }
  }

  /**
   * Stored results of calls that went out (repairs and failures included; a budget's refusals, 0 attempts, not),
   * and when the latest result was stored (epoch ms; null: none), in one statement.
   */
  resultTally(): { calls: number; lastAt: number | null } {
    const row = this.sql
      .exec<{ n: number | null; last: number | null }>(
        'SELECT sum(attempts > 0) AS n, max(finished_at) AS last FROM results',
      )
      .one();
    return { calls: row.n ?? 0, lastAt: row.last };
  }

  /** Every stored result with its call and timing, in recording order (for the event replay). */
  storedResults(): StoredResultView[] {
    return this.resultRows().map((r) => ({
      callId: r.call_id,
      agent: r.agent,
      label: r.label,
      stage: r.stage,
      result: JSON.parse(r.result) as LlmCallResult,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      latencyMs: r.latency_ms,
    }));
  }

  /** Stored calls with their timing, in recording order. */
  timings(): CallTiming[] {
    return this.resultRows().map((r) => ({
      callId: r.call_id,
      ok: r.ok === 1,
      startedAt: r.started_at,
      finishedAt: r.finished_at,
      latencyMs: r.latency_ms,
      attempts: r.attempts,
    }));
  }

  private resultRows(): ResultRow[] {
    return this.sql.exec<ResultRow>('SELECT * FROM results ORDER BY seq').toArray();
  }

  /**
   * Every successful stored call in recording order, as the final write stores it (transcript + usage).
   * @param parseErrors why a reply did not parse, by call id, from the engine state when there is one.
   * @param choiceIds the call ids a request with `n` answered after its own, by request id, from the engine
   *   state; without it a further choice is filed as `<request id>~<choice>`.
   */
  storedCalls(
    parseErrors: ReadonlyMap<string, string>,
    choiceIds: ReadonlyMap<string, readonly string[]> = new Map(),
  ): StoredCall[] {
    const out: StoredCall[] = [];
    const rows: Iterable<KnownResult> =
      this.knownResults?.filter((r) => r.ok === 1) ??
      this.sql.exec<ResultRow>('SELECT * FROM results WHERE ok = 1 ORDER BY seq');
    for (const r of rows) {
      const res = JSON.parse(r.result) as LlmCallResult;
      if (!res.ok) continue;
      out.push({
        callId: res.id,
        agent: r.agent,
        label: r.label,
        stage: r.stage,
        model: res.model,
        content: res.content,
        usage: res.usage,
        parseError: parseErrors.get(res.id) ?? null,
        attempts: r.attempts,
        ...(res.failedAttempts ? { failedAttempts: res.failedAttempts } : {}),
        latencyMs: r.latency_ms,
        at: r.finished_at,
        ...(res.choices && res.choices.length > 1
          ? {
              choices: res.choices.slice(1).map((content, i) => {
                const callId = choiceIds.get(res.id)?.[i] ?? `${res.id}~${i + 1}`;
                return { callId, content, parseError: parseErrors.get(callId) ?? null };
              }),
            }
          : {}),
      });
    }
    return out;
  }
}
