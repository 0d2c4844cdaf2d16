/**
 * @module
 * D1 access for rubrics' versions (migrations/0006_rubrics.sql): the immutable versions, contents by hash,
 * and a version's auto-CoT steps, written once. Every read is scoped to the tenant. Times are epoch
 * milliseconds. The `rubrics` rows themselves are in ./rubric-rows.ts, tags in ./tag-rows.ts, a version's
 * golden check in ./check-rows.ts.
 */
import type { RubricContent } from '../engine/rubric.js';
import type { RubricExample } from './golden.js';

/** A version row with its content. */
export interface VersionRecord {
  rubricId: string;
  version: number;
  hash: string;
  content: RubricContent;
  examples: RubricExample[];
  requestHash: string | null;
  stepsEvaluationId: string | null;
  /** The status of {@link stepsEvaluationId} (null when none, or when its row is gone). */
  stepsStatus: string | null;
  /** When {@link stepsEvaluationId} was claimed, epoch ms (null before migration 0011 or when never claimed). */
  stepsClaimedAt: number | null;
  stepsHash: string | null;
  /** The content with its generated steps, once written. */
  stepsContent: RubricContent | null;
  checkId: string | null;
  checkJudge: { preset: string | null; config: Record<string, unknown> | null } | null;
  /** The stored AgreementReport JSON text, once the check completed. */
  checkReport: string | null;
  checkedAt: number | null;
  createdAt: number;
}

interface VersionRow {
  rubric_id: string;
  version: number;
  hash: string;
  content: string;
  examples: string | null;
  request_hash: string | null;
  steps_evaluation_id: string | null;
  steps_status: string | null;
  steps_claimed_at: number | null;
  steps_hash: string | null;
  steps_content: string | null;
  check_id: string | null;
  check_judge: string | null;
  check_report: string | null;
  checked_at: number | null;
  created_at: number;
}

/** The version's columns, its content and its steps' content (joined by hash, within the tenant). */
const VERSION_SELECT = `SELECT v.rubric_id, v.version, v.hash, c.content, v.examples, v.request_hash, v.steps_evaluation_id,
    (SELECT e.status FROM evaluations e WHERE e.id = v.steps_evaluation_id) AS steps_status, v.steps_claimed_at, v.steps_hash, s.content AS steps_content, v.check_id, v.check_judge, v.check_report, v.checked_at, v.created_at
  FROM rubric_versions v
  JOIN rubrics r ON r.id = v.rubric_id
  JOIN rubric_contents c ON c.tenant = r.tenant AND c.hash = v.hash
  LEFT JOIN rubric_contents s ON s.tenant = r.tenant AND s.hash = v.steps_hash`;

function toVersion(r: VersionRow): VersionRecord {
  return {
    rubricId: r.rubric_id,
    version: r.version,
    hash: r.hash,
    content: JSON.parse(r.content) as RubricContent,
    examples: r.examples === null ? [] : (JSON.parse(r.examples) as RubricExample[]),
    requestHash: r.request_hash,
    stepsEvaluationId: r.steps_evaluation_id,
    stepsStatus: r.steps_status,
    stepsClaimedAt: r.steps_claimed_at,
    stepsHash: r.steps_hash,
    stepsContent: r.steps_content === null ? null : (JSON.parse(r.steps_content) as RubricContent),
    checkId: r.check_id,
    checkJudge: r.check_judge === null ? null : (JSON.parse(r.check_judge) as VersionRecord['checkJudge']),
    checkReport: r.check_report,
    checkedAt: r.checked_at,
    createdAt: r.created_at,
  };
}

/** Stores a content under its hash for the tenant (`INSERT OR IGNORE`: the same content is stored once). */
export function contentStatement(
  db: D1Database,
  tenant: string,
  hash: string,
  content: RubricContent,
  now: number,
): D1PreparedStatement {
  return db
    .prepare('INSERT OR IGNORE INTO rubric_contents (tenant, hash, content, created_at) VALUES (?, ?, ?, ?)')
    .bind(tenant, hash, JSON.stringify(content), now);
}

/** A version's `examples` column: the examples' JSON, or null for none. */
export function examplesText(examples: RubricExample[] | undefined): string | null {
  return examples && examples.length > 0 ? JSON.stringify(examples) : null;
}

/** A new version of an existing rubric. */
export interface NewVersion {
  rubricId: string;
  tenant: string;
  /** A new name for the rubric, or null to keep it. */
  name: string | null;
  hash: string;
  content: RubricContent;
  examples: RubricExample[] | undefined;
  idempotencyKey: string | null;
  requestHash: string | null;
  now: number;
}

/**
 * Adds the next version (latest + 1, decided inside the transaction, so concurrent adds get distinct
 * numbers) unless the rubric is archived; with an `Idempotency-Key` used before for this rubric nothing is
 * written.
 * @returns the new version's number, or null when none was written (archived, or the key was used).
 */
export async function insertVersion(db: D1Database, v: NewVersion): Promise<number | null> {
  const results = await db.batch([
    contentStatement(db, v.tenant, v.hash, v.content, v.now),
    db
      .prepare(
        `INSERT INTO rubric_versions (rubric_id, version, hash, examples, idempotency_key, request_hash, created_at)
         SELECT id, latest_version + 1, ?, ?, ?, ?, ? FROM rubrics WHERE id = ? AND tenant = ? AND archived_at IS NULL
         ON CONFLICT DO NOTHING RETURNING version`,
      )
      .bind(v.hash, examplesText(v.examples), v.idempotencyKey, v.requestHash, v.now, v.rubricId, v.tenant),
    db
      .prepare(
        `UPDATE rubrics SET latest_version = (SELECT max(version) FROM rubric_versions WHERE rubric_id = rubrics.id),
           name = COALESCE(?, name), updated_at = ?
         WHERE id = ? AND latest_version < (SELECT max(version) FROM rubric_versions WHERE rubric_id = rubrics.id)`,
      )
      .bind(v.name, v.now, v.rubricId),
  ]);
  const row = results[1]?.results[0] as { version: number } | undefined;
  return row?.version ?? null;
}

