/**
 * @module
 * The archive sweep (the cron's maintenance messages, beside retention): ended evaluations older than `ARCHIVE_AFTER_DAYS` move out of
 * D1 into the archive (src/archive/store.ts, R2), so D1 holds only the recent days whatever the tenants'
 * retention (docs/scale.md). A move, per evaluation, each step idempotent so a crash between two repeats
 * nothing and loses nothing:
 * 1. what the API answers for it (the evaluation, its task, its transcript) is put into the archive, with the
 *    day its retention ends (the tenant's `retentionDays` at the move, else `RETENTION_DAYS`);
 * 2. its row is read again: a `DELETE` that came meanwhile wins (the archived copy is erased, nothing moves);
 * 3. it is erased as `DELETE /v1/evaluations/{id}` erases it (its object's storage, then its D1 content) and its
 *    row goes from D1 in the same transaction, so a later GET finds it in the archive. A `DELETE` after 2
 *    erases the archived copy itself.
 * Moved are evaluations outside a batch, not deleted, whose id no other record names (a meta-evaluation's
 * item, an annotation item, a rubric version's steps, a verdict cache hit reading its verdict) and without per-call `usage` rows (written before the
 * roll-up; billing reads them): those stay in D1.
 *
 * A run is one shard's ({@link moveToArchive}: the maintenance queue's message for that shard, each its own
 * invocation), up to {@link ARCHIVE_PAGE} moves in bulk: {@link MOVE_CHUNK} evaluations' reads in one D1 batch,
 * their re-check in one query, their erasure in one batch (src/evaluations/list.ts `eraseEvaluations`), so a
 * page of 500 costs about 150 of the invocation's 1,000 D1 queries ({@link moveQueries}). Archived evaluations
 * whose retention ended are erased from the archive by a message of their own ({@link eraseArchiveDue}), in
 * R2 pages of {@link ARCHIVE_ERASE_PAGE}.
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { objectReadPaceOf } from '../evaluations/read-pace.js';
import type { ReadPace } from '../evaluations/read-pace.js';
import { log, messageOf } from '../log/log.js';
import { everyTenantDb } from '../config/d1-shards.js';
import { readWithResultsStatements, taskJsonOf, withResultsOf } from '../evaluations/rows.js';
import { taskJsonStatement } from '../evaluations/task-rows.js';
import { listTranscriptStatement, transcriptOf } from '../evaluations/transcript-rows.js';
import { viewEvaluation, viewTask, viewTranscript } from '../evaluations/views.js';
import { objectTaskJson } from '../evaluations/content.js';
import { ERASE_CHUNK, eraseEvaluations } from '../evaluations/list.js';
import type { ArchivedEvaluation } from '../archive/store.js';
import { eraseArchived, eraseAtOf, eraseDueArchived, putArchived } from '../archive/store.js';

/** Evaluations one run moves from one shard: 500. */
export const ARCHIVE_PAGE = 500;

/** Evaluations whose reads go in one D1 batch, then their re-check and their erasure: one erasure batch (10). */
export const MOVE_CHUNK = ERASE_CHUNK;

/**
 * D1 queries a run of {@link moveToArchive} makes at most: the page's read, then per chunk its reads (one batch),
 * its re-check and its erasure (one batch): 151 at the defaults.
 */
export function moveQueries(page = ARCHIVE_PAGE): number {
  return 1 + 3 * Math.ceil(page / MOVE_CHUNK);
}

/** Archived evaluations one R2 page erases (a listing, then one delete of their 2 keys each, R2's 1,000 at most): 500. */
export const ARCHIVE_ERASE_PAGE = 500;

/** R2 pages one run of {@link eraseArchiveDue} erases at most: 40 (20,000 evaluations, 80 subrequests). */
export const ARCHIVE_ERASE_PAGES = 40;
const DAY_MS = 86_400_000;

/** What one archive run did. */
export interface ArchiveReport {
  /** Evaluations moved from D1 into the archive. */
  moved: number;
  /** Moves that failed (tried again next run). */
  errors: number;
  /** Archived evaluations erased, their retention ended. */
  erased: number;
}

