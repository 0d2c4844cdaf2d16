/**
 * A tenant's rate limiter under a burst: a Worker isolate takes its tokens in reservations (coalesced while
 * one is on its way, reserved ahead under load, refusals answered locally until a token is back), so 10,000
 * single requests in 10 s cost the tenant's object a few requests per second, never more allowed than the
 * bucket gives, and a quiet key is counted exactly as one object request per API request.
 */
import { runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { RatePolicy } from '../../src/tenants/limits.js';
import type { Bucket, RateDecision } from '../../src/tenants/token-bucket.js';
import { takeToken, takeTokens } from '../../src/tenants/token-bucket.js';
import { MAX_RESERVED, Reservations } from '../../src/tenants/reservations.js';
import { testEnv } from './helpers.js';

/** A bucket behind a counted, immediately answering reserve (the object's logic without the object). */
function objectAt(policy: RatePolicy, clock: () => number) {
  let bucket: Bucket | null = null;
  const calls: { at: number; want: number; returned: number }[] = [];
  const reserve = (want: number, returned: number) => {
    calls.push({ at: clock(), want, returned });
    const r = takeTokens(bucket, policy, clock(), want, returned);
    bucket = r.bucket;
    return Promise.resolve({ granted: r.granted, decision: r.decision, nextTokenMs: r.nextTokenMs });
  };
  return { reserve, calls };
}

/** Exactly one token per request, as the object alone counts (the reference). */
function exactAllowed(policy: RatePolicy, times: readonly number[]): number {
  let bucket: Bucket | null = null;
  let allowed = 0;
  for (const t of times) {
    const r = takeToken(bucket, policy, t);
    bucket = r.bucket;
    if (r.decision.allowed) allowed += 1;
  }
  return allowed;
}

describe('taking several tokens at once', () => {
  it('is one token exactly as before, gives at most what the bucket holds, and takes unused ones back', () => {
    const policy = { requests: 5, windowSeconds: 60 };
    expect(takeTokens(null, policy, 1_000, 1, 0)).toMatchObject({ ...takeToken(null, policy, 1_000), granted: 1 });
    const many = takeTokens(null, policy, 1_000, 8, 0);
    expect(many.granted).toBe(5);
    expect(many.decision).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });
    expect(many.nextTokenMs).toBeCloseTo(12_000);
    const none = takeTokens(many.bucket, policy, 1_000, 1, 0);
    expect(none.granted).toBe(0);
    expect(none.decision).toMatchObject({ allowed: false, retryAfterSeconds: 12 });
    // Two unused tokens given back are there again; never past the quota.
    expect(takeTokens(many.bucket, policy, 1_000, 3, 2).granted).toBe(2);
    expect(takeTokens(null, policy, 1_000, 9, 4).granted).toBe(5);
  });
});

