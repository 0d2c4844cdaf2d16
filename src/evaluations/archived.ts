/**
 * @module
 * Reading an evaluation wherever it is: in D1 while recent, in the archive (src/archive/store.ts) once the
 * sweeper moved it there (`ARCHIVE_AFTER_DAYS`). `GET /v1/evaluations/{id}`, its task and its transcript read
 * through here, so a move changes none of their answers.
 */
import type { z } from 'zod';
import type { Bindings } from '../config/bindings.js';
import { recordDbOf } from '../config/d1-shards.js';
import { ApiError } from '../http/errors.js';
import type { ArchivedEvaluation } from '../archive/store.js';
import { getArchived } from '../archive/store.js';
import type { EvaluationRecord, EvaluationWithResults } from './rows.js';
import { getEvaluation, readWithResults } from './rows.js';
import type { Evaluation } from './schemas.js';
import { EvaluationSchema, EvaluationTaskSchema, TranscriptSchema } from './schemas.js';

/** An evaluation found in D1 (`row`) or in the archive (`archived`). */
export type FoundEvaluation = { row: EvaluationRecord; archived: null } | { row: null; archived: ArchivedEvaluation };

/**
 * The evaluation `id` of `tenant` from D1, else from the archive.
 * @throws ApiError 404 `not_found` when neither holds it, or it was deleted (or its retention ended).
 */
export async function findEvaluation(env: Bindings, tenant: string, id: string): Promise<FoundEvaluation> {
  const row = await getEvaluation(recordDbOf(env, tenant, id), tenant, id);
  if (row?.deletedAt === null) return { row, archived: null };
  return { row: null, archived: await archivedOr404(env, tenant, id, row !== null) };
}

/** An evaluation found in D1 with its verdict and usage sums (`read`), or in the archive (`archived`). */
export type FoundWithResults =
  { read: EvaluationWithResults; archived: null } | { read: null; archived: ArchivedEvaluation };

/**
 * {@link findEvaluation} with the row's verdict and usage sums read in the same D1 statement
 * (`readWithResults`), for `GET /v1/evaluations/{id}`: one D1 round trip instead of two (three once it
 * succeeded), which a client polling its running evaluations pays on every poll.
 * @throws ApiError 404 `not_found` as {@link findEvaluation}.
 */
export async function findEvaluationWithResults(env: Bindings, tenant: string, id: string): Promise<FoundWithResults> {
  const read = await readWithResults(recordDbOf(env, tenant, id), tenant, id);
  if (read?.row.deletedAt === null) return { read, archived: null };
  return { read: null, archived: await archivedOr404(env, tenant, id, read !== null) };
}

/** The archived copy of an evaluation D1 does not show; `tombstone` when D1 has its deleted row. */
async function archivedOr404(
  env: Bindings,
  tenant: string,
  id: string,
  tombstone: boolean,
): Promise<ArchivedEvaluation> {
  // A move leaves a tombstone for a moment between erasing the D1 copy and deleting the row.
  const archived = await getArchived(env, tenant, id);
  if (archived) return archived;
  throw new ApiError(404, 'not_found', tombstone ? `evaluation "${id}" was deleted` : `no evaluation "${id}"`);
}

/** An archived evaluation's `GET /v1/evaluations/{id}` body, checked against today's schema. */
export function archivedEvaluation(a: ArchivedEvaluation): Evaluation {
  return EvaluationSchema.parse(a.evaluation);
}

/** An archived evaluation's task body. */
export function archivedTask(a: ArchivedEvaluation): z.infer<typeof EvaluationTaskSchema> {
  return EvaluationTaskSchema.parse(a.task);
}

/** An archived evaluation's transcript body. */
export function archivedTranscript(a: ArchivedEvaluation): z.infer<typeof TranscriptSchema> {
  return TranscriptSchema.parse(a.transcript);
}