/** An evaluation due to move, with its tenant's retention. */
interface Due {
  id: string;
  tenant: string;
  days: number;
}

/** The evaluations of `db` due to move at `before` (epoch ms), oldest first, at most `limit`. */
async function dueToMove(db: D1Database, before: number, retentionDays: number, limit: number): Promise<Due[]> {
  const { results } = await db
    .prepare(
      `SELECT e.id AS id, e.tenant AS tenant, COALESCE(t.retention_days, ?1) AS days
       FROM evaluations e LEFT JOIN tenants t ON t.id = e.tenant
       WHERE e.deleted_at IS NULL AND e.finished_at IS NOT NULL AND e.finished_at < ?2 AND e.batch_id IS NULL
         AND e.meta_id IS NULL
         AND NOT EXISTS (SELECT 1 FROM usage u WHERE u.evaluation_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM meta_evaluation_items i WHERE i.evaluation_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM annotation_items a WHERE a.evaluation_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM rubric_versions v WHERE v.steps_evaluation_id = e.id)
         AND NOT EXISTS (SELECT 1 FROM evaluations h WHERE h.cache_from = e.id)
       ORDER BY e.finished_at LIMIT ?3`,
    )
    .bind(retentionDays, before, limit)
    .all<Due>();
  return results;
}

/** One evaluation's part of a chunk's batched reads: its row with its results, its D1 task, its transcript. */
interface DueReads {
  row: readonly (D1Result | undefined)[];
  task: D1Result | undefined;
  transcript: D1Result | undefined;
}

/** What one chunk's batched reads give for one evaluation: its archived form, or null when it is no longer due. */
async function archivedOf(env: Bindings, due: Due, results: DueReads, now: number): Promise<ArchivedEvaluation | null> {
  const read = withResultsOf(results.row);
  const row = read?.row;
  if (!read || !row || row.deletedAt !== null || row.finishedAt === null) return null;
  // D1 keeps no task once the evaluation's object holds it: read there, as GET …/task does.
  const d1Task = taskJsonOf(results.task);
  const [evaluation, task, transcript] = await Promise.all([
    viewEvaluation(env, row, read),
    viewTask(env, row, d1Task === undefined ? await objectTaskJson(env, row.id) : d1Task),
    viewTranscript(env, row, transcriptOf(results.transcript)),
  ]);
  return {
    v: 1,
    id: row.id,
    tenant: row.tenant,
    finishedAt: row.finishedAt,
    archivedAt: now,
    eraseAt: eraseAtOf(row.finishedAt, due.days),
    evaluation,
    task,
    transcript,
  };
}

/**
 * Moves `chunk` (due evaluations of `db`) into the archive (see the module note): their reads in one batch, their
 * copies put, one re-check (a DELETE that came meanwhile wins: its copy is erased, it does not move), then the
 * rest erased and their rows dropped in one batch. @returns the chunk's moves and failed moves; when it throws,
 * none of its failures was counted yet.
 * @param pace the pace of the evaluations' objects opened (src/evaluations/read-pace.ts); null: unpaced
 */
