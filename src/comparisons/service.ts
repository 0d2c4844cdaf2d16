/**
 * @module
 * Comparison use cases behind the thin route handlers (./routes.ts): create (a batch of kind `comparison`
 * whose pair evaluations are expanded in D1, plus its `comparisons` row, in one transaction), read (the
 * batch's counts and usage, the statistics: stored once final, else live), list and cancel.
 */
import { storeConfigStatements } from '../evaluations/config-rows.js';
import { withWarnings } from '../http/warnings.js';
import { resolveSubmission } from '../batches/submission.js';
import type { BatchRecord } from '../batches/rows.js';
import { getBatch } from '../batches/rows.js';
import type { BatchSummary } from '../batches/schemas.js';
import { cancelBatch, listBatchesView, summaryOf as batchSummaryOf } from '../batches/service.js';
import { usageAggregates } from '../batches/result-rows.js';
import { submitBatch } from '../batches/submit.js';
import type { Bindings } from '../config/bindings.js';
import { judgesBothOrders } from '../engine/protocol.js';
import type { PairwiseTask } from '../engine/task.js';
import type { CreatorInfo } from '../evaluations/service.js';
import { requestRubric } from '../evaluations/service.js';
import { INSERT_JSON_CHUNK_BYTES } from '../evaluations/insert-rows.js';
import { ApiError } from '../http/errors.js';
import { GateSchema } from '../metrics/gate.js';
import { planTask, resolveJudge } from '../methods/resolve-judge.js';
import type { ResolvedRubric } from '../rubrics/resolve.js';
import type { CacheDecision } from '../verdict-cache/plan.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import { requestCachePlans } from '../verdict-cache/plan.js';
import { checkComparisonBudget } from './estimate.js';
import { comparisonLinks, finishComparison } from './finish.js';
import type { Layout } from './layout.js';
import { pairsOf, slotsOf, widthOf } from './layout.js';
import { liveStatistics } from './outcomes.js';
import type { ComparisonRecord, ExpansionItem } from './rows.js';
import {
  comparisonsByIds,
  expandStatement,
  getComparison,
  insertComparisonStatement,
  layoutOf,
  unfinishedBefore,
} from './rows.js';
import type { ComparisonItem, CreateComparisonRequest } from './schemas.js';
import type { Comparison, ComparisonAccepted, ComparisonStatistics, ComparisonSummary } from './answer-schemas.js';
import { StatisticsOptionsSchema } from './schemas.js';
import { everyTenantDb, tenantDb } from '../config/d1-shards.js';
import type { CertifyJudge } from '../evaluations/certified.js';
import { withCertify } from '../evaluations/certified.js';

const encoder = new TextEncoder();

/** Most bytes of expanded task text one insert statement writes (items × width). */
const EXPANDED_CHUNK_BYTES = 4_000_000;

/** The pairwise task of `item` without its answers. */
function baseTask(item: ComparisonItem): Record<string, unknown> {
  return {
    kind: 'pairwise',
    ...(item.question !== undefined ? { question: item.question } : {}),
    ...(item.messages !== undefined ? { messages: item.messages } : {}),
    ...(item.reference !== undefined ? { reference: item.reference } : {}),
  };
}

/**
 * The field of `request` that chose the judge's method: `preset`, or `config.method` for a full config sent
 * without a preset (`preset` too when neither is sent: the default preset chose it).
 */
function methodField(request: Pick<CreateComparisonRequest, 'preset' | 'config'>): 'preset' | 'config.method' {
  return request.preset === undefined && request.config?.method !== undefined ? 'config.method' : 'preset';
}

/**
 * The planned calls of item `n`'s first pair. A judge that takes no pairwise task is the fault of the request's
 * field that chose it (`field`: {@link methodField}), not the item's: the pair task is built here, so its kind is
 * no field of the caller's.
 */
function plannedPair(
  judge: ReturnType<typeof resolveJudge>,
  task: PairwiseTask,
  n: number,
  rubric: ResolvedRubric | null,
  field: string,
): number {
  return planTask(judge, task, `items.${n}`, rubric?.content, { field, why: 'a comparison judges pairs of outputs' });
}

