/**
 * @module
 * Run use cases behind the thin route handlers (./run-routes.ts): create (the data source checked against
 * the eval and the tenant's quota, stored, then queued for ./run-process.ts), retrieve (with its counts),
 * list, cancel, delete, and its output items.
 */
import type { Bindings } from '../config/bindings.js';
import { tenantDb } from '../config/d1-shards.js';
import type { EffectiveLimits } from '../tenants/limits.js';
import type { ApiWarning } from '../http/warnings.js';
import { limitsFor } from '../evaluations/service.js';
import { cacheDecision } from '../verdict-cache/plan.js';
import { runTier } from './run-tier.js';
import { assertQuota } from '../tenants/quota.js';
import { queueRun, stalled } from './run-queue.js';
import type { SourceLine } from './run-source.js';
import { sourceLines } from './run-source.js';
import { ApiError, invalidRequest } from '../http/errors.js';
import { itemIssues } from './item-check.js';
import { referencedIssues, referenceIssue } from './item-reference.js';
import { randomBase32 } from '../tenants/ids.js';
import { checkSamplerMessages } from './grader-check.js';
import type { RunRecord } from './run-rows.js';
import type { ItemRecord, RunCounts } from './run-item-rows.js';
import { cancelRun, deleteRun, findRunByKey, getRun, insertRun, listRuns, UNENDED } from './run-rows.js';
import { getItem, listItems, runCounts } from './run-item-rows.js';
import { runEnded, runEndEventStatements } from './run-events.js';
import { withdrawWaves } from './run-waves.js';
import type { CreateRunRequest, OutputItem, Run } from './run-schemas.js';
import type { EvalRecord } from './rows.js';
import { listPage } from '../openai/list-page.js';
import type { IdempotentCreate } from '../openai/idempotency.js';
import { idempotentCreate, replayOf } from '../openai/idempotency.js';
import { scopeOf } from './service.js';
import type { CertifyJudge } from '../evaluations/certified.js';
import type { RunnableGrader } from './grader-schemas.js';
import { certifyRun, guaranteeView } from './run-certify.js';
import { givenSample } from './sampler.js';

function fail(path: string, message: string): ApiError {
  return new ApiError(400, 'invalid_request', `${path}: ${message}`, [{ path, message }]);
}

/**
 * The run's data source checked against its eval; answers its lines (inline or from its file).
 * @throws ApiError 400 naming the field.
 */
async function checkDataSource(
  env: Bindings,
  ev: EvalRecord,
  ds: CreateRunRequest['data_source'],
): Promise<SourceLine[]> {
  if (ds.source.type === 'responses' || ds.source.type === 'stored_completions') {
    throw fail(
      'data_source.source.type',
      `"${ds.source.type}" reads OpenAI's stored traffic, which Tribunal does not hold: send the items inline ("file_content") or upload them ("file_id"), with a "completions" or "responses" data source to sample a model`,
    );
  }
  const lines = await sourceLines(env, ev.tenant, ds.source, true);
  const at = ds.source.type === 'file_id' ? 'data_source.source.id' : 'data_source.source.content';
  const scope = scopeOf(ev);
  const itemAt = (i: number) =>
    ds.source.type === 'file_id' ? `${at} (line ${String(i + 1)}).item` : `${at}.${String(i)}.item`;
  // Every line is in hand (inline, or the file read above): an item the schema refuses is a 400 naming its line
  // and field now, before any sampler or grader call is paid for.
  const wrong = itemIssues(
    lines.map((l) => l.item),
    scope.itemSchema,
    itemAt,
  );
  if (wrong.length > 0) throw invalidRequest(wrong, "items (against the eval's item_schema)");
  if (ds.type === 'completions' || ds.type === 'responses') {
    if (!ds.model) throw fail('data_source.model', `required for "${ds.type}": the model to sample`);
    if (!ds.input_messages)
      throw fail('data_source.input_messages', `required for "${ds.type}": what to ask the model`);
    if (ds.input_messages.type === 'template') {
      checkSamplerMessages(ds.input_messages.template, 'data_source.input_messages.template', scope.itemSchema);
    } else {
      const reference = ds.input_messages.item_reference;
      const refuted = referenceIssue(reference, scope.itemSchema);
      if (refuted) throw invalidRequest([refuted], 'data_source.input_messages');
      const issues = referencedIssues(
        reference,
        lines.map((l) => l.item),
        itemAt,
      );
      if (issues.length > 0) throw invalidRequest(issues, 'items (against data_source.input_messages.item_reference)');
    }
  } else if (scope.sample) {
    for (const [i, line] of lines.entries()) {
      if (!line.sample) {
        const where = ds.source.type === 'file_id' ? `${at} (line ${String(i + 1)})` : `${at}.${String(i)}.sample`;
        throw fail(where, 'the eval reads the sample: give each line one, or use a "completions" data source');
      }
    }
  }
  return lines;
}

