/**
 * Webhooks of a tenant spread over several D1 shards (docs/scale.md "A tenant over several shards"): its work goes
 * to every shard of its spread whether or not it has endpoints, each ending fans its event out to the copies of
 * the endpoints in its own shard (src/webhooks/copies.ts), so an endpoint made before the work and one made while
 * it runs each get every event exactly once; the delivery log merges every shard; a 410 in one shard disables the
 * endpoint in all of them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WAIT_MS } from '../support/patience.js';
import { bucketOf, bucketOfId, fnv1a, shardBindingNames, shardOfBucket } from '../../src/config/d1-buckets.js';
import { PAIRWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import { pairItem, singleCallJudge } from '../worker/batches-support.js';
import { drainAlarms, mockRequests, pollUntil, replyInGroups } from '../worker/helpers.js';
import { as, keyed, tenantWithKey } from '../worker/tenants-helpers.js';
import { configureSink, received, sinkUrl } from '../worker/webhooks-helpers.js';
import { SHARDS, useD1Shards } from './shards-on.js';

afterEach(drainAlarms);

// The shards on for this file (the project runs with 0): its own calls into src/ take `env`.
const env = useD1Shards();
const named = env as unknown as Record<string, D1Database>;
const shards = shardBindingNames(SHARDS).map((n) => named[n]) as D1Database[];

/** The shard an id's record is in. */
const shardOf = (id: string): number => shardOfBucket(bucketOfId(id) ?? -1, SHARDS);

/** Idempotency keys that hash to each of a spread of 4's buckets once, so the records land in 4 shards. */
function keysOverEveryBucket(prefix: string): string[] {
  const byBucket = new Map<number, string>();
  for (let n = 0; byBucket.size < SHARDS; n++) {
    const key = `${prefix}-${n}`;
    if (!byBucket.has(fnv1a(key) % SHARDS)) byBucket.set(fnv1a(key) % SHARDS, key);
  }
  return [...byBucket.values()];
}

/** Creates an endpoint of the key's tenant through the API and points its sink at its secret. */
async function endpoint(key: string, sink: string): Promise<string> {
  const r = await keyed('/v1/webhook-endpoints', as(key, { body: { url: sinkUrl(sink) } }));
  expect(r.status, await r.clone().text()).toBe(201);
  const { id, secret } = await r.json<{ id: string; secret: string }>();
  await configureSink(sink, [secret]);
  return id;
}

/** The tenant's deliveries in each shard: how many, and how many are not delivered yet. */
async function deliveriesPerShard(tenant: string): Promise<{ all: number; open: number }[]> {
  return Promise.all(
    shards.map(
      async (db) =>
        (await db
          .prepare(
            `SELECT count(*) AS "all", count(*) FILTER (WHERE status != 'delivered') AS open FROM webhook_deliveries WHERE tenant = ?`,
          )
          .bind(tenant)
          .first<{ all: number; open: number }>()) ?? { all: 0, open: 0 },
    ),
  );
}

