/**
 * @module
 * What moves in and out of a queue in bulk: the items taken from the tenant's evaluations (each with its
 * judge's verdict as a `judge` label), the export, and the import of labels from a file (provenance `imported`).
 */
import type { Bindings } from '../config/bindings.js';
import { recordDbOf, tenantDb } from '../config/d1-shards.js';
import type { Task } from '../engine/task.js';
import { withObjectTasks } from '../evaluations/content.js';
import { objectReadPaceOf } from '../evaluations/read-pace.js';
import { rubricStampOf } from '../evaluations/rows.js';
import { configOf } from '../config/vars.js';
import { mergeNewestFirst } from '../http/cursor.js';
import { spreadDbs } from '../tenants/rows.js';
import { judgedView } from '../engine/judged.js';
import { invalidRequest } from '../http/errors.js';
import { getVersion } from '../rubrics/rows.js';
import { exportCsv, exportLine } from './files.js';
import { labelIssues, labelShape } from './label-check.js';
import { foldedItems } from './labelled.js';
import type { JudgedBy } from './aspect-match.js';
import type { NewItem, NewLabel } from './rows.js';
import { SOURCE_JUDGE, sourceEvaluations, upsertLabels } from './rows.js';
import type { CreateQueueRequest, ImportRequest, ImportResult, Label } from './schemas.js';
import { queueView, requireQueue } from './service.js';

/** The verdict of a source evaluation as a label: the winner, or the score and the scores per aspect. */
function verdictLabel(r: {
  winner: Label['winner'] | null;
  score: number | null;
  aspects: string | null;
}): Label | null {
  if (r.winner !== null) return { winner: r.winner };
  const aspects: Record<string, number> = {};
  const parsed: unknown = r.aspects === null ? null : JSON.parse(r.aspects);
  if (Array.isArray(parsed))
    for (const a of parsed as { name?: unknown; score?: unknown }[])
      if (typeof a.name === 'string' && typeof a.score === 'number') aspects[a.name] = a.score;
  const label: Label = {
    ...(r.score !== null ? { score: r.score } : {}),
    ...(Object.keys(aspects).length > 0 ? { aspects } : {}),
  };
  return Object.keys(label).length > 0 ? label : null;
}

/**
 * The items a `fromEvaluations` filter takes, for a queue of `kind`: each evaluation's id, task, verdict and the
 * rubric it judged by (whether the verdict may stand as the judge's label: ./aspect-match.ts), the newest `limit` of the tenant's: `limit` read from each D1 shard its evaluations may be in (its spread; the
 * batch's shard alone with `batch`), merged by (created at, id) as the listings do.
 */
export function itemsFromEvaluations(
  env: Bindings,
  tenant: string,
  from: NonNullable<CreateQueueRequest['fromEvaluations']>,
): (kind: 'pairwise' | 'pointwise') => Promise<(NewItem & JudgedBy)[]> {
  return async (kind) => {
    const [rubricId, version] = from.filter.rubric?.split('@') ?? [];
    const { batch, limit } = from.filter;
    const dbs = batch !== undefined ? [recordDbOf(env, tenant, batch)] : await spreadDbs(env, tenant);
    const pages = await Promise.all(
      dbs.map((db) =>
        sourceEvaluations(db, tenant, {
          kind,
          batch,
          rubricId,
          rubricVersion: version === undefined ? undefined : Number(version),
          metadata: from.filter.metadata,
          limit,
        }),
      ),
    );
    const rows = mergeNewestFirst(pages, (r) => ({ createdAt: r.created_at, id: r.id }), limit);
    // Tasks D1 no longer keeps are read from the evaluations' objects, a page at a time (paced where the runtime
    // keeps every object in one process: OBJECT_READ_PACE).
    const withTasks = await withObjectTasks(env, rows, objectReadPaceOf(configOf(env).OBJECT_READ_PACE));
    return withTasks.flatMap((r) =>
      r.task === null
        ? []
        : [
            {
              itemId: r.id,
              task: JSON.parse(r.task) as Task,
              evaluationId: r.id,
              judge: verdictLabel(r),
              rubric: rubricStampOf(r.rubric_hash, r.rubric_id, r.rubric_version),
            },
          ],
    );
  };
}

/** The queue's export: JSONL (one item per line) or CSV (one label per row). */
export async function exportQueue(env: Bindings, tenant: string, id: string, format: 'jsonl' | 'csv'): Promise<string> {
  const q = await requireQueue(env, tenant, id);
  const items = await foldedItems(tenantDb(env, tenant), q);
  if (format === 'csv') return exportCsv(q, items);
  return items.map((f) => `${JSON.stringify(exportLine(q, f))}\n`).join('');
}

/**
 * Writes a file's labels into the queue, all or none, each with provenance `imported` (an annotator's earlier
 * label of the item is replaced).
 * @param annotator who a line without `annotator` is from.
 * @throws ApiError 404 for an unknown queue; 400 naming `labels.N.itemId` (no such item) or `labels.N.label.…`.
 */
export async function importLabels(
  env: Bindings,
  tenant: string,
  id: string,
  body: ImportRequest,
  annotator: string,
): Promise<ImportResult> {
  const q = await requireQueue(env, tenant, id);
  const db = tenantDb(env, tenant);
  const version = await getVersion(db, tenant, q.rubricId, q.rubricVersion);
  if (!version) throw new Error(`annotation queue ${q.id} lost its rubric ${q.rubricId}@${q.rubricVersion}`);
  const items = new Map((await foldedItems(db, q)).map((f) => [f.item.itemId, f.item]));
  const issues: { path: string; message: string }[] = [];
  const labels: NewLabel[] = [];
  body.labels.forEach((l, i) => {
    const item = items.get(l.itemId);
    if (!item) {
      issues.push({ path: `labels.${i}.itemId`, message: `the queue has no item "${l.itemId}"` });
      return;
    }
    const who = l.annotator ?? annotator;
    if (who === SOURCE_JUDGE)
      issues.push({ path: `labels.${i}.annotator`, message: `"${SOURCE_JUDGE}" names the source evaluation's judge` });
    issues.push(...labelIssues(labelShape(judgedView(item.task, version.content)), l.label, `labels.${i}.label`));
    labels.push({
      itemId: l.itemId,
      annotator: who,
      role: l.role,
      provenance: 'imported',
      label: l.label,
      comment: l.comment ?? null,
    });
  });
  if (issues.length > 0) throw invalidRequest(issues, 'import');
  await upsertLabels(db, q.id, labels, Date.now());
  return { imported: labels.length, queue: await queueView(env, q) };
}
