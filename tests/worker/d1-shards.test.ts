/**
 * The D1 layout (src/config/d1-shards.ts, docs/scale.md "The D1 layout"): with `D1_SHARDS` 4, tenants' rows
 * go to the shard their bucket picks, never to the control database, and each tenant sees only its own
 * through the API; ids carry their tenant's bucket, so a queue message with an id finds the database; the
 * cron sends each shard a message whose run sweeps that shard alone. The rest of the worker project runs with `D1_SHARDS` 0 (DB holds everything);
 * these tests hand the app bindings with the shards on.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { bucketOf, bucketOfId, shardBindingNames, shardOfBucket } from '../../src/config/d1-buckets.js';
import { controlDb, everyTenantDb, newRecordId, recordDb, tenantDb } from '../../src/config/d1-shards.js';
import { sweepRetention } from '../../src/retention/sweep.js';
import type { MaintenanceMessage } from '../../queues/maintenance.js';
import { fanOutMaintenance, handleMaintenance, MAINTENANCE_STALE_MS } from '../../queues/maintenance.js';
import { POINTWISE_RUBRIC_EXAMPLE } from '../../src/rubrics/examples.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import { tenantOf } from '../../src/tenants/auth.js';
import { apiWith } from './api-fetch.js';
import { migrate } from './d1-migrate.js';
import { insertJob, PAIRWISE } from './helpers.js';

const SHARDS = 4;
const sharded = { ...(env as unknown as Bindings), D1_SHARDS: String(SHARDS) } as Bindings;
const binding = (i: number) =>
  (env as unknown as Record<string, D1Database>)[`DB_${String(i).padStart(2, '0')}`] as D1Database;

// The setup migrates DB only (tests/worker/fresh-storage.ts): the shards this file turns on get theirs here.
beforeAll(() => migrate(shardBindingNames(SHARDS)));

/** Two API_KEYS tokens whose tenants hash to different shards (found by counting up: deterministic). */
async function twoTenantsApart(): Promise<{ token: string; digest: string; tenant: string; shard: number }[]> {
  const found: { token: string; digest: string; tenant: string; shard: number }[] = [];
  for (let i = 0; found.length < 2; i++) {
    const token = `shard-test-token-${i}`;
    const digest = await sha256Hex(token);
    const tenant = tenantOf(digest);
    const shard = shardOfBucket(bucketOf(tenant), SHARDS);
    if (!found.some((f) => f.shard === shard)) found.push({ token, digest, tenant, shard });
  }
  return found;
}

async function countIn(db: D1Database, sql: string, ...params: unknown[]): Promise<number> {
  return (
    (
      await db
        .prepare(sql)
        .bind(...params)
        .first<{ n: number }>()
    )?.n ?? -1
  );
}

