/**
 * @module
 * A wave coordinator's own SQLite (docs/architecture.md, "Provider batches in waves"):
 *
 * - `calls`: one row per registered call, keyed by its `custom_id` (`customIdFor(evaluation, call)`), written
 *   with the registration and so before any upload: a restart loses no mapping. `state`: `open` (waiting for
 *   the next wave), `sent` (in wave `wave`, file `part`), `delivered` (its outcome handed to its item),
 *   `withdrawn` (its item ended; its outcome is still delivered should its line run). A retry registers the
 *   same call again with the next `attempt`.
 * - `lines`: each call's JSONL line (the prompt: the task's texts, the replies so far), kept only while it may
 *   still be uploaded: dropped once the call's outcome is delivered or its item withdraws it (an ended,
 *   cancelled or erased evaluation). A row of its own, only ever inserted and deleted (overwritten in place
 *   first, src/config/sqlite-scrub.ts): a `calls` row changes size as its state moves, and each such update
 *   would leave a copy of a line in the file's free space. (`calls.line` held it before; it is `''` now.)
 * - `parts`: one provider batch each (a wave is split into files by `planBatchFiles`): `planned` →
 *   `uploaded` (`file_id`) → `submitted` (`batch_id`) → `delivered`, each step written before the next begins.
 * - `part_tries`: a part's step (`upload`, `create`) that was tried, written BEFORE the request: an upload whose
 *   answer was lost (a reset, a 5xx after the file was stored, an eviction before `file_id` was stored) may
 *   have left a file at the provider, so the next try looks it up by its name and size before uploading again;
 *   a creation whose answer was lost may have left a batch, so only then does the next try look it up by the
 *   part's metadata (a listing of the account's batches) before creating: a normal creation lists nothing.
 * - `meta`: the open wave's first and last registration, the waves so far, and `close_now`.
 */

import { scrubSql } from '../config/sqlite-scrub.js';

/** A part's provider request whose try is noted before it goes out (`part_tries`). */
export type PartStep = 'upload' | 'create';

/** A call's line: in `lines`, or in `calls.line` for a row stored before `lines` existed. */
const LINE = 'COALESCE(l.line, c.line)';
const WITH_LINE = 'LEFT JOIN lines l ON l.custom_id = c.custom_id';
/** A {@link CallRow}'s columns: never `line` (kilobytes of prompt in a row from before `lines`). */
const CALL_COLUMNS = 'custom_id, evaluation_id, call_id, attempt, wave, part, state';

