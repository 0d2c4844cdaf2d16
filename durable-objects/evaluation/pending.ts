/**
 * @module
 * Calls begun and not stored yet (the object's `pending` table): the bookkeeping that lets a call outlive
 * the invocation it began in without a second request going out unnoticed.
 *
 * - Before an attempt goes out its row says so (`launched_at`). The row is deleted in the same synchronous
 *   block that stores the call's result, so a row still `launched` when a fresh instance finds it means the
 *   instance died (eviction, deploy, crash) with that attempt out: the next invocation counts it as a failed
 *   attempt (`evicted`, at the tier it went at) before it sends the call again, so the transcript and usage
 *   show every request the provider may have seen.
 * - A call the invocation's deadline cut short (a flex attempt may take 15 minutes, as long as the alarm's
 *   wall clock) keeps its failed attempts here and goes again in the next invocation, counted against the
 *   retry policy.
 * - A flex call refused for capacity under `flexFallback: "wait"` waits here until `not_before`, for up to
 *   `FLEX_WAIT_MAX_SECONDS` after `first_at`.
 * - A call of an ended evaluation (cancelled, failed) is never parked: cut short or refused, it is stored with its
 *   attempts and its row goes, since no later invocation would continue it; one parked before the end is stored
 *   when the end is written (`Caller.settleParked`): `deadline` if the deadline cut it short, else not sent.
 */
import type { LlmAttempt } from '../../src/engine/call.js';
import type { Tier } from '../../src/llm/tiers.js';

/** One `pending` row. */
export type PendingRow = {
  call_id: string;
  /** The tier of its last attempt. */
  tier: Tier;
  /** Epoch ms an attempt went out in a live invocation, null between invocations. */
  launched_at: number | null;
  /** JSON array of the failed attempts so far ({@link LlmAttempt}). */
  attempts: string;
  /** When the call first went out, epoch ms. */
  first_at: number;
  /** Not sent again before this, epoch ms (a flex wait); null: whenever ready. */
  not_before: number | null;
  /** The wave it is registered with (batch tier), else null. */
  wave: string | null;
  /** 1 when it is to go as a synchronous call whatever the tier. */
  sync: number;
};

/**
 * The `pending` table's statements. Two facts are kept in memory, so most calls need no read: which call ids
 * have a row (a call never launched has none: its launch asks nothing), and whether any row may wait for a
 * later time (only a flex wait sets `not_before`: other tiers never ask). Each is read once per instance when
 * first needed, and known at once for a new object (its table is empty); only this class writes the table
 * (the erase empties it, then {@link reset}).
 */
export class PendingCalls {
  /** Call ids with a row; null until first needed. */
  private ids: Set<string> | null = null;
  /** Whether some row may have `not_before` set; null until first needed. */
  private mayWait: boolean | null = null;

  /**
   * @param sql the object's SQLite
   * @param empty true when the table is known to hold no row (the object's schema was made just now)
   */
  constructor(
    private readonly sql: SqlStorage,
    empty = false,
  ) {
    this.reset(empty);
  }

  /** The table was made anew or emptied (`deleteAll`, an erase): `empty` as for the constructor. */
  reset(empty: boolean): void {
    this.ids = empty ? new Set() : null;
    this.mayWait = empty ? false : null;
  }

  /** The call ids with a row (read once). */
  private known(): Set<string> {
    this.ids ??= new Set(
      this.sql
        .exec<{ call_id: string }>('SELECT call_id FROM pending')
        .toArray()
        .map((r) => r.call_id),
    );
    return this.ids;
  }

  /** Whether some row may wait for a later time (read once; set again by a flex wait). */
  private anyWaits(): boolean {
    this.mayWait ??= this.sql.exec('SELECT 1 FROM pending WHERE not_before IS NOT NULL LIMIT 1').toArray().length > 0;
    return this.mayWait;
  }

  /** Whether any call has a row (read once per instance). */
  hasRows(): boolean {
    return this.known().size > 0;
  }

  /** The row of `callId`, or null. */
  get(callId: string): PendingRow | null {
    if (!this.known().has(callId)) return null;
    return this.sql.exec<PendingRow>('SELECT * FROM pending WHERE call_id = ?', callId).toArray()[0] ?? null;
  }

  /**
   * The calls parked between invocations (no attempt out, in no wave): a flex wait, a call the deadline cut
   * short, a batch-tier call waiting for its next wave or to go synchronously.
   */
  parked(): PendingRow[] {
    if (this.known().size === 0) return [];
    return this.sql.exec<PendingRow>('SELECT * FROM pending WHERE launched_at IS NULL AND wave IS NULL').toArray();
  }

