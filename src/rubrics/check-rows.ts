/**
 * @module
 * D1 access for a rubric version's golden check (its meta-evaluation, judge and report on `rubric_versions`):
 * written once a check starts, its report stored once, and the checks still waiting for one. Times are epoch
 * milliseconds.
 */
import type { VersionRecord } from './rows.js';

/** Records a version's golden check (its meta-evaluation and judge), replacing an earlier one and its report. */
export async function setCheck(
  db: D1Database,
  c: { rubricId: string; version: number; checkId: string; judge: VersionRecord['checkJudge'] },
): Promise<void> {
  await db
    .prepare(
      `UPDATE rubric_versions SET check_id = ?, check_judge = ?, check_report = NULL, checked_at = NULL
       WHERE rubric_id = ? AND version = ?`,
    )
    .bind(c.checkId, JSON.stringify(c.judge), c.rubricId, c.version)
    .run();
}

/** Stores the report of check `checkId` on its version, once; a repeat or a replaced check changes nothing. */
export async function storeCheckReport(
  db: D1Database,
  checkId: string,
  report: unknown,
  now: number,
): Promise<boolean> {
  const r = await db
    .prepare('UPDATE rubric_versions SET check_report = ?, checked_at = ? WHERE check_id = ? AND check_report IS NULL')
    .bind(JSON.stringify(report), now, checkId)
    .run();
  return r.meta.changes > 0;
}

/** Checks whose report is not stored yet (the sweeper's input), oldest first, at most `limit`. */
export async function openChecks(db: D1Database, limit: number): Promise<{ tenant: string; checkId: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT r.tenant, v.check_id FROM rubric_versions v JOIN rubrics r ON r.id = v.rubric_id
       JOIN batches b ON b.id = v.check_id
       WHERE v.check_id IS NOT NULL AND v.check_report IS NULL AND b.completed_at IS NOT NULL
       ORDER BY b.completed_at LIMIT ?`,
    )
    .bind(limit)
    .all<{ tenant: string; check_id: string }>();
  return results.map((r) => ({ tenant: r.tenant, checkId: r.check_id }));
}

/** The tenant's versions of rubric `id` whose golden check has no stored report yet. */
export async function versionsWithOpenCheck(db: D1Database, tenant: string, id: string): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT v.version FROM rubric_versions v JOIN rubrics r ON r.id = v.rubric_id
       WHERE v.rubric_id = ? AND r.tenant = ? AND v.check_id IS NOT NULL AND v.check_report IS NULL`,
    )
    .bind(id, tenant)
    .all<{ version: number }>();
  return results.map((r) => r.version);
}
