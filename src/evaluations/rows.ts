/**
 * @module
 * The API's D1 access to evaluations: the idempotent insert, reads by id (always scoped to the tenant),
 * the verdict and usage sums. Transcript rows: ./transcript-rows.ts; the pipeline's writes: ./job-rows.ts and ./ending.ts.
 * Times are epoch milliseconds; JSON columns hold documents validated by the API's zod schemas.
 */
import type { EvaluationStatus } from './status.js';
import type { CacheDecision } from '../verdict-cache/plan.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
import { bookedSumsSql } from '../tenants/usage-rollup.js';
import type { Guarantee } from '../metrics/certify.js';
import { configHashOf, storeConfigStatements } from './config-rows.js';
import type { EvaluationSource } from './source.js';
import { sourceOfText, sourceText } from './source.js';
import { insertTasksStatement, taskKindOf, taskKindSql, taskWaitsSql } from './task-rows.js';
import { insertTaskGroupsStatement, taskGroups } from './task-groups.js';

/** What an evaluation records of the rubric it judged by (src/rubrics): the content's hash, and the stored rubric. */
export interface RubricStampRecord {
  /** The rubric (`rb_…`); absent for an inline rubric. */
  id?: string;
  /** The version; absent for an inline rubric. */
  version?: number;
  /** sha-256 hex of the content the judge used. */
  hash: string;
}

/** A new `evaluations` row as the API inserts it (status `queued`). */
export interface NewEvaluation {
  id: string;
  tenant: string;
  method: string;
  preset: string | null;
  /** Resolved method config. */
  config: unknown;
  task: unknown;
  metadata: Record<string, string | number | boolean> | null;
  /** Caller's `Idempotency-Key`, or null. */
  idempotencyKey: string | null;
  /** sha-256 hex of the canonical request (see {@link requestHash}), or null without a key. */
  requestHash: string | null;
  metaId: string | null;
  callsPlanned: number;
  /** One-off callback URL (`webhook.url`, already accepted by the URL guard), or null/absent. */
  webhookUrl?: string | null;
  /** The batch (or meta-evaluation) it is an item of, its position there (0-based) and the caller's item id. */
  batchId?: string | null;
  batchSeq?: number | null;
  itemId?: string | null;
  /** Creation time, epoch ms. */
  now: number;
  /** The managed API key that created it (`key_…`), for usage by key; null or absent otherwise. */
  keyId?: string | null;
  /** What the verdict cache does for it (src/verdict-cache/plan.ts); null or absent: `off`. */
  cacheMode?: CacheDecision | null;
  /** The verdict cache key it reads and writes; null or absent for `off` and `bypass`. */
  cacheKey?: string | null;
  /** The service tier it runs at (src/tiers/); absent: `standard`. */
  tier?: Tier;
  /** What a flex refusal leads to; absent: `standard`. */
  flexFallback?: FlexFallback;
  /** The rubric it judges by (its content is stored by hash in `rubric_contents`); null or absent for none. */
  rubric?: RubricStampRecord | null;
  /** Certified mode's guarantee (src/certify/); null or absent: not certified (a batch item reads its batch's). */
  certify?: Guarantee | null;
  /** The trace, span and monitor it judges (./source.ts); null or absent: none. */
  source?: EvaluationSource | null;
}

