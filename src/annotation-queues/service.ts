/**
 * @module
 * Annotation queues: create one over a rubric version (items sent, or taken from the tenant's evaluations),
 * read and list them, hand an annotator the next item, and take labels (each checked against the rubric's kind
 * and scales). Every statement goes to the tenant's database (`tenantDb`).
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { EngineInputError } from '../engine/errors.js';
import type { JudgedTask } from '../engine/judged.js';
import { judgedView } from '../engine/judged.js';
import type { RubricContent } from '../engine/rubric.js';
import type { Task } from '../engine/task.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { requestHash } from '../http/request-hash.js';
import { resolveRubricRef } from '../rubrics/resolve.js';
import { getVersion } from '../rubrics/rows.js';
import { z } from 'zod';
import type { JudgedBy } from './aspect-match.js';
import { judgesRubricQuestion } from './aspect-match.js';
import { foldedItems, progressOf, storedLabelView } from './labelled.js';
import type { LabelShape } from './label-check.js';
import { labelIssues, labelShape } from './label-check.js';
import type { NewItem, QueueRecord } from './rows.js';
import { findQueueByKey, getQueue, insertQueue, listQueues, nextItemFor, SOURCE_JUDGE, upsertLabels } from './rows.js';
import type { CreateQueueRequest, Label, NextItem, PostLabelRequest, Provenance, Queue, QueueItem } from './schemas.js';

/** A new queue id: `aq_` and 32 hex characters. */
export function newQueueId(): string {
  return `aq_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Relative links of a queue. */
export function queueLinks(id: string): Queue['links'] {
  const self = `/v1/annotation-queues/${id}`;
  return { self, next: `${self}/next`, export: `${self}/export`, import: `${self}/import` };
}

/** The queue as shown, with its progress. */
export async function queueView(env: Bindings, q: QueueRecord): Promise<Queue> {
  const items = await foldedItems(tenantDb(env, q.tenant), q);
  return {
    id: q.id,
    name: q.name,
    rubric: { id: q.rubricId, version: q.rubricVersion },
    kind: q.kind,
    labelsPerItem: q.labelsPerItem,
    blind: q.blind,
    progress: progressOf(items),
    createdAt: new Date(q.createdAt).toISOString(),
    links: queueLinks(q.id),
  };
}

/** The judged view of each task under the rubric; a task the rubric cannot judge is a 400 naming `items.N.task`. */
function viewsOf(tasks: readonly Task[], content: RubricContent, field: (i: number) => string): JudgedTask[] {
  const issues: { path: string; message: string }[] = [];
  const views = tasks.flatMap((task, i) => {
    try {
      return [judgedView(task, content)];
    } catch (e) {
      if (!(e instanceof EngineInputError)) throw e;
      issues.push({ path: field(i), message: e.message });
      return [];
    }
  });
  if (issues.length > 0) throw invalidRequest(issues, 'request body');
  return views;
}

/**
 * An evaluation's task as the queue's rubric judges it: without what the rubric replaces (a pointwise task's `aspect`
 * and `aspects`, e.g. a span monitor's aspect, which a rubric refuses beside its own criteria). The caller cannot
 * change an evaluation's task, so it is taken this way rather than refused.
 */
function underRubric(task: Task): Task {
  if (task.kind !== 'pointwise') return task;
  const { aspect: _aspect, aspects: _aspects, ...rest } = task;
  return rest;
}

/**
 * Creates a queue over the rubric version `request.rubric` names now, with the items sent or taken from the
 * tenant's evaluations (`items`, see `takeEvaluations`). With an `Idempotency-Key`, the same key and body
 * answer the first queue again.
 * @throws ApiError 400 naming the field (`rubric`, `items.N.task`, `fromEvaluations.filter` when it finds
 *   nothing), 404 for an unknown rubric, version or tag, 409 `idempotency_conflict` / `rubric_archived`.
 */
export async function createQueue(
  env: Bindings,
  tenant: string,
  request: CreateQueueRequest,
  idempotencyKey: string | null,
  fromEvaluations: (kind: 'pairwise' | 'pointwise') => Promise<(NewItem & JudgedBy)[]> = () => Promise.resolve([]),
): Promise<{ queue: Queue; replayed: boolean }> {
  const db = tenantDb(env, tenant);
  const reqHash = idempotencyKey === null ? null : await requestHash(request);
  const earlier = idempotencyKey === null ? null : await findQueueByKey(db, tenant, idempotencyKey);
  if (earlier) return { queue: await replayOf(env, earlier, reqHash, idempotencyKey ?? ''), replayed: true };
  const resolved = await resolveRubricRef(env, tenant, request.rubric);
  const stored = resolved.stored;
  if (!stored) throw new Error('a rubric reference resolved without its stored version');
  const kind = stored.version.content.kind;
  let items: NewItem[];
  if (request.items) {
    const offKind = request.items.findIndex((it) => it.task.kind !== kind);
    if (offKind >= 0)
      throw invalidRequest(
        [{ path: `items.${offKind}.task.kind`, message: `a ${kind} rubric's items are ${kind} tasks` }],
        'request body',
      );
    viewsOf(
      request.items.map((it) => it.task),
      stored.version.content,
      (i) => `items.${i}.task`,
    );
    items = request.items.map((it) => ({ itemId: it.id, task: it.task, evaluationId: null, judge: null }));
  } else {
    const { version } = stored;
    const own = { id: stored.rubric.id, version: version.version, hash: version.hash, stepsHash: version.stepsHash };
    // Whose question the evaluation answered is decided on what it judged, before its aspect is left out.
    const taken = (await fromEvaluations(kind)).map(({ rubric, ...it }) => ({
      ...it,
      judge: judgesRubricQuestion({ task: it.task, rubric }, { ...own, content: version.content }) ? it.judge : null,
      task: underRubric(it.task),
    }));
    if (taken.length === 0)
      throw invalidRequest(
        [{ path: 'fromEvaluations.filter', message: `no succeeded ${kind} evaluation matches the filter` }],
        'request body',
      );
    const views = viewsOf(
      taken.map((it) => it.task),
      stored.version.content,
      () => 'fromEvaluations.filter',
    );
    // A verdict on another aspect or scale than the rubric's is not a judge's label of this queue.
    items = taken.map((it, i) => {
      const view = views[i];
      const fits = it.judge !== null && view !== undefined && labelIssues(labelShape(view), it.judge).length === 0;
      return { ...it, judge: fits ? it.judge : null };
    });
  }
  const id = newQueueId();
  const inserted = await insertQueue(db, {
    id,
    tenant,
    name: request.name,
    rubricId: stored.rubric.id,
    rubricVersion: stored.version.version,
    kind,
    labelsPerItem: request.labelsPerItem,
    blind: request.blind,
    idempotencyKey,
    requestHash: reqHash,
    items,
    now: Date.now(),
  });
  if (inserted) return { queue: await queueView(env, await requireQueue(env, tenant, id)), replayed: false };
  // A concurrent request with the same key won the insert.
  const winner = idempotencyKey === null ? null : await findQueueByKey(db, tenant, idempotencyKey);
  if (!winner)
    throw new Error(`annotation queue insert changed no row and no queue holds key "${idempotencyKey ?? ''}"`);
  return { queue: await replayOf(env, winner, reqHash, idempotencyKey ?? ''), replayed: true };
}

