/**
 * The per-key request rate: a token bucket per key in the tenant's RateLimiterDO, exact under
 * concurrency; the IETF draft headers on every response of a key (errors included) and 429
 * `rate_limited` with `Retry-After` past it; keys and tenants apart; the flood guard in front.
 */
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { takeToken } from '../../src/tenants/token-bucket.js';
import { drainAlarms, testEnv } from './helpers.js';
import { as, asAdmin, errorOf, keyed, newKey, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

describe('the token bucket', () => {
  const policy = { requests: 3, windowSeconds: 60 };

  it('allows a burst of the whole quota, then one request per window/quota, and says when', () => {
    let bucket = null;
    const decisions = [];
    for (let i = 0; i < 4; i++) {
      const r = takeToken(bucket, policy, 1_000);
      bucket = r.bucket;
      decisions.push(r.decision);
    }
    expect(decisions.map((d) => [d.allowed, d.remaining, d.resetSeconds, d.retryAfterSeconds])).toEqual([
      [true, 2, 20, 0],
      [true, 1, 40, 0],
      [true, 0, 60, 0],
      [false, 0, 60, 20],
    ]);
    // 20 s later one token is back (3 per 60 s); a lowered quota caps what was saved up.
    expect(takeToken(bucket, policy, 21_000).decision).toMatchObject({ allowed: true, remaining: 0 });
    expect(takeToken({ tokens: 3, at: 0 }, { requests: 1, windowSeconds: 60 }, 0).decision).toMatchObject({
      allowed: true,
      remaining: 0,
      resetSeconds: 60,
    });
  });
});

describe('rate-limited keys', () => {
  it('carry RateLimit-Policy and RateLimit on every response, and get 429 with Retry-After past the quota', async () => {
    const { key } = await tenantWithKey({ rateLimit: { requests: 3, windowSeconds: 60 } });
    const seen: { status: number; policy: string | null; limit: string | null; retry: string | null }[] = [];
    // A 200, a 404 (an error response still counts and still says so), another 200, then the refusal.
    for (const path of ['/v1/methods', '/v1/evaluations/ev_missing', '/v1/usage', '/v1/methods']) {
      const r = await keyed(path, as(key));
      seen.push({
        status: r.status,
        policy: r.headers.get('RateLimit-Policy'),
        limit: r.headers.get('RateLimit'),
        retry: r.headers.get('Retry-After'),
      });
      if (r.status === 429)
        expect(await errorOf(r)).toMatchObject({
          code: 'rate_limited',
          message: expect.stringContaining('3 per 60 s') as string,
        });
    }
    expect(seen.map((s) => s.status)).toEqual([200, 404, 200, 429]);
    expect(new Set(seen.map((s) => s.policy))).toEqual(new Set(['"default";q=3;w=60']));
    expect(seen.map((s) => /r=(\d+)/.exec(s.limit ?? '')?.[1])).toEqual(['2', '1', '0', '0']);
    for (const s of seen) expect(s.limit).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(seen.slice(0, 3).every((s) => s.retry === null)).toBe(true);
    const retry = Number(seen[3]?.retry);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(20);
  });

  it('count exactly under concurrency: 10 requests at once against a quota of 4 give 4 answers and 6 refusals', async () => {
    const { key } = await tenantWithKey({ rateLimit: { requests: 4, windowSeconds: 3600 } });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => keyed('/v1/methods', as(key)).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });

  it('each key has its own bucket; another tenant is not touched; the operator token is not limited', async () => {
    const a = await tenantWithKey({ rateLimit: { requests: 1, windowSeconds: 3600 } });
    const second = await newKey(a.tenant);
    const b = await tenantWithKey({ rateLimit: { requests: 1, windowSeconds: 3600 } });
    expect((await keyed('/v1/methods', as(a.key))).status).toBe(200);
    expect((await keyed('/v1/methods', as(a.key))).status).toBe(429);
    expect((await keyed('/v1/methods', as(second.key))).status).toBe(200);
    expect((await keyed('/v1/methods', as(b.key))).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const r = await asAdmin(`/v1/admin/tenants/${a.tenant}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('RateLimit')).toBeNull();
    }
  });

  it("follow a tenant's new rate from the next request, and keep their buckets in the object's storage", async () => {
    const { tenant, key, keyId } = await tenantWithKey({ rateLimit: { requests: 1, windowSeconds: 3600 } });
    expect((await keyed('/v1/methods', as(key))).status).toBe(200);
    expect((await keyed('/v1/methods', as(key))).status).toBe(429);
    const patched = await asAdmin(`/v1/admin/tenants/${tenant}`, {
      method: 'PATCH',
      body: { limits: { rateLimit: { requests: 100, windowSeconds: 1 } } },
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    // The emptied bucket refills at the new rate (a token per 10 ms), not at the old one (one per hour).
    let r = await keyed('/v1/methods', as(key));
    expect(r.headers.get('RateLimit-Policy')).toBe('"default";q=100;w=1');
    await expect
      .poll(async () => (r = await keyed('/v1/methods', as(key))).status, { timeout: 1_000, interval: 5 })
      .toBe(200);
    const stored = await runInDurableObject(
      testEnv.RATE_LIMITER.get(testEnv.RATE_LIMITER.idFromName(tenant)),
      (_o, state) => state.storage.sql.exec<{ key: string }>('SELECT key FROM buckets').toArray(),
    );
    expect(stored.map((s) => s.key)).toEqual([keyId]);
  });

  it('a flood is refused by the coarse guard before any D1 lookup; a guard that fails lets requests through', async () => {
    const { key } = await tenantWithKey();
    const refusing = { limit: vi.fn(() => Promise.resolve({ success: false })) } as unknown as RateLimit;
    const flooded = await keyed('/v1/methods', as(key), { KEY_FLOOD_GUARD: refusing });
    expect(flooded.status).toBe(429);
    expect(flooded.headers.get('Retry-After')).toBe('60');
    expect((await errorOf(flooded)).code).toBe('rate_limited');
    const broken = { limit: () => Promise.reject(new Error('guard down')) } as unknown as RateLimit;
    expect((await keyed('/v1/methods', as(key), { KEY_FLOOD_GUARD: broken })).status).toBe(200);
  });

  it("the Rate Limiting binding is emulated locally (miniflare 4.20260426): it refuses a key past wrangler.toml's limit", async () => {
    // wrangler.toml: 3000 per 60 s, counted in fixed windows. 6001 calls refuse some even if one window boundary falls inside the loop.
    const guard = testEnv.KEY_FLOOD_GUARD;
    const key = `probe-${Date.now()}`;
    let refused = 0;
    for (let i = 0; i < 6001; i++) if (!(await guard.limit({ key })).success) refused += 1;
    expect(refused).toBeGreaterThan(0);
    expect((await guard.limit({ key: `${key}-other` })).success).toBe(true);
  });
});