/** An `evaluations` row as the API reads it. */
export interface EvaluationRecord {
  id: string;
  tenant: string;
  status: EvaluationStatus;
  method: string;
  preset: string | null;
  /** Task kind, read from the stored task JSON. */
  taskKind: 'pairwise' | 'pointwise' | 'trajectory';
  metadata: Record<string, string | number | boolean> | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  metaId: string | null;
  /** The batch (or meta-evaluation) it belongs to, and the caller's id for it there. */
  batchId: string | null;
  itemId: string | null;
  callsDone: number;
  callsPlanned: number;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** Set once the caller deleted it (./erase-rows.ts): task, metadata, transcript and verdict are gone. */
  deletedAt: number | null;
  /** The verdict cache's mode for it (null: written before the cache, read as `off`). */
  cacheMode: string | null;
  /** On a verdict cache hit: the evaluation whose verdict it took. */
  cacheFrom: string | null;
  /** On a hit: what the cached verdict had cost, USD. */
  cacheSavedUsd: number | null;
  /** The service tier it runs at, and what a flex refusal leads to. */
  tier: Tier;
  flexFallback: FlexFallback;
  /** The rubric it judged by, or null. */
  rubric: RubricStampRecord | null;
  /** Certified mode's guarantee, its own or its batch's; null when not certified. */
  certify: Guarantee | null;
  /** The trace, span and monitor it judges, or null. */
  source: EvaluationSource | null;
}

/** Columns of an insert, in order; {@link insertRowsStatement} binds them. */
const INSERT_COLUMNS = [
  'id',
  'tenant',
  'status',
  'method',
  'preset',
  'config',
  'config_hash',
  'task',
  'task_kind',
  'metadata',
  'idempotency_key',
  'request_hash',
  'meta_id',
  'calls_planned',
  'webhook_url',
  'batch_id',
  'batch_seq',
  'item_id',
  'created_at',
  'updated_at',
  'key_id',
  'cache_mode',
  'cache_key',
  'tier',
  'flex_fallback',
  'rubric_hash',
  'rubric_id',
  'rubric_version',
  'certify',
  'source',
] as const;

/** Bound parameters per inserted evaluation row. */
export const EVALUATION_INSERT_PARAMS = INSERT_COLUMNS.length;

/** Bound values of one new row, in {@link INSERT_COLUMNS} order. */
function insertValues(e: NewEvaluation): (string | number | null)[] {
  return [
    e.id,
    e.tenant,
    'queued',
    e.method,
    e.preset,
    // Stored once by hash (./config-rows.ts): the row keeps the hash, its inline column stays empty.
    '',
    configHashOf(e.config),
    // The task waits in `evaluation_tasks` until its object holds it (./task-rows.ts); the row keeps its kind.
    '',
    taskKindOf(e.task),
    e.metadata ? JSON.stringify(e.metadata) : null,
    e.idempotencyKey,
    e.requestHash,
    e.metaId,
    e.callsPlanned,
    e.webhookUrl ?? null,
    e.batchId ?? null,
    e.batchSeq ?? null,
    e.itemId ?? null,
    e.now,
    e.now,
    e.keyId ?? null,
    e.cacheMode ?? null,
    e.cacheKey ?? null,
    e.tier ?? 'standard',
    e.flexFallback ?? 'standard',
    e.rubric?.hash ?? null,
    e.rubric?.id ?? null,
    e.rubric?.version ?? null,
    e.certify ? JSON.stringify(e.certify) : null,
    sourceText(e.source),
  ];
}

/**
 * One multi-row `INSERT ... ON CONFLICT DO NOTHING` for `rows` (keep rows × {@link EVALUATION_INSERT_PARAMS}
 * ≤ 100, D1's bound-parameter limit per statement).
 */
export function insertRowsStatement(db: D1Database, rows: readonly NewEvaluation[]): D1PreparedStatement {
  const tuple = `(${INSERT_COLUMNS.map(() => '?').join(', ')})`;
  const sql = `INSERT INTO evaluations (${INSERT_COLUMNS.join(', ')}) VALUES ${rows.map(() => tuple).join(', ')} ON CONFLICT DO NOTHING`;
  return db.prepare(sql).bind(...rows.flatMap(insertValues));
}

/** Most UTF-8 bytes of one JSON parameter of {@link insertRowsJsonStatements}: 800,000 (D1 refuses strings over 1,000,000). */
export const INSERT_JSON_CHUNK_BYTES = 800_000;

const encoder = new TextEncoder();

