/**
 * The carry-over of a one-database state into the shards (src/config/d1-carry-over.ts, docs/scale.md): two
 * tenants' data made through the API with `D1_SHARDS` 0 (everything in `DB`) is moved into each tenant's shard,
 * a few records a call and through a crash between a shard's copy and `DB`'s delete; afterwards `DB` holds no
 * tenant row, the shards hold every row once, and the API with 4 shards answers as it did with one database.
 */
import { env } from 'cloudflare:workers';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { shardBindingNames } from '../../src/config/d1-buckets.js';
import type { CarryOverDb, CarryOverReport } from '../../src/config/d1-carry-over.js';
import { CARRY_OVER_RULES, carryOver } from '../../src/config/d1-carry-over.js';
import { carryOverDb } from '../../src/config/d1-shards.js';
import { POINTWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import { migrate } from './d1-migrate.js';
import { drainAlarms, pollUntil } from './helpers.js';
import { items, singleCallJudge } from './batches-support.js';
import { as, asAdmin, keyed, submitOk, twoTenantsApart } from './tenants-helpers.js';
import { bodyText } from '../support/body-text.js';

afterEach(drainAlarms);

const SHARDS = 4;
const named = env as unknown as Record<string, D1Database>;
const control = named.DB as D1Database;
const shards = shardBindingNames(SHARDS).map((n) => named[n] as D1Database);
const sharded: Partial<Bindings> = { D1_SHARDS: String(SHARDS) };

// The setup migrates DB only (tests/worker/fresh-storage.ts): the shards this file moves rows into get theirs here.
beforeAll(() => migrate(shardBindingNames(SHARDS)));

/** The tables of `db` that hold a tenant's rows (moved), by name, each with its rows in a stable order. */
async function tenantRows(db: D1Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, rule] of Object.entries(CARRY_OVER_RULES)) {
    if (rule.kind !== 'tenant' && rule.kind !== 'child') continue;
    const exists = await db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .bind(table)
      .first();
    if (!exists) continue;
    const { results } = await db.prepare(`SELECT * FROM ${table}`).all();
    out[table] = results.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** `db` that fails its first batch of deletes once: a crash between a shard's copy and DB's delete. */
function crashingOnce(db: CarryOverDb): CarryOverDb & { crashed: boolean } {
  const wrapped = {
    crashed: false,
    batch: async (statements: Parameters<CarryOverDb['batch']>[0]) => {
      if (!wrapped.crashed && statements[0]?.sql.startsWith('DELETE')) {
        wrapped.crashed = true;
        throw new Error('crash between the copy and the delete');
      }
      return db.batch(statements);
    },
  };
  return wrapped;
}

describe('the carry-over of a one-database state into the shards', () => {
  it('knows every table of the migrations', async () => {
    const { results } = await control
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*' AND name != 'd1_migrations'",
      )
      .all<{ name: string }>();
    expect(results.length).toBeGreaterThan(20);
    expect(results.map((r) => r.name).filter((n) => !(n in CARRY_OVER_RULES))).toEqual([]);
  });

  it("moves each tenant's rows into its shard, resumably, and the API then answers as before", async () => {
    const [a, b] = await twoTenantsApart(SHARDS, { retentionDays: 30 });
    if (!a || !b) throw new Error('unreachable');
    // Data made the one-database way (this project's D1_SHARDS is 0): batches, single evaluations, rubrics.
    const made: Record<string, { batch: string; evaluation: string }> = {};
    for (const t of [a, b]) {
      const r = await keyed(
        '/v1/batches',
        as(t.key, { body: { ...singleCallJudge(`carry-${t.tenant}`), items: items(3) } }),
      );
      expect(r.status, await r.clone().text()).toBe(202);
      const batch = (await r.json<{ id: string }>()).id;
      const evaluation = await submitOk(t.key);
      const rubric = await keyed(
        '/v1/rubrics',
        as(t.key, { body: { ...POINTWISE_RUBRIC_EXAMPLE, name: `r ${t.tenant}` } }),
      );
      expect(rubric.status).toBe(201);
      made[t.tenant] = { batch, evaluation };
    }
    const reads = (t: { tenant: string; key: string }, overrides: Partial<Bindings> = {}) => {
      const m = made[t.tenant] ?? { batch: '', evaluation: '' };
      return Promise.all(
        [
          `/v1/batches/${m.batch}/results`,
          `/v1/evaluations/${m.evaluation}`,
          `/v1/evaluations?batch=${m.batch}`,
          '/v1/rubrics',
          '/v1/usage',
        ].map(async (path) => {
          const r = await keyed(path, as(t.key), overrides);
          expect(r.status, `${path}: ${await bodyText(r.clone())}`).toBe(200);
          // Usage reports run up to now: the rest must be the same.
          return (await bodyText(r)).replace(/"to":"[^"]*"/, '"to":"now"');
        }),
      );
    };
    for (const t of [a, b])
      await pollUntil(
        async () =>
          (await (await keyed(`/v1/batches/${made[t.tenant]?.batch}`, as(t.key))).json<{ status: string }>()).status,
        (s) => s === 'completed',
      );
    for (const t of [a, b])
      await pollUntil(
        async () =>
          (await (await keyed(`/v1/evaluations/${made[t.tenant]?.evaluation}`, as(t.key))).json<{ status: string }>())
            .status,
        (s) => s === 'succeeded',
      );
    await drainAlarms();
    const before = await tenantRows(control);
    expect(before.evaluations?.length).toBe(8);
    expect(before.usage_rollup?.length).toBeGreaterThan(0);
    const answersBefore = await Promise.all([a, b].map((t) => reads(t)));
    // With shards on and nothing carried over, the data is unseen: the reason for the carry-over.
    expect((await keyed(`/v1/evaluations/${made[a.tenant]?.evaluation}`, as(a.key), sharded)).status).toBe(404);

    // Three records a call, and a crash between one shard's copy and DB's delete.
    const db = crashingOnce(carryOverDb(control));
    const calls: (CarryOverReport | 'crashed')[] = [];
    for (let i = 0; i < 100; i++) {
      const r = await carryOver(db, shards.map(carryOverDb), Date.now(), 3).catch(() => 'crashed' as const);
      calls.push(r);
      if (r !== 'crashed' && r.done) break;
    }
    expect(db.crashed).toBe(true);
    expect(calls).toContain('crashed');
    expect(calls.length).toBeGreaterThan(4);
    expect(calls.at(-1)).toMatchObject({ done: true });

    // DB keeps no tenant row; the shards hold every row once, each in its tenant's shard.
    const left = await tenantRows(control);
    expect(Object.values(left).flat()).toEqual([]);
    const after: Record<string, string[]> = {};
    for (const s of shards)
      for (const [table, rows] of Object.entries(await tenantRows(s)))
        after[table] = [...(after[table] ?? []), ...rows];
    for (const table of Object.keys(before)) expect(after[table]?.sort(), table).toEqual(before[table]);
    for (const t of [a, b]) {
      const q = 'SELECT count(*) AS n FROM evaluations WHERE tenant = ?';
      const counts = await Promise.all(
        shards.map(async (s) => (await s.prepare(q).bind(t.tenant).first<{ n: number }>())?.n),
      );
      expect(counts).toEqual(counts.map((_, i) => (i === t.shard ? 4 : 0)));
      // The tenant's settings row is copied into its shard, for the shard's own joins.
      const mirrored = await shards[t.shard]
        ?.prepare('SELECT retention_days FROM tenants WHERE id = ?')
        .bind(t.tenant)
        .first();
      expect(mirrored).toEqual({ retention_days: 30 });
    }

    // Recorded as finished: a repeat moves nothing and stops at once.
    expect(await carryOver(carryOverDb(control), shards.map(carryOverDb), Date.now())).toEqual({
      moved: {},
      done: true,
    });
    // Through the API with 4 shards, every read answers as it did from one database.
    expect(await Promise.all([a, b].map((t) => reads(t, sharded)))).toEqual(answersBefore);
  });

  it('runs from the admin API a bounded share a call until done', async () => {
    const r = await asAdmin('/v1/admin/shards/carry-over?maxRows=10', { method: 'POST' }, sharded);
    expect(r.status, await r.clone().text()).toBe(200);
    expect(await r.json()).toEqual({ moved: {}, done: true });
    const bad = await asAdmin('/v1/admin/shards/carry-over?maxRows=0', { method: 'POST' }, sharded);
    expect(bad.status).toBe(400);
  });
});