const NO_COUNTS: RunCounts = {
  byStatus: { pass: 0, fail: 0, error: 0 },
  byCriterion: [],
  byModel: [],
  cache: { hits: 0, savedUsd: 0 },
};

/** The run's report: its page in the viewer the same Worker serves at `/` (a hash route, so no server fallback). */
function reportUrl(origin: string, r: RunRecord): string {
  return `${origin}/#/evals/${encodeURIComponent(r.evalId)}/runs/${encodeURIComponent(r.id)}`;
}

/** A run as the API answers it, with its counts from the stored items. */
export async function viewRun(env: Bindings, r: RunRecord, origin: string): Promise<Run> {
  return runView(r, (await runCounts(tenantDb(env, r.tenant), [r.id])).get(r.id), origin);
}

/** A run as the API answers it, given its counts. */
function runView(r: RunRecord, counts: RunCounts | undefined = NO_COUNTS, origin: string): Run {
  const { pass, fail: failed, error } = counts.byStatus;
  return {
    object: 'eval.run',
    id: r.id,
    eval_id: r.evalId,
    name: r.name,
    status: r.status,
    created_at: Math.floor(r.createdAt / 1000),
    model: r.model,
    data_source: r.dataSource,
    metadata: r.metadata,
    error: r.error,
    report_url: reportUrl(origin, r),
    service_tier: r.serviceTier,
    cache: { mode: r.cacheMode, hits: counts.cache.hits, saved_usd: counts.cache.savedUsd },
    guarantee: guaranteeView(r.certify),
    result_counts: { total: r.itemsTotal, passed: pass, failed, errored: error },
    per_testing_criteria_results: counts.byCriterion.map((c) => ({
      testing_criteria: c.name,
      passed: c.passed,
      failed: c.failed,
    })),
    per_model_usage: counts.byModel.map((m) => ({
      model_name: m.model,
      invocation_count: m.invocation_count,
      prompt_tokens: m.prompt_tokens,
      completion_tokens: m.completion_tokens,
      total_tokens: m.prompt_tokens + m.completion_tokens,
      cached_tokens: m.cached_tokens,
    })),
  };
}

/** Who creates a run: the key (usage by key) and its tenant's limits (the monthly quota). */
export interface RunCreator {
  keyId: string | null;
  limits: EffectiveLimits | null;
}

/**
 * Checks and stores a new run (`queued`) and queues its work. Each item counts as one evaluation against
 * the tenant's monthly caps, as a batch's items do. Answers the run and what its answer warns about
 * (`tier_price_missing`). With `certify`, its judge graders are calibrated first (./run-certify.ts). With an
 * `Idempotency-Key` (`idempotencyKey`), the same key and body (for the same eval) answer the run made first
 * (`replayed`, queued again while it is still `queued`, as its first queueing may have failed) and nothing else
 * is checked, stored or billed.
 * @param certifyJudge certified mode's calibration (handed to the routes by the composition); absent: `certify`
 *   is a 400.
 * @throws ApiError 400 naming the field (`tier_unsupported` for `service_tier`); 429 `quota_exceeded`; with
 *   `certify`, 409 `labels_needed` and 503 `calibration_pending`; 409 `idempotency_conflict` (the key with
 *   another body or eval), 404 when the run the key made was deleted.
 */