/** Rows as JSON arrays of their {@link insertValues} (then their task's JSON `withTask`), at most {@link INSERT_JSON_CHUNK_BYTES} each, the tasks' group parameter too (a larger row goes alone). */
function jsonChunks(rows: readonly NewEvaluation[], withTask: boolean): { json: string; rows: NewEvaluation[] }[] {
  const chunks: { json: string; rows: NewEvaluation[] }[] = [];
  let current: string[] = [];
  let of: NewEvaluation[] = [];
  let bytes = 2;
  let groupBytes = 2;
  for (const row of rows) {
    // The task JSON rides at the end, past the columns: the tasks' statement reads it there (groups bind their own).
    const json = JSON.stringify(withTask ? [...insertValues(row), JSON.stringify(row.task)] : insertValues(row));
    const size = encoder.encode(json).byteLength + 1;
    // A batch's tasks ride in the chunk's one group parameter instead, escaped once more: that parameter is bounded too.
    const grouped = withTask ? 0 : encoder.encode(JSON.stringify(JSON.stringify(row.task))).byteLength + 8;
    if (
      current.length > 0 &&
      (bytes + size > INSERT_JSON_CHUNK_BYTES || groupBytes + grouped > INSERT_JSON_CHUNK_BYTES)
    ) {
      chunks.push({ json: `[${current.join(',')}]`, rows: of });
      current = [];
      of = [];
      bytes = 2;
      groupBytes = 2;
    }
    current.push(json);
    of.push(row);
    bytes += size;
    groupBytes += grouped;
  }
  if (current.length > 0) chunks.push({ json: `[${current.join(',')}]`, rows: of });
  return chunks;
}

/** The batch every row is an item of, with a position, or null (some row is in no batch or in another). */
function batchOfAll(rows: readonly NewEvaluation[]): string | null {
  const batchId = rows[0]?.batchId ?? null;
  return batchId !== null && rows.every((r) => r.batchId === batchId && typeof r.batchSeq === 'number')
    ? batchId
    : null;
}

/**
 * Bulk inserts (`ON CONFLICT DO NOTHING`) for many rows: each statement expands one JSON parameter (an
 * array of rows, each an array in {@link INSERT_COLUMNS} order) with `json_each`, so hundreds of rows
 * take 1 + `guard.binds` bound parameters instead of {@link EVALUATION_INSERT_PARAMS} each — 1,000
 * small items are one statement. Every statement inserts only while `guard.sql` holds (e.g. "this
 * transaction created the batch"); the rows' configs are stored first, once each (./config-rows.ts). The items
 * of one batch keep their tasks in groups (./task-groups.ts: one D1 row for up to 32 tasks), other rows one
 * `evaluation_tasks` row each. Run them in the caller's `batch()`.
 */
export function insertRowsJsonStatements(
  db: D1Database,
  rows: readonly NewEvaluation[],
  guard: { sql: string; binds: readonly (string | number | null)[] } = { sql: '1', binds: [] },
): D1PreparedStatement[] {
  const select = INSERT_COLUMNS.map((_c, i) => `json_extract(value, '$[${String(i)}]')`).join(', ');
  const sql = `INSERT INTO evaluations (${INSERT_COLUMNS.join(', ')}) SELECT ${select} FROM json_each(?) WHERE ${guard.sql} ON CONFLICT DO NOTHING`;
  const task = `json_extract(value, '$[${String(INSERT_COLUMNS.length)}]')`;
  const tasksSql = `INSERT INTO evaluation_tasks (evaluation_id, task) SELECT json_extract(value, '$[0]'), ${task} FROM json_each(?)
    WHERE ${guard.sql} AND ${taskWaitsSql("json_extract(value, '$[0]')")} ON CONFLICT DO NOTHING`;
  const batchId = batchOfAll(rows);
  const tasks = (chunk: { json: string; rows: NewEvaluation[] }) =>
    batchId === null
      ? db.prepare(tasksSql).bind(chunk.json, ...guard.binds)
      : insertTaskGroupsStatement(
          db,
          batchId,
          taskGroups(chunk.rows.map((r) => ({ seq: r.batchSeq ?? 0, task: JSON.stringify(r.task) }))),
          guard,
        );
  return [
    ...storeConfigStatements(
      db,
      rows.map((r) => r.config),
      rows[0]?.now ?? 0,
    ),
    ...jsonChunks(rows, batchId === null).flatMap((chunk) => [
      db.prepare(sql).bind(chunk.json, ...guard.binds),
      tasks(chunk),
    ]),
  ];
}

