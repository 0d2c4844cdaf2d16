/**
 * @module
 * The API's D1 reads of evaluations: by id (always scoped to the tenant), by idempotency key, the verdict and
 * usage sums. The idempotent insert: ./insert-rows.ts. Transcript rows: ./transcript-rows.ts; the pipeline's writes: ./job-rows.ts and ./ending.ts.
 * Times are epoch milliseconds; JSON columns hold documents validated by the API's zod schemas.
 */
import type { EvaluationStatus } from './status.js';
import type { FlexFallback, Tier } from '../llm/tiers.js';
import { bookedOfRowSql, bookedSumsSql } from '../tenants/usage-rollup.js';
import type { Guarantee } from '../metrics/certify.js';
import type { EvaluationSource } from './source.js';
import { sourceOfText } from './source.js';
import { taskKindSql } from './task-rows.js';

/** What an evaluation records of the rubric it judged by (src/rubrics): the content's hash, and the stored rubric. */
export interface RubricStampRecord {
  /** The rubric (`rb_…`); absent for an inline rubric. */
  id?: string;
  /** The version; absent for an inline rubric. */
  version?: number;
  /** sha-256 hex of the content the judge used. */
  hash: string;
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

/** The columns of an {@link EvaluationRow}, over `evaluations`. */
const COLUMNS = `id, tenant, status, method, preset, ${taskKindSql('evaluations')} AS task_kind, metadata,
  idempotency_key, request_hash, meta_id, batch_id, item_id, calls_done, calls_planned, error_code, error_message,
  created_at, updated_at, started_at, finished_at, deleted_at, tier, flex_fallback, rubric_hash, rubric_id, rubric_version,
  cache_mode, cache_from, cache_saved_usd, source,
  COALESCE(certify, (SELECT b.certify FROM batches b WHERE b.id = evaluations.batch_id)) AS certify`;

const SELECT = `SELECT ${COLUMNS} FROM evaluations`;

/**
 * What {@link readWithResultsStatements} reads (the row, its verdict text and its usage sums), as the RETURNING terms
 * of an update of the row: the final write's status update returns the ended row for a caller waiting on it (read
 * with {@link withResultsTextOf}), with no statement of its own.
 */
export const READ_BACK_RETURNING = `${COLUMNS},
  (SELECT verdict FROM verdict_texts WHERE evaluation_id = evaluations.id) AS verdict_text, ${bookedOfRowSql('evaluations')}`;

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
