/**
 * @module
 * The labels of a queue folded per item (./consensus.ts), and {@link labelledItems}: the labelled items of a
 * queue or of every queue of a rubric (version), the human side of every agreement figure (a rubric version's
 * agreement, alignment, certified mode). Reads only; nothing here writes.
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import { ApiError } from '../http/errors.js';
import type { Consensus } from './consensus.js';
import { consensusOf, humanValue } from './consensus.js';
import type { ItemRecord, LabelRecord, QueueRecord } from './rows.js';
import { getQueue, listItems, listLabels, queuesOfRubric } from './rows.js';
import type { LabelledQueueItem, QueueProgress, StoredLabel } from './schemas.js';

const iso = (ms: number): string => new Date(ms).toISOString();

/** One item of a queue with its labels and where it stands. */
export interface FoldedItem {
  item: ItemRecord;
  labels: LabelRecord[];
  consensus: Consensus;
}

/** Each item of `queue` (or the one item `itemId`) with its labels and consensus, in queue order. */
export async function foldedItems(db: D1Database, queue: QueueRecord, itemId?: string): Promise<FoldedItem[]> {
  const [items, labels] = await Promise.all([listItems(db, queue.id, itemId), listLabels(db, queue.id, itemId)]);
  const byItem = new Map<string, LabelRecord[]>();
  for (const l of labels) byItem.set(l.itemId, [...(byItem.get(l.itemId) ?? []), l]);
  return items.map((item) => {
    const own = byItem.get(item.itemId) ?? [];
    return { item, labels: own, consensus: consensusOf(own, queue.labelsPerItem) };
  });
}

/** Items per status. */
export function progressOf(items: readonly FoldedItem[]): QueueProgress {
  const p: QueueProgress = { total: items.length, pending: 0, labelled: 0, needsAdjudication: 0, adjudicated: 0 };
  for (const { consensus } of items) {
    if (consensus.status === 'needs_adjudication') p.needsAdjudication += 1;
    else p[consensus.status] += 1;
  }
  return p;
}

/** A stored label as shown. */
export function storedLabelView(l: LabelRecord): StoredLabel {
  return {
    annotator: l.annotator,
    role: l.role,
    provenance: l.provenance,
    label: l.label,
    comment: l.comment,
    createdAt: iso(l.createdAt),
    updatedAt: iso(l.updatedAt),
  };
}

/** A folded item as a labelled item, or null while it has no label (pending, or disagreed on). */
export function labelledView(queue: QueueRecord, f: FoldedItem): LabelledQueueItem | null {
  const { consensus } = f;
  if (consensus.label === null || consensus.resolution === null) return null;
  if (consensus.status !== 'labelled' && consensus.status !== 'adjudicated') return null;
  const adjudicator = f.labels.find((l) => l.role === 'adjudicator');
  const counted = adjudicator ? [adjudicator] : f.labels.filter((l) => l.provenance !== 'judge');
  const provenances = new Set(counted.map((l) => l.provenance));
  const annotators = f.labels.filter((l) => l.role === 'annotator' && l.provenance !== 'judge').map((l) => l.annotator);
  return {
    queueId: queue.id,
    itemId: f.item.itemId,
    task: f.item.task,
    rubric: { id: queue.rubricId, version: queue.rubricVersion },
    status: consensus.status,
    resolution: consensus.resolution,
    label: consensus.label,
    human: humanValue(consensus.label),
    humanAspects: consensus.label.aspects ?? null,
    annotators: adjudicator ? [...annotators, adjudicator.annotator] : annotators,
    provenance:
      provenances.size === 1 && provenances.has('imported') ? 'imported' : provenances.size === 1 ? 'human' : 'mixed',
    evaluationId: f.item.evaluationId,
    labelledAt: iso(Math.max(...counted.map((l) => l.updatedAt))),
  };
}

/** Which labelled items {@link labelledItems} reads: one queue, or every queue of a rubric (one version, or all). */
export type LabelledSelection = { queueId: string } | { rubricId: string; version?: number };

/**
 * The labelled items (status `labelled` or `adjudicated`) of the tenant's queue `queueId`, or of every queue
 * labelled by rubric `rubricId` (only those of version `version` when given), oldest queue first, each in queue
 * order. An item's `label` is its annotators' consensus or its adjudicator's label (./consensus.ts); `human`
 * and `humanAspects` are that label as the agreement maths (src/metrics/) take it. Items still pending or
 * disagreed on are left out. The same `itemId` may come once per queue.
 * @throws ApiError 404 `not_found` for a queue the tenant does not have (a rubric without queues gives []).
 */
export async function labelledItems(
  env: Bindings,
  tenant: string,
  selection: LabelledSelection,
): Promise<LabelledQueueItem[]> {
  const db = tenantDb(env, tenant);
  let queues: QueueRecord[];
  if ('queueId' in selection) {
    const queue = await getQueue(db, tenant, selection.queueId);
    if (!queue) throw new ApiError(404, 'not_found', `no annotation queue "${selection.queueId}"`);
    queues = [queue];
  } else queues = await queuesOfRubric(db, tenant, selection.rubricId, selection.version ?? null);
  const out: LabelledQueueItem[] = [];
  for (const queue of queues)
    for (const f of await foldedItems(db, queue)) {
      const item = labelledView(queue, f);
      if (item) out.push(item);
    }
  return out;
}
