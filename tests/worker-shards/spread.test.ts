/**
 * A tenant over several D1 shards (its `spread`, docs/scale.md "A tenant over several shards"), with this
 * project's 4 shards: its evaluations and batches land in more than one shard, each read by id in the shard its
 * id names, and its tenant-wide reads (listing pages, usage, the monthly quota) visit every shard of its spread;
 * the retention cron and DELETE reach them where they are; lowering the spread hides nothing; a tenant of
 * spread 1 keeps everything in its home shard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { bucketOf, fnv1a, shardBindingNames, shardOfBucket } from '../../src/config/d1-buckets.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import { isTerminal } from '../../src/evaluations/status.js';
import { items, singleCallJudge } from '../worker/batches-support.js';
import { drainAlarms, pollUntil } from '../worker/helpers.js';
import { as, asAdmin, errorOf, keyed, submitOk, tenantWithKey } from '../worker/tenants-helpers.js';
import { SHARDS, useD1Shards } from './shards-on.js';
import { bodyText } from '../support/body-text.js';

afterEach(drainAlarms);

// The shards on for this file (the project runs with 0): its own calls into src/ take `env`.
const env = useD1Shards();
const named = env as unknown as Record<string, D1Database>;
const shards = shardBindingNames(SHARDS).map((n) => named[n]) as D1Database[];

/** How many rows of `table` matching `where` (binding `tenant`) each database holds: control, then each shard. */
async function countsOf(table: string, tenant: string, where = 'tenant = ?'): Promise<number[]> {
  return Promise.all(
    [named.DB as D1Database, ...shards].map(
      async (db) =>
        (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).bind(tenant).first<{ n: number }>())
          ?.n ?? -1,
    ),
  );
}

/** Waits until evaluation `id` has ended (read through the API, which finds it by id). */
async function ended(key: string, id: string): Promise<void> {
  await pollUntil(
    async () => (await (await keyed(`/v1/evaluations/${id}`, as(key))).json<{ status: string }>()).status,
    (s) => isTerminal(s as never),
  );
}

interface Listed {
  id: string;
  createdAt: string;
}

