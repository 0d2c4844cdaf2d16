/**
 * @module
 * `RateLimiterDO`: one per tenant (`idFromName(tenantId)`), the exact per-key request rate of that tenant's
 * keys. Each key has a token bucket (src/tenants/token-bucket.ts), cached in memory and written through to
 * the object's SQLite on every request, so an eviction or a deploy keeps every key's state. The policy
 * comes with each call (from the tenant's D1 row or the deployment defaults), so a changed limit applies
 * from the next request on. One object per tenant keeps tenants apart: a flood from one tenant queues in
 * its own object only. Worker isolates under load reserve several tokens in one request ({@link reserve},
 * src/tenants/reservations.ts), so a tenant's burst does not become one object request per API request.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel } from '../../src/config/vars.js';
import type { RatePolicy } from '../../src/tenants/limits.js';
import type { Bucket, RateDecision, RateLimiterRpc, Reservation } from '../../src/tenants/token-bucket.js';
import { takeTokens } from '../../src/tenants/token-bucket.js';

/** Buckets idle for longer than this are deleted when a request finds them (a full bucket is the same as none): 1 day. */
const IDLE_BUCKET_MS = 86_400_000;

/** The exact per-key token buckets of one tenant. RPC: {@link take}. */
export class RateLimiterDO extends DurableObject<Bindings> implements RateLimiterRpc {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    applyLogLevel(env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS buckets (key TEXT PRIMARY KEY, tokens REAL NOT NULL, at INTEGER NOT NULL)',
    );
  }

  /**
   * Takes one request of `key` under `policy`: synchronous from read to write (SQLite calls never yield),
   * so concurrent requests of one key are counted exactly.
   */
  take(key: string, policy: RatePolicy): Promise<RateDecision> {
    return Promise.resolve(this.takeMany(key, policy, 1, 0).decision);
  }

  /** Takes up to `want` requests of `key` at once after giving back `returned` unused ones; synchronous as {@link take}. */
  reserve(key: string, policy: RatePolicy, want: number, returned: number): Promise<Reservation> {
    return Promise.resolve(this.takeMany(key, policy, want, returned));
  }

  private takeMany(key: string, policy: RatePolicy, want: number, returned: number): Reservation {
    const now = Date.now();
    const sql = this.ctx.storage.sql;
    let bucket = this.buckets.get(key) ?? null;
    if (!bucket) {
      const row = sql
        .exec<{ tokens: number; at: number }>('SELECT tokens, at FROM buckets WHERE key = ?', key)
        .toArray()[0];
      bucket = row ? { tokens: row.tokens, at: row.at } : null;
    }
    const { bucket: next, ...reservation } = takeTokens(bucket, policy, now, want, returned);
    this.buckets.set(key, next);
    sql.exec(
      'INSERT INTO buckets (key, tokens, at) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET tokens = excluded.tokens, at = excluded.at',
      key,
      next.tokens,
      next.at,
    );
    if (now - this.lastSweep > IDLE_BUCKET_MS) {
      this.lastSweep = now;
      sql.exec('DELETE FROM buckets WHERE at < ?', now - IDLE_BUCKET_MS);
      for (const [k, b] of this.buckets) if (b.at < now - IDLE_BUCKET_MS) this.buckets.delete(k);
    }
    return reservation;
  }
}
