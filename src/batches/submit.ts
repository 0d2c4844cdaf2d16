/**
 * @module
 * Submitting a batch, shared by `POST /v1/batches` and `POST /v1/meta-evaluations` (a labelled batch):
 * every item is checked against the judge before anything is stored (a bad item is a 400 naming
 * `items.N…`, nothing created), the batch and its items are written in ONE D1 transaction, then every
 * the first window of items goes to the jobs queue (./pump.ts) before the 202; the rest follow as items end.
 *
 * Why one transaction, rather than accepting first and writing the items from a queue consumer: a batch
 * then exists whole or not at all (an `Idempotency-Key` replay can never meet half a batch), and its first
 * items start as soon as it is accepted. The cost stays small: rows go as `json_each` chunks (1,000 small
 * items = one statement, see ./rows.ts), and only the window's ids are sent. A lost hand-over is made up
 * by the next pump (a retry of the request, an ending, the sweeper's top-up).
 *
 * Idempotency: with a key, the canonical request's sha-256 is stored on the batch row; the same key with
 * the same body returns the same batch (`replayed`), with another body 409 `idempotency_conflict`.
 */
import type { ResolvedJudge } from '../methods/resolve-judge.js';
import { planTask } from '../methods/resolve-judge.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { limitsFor, newId } from '../evaluations/service.js';
import { assertQuota } from '../tenants/quota.js';
import { ApiError } from '../http/errors.js';
import type { Budget } from '../engine/budget.js';
import type { Task } from '../engine/task.js';
import type { Bindings } from '../config/bindings.js';
import { requestHash } from '../http/request-hash.js';
import { pump } from './pump.js';
import type { BatchKind } from './schemas.js';
import type { BatchRecord, NewBatchItem } from './rows.js';
import { findBatchByKey, insertBatch } from './rows.js';
import { INSERT_JSON_CHUNK_BYTES as ITEM_CHUNK_BYTES } from '../evaluations/insert-rows.js';
import { configOf } from '../config/vars.js';
import type { CacheRequest } from '../verdict-cache/plan.js';
import { requestCachePlans } from '../verdict-cache/plan.js';
import { markHitsStatement, servesSince } from '../verdict-cache/rows.js';
import type { TierChoice } from '../tiers/resolve.js';
import type { ResolvedRubric } from '../rubrics/resolve.js';
import { contentStatement } from '../rubrics/rows.js';
import { keyHolder, newRecordId, newRecordIdBeside, recordDbOf, tenantDb, tenantDbs } from '../config/d1-shards.js';
import type { Guarantee } from '../metrics/certify.js';

/**
 * Items the caller writes itself, in the batch's transaction: `total` evaluations, inserted by `statements`
 * (each guarded by `BATCH_INSERTED`, the new batch's id bound), already checked against the judge. A
 * comparison expands its items into pair evaluations this way, in SQL, so that 10,000 items × 28 pairs
 * never become 280,000 objects in the Worker's memory.
 */
export interface ExpandedItems {
  total: number;
  statements: (batchId: string) => D1PreparedStatement[];
  /** True when some expanded row reads the verdict cache (`use`): its hits are marked in the same transaction. */
  readsCache?: boolean;
}

/** An item to submit. */
export interface SubmitItem {
  itemId: string | null;
  task: Task;
  metadata: Record<string, string | number | boolean> | null;
  /** This item's rubric instead of the submission's (resolved by the caller); absent: the submission's. */
  rubric?: ResolvedRubric | null;
}

/** What {@link submitBatch} needs: with its tier (every item's, resolved by the caller: src/tiers/resolve.ts). */
export interface BatchSubmission extends TierChoice {
  tenant: string;
  kind: BatchKind;
  preset: string | null;
  judge: ResolvedJudge;
  /** The items, each an evaluation (or `expanded` instead). */
  items: readonly SubmitItem[];
  /** Items written by the caller's statements instead of `items` (see {@link ExpandedItems}). */
  expanded?: ExpandedItems;
  webhookUrl: string | null;
  /** The batch's budget (checked by the caller, see ./budget-claims.ts), or null/absent. */
  budget?: Budget | null;
  /** The caller's `Idempotency-Key`, or null. */
  idempotencyKey: string | null;
  /** The submitting key and the tenant's limits (read from D1 when absent): monthly quotas, usage by key. */
  creator?: CreatorInfo;
  /**
   * True: the batch goes to one of the D1 shards of the tenant's spread (its items with it); else to the
   * tenant's home shard. Only callers whose reads find the batch by id (`recordDbOf`) ask for it.
   */
  spread?: boolean;
  /** The validated request, hashed for the key check. */
  request: unknown;
  /** Metadata of each item's evaluation given the new batch's id, instead of the item's own. */
  metadataOf?: (batchId: string, item: NewBatchItem) => Record<string, string | number | boolean>;
  /** The rubric every item judges by (resolved by the caller, src/rubrics), or null/absent. */
  rubric?: ResolvedRubric | null;
  /** Statements of the caller for the same transaction (guard each with `BATCH_INSERTED`), given the new batch. */
  extra?: (batchId: string, items: readonly NewBatchItem[]) => D1PreparedStatement[];
  /** The request's `cache` and `seed` (src/verdict-cache/plan.ts); absent: `cache` not set, no seed. */
  cache?: CacheRequest;
  /** Certified mode's guarantee (src/certify/): stored on the batch row, which every item reads; null or absent: none. */
  certify?: Guarantee | null;
}

