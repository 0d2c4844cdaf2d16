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

/** What a create's key found: the thing made under it, the hash of the request that made it, whether deleted since. */
export interface KeyHolder<R> {
  record: R;
  requestHash: string | null;
  deleted: boolean;
}

/**
 * The thing made earlier under the create's key, checked for a replay; null when no thing holds the key.
 * @param what names it in the errors (`eval`, `run`, `file`)
 * @throws ApiError 409 `idempotency_conflict` when this request's body differs; 404 `not_found` when it was deleted
 *   (the key stays held by it, so a late retry never makes a second one).
 */
export function replayOf<R extends { id: string }>(
  create: IdempotentCreate,
  holder: KeyHolder<R> | null,
  what: string,
): R | null {
  if (!holder) return null;
  const id = holder.record.id;
  if (holder.requestHash !== create.hash) {
    throw new ApiError(
      409,
      'idempotency_conflict',
      `Idempotency-Key "${create.key}" was already used with a different request body (${what} ${id})`,
    );
  }
  if (holder.deleted) {
    throw new ApiError(404, 'not_found', `the ${what} "${id}" made with Idempotency-Key "${create.key}" was deleted`);
  }
  return holder.record;
}

/** The headers of a create's 200 that may replay an earlier request (OpenAPI). */
export const REPLAY_HEADERS = z.object({ 'Idempotent-Replayed': IDEMPOTENT_REPLAYED });

/** Sets `Idempotent-Replayed: true` on a replay's answer. */
export function markReplayed(c: { header(name: string, value: string): void }, replayed: boolean): void {
  if (replayed) c.header('Idempotent-Replayed', 'true');
}