/**
 * Each item as the expansion reads it, checked with the judge on its first pair (every pair of an item
 * is the same task but for the answers, which every candidate's schema already bounds).
 * @throws ApiError 400 naming `items.N` (an engine code, or too large to store), or the field that chose a judge
 *   that takes no pairwise task.
 */
function expansionItems(
  request: CreateComparisonRequest,
  layout: Layout,
  judge: ReturnType<typeof resolveJudge>,
  rubric: ResolvedRubric | null,
) {
  const [i0, j0] = layout.pairs[0] ?? [0, 1];
  return request.items.map((item, n): ExpansionItem => {
    const outputs = request.candidates.map((c) => item.outputs[c] ?? '');
    const base = baseTask(item);
    const task = { ...base, answerA: outputs[i0], answerB: outputs[j0] } as PairwiseTask;
    return [n, item.id, base, outputs, plannedPair(judge, task, n, rubric, methodField(request))];
  });
}

/**
 * What the verdict cache does for every pair evaluation, and each item's keys in slot order (none for `off`
 * and `bypass`): each key is over the pair evaluation's task exactly as stored (the item's task with the
 * slot's two outputs as `answerA`, `answerB`), so a pair judged before, by a comparison or any other
 * request of the tenant with the same judge, rubric and task, is a hit.
 */
async function withCacheKeys(
  env: Bindings,
  request: CreateComparisonRequest,
  layout: Layout,
  judge: ReturnType<typeof resolveJudge>,
  rubric: ResolvedRubric | null,
  items: ExpansionItem[],
): Promise<CacheDecision> {
  const slots = slotsOf(layout);
  const tasks = items.flatMap(([, , base, outputs]) =>
    slots.map((slot) => ({ ...base, answerA: outputs[slot.shownA], answerB: outputs[slot.shownB] })),
  );
  const plans = await requestCachePlans(
    env,
    { ...judge, rubricHash: rubric?.record.hash ?? null },
    { mode: request.cache },
    tasks,
  );
  const mode = plans[0]?.mode ?? 'off';
  if (mode === 'off' || mode === 'bypass') return mode;
  items.forEach((item, n) => {
    item[5] = plans.slice(n * slots.length, (n + 1) * slots.length).map((p) => p.key ?? '');
  });
  return mode;
}

