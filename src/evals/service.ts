/**
 * @module
 * Eval use cases behind the thin route handlers (./routes.ts): create (the data source config and every
 * grader checked first; `Idempotency-Key` honoured), retrieve, list, update (name, metadata), delete (with its runs).
 */
import type { Bindings } from '../config/bindings.js';
import { ApiError } from '../http/errors.js';
import { randomBase32 } from '../tenants/ids.js';
import { checkGraders } from './grader-check.js';
import type { EvalRecord } from './rows.js';
import { deleteEval, findEvalByKey, getEval, insertEval, listEvals, updateEval } from './rows.js';
import { deleteEvalRunsStatements, UNENDED, unendedRuns } from './run-rows.js';
import { runEnded, runEndEventStatements } from './run-events.js';
import { withdrawWaves } from './run-waves.js';
import type { CreateEvalRequest, DataSourceConfigInput, Eval, EvalMetadata } from './schemas.js';
import { tenantDb } from '../config/d1-shards.js';
import { listPage } from '../openai/list-page.js';
import type { IdempotentCreate } from '../openai/idempotency.js';
import { idempotentCreate, replayOf } from '../openai/idempotency.js';

/** The JSON Schema of the sample a run generates (`{{sample.*}}`). */
export const SAMPLE_SCHEMA = {
  type: 'object',
  properties: {
    model: { type: 'string' },
    output_text: { type: 'string' },
    output_json: { type: 'object' },
  },
  required: ['model', 'output_text'],
};

/** A new eval id: `eval_` and 24 base32 characters. */
function newEvalId(): string {
  return `eval_${randomBase32(24)}`;
}

/** What `data_source_config` the API answers with: item (and sample) schema under one object schema. */
function answeredConfig(config: DataSourceConfigInput & { item_schema: Record<string, unknown> }) {
  const sample = config.include_sample_schema === true;
  return {
    type: 'custom' as const,
    schema: {
      type: 'object',
      properties: { item: config.item_schema, ...(sample ? { sample: SAMPLE_SCHEMA } : {}) },
      required: sample ? ['item', 'sample'] : ['item'],
    },
  };
}

/** The item schema and whether a sample is expected, from a stored eval's config. */
export function scopeOf(record: Pick<EvalRecord, 'dataSourceConfig'>): {
  itemSchema: Record<string, unknown> | null;
  sample: boolean;
} {
  const schema = record.dataSourceConfig.schema as { properties?: Record<string, unknown> } | undefined;
  const item = schema?.properties?.item;
  return {
    itemSchema: typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : null,
    sample: schema?.properties?.sample !== undefined,
  };
}

/** The data source config checked: `custom` with an `item_schema`. @throws ApiError 400 naming the field. */
function checkConfig(config: DataSourceConfigInput): DataSourceConfigInput & { item_schema: Record<string, unknown> } {
  if (config.type !== 'custom') {
    const message =
      `data_source_config.type: "${config.type}" reads OpenAI's stored ${config.type === 'logs' ? 'logs' : 'chat completions'}, ` +
      'which Tribunal does not hold: send {"type": "custom", "item_schema": {…}} and give the items in each run ' +
      '(data_source "jsonl" with file_content or file_id, or "completions" to sample a model first)';
    throw new ApiError(400, 'invalid_request', message, [{ path: 'data_source_config.type', message }]);
  }
  if (!config.item_schema) {
    const message = 'required for "custom": the JSON Schema of one item (templates read its properties)';
    throw new ApiError(400, 'invalid_request', `data_source_config.item_schema: ${message}`, [
      { path: 'data_source_config.item_schema', message },
    ]);
  }
  return { ...config, item_schema: config.item_schema };
}

/** An eval as the API answers it. */
export function viewEval(r: EvalRecord): Eval {
  return {
    object: 'eval',
    id: r.id,
    name: r.name,
    created_at: Math.floor(r.createdAt / 1000),
    data_source_config: r.dataSourceConfig as Eval['data_source_config'],
    testing_criteria: r.testingCriteria as Eval['testing_criteria'],
    metadata: r.metadata,
  };
}

/**
 * Checks and stores a new eval. With an `Idempotency-Key`, the same key and body answer the eval made first
 * (`replayed`) and nothing is stored.
 * @throws ApiError 400 `invalid_request` (a config or grader field, named), `unsupported_grader` (python);
 *   404 when the eval the key made was deleted; 409 `idempotency_conflict` (the key with another body).
 */