/** The version of `rubricId` holding an `Idempotency-Key`, or null. */
export async function findVersionByKey(
  db: D1Database,
  tenant: string,
  rubricId: string,
  key: string,
): Promise<VersionRecord | null> {
  return versionWhere(db, 'v.idempotency_key', [rubricId, tenant, key]);
}

/** Version `version` of the tenant's rubric, or null. */
export async function getVersion(
  db: D1Database,
  tenant: string,
  rubricId: string,
  version: number,
): Promise<VersionRecord | null> {
  return versionWhere(db, 'v.version', [rubricId, tenant, version]);
}

/** The version of a tenant's rubric whose `column` holds a value (binds: rubric id, tenant, value), or null. */
async function versionWhere(
  db: D1Database,
  column: 'v.idempotency_key' | 'v.version',
  binds: readonly [string, string, string | number],
): Promise<VersionRecord | null> {
  const row = await db
    .prepare(`${VERSION_SELECT} WHERE v.rubric_id = ? AND r.tenant = ? AND ${column} = ?`)
    .bind(...binds)
    .first<VersionRow>();
  return row ? toVersion(row) : null;
}

/** One page (plus one) of a rubric's versions, newest first, after version `before` (exclusive) when given. */
export async function listVersions(
  db: D1Database,
  tenant: string,
  rubricId: string,
  q: { before: number | null; limit: number },
): Promise<VersionRecord[]> {
  const { results } = await db
    .prepare(
      `${VERSION_SELECT} WHERE v.rubric_id = ? AND r.tenant = ? AND v.version < ? ORDER BY v.version DESC LIMIT ?`,
    )
    .bind(rubricId, tenant, q.before ?? Number.MAX_SAFE_INTEGER, q.limit + 1)
    .all<VersionRow>();
  return results.map(toVersion);
}

/**
 * Claims the writing of a version's auto-CoT steps for `evaluationId` at `now` (epoch ms): only while none is
 * claimed, or while the claim is `previous` (whose evaluation failed or vanished), and no steps are stored.
 * @returns true when this call holds the claim.
 */
export async function claimSteps(
  db: D1Database,
  rubricId: string,
  version: number,
  evaluationId: string,
  previous: string | null,
  now: number,
): Promise<boolean> {
  const r = await db
    .prepare(
      `UPDATE rubric_versions SET steps_evaluation_id = ?, steps_claimed_at = ?
       WHERE rubric_id = ? AND version = ? AND steps_hash IS NULL AND steps_evaluation_id IS ?`,
    )
    .bind(evaluationId, now, rubricId, version, previous)
    .run();
  return r.meta.changes > 0;
}

/** Stores a version's content with its generated steps, once (the first writer wins, a repeat changes nothing). */
export async function storeSteps(
  db: D1Database,
  s: { tenant: string; rubricId: string; version: number; hash: string; content: RubricContent; now: number },
): Promise<void> {
  await db.batch([
    contentStatement(db, s.tenant, s.hash, s.content, s.now),
    db
      .prepare('UPDATE rubric_versions SET steps_hash = ? WHERE rubric_id = ? AND version = ? AND steps_hash IS NULL')
      .bind(s.hash, s.rubricId, s.version),
  ]);
}

/** A version's steps evaluation as the steps need it: its status, error and verdict JSON. */
export interface StepsEvaluation {
  status: string;
  errorCode: string | null;
  errorMessage: string | null;
  /** The stored verdict JSON (without its transcript), or null. */
  verdict: unknown;
}

/** The tenant's evaluation `id` (a `rubric-steps` run) with its verdict, or null when there is no such row. */
export async function stepsEvaluationOf(db: D1Database, tenant: string, id: string): Promise<StepsEvaluation | null> {
  const row = await db
    .prepare(
      `SELECT e.status, e.error_code, e.error_message, vt.verdict FROM evaluations e
       LEFT JOIN verdict_texts vt ON vt.evaluation_id = e.id WHERE e.id = ? AND e.tenant = ?`,
    )
    .bind(id, tenant)
    .first<{ status: string; error_code: string | null; error_message: string | null; verdict: string | null }>();
  if (!row) return null;
  return {
    status: row.status,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    verdict: row.verdict === null ? null : (JSON.parse(row.verdict) as unknown),
  };
}

/**
 * Gives up a claim whose evaluation was never created (its create failed, e.g. the tenant's quota): the next
 * use claims at once instead of waiting for the claim to age. Nothing changes once the row exists.
 */
export async function releaseSteps(
  db: D1Database,
  rubricId: string,
  version: number,
  evaluationId: string,
): Promise<void> {
  await db
    .prepare(
      `UPDATE rubric_versions SET steps_evaluation_id = NULL, steps_claimed_at = NULL
       WHERE rubric_id = ? AND version = ? AND steps_evaluation_id = ? AND steps_hash IS NULL
         AND NOT EXISTS (SELECT 1 FROM evaluations WHERE id = ?)`,
    )
    .bind(rubricId, version, evaluationId, evaluationId)
    .run();
}
