/**
 * @module
 * Bring-your-own-key (`X-LLM-Api-Key`). The job runs later in a Durable Object over several invocations,
 * so a caller's key would have to be stored until the verdict; D1 and queue messages must hold nothing
 * secret, and the DO contract (`start(id)`) carries no key. Until an encrypted, expiring key store
 * exists, BYOK is refused explicitly rather than silently ignored:
 * - `ALLOW_BYOK` ≠ "true" → 400 `byok_disabled`;
 * - `ALLOW_BYOK` = "true" → 501 `byok_not_supported`.
 */
import { createMiddleware } from 'hono/factory';
import { ApiError } from './errors.js';
import type { KernelEnv } from './kernel-env.js';
import { configOf } from '../config/vars.js';

/** Header a caller would send its own provider key in. */
export const BYOK_HEADER = 'X-LLM-Api-Key';

/** Rejects requests carrying {@link BYOK_HEADER} (see the module note for why). */
export const byok = () =>
  createMiddleware<KernelEnv>(async (c, next) => {
    if (c.req.header(BYOK_HEADER) === undefined) return next();
    if (!configOf(c.env).ALLOW_BYOK) {
      throw new ApiError(
        400,
        'byok_disabled',
        `${BYOK_HEADER} is not accepted: this deployment has ALLOW_BYOK disabled; remove the header`,
      );
    }
    throw new ApiError(
      501,
      'byok_not_supported',
      `${BYOK_HEADER} is not supported yet: jobs run asynchronously and the key would have to be stored; remove the header to use the deployment's key`,
    );
  });