export async function createEval(
  env: Bindings,
  tenant: string,
  request: CreateEvalRequest,
  idempotencyKey?: string,
): Promise<{ eval: Eval; replayed: boolean }> {
  const db = tenantDb(env, tenant);
  const idem = await idempotentCreate(idempotencyKey, request);
  const earlier = idem && (await replayed(db, tenant, idem));
  if (earlier) return { eval: earlier, replayed: true };
  const config = checkConfig(request.data_source_config);
  const criteria = checkGraders(request.testing_criteria, 'testing_criteria', {
    itemSchema: config.item_schema,
    sample: config.include_sample_schema === true,
    requireThreshold: true,
  });
  const now = Date.now();
  const record: EvalRecord = {
    id: newEvalId(),
    tenant,
    name: request.name ?? '',
    dataSourceConfig: answeredConfig(config),
    testingCriteria: criteria,
    metadata: request.metadata ?? null,
    createdAt: now,
    updatedAt: now,
  };
  if (await insertEval(db, record, idem)) return { eval: viewEval(record), replayed: false };
  // A concurrent request with the same key stored its eval first.
  const winner = idem && (await replayed(db, tenant, idem));
  if (!winner) throw new Error(`eval insert changed no row and no eval holds key "${idem?.key ?? ''}"`);
  return { eval: winner, replayed: true };
}

/** The eval made earlier under the create's key, as it is now; null when none. @throws ApiError 404, 409. */
async function replayed(db: D1Database, tenant: string, idem: IdempotentCreate): Promise<Eval | null> {
  const earlier = replayOf(idem, await findEvalByKey(db, tenant, idem.key), 'eval');
  return earlier && viewEval(earlier);
}

function noEval(id: string): ApiError {
  return new ApiError(404, 'not_found', `no eval "${id}"`);
}

/** The tenant's eval, or 404 `not_found`. */
export async function requireEval(env: Bindings, tenant: string, id: string): Promise<EvalRecord> {
  const r = await getEval(tenantDb(env, tenant), tenant, id);
  if (!r) throw noEval(id);
  return r;
}

/** `GET /v1/evals`: one page in OpenAI's list shape. */
export async function listEvalsView(
  env: Bindings,
  tenant: string,
  q: { after?: string | undefined; limit: number; order: 'asc' | 'desc'; order_by: 'created_at' | 'updated_at' },
) {
  const rows = await listEvals(tenantDb(env, tenant), tenant, { ...q, orderBy: q.order_by });
  return listPage(rows.slice(0, q.limit).map(viewEval), rows.length > q.limit);
}

/** `POST /v1/evals/{id}`: sets name and/or metadata; 404 when there is no such eval. */
export async function updateEvalView(
  env: Bindings,
  tenant: string,
  id: string,
  patch: { name?: string | undefined; metadata?: EvalMetadata | null | undefined },
): Promise<Eval> {
  const updated = await updateEval(tenantDb(env, tenant), tenant, id, patch, Date.now());
  if (!updated) throw noEval(id);
  return viewEval(updated);
}

/**
 * `DELETE /v1/evals/{id}`: the eval and, in the same transaction, its runs as `DELETE …/runs/{id}` deletes each
 * (their output items and stored model calls erased, a run still going cancelled with its `eval.run.canceled`
 * event); 404 when there is no such eval.
 */
export async function deleteEvalView(env: Bindings, tenant: string, id: string) {
  const db = tenantDb(env, tenant);
  const now = Date.now();
  const unended = await unendedRuns(db, tenant, id);
  const cancels = unended.map((r) => ({
    id: r.id,
    cancelEvent: runEndEventStatements(db, r, 'canceled', null, UNENDED, now),
  }));
  if (!(await deleteEval(db, tenant, id, now, deleteEvalRunsStatements(db, tenant, id, now, cancels)))) {
    throw noEval(id);
  }
  for (const run of unended) {
    if (run.serviceTier === 'batch') await withdrawWaves(env, db, run.id);
    // A run that ended between the read and the delete wrote no event; its log line may repeat its end's.
    await runEnded(env, db, run, 'canceled', null);
  }
  return { object: 'eval.deleted' as const, deleted: true as const, eval_id: id };
}
