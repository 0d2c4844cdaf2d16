/**
 * @module
 * The archive sweep (the cron, beside retention): ended evaluations older than `ARCHIVE_AFTER_DAYS` move out of
 * D1 into the archive (src/archive/store.ts, R2), so D1 holds only the recent days whatever the tenants'
 * retention (docs/scale.md). A move, per evaluation, each step idempotent so a crash between two repeats
 * nothing and loses nothing:
 * 1. what the API answers for it (the evaluation, its task, its transcript) is put into the archive, with the
 *    day its retention ends (the tenant's `retentionDays` at the move, else `RETENTION_DAYS`);
 * 2. its row is read again: a `DELETE` that came meanwhile wins (the archived copy is erased, nothing moves);
 * 3. it is erased as `DELETE /v1/evaluations/{id}` erases it (its object's storage, its D1 content);
 * 4. its row goes from D1 (the tombstone DELETE leaves), so a later GET finds it in the archive (and one
 *    between 3 and 4 finds the tombstone, then the archive). A `DELETE` after 2 erases the archived copy itself.
 * Moved are evaluations outside a batch, not deleted, whose id no other record names (a meta-evaluation's
 * item, an annotation item, a rubric version's steps, a verdict cache hit reading its verdict) and without per-call `usage` rows (written before the
 * roll-up; billing reads them): those stay in D1. Archived evaluations whose retention ended are erased from
 * the archive by the same run. Pages are one budget for the run, shared by the shards, visited from a
 * different one each run ({@link ARCHIVE_PAGE}).
 */
import type { Bindings } from '../config/bindings.js';
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import { cronTurn, everyTenantDbInTurn } from '../config/d1-shards.js';
import { getEvaluation } from '../evaluations/rows.js';
import { viewEvaluation, viewTask, viewTranscript } from '../evaluations/service.js';
import { deleteEvaluation } from '../evaluations/list.js';
import { eraseArchived, eraseAtOf, eraseDueArchived, putArchived } from '../archive/store.js';

/** Evaluations one run moves, over all the shards together; and archived ones it erases: 50. */
export const ARCHIVE_PAGE = 50;

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

/**
 * Moves evaluation `due` from `db` into the archive (see the module note).
 * @returns whether it moved (false: it changed meanwhile, deleted or gone).
 */
async function move(env: Bindings, db: D1Database, due: Due, now: number): Promise<boolean> {
  const row = await getEvaluation(db, due.tenant, due.id);
  if (!row || row.deletedAt !== null || row.finishedAt === null) return false;
  const [evaluation, task, transcript] = await Promise.all([
    viewEvaluation(env, row),
    viewTask(env, row),
    viewTranscript(env, row),
  ]);
  await putArchived(env, {
    v: 1,
    id: row.id,
    tenant: row.tenant,
    finishedAt: row.finishedAt,
    archivedAt: now,
    eraseAt: eraseAtOf(row.finishedAt, due.days),
    evaluation,
    task,
    transcript,
  });
  // A DELETE that erased it meanwhile wins: its own archive erasure may have run before the put.
  if ((await getEvaluation(db, due.tenant, due.id))?.deletedAt !== null) {
    await eraseArchived(env, due.tenant, due.id);
    return false;
  }
  await deleteEvaluation(env, due.tenant, due.id, { keepArchive: true });
  await db.prepare('DELETE FROM evaluations WHERE id = ? AND deleted_at IS NOT NULL').bind(due.id).run();
  return true;
}

/** One archive run at `now` (epoch ms; see the module note). Never throws for one evaluation's error. */
export async function sweepArchive(env: Bindings, now: number): Promise<ArchiveReport> {
  const report: ArchiveReport = { moved: 0, errors: 0, erased: 0 };
  const config = configOf(env);
  if (config.ARCHIVE_AFTER_DAYS > 0) {
    let left = ARCHIVE_PAGE;
    for (const db of everyTenantDbInTurn(env, cronTurn(now))) {
      if (left <= 0) break;
      const due = await dueToMove(db, now - config.ARCHIVE_AFTER_DAYS * DAY_MS, config.RETENTION_DAYS, left);
      left -= due.length;
      for (const d of due) {
        try {
          if (await move(env, db, d, now)) report.moved++;
        } catch (e) {
          report.errors++;
          log('error', 'archive.move_failed', { evaluationId: d.id, tenant: d.tenant, error: messageOf(e) });
        }
      }
    }
  }
  report.erased = await eraseDueArchived(env, now, ARCHIVE_PAGE);
  if (report.moved + report.errors + report.erased > 0) log('info', 'archive.run', { ...report });
  return report;
}