describe("a spread tenant's webhooks", () => {
  it('reach an endpoint made before the work and one made while it runs, each event once, from every shard', async () => {
    const t = await tenantWithKey({ spread: 4 });
    const seed = `spread-hooks-${t.tenant}`;
    const before = `before-${t.tenant}`;
    const during = `during-${t.tenant}`;
    await endpoint(t.key, before);

    // Four batches of 2 items, one in each shard of the spread (the key picks the bucket). Their 8 calls are
    // held by the mock until a 9th comes, so the work is in flight while the second endpoint is made.
    await replyInGroups(seed, 9);
    const batches: string[] = [];
    for (const [n, key] of keysOverEveryBucket(`k-${t.tenant}`).entries()) {
      const body = { ...singleCallJudge(seed), items: [0, 1].map((i) => ({ task: pairItem(n * 10 + i) })) };
      const r = await keyed('/v1/batches', as(t.key, { body, headers: { 'Idempotency-Key': key } }));
      expect(r.status, await r.clone().text()).toBe(202);
      batches.push((await r.json<{ id: string }>()).id);
    }
    expect(new Set(batches.map(shardOf)).size).toBe(SHARDS);
    await pollUntil(
      () => mockRequests(seed),
      (n) => n === 8,
    );
    await endpoint(t.key, during);

    // The 9th call releases all of them: one evaluation, wherever it lands.
    const single = await keyed(
      '/v1/evaluations',
      as(t.key, { body: { ...singleCallJudge(seed), task: pairItem(99) } }),
    );
    expect(single.status, await single.clone().text()).toBe(202);
    for (const b of batches)
      await pollUntil(
        async () => (await (await keyed(`/v1/batches/${b}`, as(t.key))).json<{ status: string }>()).status,
        (s) => s === 'completed',
      );

    // 9 evaluation events and 4 batch.completed, to each endpoint: every delivery done, in every shard.
    const expected = 13;
    const perShard = await pollUntil(
      () => deliveriesPerShard(t.tenant),
      (s) => s.reduce((a, x) => a + x.all, 0) === 2 * expected && s.every((x) => x.open === 0),
    );
    expect(perShard.filter((x) => x.all > 0).length).toBe(SHARDS);
    const ids: string[][] = [];
    for (const sink of [before, during]) {
      await expect.poll(async () => (await received(sink)).length, { timeout: WAIT_MS, interval: 50 }).toBe(expected);
      const got = await received(sink);
      expect(got.every((g) => g.verified && g.answered === 200)).toBe(true);
      const types = got.map((g) => (JSON.parse(g.body) as { type: string }).type);
      expect(types.filter((x) => x === 'batch.completed')).toHaveLength(4);
      expect(types.filter((x) => x === 'evaluation.succeeded')).toHaveLength(9);
      ids.push(got.map((g) => g.webhookId ?? '').sort());
    }
    expect(new Set(ids[0]).size).toBe(expected);
    expect(ids[1]).toEqual(ids[0]);

    // The delivery log reads every shard: 26 deliveries in pages of 5, each once, newest first.
    const listed: { id: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: Response = await keyed(
        `/v1/webhook-deliveries?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        as(t.key),
      );
      expect(page.status).toBe(200);
      const body = await page.json<{ data: { id: string; createdAt: string }[]; nextCursor: string | null }>();
      listed.push(...body.data);
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(new Set(listed.map((d) => d.id)).size).toBe(2 * expected);
    expect(listed.every((d, i) => i === 0 || (listed[i - 1]?.createdAt ?? '') >= d.createdAt)).toBe(true);
    const away = listed.find((d) => shardOf(d.id) !== shardOfBucket(bucketOf(t.tenant), SHARDS));
    expect(away).toBeDefined();
    expect((await keyed(`/v1/webhook-deliveries/${away?.id ?? ''}/retry`, as(t.key, { method: 'POST' }))).status).toBe(
      202,
    );
  });

  it('disables an endpoint in every shard when a receiver in one answers 410', async () => {
    const t = await tenantWithKey({ spread: 4 });
    const home = shardOfBucket(bucketOf(t.tenant), SHARDS);
    const sink = `gone-${t.tenant}`;
    const id = await endpoint(t.key, sink);
    await configureSink(sink, [], [410]);
    // An evaluation outside the home shard: its key hashes to another bucket of the spread.
    const key = keysOverEveryBucket(`gone-${t.tenant}`).find((k) => fnv1a(k) % SHARDS !== 0) as string;
    const r = await keyed(
      '/v1/evaluations',
      as(t.key, {
        body: { ...singleCallJudge(`gone-${t.tenant}`), task: pairItem(1) },
        headers: { 'Idempotency-Key': key },
      }),
    );
    expect(r.status, await r.clone().text()).toBe(202);
    expect(shardOf((await r.json<{ id: string }>()).id)).not.toBe(home);
    await pollUntil(
      async () => (await (await keyed(`/v1/webhook-endpoints/${id}`, as(t.key))).json<{ enabled: boolean }>()).enabled,
      (enabled) => !enabled,
    );
    const copies = await Promise.all(
      shards.map((db) =>
        db
          .prepare('SELECT disabled_reason FROM webhook_endpoints WHERE id = ?')
          .bind(id)
          .first<{ disabled_reason: string }>(),
      ),
    );
    expect(copies.map((c) => c?.disabled_reason)).toEqual(Array(SHARDS).fill('the receiver answered 410 Gone'));
  });
});

describe("a spread tenant's reads by filter", () => {
  it("takes an annotation queue's items from evaluations in every shard, newest first, `limit` of them", async () => {
    const t = await tenantWithKey({ spread: 4 });
    const rubric = await keyed('/v1/rubrics', as(t.key, { body: PAIRWISE_RUBRIC_EXAMPLE }));
    expect(rubric.status, await rubric.clone().text()).toBe(201);
    const v = await rubric.json<{ id: string }>();
    const run = `aq-${t.tenant}`;
    const ids: string[] = [];
    for (const [n, key] of keysOverEveryBucket(run).entries()) {
      const r = await keyed(
        '/v1/evaluations',
        as(t.key, {
          body: { ...singleCallJudge(run), task: pairItem(n), rubric: v.id, metadata: { run } },
          headers: { 'Idempotency-Key': key, Prefer: 'wait=60' },
        }),
      );
      expect(r.status, await r.clone().text()).toBe(200);
      ids.push((await r.json<{ id: string }>()).id);
    }
    expect(new Set(ids.map(shardOf)).size).toBe(SHARDS);
    const queue = async (limit?: number) => {
      const filter = { metadata: { run }, rubric: `${v.id}@1`, ...(limit ? { limit } : {}) };
      const r = await keyed(
        '/v1/annotation-queues',
        as(t.key, { body: { name: 'q', rubric: v.id, fromEvaluations: { filter } } }),
      );
      expect(r.status, await r.clone().text()).toBe(201);
      return (await r.json<{ progress: { total: number } }>()).progress.total;
    };
    expect(await queue()).toBe(SHARDS);
    expect(await queue(3)).toBe(3);
  });
});