async function moveChunk(
  env: Bindings,
  db: D1Database,
  chunk: readonly Due[],
  now: number,
  pace: ReadPace | null,
): Promise<Pick<ArchiveReport, 'moved' | 'errors'>> {
  // Each evaluation's statements in order, its row's as many as readWithResultsStatements makes: the results are
  // cut back by those counts, so a change in how the row is read cannot shift the task's or the transcript's.
  const asked = chunk.map((d) => ({
    row: readWithResultsStatements(db, d.tenant, d.id),
    rest: [taskJsonStatement(db, d.id), listTranscriptStatement(db, d.id)],
  }));
  const answers = await db.batch(asked.flatMap((a) => [...a.row, ...a.rest]));
  let at = 0;
  const reads = asked.map((a): DueReads => {
    const row = answers.slice(at, at + a.row.length);
    const [task, transcript] = answers.slice(at + a.row.length, at + a.row.length + a.rest.length);
    at += a.row.length + a.rest.length;
    return { row, task, transcript };
  });
  const put: Due[] = [];
  let errors = 0;
  await Promise.all(
    chunk.map(async (d, i) => {
      try {
        await pace?.take();
        const record = await archivedOf(env, d, reads[i] ?? { row: [], task: undefined, transcript: undefined }, now);
        if (!record) return;
        await putArchived(env, record);
        put.push(d);
      } catch (e) {
        errors++;
        log('error', 'archive.move_failed', { evaluationId: d.id, tenant: d.tenant, error: messageOf(e) });
      }
    }),
  );
  if (put.length === 0) return { moved: 0, errors };
  const { results } = await db
    .prepare(`SELECT id FROM evaluations WHERE deleted_at IS NULL AND id IN (${put.map(() => '?').join(', ')})`)
    .bind(...put.map((d) => d.id))
    .all<{ id: string }>();
  const live = new Set(results.map((r) => r.id));
  // Deleted meanwhile: its own archive erasure may have run before the put.
  await Promise.all(put.filter((d) => !live.has(d.id)).map((d) => eraseArchived(env, d.tenant, d.id)));
  const erasure = await eraseEvaluations(
    env,
    db,
    put.filter((d) => live.has(d.id)),
    'move',
  );
  for (const { ref, error } of erasure.failed)
    log('error', 'archive.move_failed', { evaluationId: ref.id, tenant: ref.tenant, error });
  return { moved: erasure.erased.length, errors: errors + erasure.failed.length };
}

/**
 * One run of the archive's moves in shard `db` at `now` (epoch ms; see the module note). Never throws for one
 * evaluation's error. With `ARCHIVE_AFTER_DAYS` 0 it moves nothing.
 */
export async function moveToArchive(env: Bindings, db: D1Database, now: number): Promise<ArchiveReport> {
  const report: ArchiveReport = { moved: 0, errors: 0, erased: 0 };
  const config = configOf(env);
  if (config.ARCHIVE_AFTER_DAYS <= 0) return report;
  const due = await dueToMove(db, now - config.ARCHIVE_AFTER_DAYS * DAY_MS, config.RETENTION_DAYS, ARCHIVE_PAGE);
  // A run opens up to a page of evaluations' objects (their verdict, task, transcript, then their erasure): paced
  // where the runtime keeps every object in one process, as the other readers of many objects are
  // (OBJECT_READ_PACE).
  const pace = objectReadPaceOf(config.OBJECT_READ_PACE);
  for (let i = 0; i < due.length; i += MOVE_CHUNK) {
    const chunk = due.slice(i, i + MOVE_CHUNK);
    try {
      const r = await moveChunk(env, db, chunk, now, pace);
      report.moved += r.moved;
      report.errors += r.errors;
    } catch (e) {
      // Nothing of the chunk was counted: each of its evaluations counts once, its failed puts included.
      report.errors += chunk.length;
      log('error', 'archive.chunk_failed', { evaluations: chunk.length, error: messageOf(e) });
    }
  }
  if (report.moved + report.errors > 0) log('info', 'archive.run', { ...report });
  return report;
}

/**
 * Erases from the archive the evaluations whose retention ended by `now` (epoch ms), {@link ARCHIVE_ERASE_PAGE}
 * a page, at most {@link ARCHIVE_ERASE_PAGES} pages a run. @returns how many it erased.
 */
export async function eraseArchiveDue(env: Bindings, now: number): Promise<number> {
  let erased = 0;
  for (let page = 0; page < ARCHIVE_ERASE_PAGES; page++) {
    const n = await eraseDueArchived(env, now, ARCHIVE_ERASE_PAGE);
    erased += n;
    if (n < ARCHIVE_ERASE_PAGE) break;
  }
  if (erased > 0) log('info', 'archive.erased', { erased });
  return erased;
}

/**
 * Every shard's moves, then the archive's erasures, in one call (tests and one-off runs; the cron sends a
 * message per shard instead, queues/maintenance.ts).
 */
export async function sweepArchive(env: Bindings, now: number): Promise<ArchiveReport> {
  const report: ArchiveReport = { moved: 0, errors: 0, erased: 0 };
  for (const db of everyTenantDb(env)) {
    const r = await moveToArchive(env, db, now);
    report.moved += r.moved;
    report.errors += r.errors;
  }
  report.erased = await eraseArchiveDue(env, now);
  return report;
}
