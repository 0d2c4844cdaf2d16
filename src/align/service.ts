/**
 * @module
 * Alignment use cases: start a job (checks, the labelled items' snapshot, the row, its first queue message) and
 * show one. A read of a running job that nobody has advanced for {@link STALE_MS} queues it again (its message
 * was lost, or its retries ran out).
 */
import { labelledItems } from '../annotation-queues/labelled.js';
import { requireQueue } from '../annotation-queues/service.js';
import type { Bindings } from '../config/bindings.js';
import { newRecordId, tenantDb } from '../config/d1-shards.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { resolveJudge } from '../methods/resolve-judge.js';
import { getVersion } from '../rubrics/rows.js';
import { tagsOf } from '../rubrics/tag-rows.js';
import { requireRubric } from '../rubrics/service.js';
import { queueAlignment } from './queue.js';
import type { AlignItem, AlignJudge, AlignmentRecord } from './rows.js';
import { getAlignment, insertAlignment, touchAlignment } from './rows.js';
import type { Alignment, AlignRequest } from './schemas.js';
import { MAX_ALIGN_ITEMS, MIN_ALIGN_ITEMS } from './schemas.js';
import { splitOf, seedOf } from './core.js';

/**
 * A running job untouched this long is queued again by a read, ms: 150,000 (over two of its longest waits, so a
 * read never doubles a job's own line of messages while it goes on).
 */
export const STALE_MS = 150_000;

/** The judge of a version without a golden check, by the rubric's kind. */
const DEFAULT_PRESETS = { pairwise: 'fastchat-pair', pointwise: 'rubric-judge' } as const;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Starts aligning rubric `rubricId` to the labels of `body.queue`: the version the queue labels is the base.
 * @throws ApiError 400 naming the field (an unknown queue, a queue of another rubric, a method that does not fit
 *   the rubric, an invalid judge); 404 for an unknown rubric; 409 `rubric_archived`, or `conflict` with fewer than
 *   {@link MIN_ALIGN_ITEMS} labelled items (the message says how many more).
 */
export async function startAlignment(
  env: Bindings,
  tenant: string,
  rubricId: string,
  body: AlignRequest,
  creator: { keyId: string | null },
): Promise<Alignment> {
  const rubric = await requireRubric(env, tenant, rubricId);
  const queue = await requireQueue(env, tenant, body.queue).catch((e: unknown) => {
    if (e instanceof ApiError && e.status === 404)
      throw invalidRequest([{ path: 'queue', message: `no annotation queue "${body.queue}"` }], 'request body');
    throw e;
  });
  if (queue.rubricId !== rubricId)
    throw invalidRequest(
      [{ path: 'queue', message: `queue "${queue.id}" labels rubric "${queue.rubricId}", not "${rubricId}"` }],
      'request body',
    );
  if (rubric.archivedAt !== null)
    throw new ApiError(409, 'rubric_archived', `rubric "${rubricId}" is archived: it takes no new version`);
  const fits = rubric.kind === 'pairwise' ? body.method !== 'thresholds' : ['thresholds', 'auto'].includes(body.method);
  if (!fits)
    throw invalidRequest(
      [
        {
          path: 'method',
          message:
            rubric.kind === 'pairwise'
              ? 'thresholds (per-aspect score cut-offs) aligns pointwise rubrics; use few-shot, instructions or auto'
              : `${body.method} aligns pairwise rubrics; a pointwise rubric aligns by thresholds (or auto)`,
        },
      ],
      'request body',
    );
  const base = await getVersion(tenantDb(env, tenant), tenant, rubricId, queue.rubricVersion);
  const judge: AlignJudge =
    body.preset !== undefined || body.config !== undefined
      ? { preset: body.preset ?? null, config: body.config ?? null }
      : (base?.checkJudge ?? { preset: DEFAULT_PRESETS[rubric.kind], config: null });
  const resolved = resolveJudge(judge.preset ?? undefined, judge.config ?? undefined);
  if (!resolved.method.taskKinds.includes(rubric.kind))
    throw invalidRequest(
      [
        {
          path: body.config ? 'config' : 'preset',
          message: `${resolved.config.method} does not judge ${rubric.kind} tasks`,
        },
      ],
      'request body',
    );
  const items: AlignItem[] = [];
  for (const it of await labelledItems(env, tenant, { queueId: queue.id })) {
    if (it.task.kind !== rubric.kind) continue;
    if (rubric.kind === 'pairwise' ? typeof it.human !== 'string' : it.human === null && it.humanAspects === null)
      continue;
    if (items.length < MAX_ALIGN_ITEMS)
      items.push({
        itemId: it.itemId,
        task: it.task,
        human: it.human,
        ...(it.humanAspects ? { humanAspects: it.humanAspects } : {}),
      });
  }
  if (items.length < MIN_ALIGN_ITEMS)
    throw new ApiError(
      409,
      'conflict',
      `queue "${queue.id}" has ${items.length} labelled item${items.length === 1 ? '' : 's'}; aligning needs ${MIN_ALIGN_ITEMS}: label ${MIN_ALIGN_ITEMS - items.length} more`,
    );
  const id = newRecordId('al', tenant);
  const now = Date.now();
  await insertAlignment(tenantDb(env, tenant), {
    id,
    tenant,
    rubricId,
    baseVersion: queue.rubricVersion,
    queueId: queue.id,
    method: body.method,
    holdout: body.holdout,
    tag: body.tag,
    judge,
    keyId: creator.keyId,
    items,
    now,
  });
  await queueAlignment(env, tenant, id);
  return viewAlignment(env, tenant, rubricId, id);
}