export async function createRun(
  env: Bindings,
  ev: EvalRecord,
  request: CreateRunRequest,
  by: RunCreator,
  certifyJudge?: CertifyJudge,
  idempotencyKey?: string,
): Promise<{ run: RunRecord; warnings: ApiWarning[]; replayed: boolean }> {
  const db = tenantDb(env, ev.tenant);
  const idem = await idempotentCreate(idempotencyKey, { eval_id: ev.id, request });
  const earlier = idem && (await replayed(env, db, ev.tenant, idem));
  if (earlier) return { run: earlier, warnings: [], replayed: true };
  const ds = request.data_source;
  const items = (await checkDataSource(env, ev, ds)).length;
  const limits = await limitsFor(env, ev.tenant, by.limits);
  const tier = runTier(env, ev, ds, request.service_tier, limits.defaultTier);
  await assertQuota([db], ev.tenant, by.limits, items);
  let certify = null;
  if (request.certify !== undefined) {
    if (!certifyJudge) throw fail('certify', 'certified mode is not available here');
    const criteria = ev.testingCriteria as RunnableGrader[];
    certify = await certifyRun(env, ev.tenant, criteria, request.certify, certifyJudge, { ...by, limits });
  }
  const record: RunRecord = {
    id: `evalrun_${randomBase32(24)}`,
    tenant: ev.tenant,
    evalId: ev.id,
    name: request.name ?? '',
    status: 'queued',
    dataSource: ds,
    model: ds.type === 'jsonl' ? null : (ds.model ?? null),
    metadata: request.metadata ?? null,
    itemsTotal: items,
    error: null,
    createdAt: Date.now(),
    keyId: by.keyId,
    leaseUntil: null,
    serviceTier: tier.tier,
    cacheMode: cacheDecision({ mode: request.cache }, ev.testingCriteria),
    wakeAt: null,
    certify,
  };
  if (!(await insertRun(db, record, idem))) {
    // A concurrent request with the same key stored its run first.
    const winner = idem && (await replayed(env, db, ev.tenant, idem));
    if (!winner) throw new Error(`eval run insert changed no row and no run holds key "${idem?.key ?? ''}"`);
    return { run: winner, warnings: [], replayed: true };
  }
  await queueRun(env, ev.tenant, record.id);
  return { run: record, warnings: tier.warnings, replayed: false };
}

/**
 * The run made earlier under the create's key, as it is now (queued again while `queued`); null when none.
 * @throws ApiError 404 (deleted since), 409 `idempotency_conflict`.
 */
async function replayed(env: Bindings, db: D1Database, tenant: string, idem: IdempotentCreate) {
  const run = replayOf(idem, await findRunByKey(db, tenant, idem.key), 'run');
  if (run?.status === 'queued') await queueRun(env, tenant, run.id);
  return run;
}

/** The run, or 404 `not_found`. */
export async function requireRun(env: Bindings, tenant: string, evalId: string, id: string): Promise<RunRecord> {
  const r = await getRun(tenantDb(env, tenant), tenant, evalId, id);
  if (!r) throw new ApiError(404, 'not_found', `no run "${id}" of eval "${evalId}"`);
  return r;
}

/** `GET /v1/evals/{id}/runs`: one page in OpenAI's list shape, and the stalled runs on it (./run-queue.ts). */
export async function listRunsView(
  env: Bindings,
  ev: EvalRecord,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; status?: string | undefined },
  origin: string,
) {
  const db = tenantDb(env, ev.tenant);
  const rows = await listRuns(db, ev.tenant, ev.id, q);
  const page = rows.slice(0, q.limit);
  const counts = await runCounts(
    db,
    page.map((r) => r.id),
  );
  const data = page.map((r) => runView(r, counts.get(r.id), origin));
  return {
    body: listPage(data, rows.length > q.limit),
    stalled: page.filter((r) => stalled(r, Date.now())).map((r) => r.id),
  };
}

