/**
 * The whole pipeline with the D1 shards on for everything (`D1_SHARDS` 4 for this file, ./shards-on.ts: the API, the
 * queue consumers and the Durable Objects all route through src/config/d1-shards.ts): two tenants in
 * different shards each run a batch (POST → queue → objects → verdicts → results), receive their signed
 * webhooks, see their usage, and have their verdicts erased by the retention cron, each in its own shard
 * and none of it in the control database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { shardBindingNames } from '../../src/config/d1-buckets.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import { items, singleCallJudge } from '../worker/batches-support.js';
import { drainAlarms, pollUntil } from '../worker/helpers.js';
import { as, keyed, twoTenantsApart } from '../worker/tenants-helpers.js';
import { configureSink, received, sinkUrl } from '../worker/webhooks-helpers.js';
import { SHARDS, useD1Shards } from './shards-on.js';
import { bodyText } from '../support/body-text.js';

afterEach(drainAlarms);

// The shards on for this file (the project runs with 0): its own calls into src/ take `env`.
const env = useD1Shards();
const named = env as unknown as Record<string, D1Database>;
const databases = [named.DB, ...shardBindingNames(SHARDS).map((n) => named[n])] as D1Database[];

/** How many rows of `table` with `tenant` each database holds: the control database first, then each shard. */
async function countsOf(table: string, tenant: string): Promise<number[]> {
  return Promise.all(
    databases.map(
      async (db) =>
        (await db.prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant = ?`).bind(tenant).first<{ n: number }>())
          ?.n ?? -1,
    ),
  );
}

describe('the pipeline across D1 shards', () => {
  it('runs two tenants’ batches end to end, each in its own shard: verdicts, results, webhooks, usage, retention', async () => {
    const tenants = await twoTenantsApart(SHARDS, { retentionDays: 1 });
    const runs = await Promise.all(
      tenants.map(async (t) => {
        const sink = `shards-${t.tenant}`;
        const ep = await keyed('/v1/webhook-endpoints', as(t.key, { body: { url: sinkUrl(sink) } }));
        expect(ep.status, await ep.clone().text()).toBe(201);
        await configureSink(sink, [(await ep.json<{ secret: string }>()).secret]);
        const r = await keyed(
          '/v1/batches',
          as(t.key, { body: { ...singleCallJudge(`shards-${t.tenant}`), items: items(3) } }),
        );
        expect(r.status, await r.clone().text()).toBe(202);
        return { ...t, sink, batch: (await r.json<{ id: string }>()).id };
      }),
    );

    for (const run of runs) {
      // The batch ends through the queue and the objects, which find its rows in the tenant's shard.
      await pollUntil(
        async () => (await (await keyed(`/v1/batches/${run.batch}`, as(run.key))).json<{ status: string }>()).status,
        (s) => s === 'completed',
      );
      const results = (await bodyText(await keyed(`/v1/batches/${run.batch}/results`, as(run.key))))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { status: string; verdict: { winner: string } | null });
      expect(results.map((x) => x.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
      expect(results.every((x) => x.verdict !== null)).toBe(true);
      // Each evaluation's event, and the batch's, signed and delivered from the shard's outbox.
      const got = await pollUntil(
        () => received(run.sink),
        (r) => r.filter((x) => x.verified).length >= 4,
      );
      expect(got.every((x) => x.verified && x.answered === 200)).toBe(true);
      expect(got.map((x) => (JSON.parse(x.body) as { type: string }).type).sort()).toEqual([
        'batch.completed',
        'evaluation.succeeded',
        'evaluation.succeeded',
        'evaluation.succeeded',
      ]);
      const usage = await (await keyed('/v1/usage', as(run.key))).json<{ totals: { calls: number } }>();
      expect(usage.totals.calls).toBe(3);
      // Every row in the tenant's shard: none in the control database, none in another shard.
      const only = (n: number) => databases.map((_, i) => (i === run.shard + 1 ? n : 0));
      expect(await countsOf('evaluations', run.tenant)).toEqual(only(3));
      expect(await countsOf('batches', run.tenant)).toEqual(only(1));
      expect(await countsOf('webhook_deliveries', run.tenant)).toEqual(only(4));
      expect(await countsOf('usage_rollup', run.tenant)).toEqual(only(1));
    }

    // Two days on, the retention cron erases both tenants' evaluations, each in its shard.
    await drainAlarms();
    const report = await sweepRetention(env, Date.now() + 2 * 86_400_000);
    expect(report.erased).toBe(6);
    for (const run of runs) {
      const erased = await databases[run.shard + 1]
        ?.prepare('SELECT count(*) AS n FROM evaluations WHERE tenant = ? AND deleted_at IS NOT NULL')
        .bind(run.tenant)
        .first<{ n: number }>();
      expect(erased?.n).toBe(3);
    }
  });
});