/** An evaluation of `tenant` that ended long ago, in shard `shard` (insertJob writes to env.DB; the row moves). */
async function endedInShard(tenant: string, shard: number): Promise<string> {
  const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant, id: newRecordId('ev', tenant) });
  const row = await env.DB.prepare('SELECT * FROM evaluations WHERE id = ?').bind(id).first();
  if (!row) throw new Error('no row');
  const cols = Object.keys(row);
  await binding(shard)
    .prepare(`INSERT INTO evaluations (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
    .bind(...cols.map((c) => row[c]))
    .run();
  await env.DB.prepare('DELETE FROM evaluations WHERE id = ?').bind(id).run();
  await binding(shard)
    .prepare("UPDATE evaluations SET status = 'succeeded', finished_at = 1000 WHERE id = ?")
    .bind(id)
    .run();
  return id;
}

describe('the D1 layout', () => {
  it('puts two tenants in different shards, none of it in the control database, and each sees only its own', async () => {
    const [a, b] = await twoTenantsApart();
    if (!a || !b) throw new Error('unreachable');
    const bindings = { ...sharded, API_KEYS: `${a.digest},${b.digest}` };
    const create = (t: { token: string }, name: string) =>
      apiWith(bindings, '/v1/rubrics', {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...POINTWISE_RUBRIC_EXAMPLE, name }),
      });
    const ra = await create(a, 'tenant a');
    const rb = await create(b, 'tenant b');
    expect([ra.status, rb.status]).toEqual([201, 201]);
    const [idA, idB] = [(await ra.json<{ id: string }>()).id, (await rb.json<{ id: string }>()).id];

    // Each row in its tenant's shard only: not in the other's, not in the control database.
    const rows = (id: string) =>
      Promise.all(
        [env.DB, ...shardBindingNames(SHARDS).map((_, i) => binding(i))].map((db) =>
          countIn(db, 'SELECT count(*) AS n FROM rubrics WHERE id = ?', id),
        ),
      );
    const expectOnly = (counts: number[], shard: number) => {
      expect(counts).toEqual(counts.map((_, i) => (i === shard + 1 ? 1 : 0)));
    };
    expectOnly(await rows(idA), a.shard);
    expectOnly(await rows(idB), b.shard);
    expect(tenantDb(sharded, a.tenant)).toBe(binding(a.shard));
    expect(tenantDb(sharded, a.tenant)).not.toBe(controlDb(sharded));

    // Through the API: each lists its own, and the other's is a 404.
    const get = (t: { token: string }, path: string) =>
      apiWith(bindings, path, { headers: { Authorization: `Bearer ${t.token}` } });
    const listA = await (await get(a, '/v1/rubrics')).json<{ data: { id: string }[] }>();
    const listB = await (await get(b, '/v1/rubrics')).json<{ data: { id: string }[] }>();
    expect(listA.data.map((r) => r.id)).toEqual([idA]);
    expect(listB.data.map((r) => r.id)).toEqual([idB]);
    expect((await get(a, `/v1/rubrics/${idB}`)).status).toBe(404);
    expect((await get(b, `/v1/rubrics/${idA}`)).status).toBe(404);
  });

  it("gives new ids their tenant's bucket, so an id alone finds its database; an older id is looked up", async () => {
    const tenant = 'tenant-with-an-id';
    const id = newRecordId('ev', tenant);
    expect(id).toMatch(/^ev_[0-9a-f]{32}$/);
    expect(bucketOfId(id)).toBe(bucketOf(tenant));
    expect(await recordDb(sharded, id)).toBe(tenantDb(sharded, tenant));
    // An id made before the shards (a random UUIDv4) carries none: found where its row is.
    const legacy = `ev_${crypto.randomUUID().replaceAll('-', '')}`;
    expect(bucketOfId(legacy)).toBeNull();
    const other = shardOfBucket(bucketOf(tenant), SHARDS) === 2 ? 1 : 2;
    await binding(other)
      .prepare(
        "INSERT INTO evaluations (id, tenant, status, method, config, task, created_at, updated_at) VALUES (?, ?, 'queued', 'single', '{}', '{}', 0, 0)",
      )
      .bind(legacy, tenant)
      .run();
    expect(await recordDb(sharded, legacy)).toBe(binding(other));
    // An Evals run's id carries no bucket either: looked up among the runs (a wave coordinator has only it).
    const run = 'evalrun_abcdefghijklmnopqrstuvwx';
    await binding(other)
      .prepare(
        "INSERT INTO eval_runs (id, tenant, eval_id, name, status, data_source, items_total, created_at, updated_at) VALUES (?, ?, 'eval_x', '', 'queued', '{}', 0, 0, 0)",
      )
      .bind(run, tenant)
      .run();
    expect(await recordDb(sharded, run)).toBe(binding(other));
  });

  it('copies an admin-created tenant into its shard, for the shard’s own joins', async () => {
    const admin = { ...sharded, ADMIN_TOKEN: 'shard-admin-token' };
    const r = await apiWith(admin, '/v1/admin/tenants', {
      method: 'POST',
      headers: { Authorization: 'Bearer shard-admin-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: 'tn_shardmirrorabcde', name: 'm', limits: { retentionDays: 3 } }),
    });
    expect(r.status, await r.clone().text()).toBe(201);
    const q = 'SELECT count(*) AS n FROM tenants WHERE id = ? AND retention_days = 3';
    expect(await countIn(env.DB, q, 'tn_shardmirrorabcde')).toBe(1);
    expect(await countIn(tenantDb(sharded, 'tn_shardmirrorabcde'), q, 'tn_shardmirrorabcde')).toBe(1);
  });

  it('sweeps every shard: the retention cron erases overdue evaluations wherever they live', async () => {
    expect(everyTenantDb(sharded)).toHaveLength(SHARDS);
    const [a, b] = await twoTenantsApart();
    if (!a || !b) throw new Error('unreachable');
    const ids: string[] = [];
    for (const t of [a, b]) ids.push(await endedInShard(t.tenant, t.shard));
    const report = await sweepRetention(sharded, Date.now());
    expect(report.erased).toBe(2);
    for (const [i, t] of [a, b].entries())
      expect(
        await countIn(
          binding(t.shard),
          'SELECT count(*) AS n FROM evaluations WHERE id = ? AND deleted_at IS NOT NULL',
          ids[i],
        ),
      ).toBe(1);
  });

  it("fans the cron out: a message per shard and one for the archive; a shard's message sweeps that shard alone, once", async () => {
    const [a, b] = await twoTenantsApart();
    if (!a || !b) throw new Error('unreachable');
    const idA = await endedInShard(a.tenant, a.shard);
    const idB = await endedInShard(b.tenant, b.shard);
    const sent: MaintenanceMessage[] = [];
    const fake = {
      ...sharded,
      MAINTENANCE: {
        sendBatch: (msgs: Iterable<MessageSendRequest<MaintenanceMessage>>) => {
          for (const m of msgs) sent.push(m.body);
          return Promise.resolve();
        },
      },
    } as unknown as Bindings;
    const now = Date.now();
    expect(await fanOutMaintenance(fake, now)).toBe(SHARDS + 1);
    expect(sent).toEqual([
      ...Array.from({ length: SHARDS }, (_, shard) => ({ kind: 'shard', shard, shards: SHARDS, at: now })),
      { kind: 'archive_erasures', at: now },
    ]);
    const erased = (shard: number, id: string) =>
      countIn(binding(shard), 'SELECT count(*) AS n FROM evaluations WHERE id = ? AND deleted_at IS NOT NULL', id);
    const deliver = async (body: MaintenanceMessage) => {
      const acked: string[] = [];
      const message = { id: 'm1', body, attempts: 1, ack: () => acked.push('ack'), retry: () => acked.push('retry') };
      await handleMaintenance(
        { queue: 'tribunal-maintenance', messages: [message] } as unknown as MessageBatch,
        sharded,
      );
      expect(acked).toEqual(['ack']);
    };
    const toA = sent.find((m) => m.kind === 'shard' && m.shard === a.shard);
    if (!toA) throw new Error('no message for shard a');
    await deliver(toA);
    expect([await erased(a.shard, idA), await erased(b.shard, idB)]).toEqual([1, 0]);
    // At least once: a repeat finds nothing more to do, and a message from a layout of another size does nothing.
    await deliver(toA);
    await deliver({ kind: 'shard', shard: b.shard, shards: SHARDS + 1, at: now });
    expect([await erased(a.shard, idA), await erased(b.shard, idB)]).toEqual([1, 0]);
    // A message older than the next minute's is dropped: that one does the work.
    await deliver({ kind: 'shard', shard: b.shard, shards: SHARDS, at: now - MAINTENANCE_STALE_MS - 1 });
    expect(await erased(b.shard, idB)).toBe(0);
    await deliver({ kind: 'shard', shard: b.shard, shards: SHARDS, at: now });
    expect(await erased(b.shard, idB)).toBe(1);
  });
});
