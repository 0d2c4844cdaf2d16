/**
 * @module
 * `Idempotency-Key` on the creates of OpenAI's Evals and Files APIs (`POST /v1/evals`, `…/runs`, `/v1/files`),
 * with the semantics of `POST /v1/evaluations`: the key is the tenant's; the same key with the same body answers
 * what the first request made (header `Idempotent-Replayed: true`), with another body it is 409
 * `idempotency_conflict`. The `openai` SDK retries a POST by itself (twice by default) after a lost answer and
 * sends no key of its own, so a caller's key is what keeps such a retry from creating (and billing) twice.
 */
import { z } from '@hono/zod-openapi';
import { ApiError } from '../http/errors.js';
import { IDEMPOTENT_REPLAYED } from '../http/responses.js';
import { requestHash } from '../http/request-hash.js';

/** A create's `Idempotency-Key` and the hash of what it asks (sha-256 of the canonical JSON). */
export interface IdempotentCreate {
  key: string;
  hash: string;
}

/** The key and hash of a create, or null when it carried no key. `request` is all that makes it what it is. */
export async function idempotentCreate(key: string | undefined, request: unknown): Promise<IdempotentCreate | null> {
  return key === undefined ? null : { key, hash: await requestHash(request) };
}

/**
 * Checks a replay: `earlierHash` is the stored hash of the request that made `id` under `create.key`.
 * @throws ApiError 409 `idempotency_conflict` when this request's body differs.
 */
export function assertSameRequest(create: IdempotentCreate, earlierHash: string | null, id: string): void {
  if (earlierHash !== create.hash) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      `Idempotency-Key "${create.key}" was already used with a different request body (${id})`,
    );
  }
}

/** The headers of a create's 200 that may replay an earlier request (OpenAPI). */
export const REPLAY_HEADERS = z.object({ 'Idempotent-Replayed': IDEMPOTENT_REPLAYED });

/** Sets `Idempotent-Replayed: true` on a replay's answer. */
export function markReplayed(c: { header(name: string, value: string): void }, replayed: boolean): void {
  if (replayed) c.header('Idempotent-Replayed', 'true');
}