/** A column of a new `evaluations` row. */
export type EvaluationInsertColumn = (typeof INSERT_COLUMNS)[number];

/**
 * One `INSERT … SELECT … ON CONFLICT DO NOTHING` of rows computed in SQL: `columns` gives each column of the
 * one column list as an SQL expression over `from` (a `FROM …` clause, optionally with `WHERE`); the `?` of
 * the expressions (in column-list order), then those of `from`, take `binds` in order. For rows expanded
 * in D1 itself (a comparison's pair evaluations), so the Worker never holds them.
 */
export function insertRowsSelectStatement(
  db: D1Database,
  columns: Readonly<Record<EvaluationInsertColumn, string>>,
  from: string,
  binds: readonly (string | number | null)[],
): D1PreparedStatement {
  const select = INSERT_COLUMNS.map((c) => columns[c]).join(',\n  ');
  return db
    .prepare(`INSERT INTO evaluations (${INSERT_COLUMNS.join(', ')}) SELECT ${select} ${from} ON CONFLICT DO NOTHING`)
    .bind(...binds);
}

/**
 * Inserts a queued evaluation. With an idempotency key the partial unique index
 * `(tenant, idempotency_key)` turns a second insert into a no-op, and the row that holds the key is
 * returned instead, so concurrent retries converge on one evaluation.
 * @param after statements run in the same D1 batch right after the insert (one round trip), e.g. taking a
 *   running slot for the new row; their results come back with `inserted: true`.
 * @returns `inserted: true` and the new row, or `inserted: false` and the existing row with that key.
 */
export async function insertEvaluation(
  db: D1Database,
  e: NewEvaluation,
  after: readonly D1PreparedStatement[] = [],
): Promise<{ inserted: true; after: D1Result[] } | { inserted: false; existing: EvaluationRecord }> {
  // Its config first, stored once by hash (./config-rows.ts); the insert's result follows it, then its task's.
  const [, result, , ...rest] = await db.batch([
    ...storeConfigStatements(db, [e.config], e.now),
    insertRowsStatement(db, [e]),
    insertTasksStatement(db, [[e.id, JSON.stringify(e.task)]]),
    ...after,
  ]);
  if (result && result.meta.changes > 0) return { inserted: true, after: rest };
  if (e.idempotencyKey === null) throw new Error(`insert of evaluation ${e.id} changed no row`);
  const existing = await findByIdempotencyKey(db, e.tenant, e.idempotencyKey);
  // Unreachable unless the row was deleted between the two statements.
  if (!existing) throw new Error(`idempotency key conflict but no row for tenant ${e.tenant}`);
  return { inserted: false, existing };
}

interface EvaluationRow {
  id: string;
  tenant: string;
  status: EvaluationStatus;
  method: string;
  preset: string | null;
  task_kind: 'pairwise' | 'pointwise' | 'trajectory';
  metadata: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  meta_id: string | null;
  batch_id: string | null;
  item_id: string | null;
  calls_done: number;
  calls_planned: number;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
  started_at: number | null;
  finished_at: number | null;
  deleted_at: number | null;
  cache_mode: string | null;
  cache_from: string | null;
  cache_saved_usd: number | null;
  tier: Tier;
  flex_fallback: FlexFallback;
  rubric_hash: string | null;
  rubric_id: string | null;
  rubric_version: number | null;
  certify: string | null;
  source: string | null;
}

