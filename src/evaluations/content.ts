/**
 * @module
 * Reading an evaluation's task where it is kept (./task-rows.ts): D1 while it waits for its object (or inline,
 * for rows written before), else the evaluation's own Durable Object. Readers of many evaluations (an annotation
 * queue's `fromEvaluations`) ask the objects in bounded parallel pages of {@link CONTENT_READS_AT_ONCE}.
 */
import type { EvaluationNamespaceEnv, EvaluationObject } from './stub.js';
import { evaluationStub } from './stub.js';
import { d1TaskText } from './task-rows.js';

/** Most objects asked for their content at once by one reader of many evaluations (16). */
export const CONTENT_READS_AT_ONCE = 16;

/** The task JSON text its object holds, or null (never started there, or erased). */
async function objectTaskText<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
): Promise<string | null> {
  return (await evaluationStub(env, id).content()).task;
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
  return parsedOrNull(await objectTaskText(env, id));
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
  return parsedOrNull((await d1TaskText(db, id)) ?? (await objectTaskText(env, id)));
}

/**
 * `rows` with every task D1 did not have (`task` null: their objects hold them) read from the evaluations'
 * objects, at most {@link CONTENT_READS_AT_ONCE} at a time; a task no one holds stays null.
 */
export async function withObjectTasks<O extends EvaluationObject, T extends { id: string; task: string | null }>(
  env: EvaluationNamespaceEnv<O>,
  rows: readonly T[],
): Promise<T[]> {
  const out = [...rows];
  const missing = out.flatMap((r, i) => (r.task === null ? [i] : []));
  for (let at = 0; at < missing.length; at += CONTENT_READS_AT_ONCE) {
    const page = missing.slice(at, at + CONTENT_READS_AT_ONCE);
    const texts = await Promise.all(page.map((i) => objectTaskText(env, out[i]?.id ?? '')));
    page.forEach((i, k) => {
      const row = out[i];
      if (row) out[i] = { ...row, task: texts[k] ?? null };
    });
  }
  return out;
}