async function replayOf(env: Bindings, q: QueueRecord, reqHash: string | null, key: string): Promise<Queue> {
  if (q.requestHash !== reqHash)
    throw new ApiError(
      409,
      'idempotency_conflict',
      `Idempotency-Key "${key}" was already used with a different request body (queue ${q.id})`,
    );
  return queueView(env, q);
}

/**
 * The tenant's queue `id`.
 * @throws ApiError 404 `not_found`.
 */
export async function requireQueue(env: Bindings, tenant: string, id: string): Promise<QueueRecord> {
  const q = await getQueue(tenantDb(env, tenant), tenant, id);
  if (!q) throw new ApiError(404, 'not_found', `no annotation queue "${id}"`);
  return q;
}

const CursorSchema = z.object({ t: z.number().int(), i: z.string().min(1) }).strict();

/**
 * One page of the tenant's queues, newest first.
 * @throws ApiError 400 naming `cursor` for a cursor this API did not make.
 */
export async function listQueuesView(
  env: Bindings,
  tenant: string,
  q: { cursor?: string | undefined; limit: number },
): Promise<{ data: Queue[]; nextCursor: string | null }> {
  const after = q.cursor === undefined ? null : decodeCursor(q.cursor, CursorSchema);
  const rows = await listQueues(
    tenantDb(env, tenant),
    tenant,
    after ? { createdAt: after.t, id: after.i } : null,
    q.limit,
  );
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    data: await Promise.all(page.map((r) => queueView(env, r))),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ t: last.createdAt, i: last.id }) : null,
  };
}