/**
 * The job as shown; a stale running job is queued again first.
 * @throws ApiError 404 `not_found`.
 */
export async function viewAlignment(env: Bindings, tenant: string, rubricId: string, id: string): Promise<Alignment> {
  const db = tenantDb(env, tenant);
  const a = await getAlignment(db, tenant, rubricId, id);
  if (!a) throw new ApiError(404, 'not_found', `rubric "${rubricId}" has no alignment "${id}"`);
  if (a.status === 'running' && Date.now() - a.updatedAt > STALE_MS) {
    await touchAlignment(db, a.id, Date.now());
    await queueAlignment(env, tenant, a.id);
  }
  const tag = a.result ? ((await tagsOf(db, [rubricId])).get(rubricId) ?? []).find((t) => t.tag === a.tag) : undefined;
  return alignmentView(a, tag?.version ?? null);
}

function stepOf(a: AlignmentRecord): Alignment['step'] {
  const s = a.steps;
  if (a.status !== 'running') return 'ended';
  if (!s.baseRun || !s.candidates) return s.baseRun && s.rewrites ? 'learning' : 'judging_base';
  if (!s.chosen) return 'validating';
  return 'judging_held_out';
}

/** A job row as shown; `taggedVersion`: the version its tag points at now. */
function alignmentView(a: AlignmentRecord, taggedVersion: number | null): Alignment {
  const split = splitOf(a.items.length, a.holdout, seedOf(a.id));
  const s = a.steps;
  const self = `/v1/rubrics/${a.rubricId}/alignments/${a.id}`;
  const version = s.version ?? null;
  const runs = [s.baseRun, ...(s.candidates ?? []).map((c) => c.run), s.heldOutRun].filter(
    (r): r is string => r !== undefined,
  );
  let tag: Alignment['tag'] = null;
  if (a.result) {
    const byUser = !a.result.tagMoved && version !== null && taggedVersion === version;
    tag = {
      name: a.tag,
      moved: a.result.tagMoved ? 'align' : byUser ? 'user' : null,
      reason: byUser ? `${a.result.tagReason}; a user moved it to ${version} since` : a.result.tagReason,
    };
  }
  return {
    id: a.id,
    status: a.status,
    step: stepOf(a),
    rubric: { id: a.rubricId, baseVersion: a.baseVersion },
    queue: a.queueId,
    method: a.method,
    chosenMethod: s.chosen?.method ?? null,
    holdout: a.holdout,
    items: {
      labelled: a.items.length,
      learn: split.learn.length,
      validation: a.method === 'auto' ? split.validation.length : 0,
      heldOut: split.heldOut.length,
    },
    candidates:
      a.method === 'auto' ? (s.candidates ?? []).map((c) => ({ method: c.method, kappa: c.kappa ?? null })) : [],
    version,
    heldOut: a.result?.heldOut ?? null,
    tag,
    error: a.errorCode !== null ? { code: a.errorCode, message: a.errorMessage ?? '' } : null,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
    links: {
      self,
      rubric: `/v1/rubrics/${a.rubricId}`,
      version: version === null ? null : `/v1/rubrics/${a.rubricId}/versions/${version}`,
      runs: runs.map((r) => `/v1/meta-evaluations/${r}`),
    },
  };
}
