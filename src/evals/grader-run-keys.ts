/**
 * @module
 * `Idempotency-Key` on `POST /v1/fine_tuning/alpha/graders/run`. A grader run makes no resource to find again,
 * so the key keeps the answer (`grader_run_keys`, migration 0047): the request claims its key before grading,
 * stores the response after, and a retry with the same key and body answers that response (header
 * `Idempotent-Replayed: true`) without asking any LLM again. The `openai` SDK retries a POST by itself and sends
 * no key of its own, so without a caller's key each retry grades, and bills, again.
 * - The same key with another body: 409 `idempotency_conflict`; while the first request still runs: 409
 *   `idempotency_conflict` saying so, marked for a retry (`x-should-retry: true`, `retry-after-ms`
 *   {@link RUNNING_RETRY_MS}: every other 409 says not to), so the `openai` SDK's own retry of a POST whose answer
 *   it lost waits, then gets the first request's answer instead of a `ConflictError`.
 * - A run that throws (such as 503 `llm_not_configured`: no answer was given) releases its claim, so a retry
 *   may run. A claim left by a request that died mid-run is taken over by a retry after
 *   {@link CLAIM_STALE_MS}.
 * - A key is kept {@link KEY_TTL_MS} from its claim (OpenAI's and Stripe's keys live 24 hours too); each claim
 *   deletes up to {@link PRUNE_PAGE} of the tenant's expired keys in the same D1 batch.
 */
import { ApiError } from '../http/errors.js';
import { requestHash } from '../http/request-hash.js';

/** How long a key answers its stored response, from its claim: 24 hours (ms). */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** After how long a claim with no response is taken to be dead (its request ended without storing): 10 min (ms). */
export const CLAIM_STALE_MS = 10 * 60 * 1000;

/** How long a retry of a key whose first request still runs is told to wait: 2,000 ms (`retry-after-ms`). */
export const RUNNING_RETRY_MS = 2_000;

/** The tenant's expired keys one claim deletes at most: 10. */
export const PRUNE_PAGE = 10;

/** A claimed key: what stores or releases it. */
export interface GraderRunClaim {
  key: string;
  hash: string;
  claimedAt: number;
}

/** What a key found: a claim of its own, or the response stored under it (a replay). */
export type KeyOutcome<R> = { claim: GraderRunClaim } | { replay: R };

/**
 * Claims `key` for a request with body `body`, or finds what an earlier request with it answered.
 * @param now epoch ms (tests pass rows' times)
 * @throws ApiError 409 `idempotency_conflict`: the key with another body, or its first request still running.
 */
export async function claimGraderRunKey<R>(
  db: D1Database,
  tenant: string,
  key: string,
  body: unknown,
  now: number = Date.now(),
): Promise<KeyOutcome<R>> {
  const hash = await requestHash(body);
  const expired = now - KEY_TTL_MS;
  const [, claimed] = await db.batch([
    db
      .prepare(
        `DELETE FROM grader_run_keys WHERE rowid IN
           (SELECT rowid FROM grader_run_keys WHERE tenant = ? AND created_at < ? ORDER BY created_at LIMIT ?)`,
      )
      .bind(tenant, expired, PRUNE_PAGE),
    // A new key, an expired one, or a dead claim of the same body is ours to run.
    db
      .prepare(
        `INSERT INTO grader_run_keys (tenant, idempotency_key, request_hash, response, created_at)
         VALUES (?1, ?2, ?3, NULL, ?4)
         ON CONFLICT (tenant, idempotency_key) DO UPDATE
           SET request_hash = excluded.request_hash, response = NULL, created_at = excluded.created_at
           WHERE grader_run_keys.created_at < ?5
              OR (grader_run_keys.response IS NULL AND grader_run_keys.created_at < ?6
                  AND grader_run_keys.request_hash = excluded.request_hash)`,
      )
      .bind(tenant, key, hash, now, expired, now - CLAIM_STALE_MS),
  ]);
  if ((claimed?.meta.changes ?? 0) > 0) return { claim: { key, hash, claimedAt: now } };
  const held = await db
    .prepare(`SELECT request_hash, response FROM grader_run_keys WHERE tenant = ? AND idempotency_key = ?`)
    .bind(tenant, key)
    .first<{ request_hash: string; response: string | null }>();
  // Deleted between the two statements (expired and pruned by another claim): a rare race, and a retry claims it.
  if (!held || held.request_hash !== hash) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      held
        ? `Idempotency-Key "${key}" was already used with a different request body (a grader run)`
        : `Idempotency-Key "${key}" changed hands while this request read it: retry`,
    );
  }
  if (held.response === null) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      `a grader run with Idempotency-Key "${key}" is still running: retry once it has answered`,
      undefined,
      {
        headers: {
          'x-should-retry': 'true',
          'retry-after-ms': String(RUNNING_RETRY_MS),
          'Retry-After': String(Math.ceil(RUNNING_RETRY_MS / 1000)),
        },
      },
    );
  }
  return { replay: JSON.parse(held.response) as R };
}

/** Stores the response of the run that holds `claim`, which retries with its key answer from then on. */
export async function storeGraderRun(
  db: D1Database,
  tenant: string,
  claim: GraderRunClaim,
  response: unknown,
): Promise<void> {
  await db
    .prepare(
      `UPDATE grader_run_keys SET response = ?
       WHERE tenant = ? AND idempotency_key = ? AND created_at = ? AND response IS NULL`,
    )
    .bind(JSON.stringify(response), tenant, claim.key, claim.claimedAt)
    .run();
}

/** Releases `claim` after its run failed (nothing graded), so a retry with its key runs; a taken-over claim stays. */
export async function releaseGraderRun(db: D1Database, tenant: string, claim: GraderRunClaim): Promise<void> {
  await db
    .prepare(
      `DELETE FROM grader_run_keys WHERE tenant = ? AND idempotency_key = ? AND created_at = ? AND response IS NULL`,
    )
    .bind(tenant, claim.key, claim.claimedAt)
    .run();
}