/** The rubric content of the queue's version (it never changes). */
async function contentOf(env: Bindings, q: QueueRecord): Promise<RubricContent> {
  const v = await getVersion(tenantDb(env, q.tenant), q.tenant, q.rubricId, q.rubricVersion);
  if (!v) throw new Error(`annotation queue ${q.id} lost its rubric ${q.rubricId}@${q.rubricVersion}`);
  return v.content;
}

/** What a label must look like for `task` under the queue's rubric. */
function shapeOf(content: RubricContent, task: Task): LabelShape {
  return labelShape(judgedView(task, content));
}

/**
 * The next item `annotator` has not labelled that still waits for labels, or null when none is left. A blind
 * queue never shows the judge's verdict.
 * @throws ApiError 404 `not_found`.
 */
export async function nextItem(env: Bindings, tenant: string, id: string, annotator: string): Promise<NextItem | null> {
  const q = await requireQueue(env, tenant, id);
  const db = tenantDb(env, tenant);
  const { item, remaining } = await nextItemFor(db, q.id, annotator, q.labelsPerItem);
  if (!item) return null;
  const content = await contentOf(env, q);
  const shape = shapeOf(content, item.task);
  let judge: Label | null = null;
  if (!q.blind) {
    const row = await db
      .prepare(
        `SELECT label FROM annotation_labels WHERE queue_id = ? AND item_id = ? AND provenance = 'judge'
         ORDER BY updated_at DESC LIMIT 1`,
      )
      .bind(q.id, item.itemId)
      .first<{ label: string }>();
    judge = row ? (JSON.parse(row.label) as Label) : null;
  }
  return {
    queueId: q.id,
    itemId: item.itemId,
    annotator,
    task: item.task,
    rubric: {
      id: q.rubricId,
      version: q.rubricVersion,
      kind: shape.kind,
      criteria: content.criteria,
      scale: shape.scale,
      aspects: shape.aspects,
    },
    judge,
    remaining,
    links: { labels: `/v1/annotation-queues/${q.id}/items/${encodeURIComponent(item.itemId)}/labels` },
  };
}

/** The item `itemId` of the queue with its labels and where it stands. */
export async function itemView(env: Bindings, q: QueueRecord, itemId: string): Promise<QueueItem> {
  const [f] = await foldedItems(tenantDb(env, q.tenant), q, itemId);
  if (!f) throw new ApiError(404, 'not_found', `annotation queue "${q.id}" has no item "${itemId}"`);
  return {
    queueId: q.id,
    itemId,
    status: f.consensus.status,
    resolution: f.consensus.resolution,
    label: f.consensus.label,
    labels: f.labels.map(storedLabelView),
  };
}

/**
 * Writes `annotator`'s label of item `itemId` (replacing their earlier one; the same label again changes
 * nothing), or with `adjudicate` the adjudicator's, which settles the item.
 * @param provenance `human` through the API; `judge` when a judge's verdict is recorded.
 * @throws ApiError 404 for an unknown queue or item, 400 naming `label.…` for a label that does not fit the rubric.
 */
export async function postLabel(
  env: Bindings,
  tenant: string,
  id: string,
  itemId: string,
  body: PostLabelRequest,
  annotator: string,
  provenance: Provenance = 'human',
): Promise<QueueItem> {
  const q = await requireQueue(env, tenant, id);
  const db = tenantDb(env, tenant);
  const [f] = await foldedItems(db, q, itemId);
  if (!f) throw new ApiError(404, 'not_found', `annotation queue "${id}" has no item "${itemId}"`);
  const issues = labelIssues(shapeOf(await contentOf(env, q), f.item.task), body.label);
  if (issues.length > 0) throw invalidRequest(issues, 'request body');
  if (provenance !== 'judge' && annotator === SOURCE_JUDGE)
    throw invalidRequest(
      [{ path: 'annotator', message: `"${SOURCE_JUDGE}" names the source evaluation's judge; pick another name` }],
      'request body',
    );
  await upsertLabels(
    db,
    q.id,
    [
      {
        itemId,
        annotator,
        role: body.adjudicate ? 'adjudicator' : 'annotator',
        provenance,
        label: body.label,
        comment: body.comment ?? null,
      },
    ],
    Date.now(),
  );
  return itemView(env, q, itemId);
}