/** The items cut into chunks whose JSON and expanded size stay under the limits. */
function chunksOf(items: readonly ExpansionItem[], width: number): ExpansionItem[][] {
  const chunks: ExpansionItem[][] = [];
  let chunk: ExpansionItem[] = [];
  let bytes = 0;
  for (const [n, item] of items.entries()) {
    const size = encoder.encode(JSON.stringify(item)).byteLength;
    if (size > INSERT_JSON_CHUNK_BYTES) {
      const message = `${String(size)} bytes of UTF-8 is more than one stored item may hold (${String(INSERT_JSON_CHUNK_BYTES)})`;
      throw new ApiError(400, 'invalid_request', `items.${String(n)}: ${message}`, [
        { path: `items.${String(n)}`, message },
      ]);
    }
    if (chunk.length > 0 && (bytes + size > INSERT_JSON_CHUNK_BYTES || (bytes + size) * width > EXPANDED_CHUNK_BYTES)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** The pairs of a comparison and how many evaluations each takes (one when the judge shows both orders itself). */
function requestLayout(request: CreateComparisonRequest, judge: ReturnType<typeof resolveJudge>): Layout {
  return {
    candidates: request.candidates,
    pairs: pairsOf(request.candidates, request.design),
    orders: judgesBothOrders(judge.method, judge.config) ? 1 : 2,
  };
}

/**
 * Validates the judge and every item, stores the comparison and queues its evaluations.
 * @throws ApiError 400 (judge or an item, named `items.N…`; a `budget.<limit>` below the estimate's floor),
 * 409 `idempotency_conflict`, 429 `quota_exceeded`,
 * 503 `llm_not_configured`.
 */
export async function createComparison(
  env: Bindings,
  tenant: string,
  request: CreateComparisonRequest,
  idempotencyKey: string | null,
  creator: CreatorInfo = { keyId: null },
  certifyJudge?: CertifyJudge,
): Promise<{ body: ComparisonAccepted; replayed: boolean }> {
  const {
    judge: asked,
    creator: withLimits,
    tier,
    webhookUrl,
    warnings,
  } = await resolveSubmission(env, tenant, request, creator);
  if (request.certify !== undefined) {
    // Every item is checked before the calibration may start judging labelled items.
    const rubric = await requestRubric(env, tenant, asked, request.rubric, withLimits);
    expansionItems(request, requestLayout(request, asked), asked, rubric);
  }
  const { judge, guarantee } = await withCertify(env, tenant, asked, request, withLimits, certifyJudge);
  if (request.budget && judge.config.budget !== undefined) {
    throw new ApiError(
      400,
      'invalid_request',
      'budget: a comparison budget and a per-evaluation `config.budget` cannot be combined',
      [{ path: 'budget', message: 'give one of budget and config.budget' }],
    );
  }
  // Resolved as batches resolve theirs, so a stored version's auto-CoT steps are written (once) and applied here too.
  const rubric = await requestRubric(env, tenant, judge, request.rubric, withLimits);
  const layout = requestLayout(request, judge);
  const width = widthOf(layout);
  const items = expansionItems(request, layout, judge, rubric);
  const cacheMode = await withCacheKeys(env, request, layout, judge, rubric, items);
  // A budget not even the cheapest run fits is refused before anything is stored, as a batch's is.
  await checkComparisonBudget(env, tenant, request);
  const chunks = chunksOf(items, width);
  const total = items.length * width;
  const statistics = StatisticsOptionsSchema.parse(request.statistics ?? {});
  const gate = request.gate ? GateSchema.parse(request.gate) : null;
  const now = Date.now();
  const r = await submitBatch(env, {
    ...tier,
    tenant,
    kind: 'comparison',
    preset: request.preset ?? null,
    judge,
    rubric,
    items: [],
    expanded: {
      total,
      readsCache: cacheMode === 'use',
      statements: (id) => [
        // The pair evaluations name the judge's config by hash (src/evaluations/config-rows.ts): stored first.
        ...storeConfigStatements(tenantDb(env, tenant), [judge.config], now),
        insertComparisonStatement(tenantDb(env, tenant), {
          id,
          tenant,
          candidates: request.candidates,
          design: request.design,
          orders: layout.orders,
          itemsTotal: items.length,
          gate,
          statistics,
          now,
        }),
        ...chunks.map((chunk) =>
          expandStatement(
            tenantDb(env, tenant),
            layout,
            {
              batchId: id,
              tenant,
              ...tier,
              method: judge.config.method,
              preset: request.preset ?? null,
              config: judge.config,
              keyId: creator.keyId,
              cacheMode,
              rubric: rubric?.record ?? null,
              now,
            },
            chunk,
          ),
        ),
      ],
    },
    webhookUrl,
    budget: request.budget ?? null,
    idempotencyKey,
    // Resolved once: the submit's quota check reads them from here instead of D1 again.
    creator: withLimits,
    request,
    certify: guarantee,
  });
  return {
    body: {
      id: r.id,
      status: r.status,
      items: items.length,
      pairs: layout.pairs.length,
      evaluationsPerPair: layout.orders,
      evaluations: r.itemsTotal,
      links: comparisonLinks(r.id),
      ...withWarnings(warnings),
    },
    replayed: r.replayed,
  };
}

/** A comparison and its batch. */
export interface ComparisonRef {
  batch: BatchRecord;
  comparison: ComparisonRecord;
}

/** The comparison or 404 `not_found`. */
export async function requireComparison(env: Bindings, tenant: string, id: string): Promise<ComparisonRef> {
  const [batch, comparison] = await Promise.all([
    getBatch(tenantDb(env, tenant), tenant, id),
    getComparison(tenantDb(env, tenant), tenant, id),
  ]);
  if (!batch || !comparison) throw new ApiError(404, 'not_found', `no comparison "${id}"`);
  return { batch, comparison };
}

/** A comparison as lists show it: its batch as the batch list shows that, with the comparison's own fields. */
function summaryOf(b: BatchSummary, c: ComparisonRecord): ComparisonSummary {
  return {
    id: b.id,
    status: b.status,
    method: b.method,
    preset: b.preset,
    tier: b.tier,
    flexFallback: b.flexFallback,
    candidates: c.candidates,
    design: c.design,
    items: c.itemsTotal,
    evaluationsPerPair: c.orders,
    counts: b.counts,
    gateOutcome: c.gateOutcome,
    createdAt: b.createdAt,
    completedAt: b.completedAt,
    cancelRequestedAt: b.cancelRequestedAt,
    links: comparisonLinks(b.id),
  };
}

/** The layout of a stored comparison. */
export function storedLayout(c: ComparisonRecord): Layout {
  return layoutOf(c, pairsOf(c.candidates, c.design));
}

/** The statistics now: stored once final (computed and stored here if the finish never ran), else live. */
export async function statisticsNow(env: Bindings, ref: ComparisonRef): Promise<ComparisonStatistics> {
  const { comparison: c } = ref;
  if (c.completedAt !== null) {
    const done = await finishComparison(env, c);
    if (done) return done;
  }
  return liveStatistics(tenantDb(env, c.tenant), c.id, storedLayout(c), c.itemsTotal, c.statistics, c.gate);
}

/** `GET /v1/comparisons/{id}`. */
export async function viewComparison(env: Bindings, ref: ComparisonRef): Promise<Comparison> {
  const [stats, usage] = await Promise.all([
    statisticsNow(env, ref),
    usageAggregates(tenantDb(env, ref.batch.tenant), ref.batch.id),
  ]);
  const { batch: b } = ref;
  return {
    ...summaryOf(batchSummaryOf(b), ref.comparison),
    gateOutcome: stats.basis === 'final' ? (stats.gate?.outcome ?? null) : null,
    ...stats,
    webhook: b.webhookUrl ? { url: b.webhookUrl } : null,
    budget: b.budget,
    usage,
    guarantee: b.certify,
  };
}

/** `GET /v1/comparisons`: the tenant's comparisons, newest first. @param limits the caller's (saves reading the tenant again) */
export async function listComparisons(
  env: Bindings,
  tenant: string,
  q: { cursor?: string | undefined; limit: number },
  limits?: EffectiveLimits | null,
): Promise<{ data: ComparisonSummary[]; nextCursor: string | null }> {
  const page = await listBatchesView(env, tenant, { ...q, kind: 'comparison' }, limits);
  const rows = await comparisonsByIds(
    tenantDb(env, tenant),
    page.data.map((b) => b.id),
  );
  const data: ComparisonSummary[] = [];
  for (const b of page.data) {
    const c = rows.get(b.id);
    if (c) data.push(summaryOf(b, c));
  }
  return { data, nextCursor: page.nextCursor };
}

/** Cancels the comparison's evaluations (as a batch's cancel), then answers the comparison as it is now. */
export async function cancelComparison(env: Bindings, ref: ComparisonRef): Promise<Comparison> {
  await cancelBatch(env, ref.batch);
  return viewComparison(env, await requireComparison(env, ref.batch.tenant, ref.batch.id));
}

/**
 * The sweeper's part: finishes comparisons whose last ending committed before `before` but whose statistics
 * and `comparison.completed` were never written (the after-commit step failed, or the process died
 * between), at most `limit` in each of `dbs` (default: every tenants' database). @returns how many it finished.
 */
export async function finishStalledComparisons(
  env: Bindings,
  before: number,
  limit = 10,
  dbs: readonly D1Database[] = everyTenantDb(env),
): Promise<number> {
  let n = 0;
  for (const db of dbs) {
    for (const c of await unfinishedBefore(db, before, limit)) {
      if (await finishComparison(env, c)) n += 1;
    }
  }
  return n;
}
