/**
 * @module
 * A tenant that stores no content (`storeContent: false`): once an evaluation has ended, its task texts
 * and transcript are not kept. Each string of the task becomes its sha-256 (hex, `sha256:` prefixed), so a
 * caller can still match a task it holds; the transcript rows and the evaluation object's storage (its
 * replies) go, and so does an error's message (it can quote a reply); the verdict, the task's kind, the
 * metadata, the error's code and the usage rows stay. Runs after every ending's
 * commit ({@link ERASE_UNSTORED_CONTENT}, in src/ending-plan.ts), and the retention sweep repeats it for
 * any it missed (an after-commit step is best effort). Idempotent.
 */
import type { Bindings } from '../config/bindings.js';
import type { AfterCommit, FinalWriteStep } from '../evaluations/ending.js';
import { log, messageOf } from '../log/log.js';
import { evaluationStub } from '../evaluations/stub.js';
import { sha256Hex } from '../http/request-hash.js';
import { scrubSql } from '../config/sqlite-scrub.js';
import { eraseTranscriptStatements } from '../evaluations/transcript-rows.js';
import { recordDb } from '../config/d1-shards.js';
import { eraseTaskStatements, ERASED_TASK, taskSql } from '../evaluations/task-rows.js';
import { keepVerdictStatement } from '../evaluations/verdict-rows.js';

/** What an erased error message reads: the code beside it stands. */
export const ERASED_ERROR_MESSAGE = 'erased: this tenant keeps no content (the error code stands)';

/** Prefix of a hashed task string. */
export const HASHED = 'sha256:';

/** The task JSON with each string but `kind` replaced by its sha-256 (already hashed strings kept). */
export async function hashedTask(taskJson: string): Promise<string> {
  const walk = async (v: unknown, key: string | null): Promise<unknown> => {
    if (typeof v === 'string') return key === 'kind' || v.startsWith(HASHED) ? v : HASHED + (await sha256Hex(v));
    if (Array.isArray(v)) return Promise.all(v.map((x) => walk(x, null)));
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(
        await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await walk(x, k)] as const)),
      );
    return v;
  };
  return JSON.stringify(await walk(JSON.parse(taskJson) as unknown, null));
}

/**
 * Erases the content of ended evaluation `id` when its tenant stores none (see the module note).
 * @returns whether it erased anything.
 */
export async function eraseUnstoredContent(env: Bindings, id: string, now = Date.now()): Promise<boolean> {
  const db = await recordDb(env, id);
  const row = await db
    .prepare(
      `SELECT ${taskSql('e')} AS task FROM evaluations e JOIN tenants t ON t.id = e.tenant
     WHERE e.id = ? AND t.store_content = 0 AND e.deleted_at IS NULL AND e.finished_at IS NOT NULL
       AND e.content_erased_at IS NULL`,
    )
    .bind(id)
    .first<{ task: string | null }>();
  if (!row) return false;
  const stub = evaluationStub(env, id);
  // The object holds the task once it started (src/evaluations/task-rows.ts), and the verdict (a copy in D1 only
  // where D1's queries read it: src/evaluations/verdict-rows.ts). The verdict is kept: into D1 before the erase.
  const held = await stub.content();
  const task = row.task ?? held.task ?? ERASED_TASK;
  if (held.verdict !== null) await keepVerdictStatement(db, id, held.verdict).run();
  // The object first: its replies are the transcript's source. The hashed task is kept on the row.
  await stub.erase(id);
  await db.batch([
    ...eraseTranscriptStatements(db, id),
    ...eraseTaskStatements(db, id),
    // Overwritten in place first, so the file's free space keeps no copy (src/config/sqlite-scrub.ts).
    db.prepare(scrubSql('evaluations', ['task', 'error_message'], 'id = ? AND deleted_at IS NULL')).bind(id),
    // An error's message can quote a reply (an unparsed one, a provider's body): it goes too; its code stays.
    db
      .prepare(
        `UPDATE evaluations SET task = ?, content_erased_at = ?,
         error_message = CASE WHEN error_message IS NULL THEN NULL ELSE ? END
       WHERE id = ? AND deleted_at IS NULL`,
      )
      .bind(await hashedTask(task), now, ERASED_ERROR_MESSAGE, id),
  ]);
  return true;
}

/**
 * Up to `limit` ended evaluations of tenants that store no content whose content is still there (an
 * after-commit step that failed, or one that ended before the tenant's mode changed): those outside a batch by
 * `evaluations_retention`, then a batch's items through the tenant's batches whose items retention has not erased
 * yet (`evaluations_batch`: a batch's items are in no index by their end, migration 0041).
 */
export async function unerasedContent(db: D1Database, limit: number): Promise<string[]> {
  const { results } = await db
    .prepare(
      `SELECT e.id AS id FROM evaluations e JOIN tenants t ON t.id = e.tenant
       WHERE t.store_content = 0 AND e.deleted_at IS NULL AND e.finished_at IS NOT NULL AND e.batch_id IS NULL
         AND e.content_erased_at IS NULL
       ORDER BY e.finished_at LIMIT ?`,
    )
    .bind(limit)
    .all<{ id: string }>();
  if (results.length >= limit) return results.map((r) => r.id);
  const items = await db
    .prepare(
      `SELECT e.id AS id FROM tenants t CROSS JOIN batches b INDEXED BY batches_tenant_created ON b.tenant = t.id
         CROSS JOIN evaluations e INDEXED BY evaluations_batch ON e.batch_id = b.id
       WHERE t.store_content = 0 AND b.items_erased_at IS NULL AND e.deleted_at IS NULL AND e.finished_at IS NOT NULL
         AND e.content_erased_at IS NULL
       ORDER BY e.finished_at LIMIT ?`,
    )
    .bind(limit - results.length)
    .all<{ id: string }>();
  return [...results, ...items.results].map((r) => r.id);
}

/** The ending's after-commit step of {@link eraseUnstoredContent}. */
export const ERASE_UNSTORED_CONTENT: AfterCommit = {
  name: "a tenant that stores no content: the task's texts and the transcript erased",
  run: eraseUnstoredContent,
};

/**
 * The same in the final write (the common ending, which runs no after-commit step when it has no webhook):
 * the tenant's mode is read in the write's own transaction, returned by its status update (no statement of its
 * own), and the erasure follows its commit at once. A status update that changed nothing returns nothing: that
 * write runs the after-commit steps, {@link ERASE_UNSTORED_CONTENT} among them.
 */
export const ERASE_UNSTORED_CONTENT_AFTER_FINAL: FinalWriteStep = {
  name: "a tenant that stores no content: the task's texts and the transcript erased after the verdict",
  prepare: (_db, ending) => ({
    statements: [],
    returning: '(SELECT store_content FROM tenants WHERE id = evaluations.tenant) = 0',
    then: (_results, unstored) => {
      if (unstored !== 1) return () => Promise.resolve();
      return async (env) => {
        try {
          await eraseUnstoredContent(env, ending.id);
        } catch (e) {
          // The retention sweep's next run erases it.
          log('warn', 'retention.content_erase_deferred', { evaluationId: ending.id, error: messageOf(e) });
        }
      };
    },
  }),
};