/** The coordinator's schema; idempotent. */
export const WAVE_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS meta (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), waves INTEGER NOT NULL,
     first_open_at INTEGER, last_open_at INTEGER, close_now INTEGER NOT NULL DEFAULT 0)`,
  `CREATE TABLE IF NOT EXISTS calls (custom_id TEXT PRIMARY KEY, evaluation_id TEXT NOT NULL, call_id TEXT NOT NULL,
     attempt INTEGER NOT NULL, line TEXT NOT NULL, wave INTEGER, part INTEGER, state TEXT NOT NULL)`,
  'CREATE INDEX IF NOT EXISTS calls_by_part ON calls (wave, part)',
  'CREATE INDEX IF NOT EXISTS calls_by_evaluation ON calls (evaluation_id, state)',
  'CREATE TABLE IF NOT EXISTS lines (custom_id TEXT PRIMARY KEY, line TEXT NOT NULL)',
  `CREATE TABLE IF NOT EXISTS parts (wave INTEGER NOT NULL, part INTEGER NOT NULL, state TEXT NOT NULL, file_id TEXT,
     batch_id TEXT, submitted_at INTEGER, polls INTEGER NOT NULL DEFAULT 0, next_at INTEGER NOT NULL,
     cancel_sent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (wave, part))`,
  `CREATE TABLE IF NOT EXISTS part_tries (wave INTEGER NOT NULL, part INTEGER NOT NULL, step TEXT NOT NULL,
     at INTEGER NOT NULL, PRIMARY KEY (wave, part, step))`,
  'INSERT OR IGNORE INTO meta (singleton, waves) VALUES (1, 0)',
] as const;

/**
 * A `calls` row, without its `line` column: `''` since lines are kept in `lines` (a row from before that
 * table may still hold its line there, read only through {@link LINE}).
 */
export type CallRow = {
  custom_id: string;
  evaluation_id: string;
  call_id: string;
  attempt: number;
  wave: number | null;
  part: number | null;
  state: 'open' | 'sent' | 'delivered' | 'withdrawn';
};

/** A `parts` row. */
export type PartRow = {
  wave: number;
  part: number;
  state: 'planned' | 'uploaded' | 'submitted' | 'delivered';
  file_id: string | null;
  batch_id: string | null;
  /** Epoch ms of the submission. */
  submitted_at: number | null;
  polls: number;
  /** Epoch ms of the part's next step (an upload retry, a poll). */
  next_at: number;
  cancel_sent: number;
};

/** The `meta` row. */
export type MetaRow = {
  waves: number;
  first_open_at: number | null;
  last_open_at: number | null;
  close_now: number;
};

/** The coordinator's statements. */
export class WaveStore {
  constructor(private readonly sql: SqlStorage) {
    for (const s of WAVE_SCHEMA) sql.exec(s);
  }

  /** The meta row. */
  meta(): MetaRow {
    const row = this.sql.exec<MetaRow>('SELECT waves, first_open_at, last_open_at, close_now FROM meta').one();
    return row;
  }

  /** The row of a `custom_id`, or null. */
  call(customId: string): CallRow | null {
    return (
      this.sql.exec<CallRow>(`SELECT ${CALL_COLUMNS} FROM calls WHERE custom_id = ?`, customId).toArray()[0] ?? null
    );
  }

  /**
   * Registers a call (open for the next wave) unless it is registered at this try or a later one, or still
   * waiting on an earlier try. True when it was added; the caller notes the time ({@link opened}).
   * @param line the JSONL line, made only when the call is added
   */
  open(customId: string, evaluationId: string, callId: string, attempt: number, line: () => string): boolean {
    const had = this.call(customId);
    if (had && (had.attempt >= attempt || had.state === 'open' || had.state === 'sent')) return false;
    // A retry's new line replaces the earlier try's (dropped when that try was delivered, unless withdrawn since).
    this.dropLines('custom_id = ?', customId);
    this.sql.exec(
      `INSERT INTO calls (custom_id, evaluation_id, call_id, attempt, line, wave, part, state)
       VALUES (?, ?, ?, ?, '', NULL, NULL, 'open')
       ON CONFLICT (custom_id) DO UPDATE SET attempt = excluded.attempt, line = '', wave = NULL,
         part = NULL, state = 'open'`,
      customId,
      evaluationId,
      callId,
      attempt,
    );
    this.sql.exec('INSERT INTO lines (custom_id, line) VALUES (?, ?)', customId, line());
    return true;
  }

  /** Notes calls opened at `at` (epoch ms): the open wave's first and last registration. */
  opened(at: number): void {
    this.sql.exec('UPDATE meta SET first_open_at = COALESCE(first_open_at, ?), last_open_at = ?', at, at);
  }

  /** Asks for the open calls to go in a wave at the next step, without waiting for quiet. */
  closeSoon(): void {
    this.sql.exec('UPDATE meta SET close_now = 1');
  }

  /** The open calls' `custom_id` and line, in registration order. */
  openLines(): { custom_id: string; line: string }[] {
    return this.sql
      .exec<{ custom_id: string; line: string }>(
        `SELECT c.custom_id, ${LINE} AS line FROM calls c ${WITH_LINE} WHERE c.state = 'open' ORDER BY c.rowid`,
      )
      .toArray();
  }

  /** Opens wave `wave` with its files (each a list of `custom_id`s), in one transaction. */
  startWave(wave: number, files: readonly string[][], at: number, storage: DurableObjectStorage): void {
    storage.transactionSync(() => {
      files.forEach((ids, part) => {
        this.sql.exec(
          `UPDATE calls SET wave = ?, part = ?, state = 'sent'
           WHERE state = 'open' AND custom_id IN (SELECT value FROM json_each(?))`,
          wave,
          part,
          JSON.stringify(ids),
        );
        this.sql.exec("INSERT INTO parts (wave, part, state, next_at) VALUES (?, ?, 'planned', ?)", wave, part, at);
      });
      this.sql.exec('UPDATE meta SET waves = ?, first_open_at = NULL, last_open_at = NULL, close_now = 0', wave);
    });
  }

  /** Parts not yet delivered, oldest first. */
  activeParts(): PartRow[] {
    return this.sql.exec<PartRow>("SELECT * FROM parts WHERE state != 'delivered' ORDER BY wave, part").toArray();
  }

  /** Updates a part's columns. */
  setPart(wave: number, part: number, set: Partial<Omit<PartRow, 'wave' | 'part'>>): void {
    const keys = Object.keys(set) as (keyof typeof set)[];
    if (keys.length === 0) return;
    this.sql.exec(
      `UPDATE parts SET ${keys.map((k) => `${k} = ?`).join(', ')} WHERE wave = ? AND part = ?`,
      ...keys.map((k) => set[k] ?? null),
      wave,
      part,
    );
  }

  /** Notes that a part's `step` is about to be tried (before its request goes out). */
  tried(wave: number, part: number, step: PartStep, at: number): void {
    this.sql.exec('INSERT OR IGNORE INTO part_tries (wave, part, step, at) VALUES (?, ?, ?, ?)', wave, part, step, at);
  }

  /** Whether the part's `step` was tried before (its answer may have been lost). */
  wasTried(wave: number, part: number, step: PartStep): boolean {
    return (
      this.sql.exec('SELECT 1 FROM part_tries WHERE wave = ? AND part = ? AND step = ?', wave, part, step).toArray()
        .length > 0
    );
  }

  /** The lines of a part still awaited, in file order: a withdrawn call's line is not sent. */
  partLines(wave: number, part: number): string[] {
    return this.sql
      .exec<{ line: string }>(
        `SELECT ${LINE} AS line FROM calls c ${WITH_LINE} WHERE c.wave = ? AND c.part = ? AND c.state = 'sent' ORDER BY c.rowid`,
        wave,
        part,
      )
      .toArray()
      .map((r) => r.line);
  }

  /** How many of a part's calls are still awaited (`sent`). */
  sentCount(wave: number, part: number): number {
    return this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM calls WHERE wave = ? AND part = ? AND state = 'sent'", wave, part)
      .one().n;
  }

  /** A part's calls with no outcome yet (`sent` or `withdrawn`): the lines its batch never answered. */
  unanswered(wave: number, part: number): CallRow[] {
    return this.sql
      .exec<CallRow>(
        `SELECT ${CALL_COLUMNS} FROM calls WHERE wave = ? AND part = ? AND state IN ('sent', 'withdrawn') ORDER BY rowid`,
        wave,
        part,
      )
      .toArray();
  }

  /** Marks calls delivered, their lines dropped: the item holds the outcome (see {@link dropLines}). */
  delivered(customIds: readonly string[]): void {
    const where = 'custom_id IN (SELECT value FROM json_each(?))';
    const ids = JSON.stringify(customIds);
    this.dropLines(where, ids);
    this.sql.exec(`UPDATE calls SET state = 'delivered' WHERE ${where}`, ids);
  }

  /**
   * Drops the lines (the prompt: the task's texts, the replies so far) of the calls matching `where`: a line
   * is needed only until its part is uploaded, and kept at most until its outcome is delivered or its item
   * withdraws it (an ended, cancelled or erased evaluation). Overwritten in place first, so the file's free
   * space keeps no copy (src/config/sqlite-scrub.ts).
   */
  private dropLines(where: string, ...params: SqlStorageValue[]): void {
    const of = `custom_id IN (SELECT custom_id FROM calls WHERE ${where})`;
    this.sql.exec(scrubSql('lines', ['line'], of), ...params);
    this.sql.exec(`DELETE FROM lines WHERE ${of}`, ...params);
    // A line stored in `calls` by an earlier version of this code.
    this.sql.exec(scrubSql('calls', ['line'], `line != '' AND (${where})`), ...params);
    this.sql.exec(`UPDATE calls SET line = '' WHERE line != '' AND (${where})`, ...params);
  }

  /**
   * Withdraws an evaluation's calls: open ones are forgotten, sent ones are no longer awaited (nor uploaded).
   * @returns the call ids of its lines that may run at the provider all the same, whose outcomes are still
   *   delivered: in a part submitted or uploaded, or whose upload was tried (its file may be stored)
   */
  withdraw(evaluationId: string): string[] {
    this.dropLines('evaluation_id = ?', evaluationId);
    this.sql.exec("DELETE FROM calls WHERE evaluation_id = ? AND state = 'open'", evaluationId);
    this.sql.exec("UPDATE calls SET state = 'withdrawn' WHERE evaluation_id = ? AND state = 'sent'", evaluationId);
    return this.sql
      .exec<{ call_id: string }>(
        `SELECT c.call_id FROM calls c JOIN parts p ON p.wave = c.wave AND p.part = c.part
         WHERE c.evaluation_id = ? AND c.state = 'withdrawn'
           AND (p.state IN ('uploaded', 'submitted')
             OR (p.state = 'planned' AND EXISTS (SELECT 1 FROM part_tries u WHERE u.wave = p.wave AND u.part = p.part AND u.step = 'upload')))
         ORDER BY c.rowid`,
        evaluationId,
      )
      .toArray()
      .map((r) => r.call_id);
  }

  /** How many evaluations have calls open. */
  openEvaluations(): number {
    return this.sql
      .exec<{ n: number }>("SELECT COUNT(DISTINCT evaluation_id) AS n FROM calls WHERE state = 'open'")
      .one().n;
  }

  /** How many calls are open. */
  openCount(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM calls WHERE state = 'open'").one().n;
  }
}