/** Every page of `path` (`limit` per page) through its cursors. */
async function allPages(key: string, path: string, limit: number): Promise<{ pages: number; rows: Listed[] }> {
  const rows: Listed[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const q: string = `${path}?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const r = await keyed(q, as(key));
    expect(r.status, await r.clone().text()).toBe(200);
    const body = await r.json<{ data: Listed[]; nextCursor: string | null }>();
    expect(body.data.length).toBeLessThanOrEqual(limit);
    rows.push(...body.data);
    cursor = body.nextCursor;
    pages++;
  } while (cursor !== null);
  return { pages, rows };
}

/** Newest first by (createdAt, id), as every listing orders. */
function inListingOrder(rows: readonly Listed[]): boolean {
  return rows.every((r, i) => {
    const prev = rows[i - 1];
    if (!prev) return true;
    return prev.createdAt > r.createdAt || (prev.createdAt === r.createdAt && prev.id > r.id);
  });
}

describe('a tenant spread over several D1 shards', () => {
  it('puts its evaluations and batches in several shards and reads them all: by id, listing pages, usage, quota, DELETE, retention', async () => {
    const t = await tenantWithKey({ spread: 4, retentionDays: 1, monthlyEvaluationCap: 16 });
    const home = shardOfBucket(bucketOf(t.tenant), SHARDS);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await submitOk(t.key));
    for (const id of ids) await ended(t.key, id);

    // Spread: over more than one shard, none in the control database, the tenant's settings copied beside them.
    const perDb = await countsOf('evaluations', t.tenant);
    expect(perDb[0]).toBe(0);
    expect(perDb.reduce((a, b) => a + b, 0)).toBe(12);
    expect(perDb.slice(1).filter((n) => n > 0).length).toBeGreaterThan(1);
    expect((await countsOf('tenants', t.tenant, 'id = ?')).slice(1)).toEqual([1, 1, 1, 1]);

    // A batch: its items with it, in the one shard its id names.
    const b = await keyed(
      '/v1/batches',
      as(t.key, { body: { ...singleCallJudge(`spread-${t.tenant}`), items: items(3) } }),
    );
    expect(b.status, await b.clone().text()).toBe(202);
    const batch = (await b.json<{ id: string }>()).id;
    await pollUntil(
      async () => (await (await keyed(`/v1/batches/${batch}`, as(t.key))).json<{ status: string }>()).status,
      (s) => s === 'completed',
    );
    const items3 = await countsOf('evaluations', batch, 'batch_id = ?');
    expect(items3.filter((n) => n > 0)).toEqual([3]);
    expect(items3.indexOf(3)).toBe((await countsOf('batches', batch, 'id = ?')).indexOf(1));
    const results = (await bodyText(await keyed(`/v1/batches/${batch}/results`, as(t.key)))).trim().split('\n');
    expect(results).toHaveLength(3);

    // Listing: 15 evaluations in pages of 4 merged from every shard: each once, none missing, in order.
    const listed = await allPages(t.key, '/v1/evaluations', 4);
    expect(listed.pages).toBe(4);
    expect(new Set(listed.rows.map((r) => r.id)).size).toBe(15);
    expect(
      listed.rows
        .map((r) => r.id)
        .filter((id) => ids.includes(id))
        .sort(),
    ).toEqual([...ids].sort());
    expect(inListingOrder(listed.rows)).toBe(true);
    const batches = await allPages(t.key, '/v1/batches', 1);
    expect(batches.rows.map((r) => r.id)).toEqual([batch]);

    // Usage and the monthly cap add up every shard: the calls of every evaluation (a verdict cache hit makes
    // none) and the batch's 3; 15 created, so 2 more pass the cap of 16.
    let calls = 3;
    for (const id of ids)
      calls += (await (await keyed(`/v1/evaluations/${id}`, as(t.key))).json<{ usage: { calls: number } }>()).usage
        .calls;
    const usage = await (await keyed('/v1/usage', as(t.key))).json<{ totals: { calls: number } }>();
    expect(usage.totals.calls).toBe(calls);
    expect(calls).toBeGreaterThan(3 + 1);
    const over = await keyed('/v1/batches', as(t.key, { body: { ...singleCallJudge('over'), items: items(2) } }));
    expect(over.status).toBe(429);
    expect((await errorOf(over)).code).toBe('quota_exceeded');

    // DELETE of one outside the home shard, found by its id.
    const away = ids.find((id) => shardOfBucket(parseInt(id.slice(3, 7), 16), SHARDS) !== home) as string;
    expect(away).toBeDefined();
    expect((await keyed(`/v1/evaluations/${away}`, as(t.key, { method: 'DELETE' }))).status).toBe(204);
    expect((await keyed(`/v1/evaluations/${away}`, as(t.key))).status).toBe(404);

    // Lowering the spread hides nothing: the listing still reads every shard the tenant ever had.
    const lowered = await asAdmin(`/v1/admin/tenants/${t.tenant}`, {
      method: 'PATCH',
      body: { limits: { spread: 1 } },
    });
    expect(lowered.status, await lowered.clone().text()).toBe(200);
    expect((await lowered.json<{ effectiveLimits: { spread: number; readSpread: number } }>()).effectiveLimits).toEqual(
      expect.objectContaining({ spread: 1, readSpread: 4 }),
    );
    expect((await allPages(t.key, '/v1/evaluations', 50)).rows).toHaveLength(14);

    // Two days on, the retention cron erases every one, in whichever shard it is.
    await drainAlarms();
    const report = await sweepRetention(env, Date.now() + 2 * 86_400_000);
    expect(report.erased).toBe(14);
    expect(await countsOf('evaluations', t.tenant, 'tenant = ? AND deleted_at IS NULL')).toEqual([0, 0, 0, 0, 0]);
  });

  it('finds the first try of an Idempotency-Key retried after the spread changed, up or down', async () => {
    const t = await tenantWithKey();
    // A key that a spread of 4 (and of 2) places outside the home shard, where a spread of 1 put it.
    let n = 0;
    while (fnv1a(`retry-${t.tenant}-${n}`) % 2 === 0) n++; // odd: outside home under a spread of 2 and of 4
    const key = `retry-${t.tenant}-${n}`;
    const body = { ...singleCallJudge(`retry-${t.tenant}`), task: items(1)[0]?.task };
    const batchBody = { ...singleCallJudge(`retry-${t.tenant}`), items: items(2) };
    const create = async (): Promise<{ ev: string; ba: string }> => {
      const ev = await keyed('/v1/evaluations', as(t.key, { body, headers: { 'Idempotency-Key': key } }));
      const ba = await keyed('/v1/batches', as(t.key, { body: batchBody, headers: { 'Idempotency-Key': key } }));
      expect(ev.status, await ev.clone().text()).toBeLessThan(300);
      expect(ba.status, await ba.clone().text()).toBeLessThan(300);
      return { ev: (await ev.json<{ id: string }>()).id, ba: (await ba.json<{ id: string }>()).id };
    };
    const spread = async (k: number) => {
      expect(
        (await asAdmin(`/v1/admin/tenants/${t.tenant}`, { method: 'PATCH', body: { limits: { spread: k } } })).status,
      ).toBe(200);
    };
    const first = await create();
    for (const k of [4, 2, 1]) {
      await spread(k);
      expect(await create()).toEqual(first);
    }
    // One of each, in the home shard where the first try went.
    expect((await countsOf('evaluations', t.tenant, 'tenant = ? AND batch_id IS NULL')).reduce((a, b) => a + b)).toBe(
      1,
    );
    expect((await countsOf('batches', t.tenant)).reduce((a, b) => a + b)).toBe(1);
    await ended(t.key, first.ev);
  });

  it('keeps a tenant of spread 1 whole in its home shard', async () => {
    const t = await tenantWithKey();
    const home = shardOfBucket(bucketOf(t.tenant), SHARDS);
    const ids = [await submitOk(t.key), await submitOk(t.key), await submitOk(t.key)];
    for (const id of ids) {
      expect(shardOfBucket(parseInt(id.slice(3, 7), 16), SHARDS)).toBe(home);
      await ended(t.key, id);
    }
    const onlyHome = (n: number) => [0, ...[0, 1, 2, 3].map((i) => (i === home ? n : 0))];
    expect(await countsOf('evaluations', t.tenant)).toEqual(onlyHome(3));
    expect((await countsOf('tenants', t.tenant, 'id = ?')).slice(1)).toEqual(onlyHome(1).slice(1));
  });

  it('refuses a spread that is not a power of two, naming the field', async () => {
    const t = await tenantWithKey();
    const r = await asAdmin(`/v1/admin/tenants/${t.tenant}`, { method: 'PATCH', body: { limits: { spread: 3 } } });
    expect(r.status).toBe(400);
    expect(await r.text()).toContain('limits.spread');
  });
});