  /** The failed attempts a row holds. */
  static attemptsOf(row: PendingRow | null): LlmAttempt[] {
    return row ? (JSON.parse(row.attempts) as LlmAttempt[]) : [];
  }

  /** Marks an attempt of `callId` as out (inserting the row on its first attempt). */
  launch(callId: string, tier: Tier, attempts: readonly LlmAttempt[], at: number): void {
    this.ids?.add(callId);
    this.sql.exec(
      `INSERT INTO pending (call_id, tier, launched_at, attempts, first_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (call_id) DO UPDATE SET tier = excluded.tier, launched_at = excluded.launched_at,
         attempts = excluded.attempts, not_before = NULL`,
      callId,
      tier,
      at,
      JSON.stringify(attempts),
      at,
    );
  }

  /** The call has no attempt out: it goes again in a later invocation (not before `notBefore` when given). */
  park(callId: string, tier: Tier, attempts: readonly LlmAttempt[], notBefore: number | null): void {
    if (notBefore !== null) this.mayWait = true;
    this.sql.exec(
      'UPDATE pending SET tier = ?, launched_at = NULL, attempts = ?, not_before = ? WHERE call_id = ?',
      tier,
      JSON.stringify(attempts),
      notBefore,
      callId,
    );
  }

  /**
   * Marks a batch-tier call as registered with the coordinator `wave` (its try `attempts.length + 1`). Not an
   * attempt out in this instance: `launched_at` stays null, so a fresh instance counts no eviction.
   */
  enlist(callId: string, attempts: readonly LlmAttempt[], wave: string, at: number): void {
    this.ids?.add(callId);
    this.sql.exec(
      `INSERT INTO pending (call_id, tier, launched_at, attempts, first_at, wave) VALUES (?, 'batch', NULL, ?, ?, ?)
       ON CONFLICT (call_id) DO UPDATE SET tier = 'batch', attempts = excluded.attempts, wave = excluded.wave`,
      callId,
      JSON.stringify(attempts),
      at,
      wave,
    );
  }

  /** A batch-tier call's try failed: it waits for the next wave with `attempts` (no coordinator holds it). */
  unlist(callId: string, attempts: readonly LlmAttempt[]): void {
    this.sql.exec('UPDATE pending SET wave = NULL, attempts = ? WHERE call_id = ?', JSON.stringify(attempts), callId);
  }

  /** A batch-tier call whose tries in waves are spent: it goes as a synchronous call, with `attempts` so far. */
  toSync(callId: string, attempts: readonly LlmAttempt[]): void {
    this.sql.exec(
      'UPDATE pending SET wave = NULL, sync = 1, attempts = ? WHERE call_id = ?',
      JSON.stringify(attempts),
      callId,
    );
  }

  /** The coordinators holding some of this evaluation's calls. */
  waves(): string[] {
    if (this.known().size === 0) return [];
    return this.sql
      .exec<{ wave: string }>('SELECT DISTINCT wave FROM pending WHERE wave IS NOT NULL')
      .toArray()
      .map((r) => r.wave);
  }

  /** Forgets every batch-tier registration (the evaluation ended and withdrew them). */
  forgetWaves(): void {
    if (this.known().size === 0) return;
    this.sql.exec('DELETE FROM pending WHERE wave IS NOT NULL');
    // Which rows went is read again when next needed.
    this.ids = null;
  }

  /** Forgets a call whose result is stored. */
  settle(callId: string): void {
    if (!this.known().has(callId)) return;
    this.sql.exec('DELETE FROM pending WHERE call_id = ?', callId);
    this.ids?.delete(callId);
  }

  /** True when `callId` waits for a later time than `now` (a flex wait). */
  waits(callId: string, now: number): boolean {
    if (!this.anyWaits() || !this.known().has(callId)) return false;
    const r = this.sql
      .exec<Pick<PendingRow, 'not_before'>>('SELECT not_before FROM pending WHERE call_id = ?', callId)
      .toArray()[0];
    return r?.not_before != null && r.not_before > now;
  }

  /** Calls waiting for a later time (a flex wait): by id, the epoch ms each may go again. */
  waiting(now: number): Map<string, number> {
    const out = new Map<string, number>();
    if (!this.anyWaits()) return out;
    for (const r of this.sql.exec<Pick<PendingRow, 'call_id' | 'not_before'>>(
      'SELECT call_id, not_before FROM pending WHERE not_before > ?',
      now,
    ))
      if (r.not_before !== null) out.set(r.call_id, r.not_before);
    return out;
  }
}