const SELECT = `SELECT id, tenant, status, method, preset, ${taskKindSql('evaluations')} AS task_kind, metadata,
  idempotency_key, request_hash, meta_id, batch_id, item_id, calls_done, calls_planned, error_code, error_message,
  created_at, updated_at, started_at, finished_at, deleted_at, tier, flex_fallback, rubric_hash, rubric_id, rubric_version,
  cache_mode, cache_from, cache_saved_usd, source,
  COALESCE(certify, (SELECT b.certify FROM batches b WHERE b.id = evaluations.batch_id)) AS certify FROM evaluations`;

/** The rubric stamp of a row's `rubric_*` columns, or null when it judged by none. */
export function rubricStampOf(
  hash: string | null,
  id: string | null,
  version: number | null,
): RubricStampRecord | null {
  if (hash === null) return null;
  return { ...(id !== null ? { id } : {}), ...(version !== null ? { version } : {}), hash };
}

function toRecord(r: EvaluationRow): EvaluationRecord {
  return {
    id: r.id,
    tenant: r.tenant,
    status: r.status,
    method: r.method,
    preset: r.preset,
    taskKind: r.task_kind,
    metadata: r.metadata ? (JSON.parse(r.metadata) as Record<string, string | number | boolean>) : null,
    idempotencyKey: r.idempotency_key,
    requestHash: r.request_hash,
    metaId: r.meta_id,
    batchId: r.batch_id,
    itemId: r.item_id,
    callsDone: r.calls_done,
    callsPlanned: r.calls_planned,
    errorCode: r.error_code,
    errorMessage: r.error_message,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    deletedAt: r.deleted_at,
    cacheMode: r.cache_mode,
    cacheFrom: r.cache_from,
    cacheSavedUsd: r.cache_saved_usd,
    tier: r.tier,
    flexFallback: r.flex_fallback,
    rubric: rubricStampOf(r.rubric_hash, r.rubric_id, r.rubric_version),
    certify: r.certify === null ? null : (JSON.parse(r.certify) as Guarantee),
    source: sourceOfText(r.source),
  };
}

/** The evaluation `id` of `tenant`, deleted or not, or null (another tenant's id reads as absent). */
export async function getEvaluation(db: D1Database, tenant: string, id: string): Promise<EvaluationRecord | null> {
  const row = await db.prepare(`${SELECT} WHERE id = ? AND tenant = ?`).bind(id, tenant).first<EvaluationRow>();
  return row ? toRecord(row) : null;
}

/** The evaluation holding `key` for `tenant`, or null. */
export async function findByIdempotencyKey(
  db: D1Database,
  tenant: string,
  key: string,
): Promise<EvaluationRecord | null> {
  const row = await db
    .prepare(`${SELECT} WHERE tenant = ? AND idempotency_key = ?`)
    .bind(tenant, key)
    .first<EvaluationRow>();
  return row ? toRecord(row) : null;
}

/**
 * The task JSON out of a `taskJsonStatement` (./task-rows.ts) result: null when none is kept (erased, or not JSON), undefined
 * when D1 keeps none because the evaluation's object holds it (./content.ts reads it there).
 */
export function taskJsonOf(result: D1Result | undefined): unknown {
  const row = result?.results[0] as { task: string | null } | undefined;
  if (!row) return null;
  if (row.task === null) return undefined;
  try {
    return JSON.parse(row.task) as unknown;
  } catch {
    return null;
  }
}

/** The stored verdict JSON (without transcript), or null before one is written. */
export async function getVerdictJson(db: D1Database, id: string): Promise<unknown> {
  const row = await db
    .prepare('SELECT verdict FROM verdict_texts WHERE evaluation_id = ?')
    .bind(id)
    .first<{ verdict: string | null }>();
  return row?.verdict ? (JSON.parse(row.verdict) as unknown) : null;
}

/** An evaluation with its verdict JSON and usage sums, as {@link readWithResults} reads them. */
export interface EvaluationWithResults {
  row: EvaluationRecord;
  /** The stored verdict JSON, or null. */
  verdictJson: unknown;
  usage: UsageSums;
}