describe("an isolate's reservations", () => {
  it('ask the object once per request for a quiet key, exactly as the object alone would answer', async () => {
    let now = 0;
    const policy = { requests: 3, windowSeconds: 60 };
    const object = objectAt(policy, () => now);
    const r = new Reservations(() => now);
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 4; i++) {
      decisions.push(await r.take('t\0k', policy, object.reserve));
      now += 500;
    }
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    // The fourth is refused locally: the third's answer said when a token is back.
    expect(object.calls.map((c) => c.want)).toEqual([1, 1, 1]);
    expect(decisions[3]?.retryAfterSeconds).toBe(19);
  });

  it('coalesce the requests that arrive while a reservation is on its way into one, counted exactly', async () => {
    const now = 0;
    const policy = { requests: 10, windowSeconds: 3600 };
    const object = objectAt(policy, () => now);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async (want: number, returned: number) => {
      await gate;
      return object.reserve(want, returned);
    };
    const r = new Reservations(() => now);
    const pending = Array.from({ length: 50 }, () => r.take('t\0k', policy, slow));
    release();
    const decisions = await Promise.all(pending);
    expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
    // The first alone, then the 49 that waited for it together (and a token ahead: a tenth of the quota).
    expect(object.calls.map((c) => c.want)).toEqual([1, 50]);
  });

  it('are each made by a request that waits for it: one made for others from a request that then ends would leave them hung', async () => {
    const now = 0;
    const policy = { requests: 10, windowSeconds: 3600 };
    const object = objectAt(policy, () => now);
    /**
     * A request's own reserve as workerd runs it: its answer comes back a moment later, and never once the
     * request has ended (workerd cancels an ended request's pending I/O). `kept`: what it kept alive.
     */
    const request = () => {
      let ended = false;
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const asked: number[] = [];
      const kept: Promise<unknown>[] = [];
      const reserve = async (want: number, returned: number) => {
        asked.push(want);
        await gate;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return ended ? new Promise<never>(() => undefined) : object.reserve(want, returned);
      };
      const keepAlive = (p: Promise<unknown>) => {
        kept.push(p);
      };
      const end = () => {
        ended = true;
      };
      return { reserve, keepAlive, asked, kept, open, end };
    };
    const within = <T>(p: Promise<T>) =>
      Promise.race([
        p,
        new Promise<'hung'>((resolve) => {
          setTimeout(() => {
            resolve('hung');
          }, 1_000);
        }),
      ]);
    const r = new Reservations(() => now);
    const [a, b, c] = [request(), request(), request()];
    b.open();
    c.open();
    const first = r.take('t\0k', policy, a.reserve, a.keepAlive);
    // B arrives while A's reservation is on its way; A is answered, and ends.
    const second = r.take('t\0k', policy, b.reserve, b.keepAlive);
    a.open();
    expect((await first).allowed).toBe(true);
    a.end();
    expect(await within(second)).toMatchObject({ allowed: true });
    // B's reservation was B's own; and the key is not left waiting on anything.
    expect([a.asked, b.asked]).toEqual([[1], [1]]);
    expect([a.kept.length, b.kept.length]).toEqual([1, 1]);
    expect(await within(r.take('t\0k', policy, c.reserve, c.keepAlive))).toMatchObject({ allowed: true });
    expect(object.calls.map((call) => call.want)).toEqual([1, 1, 1]);
  });

  it('keep a 10,000-request burst in 10 s at a few object requests per second, never allowing more than the bucket', async () => {
    for (const policy of [
      { requests: 100_000, windowSeconds: 60 },
      { requests: 1_000, windowSeconds: 60 },
    ]) {
      let now = 0;
      const object = objectAt(policy, () => now);
      const r = new Reservations(() => now);
      const times: number[] = [];
      let allowed = 0;
      for (let i = 0; i < 10_000; i++) {
        now = i; // 1,000 requests per second, one isolate
        times.push(now);
        if ((await r.take('t\0k', policy, object.reserve)).allowed) allowed += 1;
      }
      const perSecond = new Map<number, number>();
      for (const c of object.calls)
        perSecond.set(Math.floor(c.at / 1000), (perSecond.get(Math.floor(c.at / 1000)) ?? 0) + 1);
      // At most 30 a second (the first second: 10 single requests, then reservations growing with the demand;
      // then about 15 a second): 3% of one object's 1,000, where one request each would be 100%.
      expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(30);
      expect(object.calls.length).toBeLessThan(250);
      const exact = exactAllowed(policy, times);
      expect(allowed).toBeLessThanOrEqual(exact);
      expect(allowed).toBeGreaterThanOrEqual(exact - MAX_RESERVED);
    }
  });

  it("go through the tenant's object: reserve takes from the key's stored bucket", async () => {
    const stub = testEnv.RATE_LIMITER.get(testEnv.RATE_LIMITER.idFromName(`tn_reserve_${Date.now()}`));
    const policy = { requests: 10, windowSeconds: 3600 };
    const first = await stub.reserve('key_1', policy, 4, 0);
    expect(first.granted).toBe(4);
    expect(first.decision).toMatchObject({ allowed: true, remaining: 6 });
    const second = await stub.reserve('key_1', policy, 20, 2);
    expect(second.granted).toBe(8);
    expect((await stub.take('key_1', policy)).allowed).toBe(false);
    const stored = await runInDurableObject(stub, (_o, state) =>
      state.storage.sql.exec<{ tokens: number }>('SELECT tokens FROM buckets WHERE key = ?', 'key_1').one(),
    );
    expect(stored.tokens).toBeLessThan(1);
  });
});
