/**
 * @module
 * Reading an evaluation's task and verdict where they are kept. The task (./task-rows.ts): D1 while it waits for
 * its object (or inline, for rows written before), else the evaluation's own Durable Object. The verdict's JSON
 * (./ending.ts, `verdictKeptInD1`): D1's `verdict_texts` where D1 aggregates over it (and for rows written
 * before), else the object alone. Readers of many evaluations (batch results, an annotation queue's
 * `fromEvaluations`) ask the objects in bounded parallel pages of {@link CONTENT_READS_AT_ONCE}, at the pace of
 * object reads their caller passes (./read-pace.ts: the local runtime's SQLite heap holds only so many resident
 * objects; deployed, unpaced).
 */
import type { StoredContent } from './rpc.js';
import type { EvaluationNamespaceEnv, EvaluationObject } from './stub.js';
import { evaluationStub } from './stub.js';
import { d1TaskText } from './task-rows.js';
import type { ReadPace } from './read-pace.js';

/** Most objects asked for their content at once by one reader of many evaluations (16). */
export const CONTENT_READS_AT_ONCE = 16;

/** The task or verdict JSON text evaluation `id`'s object holds, or null (never started there, or erased). */
async function objectText<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
  what: keyof StoredContent,
): Promise<string | null> {
  return (await evaluationStub(env, id).content())[what];
}

/** JSON text parsed, or null (none, or not JSON). */
function parsedOrNull(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The task evaluation `id`'s object holds, parsed; null when it holds none. For a reader that found D1 keeps
 * none (the archive's batched reads) without reading D1 again.
 */
export async function objectTaskJson<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
): Promise<unknown> {
  return parsedOrNull(await objectText(env, id, 'task'));
}

/**
 * The stored task of evaluation `id` (in `db`, the database its row is in), parsed; null when none is kept
 * (erased, never stored, or not JSON).
 */
export async function readTaskJson<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  db: D1Database,
  id: string,
): Promise<unknown> {
  return parsedOrNull((await d1TaskText(db, id)) ?? (await objectText(env, id, 'task')));
}

/** The verdict JSON (without transcript) evaluation `id`'s object holds, parsed; null when it holds none. */
export async function objectVerdictJson<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
): Promise<unknown> {
  return parsedOrNull(await objectText(env, id, 'verdict'));
}

/**
 * `rows` with `what` filled in from the evaluations' objects where `missing(row)` says D1 did not have it, at
 * most {@link CONTENT_READS_AT_ONCE} objects at a time and at `pace` (./read-pace.ts; null: unpaced); what no
 * one holds stays null.
 */
async function withObjectContent<
  O extends EvaluationObject,
  K extends keyof StoredContent,
  T extends { id: string } & Record<K, string | null>,
>(
  env: EvaluationNamespaceEnv<O>,
  rows: readonly T[],
  what: K,
  missing: (row: T) => boolean,
  pace: ReadPace | null,
): Promise<T[]> {
  const out = [...rows];
  const wanted = out.flatMap((r, i) => (missing(r) ? [i] : []));
  for (let at = 0; at < wanted.length; at += CONTENT_READS_AT_ONCE) {
    const page = wanted.slice(at, at + CONTENT_READS_AT_ONCE);
    const texts = await Promise.all(
      page.map(async (i) => {
        await pace?.take();
        return objectText(env, out[i]?.id ?? '', what);
      }),
    );
    page.forEach((i, k) => {
      const row = out[i];
      if (row) out[i] = { ...row, [what]: texts[k] ?? null };
    });
  }
  return out;
}

/**
 * `rows` with every task D1 did not have (`task` null: their objects hold them) read from the evaluations'
 * objects, a bounded page at a time; a task no one holds stays null.
 * @param pace the pace of object reads (./read-pace.ts `objectReadPaceOf`); null: unpaced
 */
export function withObjectTasks<O extends EvaluationObject, T extends { id: string; task: string | null }>(
  env: EvaluationNamespaceEnv<O>,
  rows: readonly T[],
  pace: ReadPace | null,
): Promise<T[]> {
  return withObjectContent(env, rows, 'task', (r) => r.task === null, pace);
}

/**
 * `rows` with the verdict JSON of every succeeded, not deleted evaluation D1 keeps none for read from its
 * object, a bounded page at a time; one no one holds stays null.
 * @param pace the pace of object reads (./read-pace.ts `objectReadPaceOf`); null: unpaced
 */
export function withObjectVerdicts<
  O extends EvaluationObject,
  T extends { id: string; status: string; verdict: string | null; deleted_at?: number | null },
>(env: EvaluationNamespaceEnv<O>, rows: readonly T[], pace: ReadPace | null): Promise<T[]> {
  return withObjectContent(
    env,
    rows,
    'verdict',
    (r) => r.verdict === null && r.status === 'succeeded' && (r.deleted_at ?? null) === null,
    pace,
  );
}