/**
 * The evaluation, its verdict and its usage sums in ONE D1 statement, or null when `tenant` has no such
 * evaluation. For reads right after an end (`Prefer: wait`), where three round trips per judged item showed
 * in the runtime's CPU.
 */
export async function readWithResults(
  db: D1Database,
  tenant: string,
  id: string,
): Promise<EvaluationWithResults | null> {
  return withResultsOf(await db.batch(readWithResultsStatements(db, tenant, id)));
}

/**
 * The read of {@link readWithResults} (one statement: the row, its verdict text and its usage sums), for a
 * D1 batch that ends the evaluation first (the object's final write, when the API waits for it: the answer's
 * read rides on the write's round trip) or reads more. Parse its result with {@link withResultsOf}. One
 * statement, not three: each statement of a batch costs the runtime a round of its own.
 */
export function readWithResultsStatements(db: D1Database, tenant: string, id: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `SELECT r.*, (SELECT verdict FROM verdict_texts WHERE evaluation_id = r.id) AS verdict_text, u.*
          FROM (${SELECT} WHERE id = ?1 AND tenant = ?2) r, (SELECT ${bookedSumsSql('e')} FROM evaluations e WHERE e.id = ?1) u`,
      )
      .bind(id, tenant),
  ];
}

/** The evaluation with its results out of the result of {@link readWithResultsStatements}; null when it has no row. */
export function withResultsOf(results: readonly (D1Result | undefined)[]): EvaluationWithResults | null {
  const read = withResultsTextOf(results);
  return read && parseResults(read);
}

/** {@link EvaluationWithResults} with the verdict still JSON text: what crosses an RPC boundary (`unknown` cannot). */
export interface EvaluationWithResultsText {
  row: EvaluationRecord;
  /** The stored verdict JSON text, or null. */
  verdictText: string | null;
  usage: UsageSums;
}

/** {@link withResultsOf} without parsing the verdict. */
export function withResultsTextOf([read]: readonly (D1Result | undefined)[]): EvaluationWithResultsText | null {
  const row = read?.results[0] as (EvaluationRow & UsageSumsRow & { verdict_text: string | null }) | undefined;
  if (!row) return null;
  return { row: toRecord(row), verdictText: row.verdict_text, usage: usageSumsOf(row) };
}

/** The verdict of a {@link EvaluationWithResultsText} parsed. */
export function parseResults(read: EvaluationWithResultsText): EvaluationWithResults {
  return {
    row: read.row,
    verdictJson: read.verdictText === null ? null : (JSON.parse(read.verdictText) as unknown),
    usage: read.usage,
  };
}

/** Usage summed over an evaluation's `usage` rows (tokens are counts, cost in USD). */
export interface UsageSums {
  calls: number;
  promptTokens: number;
  completionTokens: number;
  cachedPromptTokens: number;
  estimated: boolean;
  costUsd: number;
  /** USD the provider's prompt cache saved over these calls. */
  cacheSavedUsd: number;
}

/** Sums the per-call usage rows of one evaluation (zeros when none). */
export async function getUsageSums(db: D1Database, id: string): Promise<UsageSums> {
  return usageSumsOf(await usageSumsStatement(db, id).first<UsageSumsRow>());
}

interface UsageSumsRow {
  calls: number;
  p: number;
  c: number;
  k: number;
  e: number;
  cost: number;
  saved: number;
}

function usageSumsStatement(db: D1Database, id: string): D1PreparedStatement {
  return db.prepare(`SELECT ${bookedSumsSql('e')} FROM evaluations e WHERE e.id = ?`).bind(id);
}

function usageSumsOf(row: UsageSumsRow | null | undefined): UsageSums {
  return {
    calls: row?.calls ?? 0,
    promptTokens: row?.p ?? 0,
    completionTokens: row?.c ?? 0,
    cachedPromptTokens: row?.k ?? 0,
    estimated: (row?.e ?? 0) !== 0,
    costUsd: row?.cost ?? 0,
    cacheSavedUsd: row?.saved ?? 0,
  };
}
