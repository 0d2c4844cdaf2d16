/**
 * @module
 * The archive: ended evaluations moved out of D1 after `ARCHIVE_AFTER_DAYS` (src/retention/archive.ts), kept in
 * the R2 bucket `ARCHIVE` as one JSON object each, so D1 holds only the recent days whatever the retention
 * (docs/scale.md, "The archive"). An object holds what the API answered for the evaluation when it was moved
 * (the evaluation, its task and its transcript), opaque here: the evaluations' routes read it back as their
 * own schemas. Keys:
 * - `evaluations/<tenant>/<id>.json`: the archived evaluation ({@link archiveKey});
 * - `erase/<YYYY-MM-DD>/<tenant>/<id>`: an empty marker on the UTC day its retention ends ({@link eraseKey}),
 *   so the retention cron finds what is due by listing one prefix in key order (R2 lists keys sorted), never
 *   the whole archive. No marker for a tenant that keeps content until deleted.
 * Every step is idempotent: a repeated put overwrites the same keys, an erase of a missing key is a no-op.
 */
import { z } from 'zod';
import type { Bindings } from '../config/bindings.js';

const DAY_MS = 86_400_000;

/** One archived evaluation: what the API answered for it when it was moved. */
export const ArchivedEvaluationSchema = z.object({
  /** Layout version of the object (1). */
  v: z.literal(1),
  id: z.string(),
  tenant: z.string(),
  /** When it ended, epoch ms. */
  finishedAt: z.number(),
  /** When it was moved here, epoch ms. */
  archivedAt: z.number(),
  /** When its retention ends, epoch ms (null: kept until deleted). A read at or after it answers as erased. */
  eraseAt: z.number().nullable(),
  /**
   * When `DELETE` erased it, epoch ms: the object then keeps no content, only this mark (so a repeated DELETE
   * still finds it), until its marker's day erases it too. Absent until then.
   */
  deletedAt: z.number().optional(),
  /** `GET /v1/evaluations/{id}`'s body. */
  evaluation: z.unknown(),
  /** `GET /v1/evaluations/{id}/task`'s body. */
  task: z.unknown(),
  /** `GET /v1/evaluations/{id}/transcript`'s body. */
  transcript: z.unknown(),
});
/** An archived evaluation as stored. */
export type ArchivedEvaluation = z.infer<typeof ArchivedEvaluationSchema>;

/** The object key of evaluation `id` of `tenant`. */
export function archiveKey(tenant: string, id: string): string {
  return `evaluations/${tenant}/${id}.json`;
}

/**
 * The marker key of an erasure due at `eraseAt` (epoch ms): the first UTC midnight at or after it, first, so keys
 * sort by due day and a marker is never acted on before its evaluation's retention has ended.
 */
export function eraseKey(eraseAt: number, tenant: string, id: string): string {
  return `erase/${dayOf(Math.ceil(eraseAt / DAY_MS) * DAY_MS)}/${tenant}/${id}`;
}

/** The UTC day of `ms` (epoch ms), `YYYY-MM-DD`. */
function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Stores `record` (and its erasure marker), overwriting an earlier copy: a repeated move writes the same. */
export async function putArchived(env: Bindings, record: ArchivedEvaluation): Promise<void> {
  await env.ARCHIVE.put(archiveKey(record.tenant, record.id), JSON.stringify(record), {
    httpMetadata: { contentType: 'application/json' },
  });
  if (record.eraseAt !== null) await env.ARCHIVE.put(eraseKey(record.eraseAt, record.tenant, record.id), '');
}

/**
 * The archived evaluation `id` of `tenant`, or null when there is none, or its retention has ended (`now`,
 * epoch ms): the retention cron erases it within a day, and it reads as erased meanwhile.
 */
export async function getArchived(
  env: Bindings,
  tenant: string,
  id: string,
  now = Date.now(),
): Promise<ArchivedEvaluation | null> {
  const object = await env.ARCHIVE.get(archiveKey(tenant, id));
  if (!object) return null;
  const parsed = ArchivedEvaluationSchema.safeParse(await object.json());
  if (!parsed.success) throw new Error(`archived evaluation ${id} is not readable: ${parsed.error.message}`);
  if (parsed.data.deletedAt !== undefined) return null;
  if (parsed.data.eraseAt !== null && now >= parsed.data.eraseAt) return null;
  return parsed.data;
}

/**
 * Erases the content of the archived evaluation `id` of `tenant` (`DELETE /v1/evaluations/{id}`): the object
 * keeps only its ids, times and deletion mark, so a repeated DELETE answers as the first did; its retention
 * marker erases the rest. Idempotent.
 * @returns whether there was one (erased now or before).
 */
export async function eraseArchived(env: Bindings, tenant: string, id: string, now = Date.now()): Promise<boolean> {
  const key = archiveKey(tenant, id);
  const object = await env.ARCHIVE.get(key);
  if (!object) return false;
  const stored = ArchivedEvaluationSchema.safeParse(await object.json());
  if (!stored.success) throw new Error(`archived evaluation ${id} is not readable: ${stored.error.message}`);
  if (stored.data.deletedAt !== undefined) return true;
  const erased: ArchivedEvaluation = {
    ...stored.data,
    evaluation: null,
    task: null,
    transcript: null,
    deletedAt: now,
  };
  await env.ARCHIVE.put(key, JSON.stringify(erased), { httpMetadata: { contentType: 'application/json' } });
  return true;
}

/**
 * Erases up to `limit` archived evaluations whose marker's day has begun by `now` (epoch ms), so whose retention
 * has ended (the markers listed in key order, so by due day), with their markers.
 * @returns how many it erased.
 */
export async function eraseDueArchived(env: Bindings, now: number, limit: number): Promise<number> {
  const today = `erase/${dayOf(now)}`;
  const listed = await env.ARCHIVE.list({ prefix: 'erase/', limit });
  const due = listed.objects
    .map((o) => o.key)
    .filter((k) => k.slice(0, today.length) <= today)
    .map((k) => k.split('/'))
    .filter((parts) => parts.length === 4);
  if (due.length === 0) return 0;
  const keys = due.flatMap(([, day, tenant, id]) => [
    archiveKey(tenant ?? '', id ?? ''),
    `erase/${day ?? ''}/${tenant ?? ''}/${id ?? ''}`,
  ]);
  await env.ARCHIVE.delete(keys);
  return due.length;
}

/** The erasure time of an evaluation that ended at `finishedAt` under `retentionDays` (0: kept, null). */
export function eraseAtOf(finishedAt: number, retentionDays: number): number | null {
  return retentionDays > 0 ? finishedAt + retentionDays * DAY_MS : null;
}
