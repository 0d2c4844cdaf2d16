/**
 * @module
 * The exact per-key request rate: each authenticated `/v1` request takes a token from its key's bucket in
 * the tenant's `RateLimiterDO` (durable-objects/rate-limiter/; policy: the tenant's own rate, else
 * `RATE_LIMIT_REQUESTS` per `RATE_LIMIT_WINDOW_SECONDS`). Every response of a limited request carries
 * `RateLimit-Policy` and `RateLimit` (src/tenants/token-bucket.ts); a refused one is 429 `rate_limited` with
 * `Retry-After`. Runs after ./auth.ts; requests it did not give a bucket (operator token, open mode) pass.
 * The tokens are taken through this isolate's {@link Reservations} (./reservations.ts): coalesced, and
 * reserved ahead under load, so a burst is not one object request per API request.
 */
import { createMiddleware } from 'hono/factory';
import { log, messageOf } from '../log/log.js';
import type { RateDecision } from './token-bucket.js';
import { rateLimitHeaders } from './token-bucket.js';
import { Reservations } from './reservations.js';
import { ApiError } from '../http/errors.js';
import type { TenantEnv } from './auth.js';

/** This isolate's reservations, shared by its requests. */
const reservations = new Reservations();

/** Applies the per-key request rate (see the module note). @throws ApiError 429 `rate_limited`. */
export const rateLimit = () =>
  createMiddleware<TenantEnv>(async (c, next) => {
    // Unset on signed paths (webhook receivers), which ./auth.ts leaves alone.
    const auth = c.get('auth') as TenantEnv['Variables']['auth'] | undefined;
    const policy = auth?.limits?.rateLimit;
    if (!auth?.rateKey || !policy) return next();
    let decision: RateDecision;
    try {
      const limiter = c.env.RATE_LIMITER.get(c.env.RATE_LIMITER.idFromName(c.var.tenant));
      const key = auth.rateKey;
      decision = await reservations.take(
        `${c.var.tenant}\u0000${key}`,
        policy,
        (want, returned) => limiter.reserve(key, policy, want, returned),
        (reservation) => {
          c.executionCtx.waitUntil(reservation);
        },
      );
    } catch (e) {
      // Availability first: a limiter that cannot answer lets the request through, loudly.
      log('error', 'ratelimit.unavailable', { tenant: c.var.tenant, error: messageOf(e) });
      return next();
    }
    const headers = rateLimitHeaders(policy, decision);
    if (!decision.allowed) {
      throw new ApiError(
        429,
        'rate_limited',
        `this key's request rate (${policy.requests} per ${policy.windowSeconds} s) is used up; retry after ${decision.retryAfterSeconds} s`,
        undefined,
        { headers },
      );
    }
    await next();
    // After the handler: also on its errors, and on responses it did not build itself (the events stream).
    if (c.res.status !== 101) for (const [name, value] of Object.entries(headers)) c.header(name, value);
  });