/** Outcome of {@link submitBatch}: the batch, and whether it answers an earlier request with the same key. */
export interface Submitted {
  id: string;
  status: BatchRecord['status'];
  itemsTotal: number;
  replayed: boolean;
}

const encoder = new TextEncoder();

/** The id prefix of a batch of each kind. */
const ID_PREFIX = { batch: 'ba', meta_evaluation: 'me', comparison: 'cp' } as const satisfies Record<BatchKind, string>;

/**
 * Plans every item of `tenant` with the judge (the task kind and config checked per item) and checks its stored size.
 * @throws ApiError 400 naming `items.N.task` (an engine code, or `invalid_request` for an item too large to store).
 */
export function planItems(
  tenant: string,
  judge: ResolvedJudge,
  items: readonly SubmitItem[],
  rubric?: ResolvedRubric | null,
  batchId?: string,
): NewBatchItem[] {
  return items.map((item, i) => {
    const own = item.rubric !== undefined;
    const judgedBy = own ? item.rubric : rubric;
    if (own && judgedBy && judgedBy.content.kind !== item.task.kind)
      throw new ApiError(
        400,
        'rubric_task_mismatch',
        `items.${i}.rubric: a ${judgedBy.content.kind} rubric cannot judge a ${item.task.kind} task`,
        [
          {
            path: `items.${i}.rubric`,
            message: `a ${judgedBy.content.kind} rubric cannot judge a ${item.task.kind} task`,
          },
        ],
      );
    const callsPlanned = planTask(judge, item.task, `items.${i}.task`, judgedBy?.content);
    const size =
      encoder.encode(JSON.stringify(item.task)).byteLength + encoder.encode(JSON.stringify(item.metadata)).byteLength;
    if (size > ITEM_CHUNK_BYTES) {
      throw new ApiError(
        400,
        'invalid_request',
        `items.${i}.task: ${size} bytes of UTF-8 is more than one stored item may hold (${ITEM_CHUNK_BYTES})`,
        [{ path: `items.${i}.task`, message: `more than ${ITEM_CHUNK_BYTES} bytes of UTF-8` }],
      );
    }
    return {
      // Beside its batch: in the batch's D1 database, so its counters and its items share a transaction.
      evaluationId: batchId === undefined ? newId('ev', tenant) : newRecordIdBeside('ev', tenant, batchId),
      seq: i,
      itemId: item.itemId,
      task: item.task,
      metadata: item.metadata,
      callsPlanned,
      rubric: judgedBy?.record ?? null,
    };
  });
}

/** The inline rubrics of a submission (its own and its items'), each content once; the stored ones too with `all`. */
function inlineRubrics(s: BatchSubmission, all = false): ResolvedRubric[] {
  const rubrics = [s.rubric, ...s.items.map((i) => i.rubric)];
  const out = new Map<string, ResolvedRubric>();
  for (const r of rubrics) if (r && (all || !r.stored)) out.set(r.record.hash, r);
  return [...out.values()];
}