/**
 * Cancels a queued or running run (a repeat is harmless) and answers it as it is now: read again only when
 * the cancel changed nothing (the run had ended, or ended meanwhile), since a cancel changes its status alone.
 */
export async function cancelRunView(env: Bindings, r: RunRecord, origin: string): Promise<Run> {
  const db = tenantDb(env, r.tenant);
  const now = Date.now();
  const event = runEndEventStatements(db, r, 'canceled', null, UNENDED, now);
  const cancelled = await cancelRun(db, r.tenant, r.id, now, event);
  if (cancelled) await runEnded(env, db, r, 'canceled', null);
  if (cancelled && r.serviceTier === 'batch') await withdrawWaves(env, db, r.id);
  const after = cancelled ? { ...r, status: 'canceled' as const } : await requireRun(env, r.tenant, r.evalId, r.id);
  return viewRun(env, after, origin);
}

/**
 * Deletes a run and its items. A run not ended yet is cancelled by the delete, in its transaction, and announces
 * it as a cancel does (`eval.run.canceled`, once: a repeated delete finds the run deleted).
 */
export async function deleteRunView(env: Bindings, r: RunRecord) {
  const db = tenantDb(env, r.tenant);
  if (r.serviceTier === 'batch' && (r.status === 'queued' || r.status === 'in_progress'))
    await withdrawWaves(env, db, r.id);
  const now = Date.now();
  const event = runEndEventStatements(db, r, 'canceled', null, UNENDED, now);
  const { canceled } = await deleteRun(db, r.tenant, r.id, now, event);
  if (canceled) await runEnded(env, db, r, 'canceled', null);
  return { object: 'eval.run.deleted' as const, deleted: true as const, run_id: r.id };
}

/** An output item's id: the run's id without its prefix, and the item's index. */
function itemId(run: RunRecord, idx: number): string {
  return `outputitem_${run.id.slice('evalrun_'.length)}_${String(idx)}`;
}

/** An item as the API answers it. */
function viewItem(run: RunRecord, i: ItemRecord): OutputItem {
  return {
    object: 'eval.run.output_item',
    id: itemId(run, i.idx),
    run_id: run.id,
    eval_id: run.evalId,
    created_at: Math.floor(i.createdAt / 1000),
    status: i.status,
    datasource_item_id: i.idx,
    datasource_item: i.item,
    results: i.results as OutputItem['results'],
    // Items graded before every output item kept a sample (a `jsonl` line's was not stored) show an empty one.
    sample: (i.sample ?? givenSample(undefined, null)) as OutputItem['sample'],
  };
}

/** `GET …/output_items`: one page of graded items by index. */
export async function listItemsView(
  env: Bindings,
  run: RunRecord,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; status?: 'pass' | 'fail' | undefined },
) {
  const after = q.after === undefined ? undefined : indexOf(run, q.after, 'after');
  const rows = await listItems(tenantDb(env, run.tenant), run.id, { ...q, after });
  return listPage(
    rows.slice(0, q.limit).map((i) => viewItem(run, i)),
    rows.length > q.limit,
  );
}

function noItem(run: RunRecord, id: string): ApiError {
  return new ApiError(404, 'not_found', `no output item "${id}" in run "${run.id}"`);
}

/** The index an output item id names. @throws ApiError 400 (`after`) or 404 (a path id). */
function indexOf(run: RunRecord, id: string, what: 'after' | 'path'): number {
  const m = /^outputitem_([a-z2-7]+)_(\d+)$/.exec(id);
  if (!m || `evalrun_${m[1] ?? ''}` !== run.id) {
    if (what === 'after') throw fail('after', `"${id}" is not an output item of run "${run.id}"`);
    throw noItem(run, id);
  }
  return Number(m[2]);
}

/** `GET …/output_items/{id}`, or 404. */
export async function getItemView(env: Bindings, run: RunRecord, id: string): Promise<OutputItem> {
  const item = await getItem(tenantDb(env, run.tenant), run.id, indexOf(run, id, 'path'));
  if (!item) throw noItem(run, id);
  return viewItem(run, item);
}
