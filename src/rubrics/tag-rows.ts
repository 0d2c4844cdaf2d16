/**
 * @module
 * D1 access for rubric tags (migrations/0006_rubrics.sql `rubric_tags`): the version each tag points at, with
 * its policy. A tag belongs to its rubric, which every caller has read scoped to the tenant first. Times are
 * epoch milliseconds.
 */
import type { MinAgreement } from './schemas.js';

/** A tag row. */
export interface TagRecord {
  tag: string;
  version: number;
  minAgreement: MinAgreement | null;
  updatedAt: number;
}

/** A `rubric_tags` row as D1 returns it. */
interface TagRow {
  rubric_id: string;
  tag: string;
  version: number;
  min_agreement: string | null;
  updated_at: number;
}

/** A tag row as the API's records hold it. */
function toTag(r: TagRow): TagRecord {
  return {
    tag: r.tag,
    version: r.version,
    minAgreement: r.min_agreement === null ? null : (JSON.parse(r.min_agreement) as MinAgreement),
    updatedAt: r.updated_at,
  };
}

/** Every tag of the rubrics `ids`, by rubric id, in tag order. */
export async function tagsOf(db: D1Database, ids: readonly string[]): Promise<Map<string, TagRecord[]>> {
  const out = new Map<string, TagRecord[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const { results } = await db
    .prepare(
      `SELECT rubric_id, tag, version, min_agreement, updated_at FROM rubric_tags
       WHERE rubric_id IN (SELECT value FROM json_each(?)) ORDER BY rubric_id, tag`,
    )
    .bind(JSON.stringify(ids))
    .all<TagRow>();
  for (const r of results) out.get(r.rubric_id)?.push(toTag(r));
  return out;
}

/** The version a tag points at, or null when the rubric has no such tag. */
export async function taggedVersion(db: D1Database, rubricId: string, tag: string): Promise<TagRecord | null> {
  const row = await db
    .prepare(
      'SELECT rubric_id, tag, version, min_agreement, updated_at FROM rubric_tags WHERE rubric_id = ? AND tag = ?',
    )
    .bind(rubricId, tag)
    .first<TagRow>();
  return row ? toTag(row) : null;
}

/**
 * Points `tag` at `version` (creating the tag), with its policy, unless the rubric was archived meanwhile.
 * @returns false when nothing was written (archived).
 */
export async function putTag(
  db: D1Database,
  t: { rubricId: string; tag: string; version: number; minAgreement: MinAgreement | null; now: number },
): Promise<boolean> {
  const [r] = await db.batch([
    db
      .prepare(
        `INSERT INTO rubric_tags (rubric_id, tag, version, min_agreement, updated_at)
         SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM rubrics WHERE id = ? AND archived_at IS NULL)
         ON CONFLICT (rubric_id, tag) DO UPDATE SET version = excluded.version, min_agreement = excluded.min_agreement,
           updated_at = excluded.updated_at`,
      )
      .bind(t.rubricId, t.tag, t.version, t.minAgreement ? JSON.stringify(t.minAgreement) : null, t.now, t.rubricId),
    db.prepare('UPDATE rubrics SET updated_at = ? WHERE id = ? AND archived_at IS NULL').bind(t.now, t.rubricId),
  ]);
  return (r?.meta.changes ?? 0) > 0;
}

/** Removes a tag (nothing when there is none). */
export async function deleteTag(db: D1Database, rubricId: string, tag: string): Promise<void> {
  await db.prepare('DELETE FROM rubric_tags WHERE rubric_id = ? AND tag = ?').bind(rubricId, tag).run();
}