/** Validates, stores and enqueues a batch (see the module note). */
export async function submitBatch(env: Bindings, s: BatchSubmission): Promise<Submitted> {
  const limits = await limitsFor(env, s.tenant, s.creator?.limits);
  // Over the tenant's spread when the caller asks for it: its reads find the batch by id wherever it is.
  // A retry made after the spread changed goes beside its first try, where the key's conflict finds it.
  const holder =
    s.spread === true
      ? await keyHolder(env, s.tenant, { ...limits, key: s.idempotencyKey }, (d) =>
          findBatchByKey(d, s.tenant, s.kind, s.idempotencyKey ?? ''),
        )
      : null;
  const id =
    holder !== null
      ? newRecordIdBeside(ID_PREFIX[s.kind], s.tenant, holder)
      : newRecordId(
          ID_PREFIX[s.kind],
          s.tenant,
          s.spread === true ? { spread: limits.spread, key: s.idempotencyKey } : {},
        );
  const db = recordDbOf(env, s.tenant, id);
  const items = planItems(s.tenant, s.judge, s.items, s.rubric, id);
  const total = s.expanded?.total ?? items.length;
  if (s.metadataOf) for (const item of items) item.metadata = s.metadataOf(id, item);
  // The verdict cache keys on the rubric: items are planned per rubric they judge by.
  const byRubric = new Map<string | null, number[]>();
  items.forEach((item, i) =>
    byRubric.set(item.rubric?.hash ?? null, [...(byRubric.get(item.rubric?.hash ?? null) ?? []), i]),
  );
  for (const [rubricHash, indices] of byRubric) {
    const plans = await requestCachePlans(
      env,
      { ...s.judge, rubricHash },
      s.cache ?? {},
      indices.map((i) => items[i]?.task),
    );
    indices.forEach((i, k) => {
      const plan = plans[k];
      const item = items[i];
      if (plan && item) item.cache = plan;
    });
  }
  const config = configOf(env);
  const hash = s.idempotencyKey === null ? null : await requestHash({ kind: s.kind, request: s.request });
  const now = Date.now();
  try {
    // Every item is an evaluation: all of them must fit under the tenant's monthly caps (src/tenants/quota.ts).
    await assertQuota(tenantDbs(env, s.tenant, limits.readSpread), s.tenant, limits, total, now);
  } catch (e) {
    // A retry of a batch accepted before the cap was reached still gets its batch back.
    if (s.idempotencyKey === null || !(await findBatchByKey(db, s.tenant, s.kind, s.idempotencyKey))) throw e;
  }
  const created = await insertBatch(
    db,
    {
      id,
      tenant: s.tenant,
      keyId: s.creator?.keyId ?? null,
      kind: s.kind,
      method: s.judge.method.method,
      preset: s.preset,
      config: s.judge.config,
      webhookUrl: s.webhookUrl,
      budget: s.budget ?? null,
      idempotencyKey: s.idempotencyKey,
      requestHash: hash,
      // At the batch tier every item runs at once: the provider's own limit is per file, and the items wait
      // on their waves, not on LLM calls (src/waves/). Their starts are paced (./start-pace.ts).
      concurrency: s.tier === 'batch' ? Math.max(1, items.length) : config.BATCH_CONCURRENCY,
      tier: s.tier,
      flexFallback: s.flexFallback,
      certify: s.certify ?? null,
      items,
      itemsTotal: total,
      now,
    },
    [
      // An inline rubric's content, stored by hash (a stored version's was stored with the version, in the
      // tenant's home shard: a batch in another shard of its spread gets a copy beside it, for its items' starts).
      ...inlineRubrics(s, db !== tenantDb(env, s.tenant)).map((r) =>
        contentStatement(db, s.tenant, r.record.hash, r.content, now),
      ),
      ...(s.expanded?.statements(id) ?? []),
      ...(s.extra?.(id, items) ?? []),
      // Items whose verdict is cached are marked as hits in the same transaction: the window starts them as
      // any other item, and each ends at once with its cached verdict (no LLM call).
      ...(items.some((item) => item.cache?.mode === 'use') || s.expanded?.readsCache === true
        ? [markHitsStatement(db, { batchId: id }, servesSince(now, config.VERDICT_CACHE_TTL_DAYS))]
        : []),
    ],
  );
  if (!created) return replay(env, s, hash, db);
  await pump(env, { batchId: id });
  return { id, status: 'running', itemsTotal: total, replayed: false };
}

/** The batch that holds the request's key: the same batch for the same body, else 409. */
async function replay(env: Bindings, s: BatchSubmission, hash: string | null, db: D1Database): Promise<Submitted> {
  const key = s.idempotencyKey;
  const existing = key === null ? null : await findBatchByKey(db, s.tenant, s.kind, key);
  // Unreachable unless the batch row was deleted between the two statements.
  if (!existing) throw new Error(`batch insert changed no row, and no batch holds key "${key ?? ''}"`);
  if (existing.requestHash !== hash) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      `Idempotency-Key "${key ?? ''}" was already used with a different request body (batch ${existing.id})`,
    );
  }
  // The first request may have stopped before its window reached the queue.
  await pump(env, { batchId: existing.id });
  return { id: existing.id, status: existing.status, itemsTotal: existing.itemsTotal, replayed: true };
}
