/**
 * A trace's D1 index row and the spans consumer that writes it: a consumer batch reads the row from the trace's
 * object and writes it later in the same invocation, so a DELETE, or the retention's expiry, landing between the
 * two must not bring the row back; and a deleted trace's D1 tombstone, which keeps it out, lasts only as long as
 * a consumer can hold such a row (the cron's retention run deletes it after).
 */
import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantDb } from '../../src/config/d1-shards.js';
import { sweepRetentionShard } from '../../src/retention/sweep.js';
import { deliverSpans } from '../../src/traces/ingest.js';
import { normalizeRequest } from '../../src/traces/normalize.js';
import type { NormalizedSpan } from '../../src/traces/span-schema.js';
import { traceStub } from '../../src/traces/rpc.js';
import { api } from './api-fetch.js';
import { drainAlarms, newTestId, testEnv } from './helpers.js';
import { newTraceId } from './monitors-support.js';

afterEach(drainAlarms);

const MINUTE_MS = 60_000;

/** One root span of `traceId`, as the consumer takes it. */
function spansOf(traceId: string): NormalizedSpan[] {
  const span = {
    traceId,
    spanId: '5000000000000001',
    name: `race ${newTestId('span')}`,
    startTimeUnixNano: '1700000000000000000',
    endTimeUnixNano: '1700000000100000000',
  };
  const service = { key: 'service.name', value: { stringValue: `race-${newTestId('svc')}` } };
  return normalizeRequest({
    resourceSpans: [{ resource: { attributes: [service] }, scopeSpans: [{ scope: { name: 'agent' }, spans: [span] }] }],
  }).spans;
}

/**
 * The consumer's D1 (`D1_SHARDS` 0: the tenant's database is DB), running `between` once before its first batch:
 * after the trace object's answer and before the consumer's index write, as work landing mid-batch does.
 */
function racingDb(between: () => Promise<void>): D1Database {
  return new Proxy(testEnv.DB, {
    get(target, key) {
      const v: unknown = Reflect.get(target, key);
      if (typeof v !== 'function') return v;
      const bound = (v as (...a: unknown[]) => unknown).bind(target);
      if (key !== 'batch') return bound;
      return async (...args: unknown[]) => {
        await between();
        return bound(...args);
      };
    },
  });
}

/** Sets the trace's retention deadline to `at` (epoch ms) and, when `fire`, runs the alarm that expires it. */
async function expireAt(traceId: string, at: number, fire: boolean): Promise<void> {
  const stub = traceStub(testEnv, 'default', traceId);
  await runInDurableObject(stub, async (_o, state) => {
    state.storage.sql.exec(`UPDATE meta SET value = ? WHERE key = 'expiresAt'`, String(at));
    await state.storage.setAlarm(Date.now() + MINUTE_MS);
  });
  if (fire) expect(await runDurableObjectAlarm(stub)).toBe(true);
}

const db = () => tenantDb(testEnv, 'default');
const rowOf = (traceId: string) => db().prepare('SELECT 1 AS x FROM traces WHERE trace_id = ?').bind(traceId).first();
const tombstoneOf = (traceId: string) =>
  db().prepare('SELECT 1 AS x FROM trace_tombstones WHERE trace_id = ?').bind(traceId).first();

describe('a trace index row and its consumer', () => {
  it('a consumer batch whose object answered the index row just before the DELETE does not write it back after', async () => {
    const traceId = newTraceId();
    const spans = spansOf(traceId);
    let deleted = 0;
    const racing = racingDb(async () => {
      deleted = (await api(`/v1/traces/${traceId}`, { method: 'DELETE' })).status;
    });
    await deliverSpans({ ...testEnv, DB: racing }, { tenant: 'default', retentionDays: 30, spans });
    expect(deleted).toBe(204);
    expect((await api(`/v1/traces/${traceId}`)).status).toBe(404);
    expect(await rowOf(traceId)).toBeNull();
    // A redelivery after the erase writes none either (the object answers no row); the tombstone goes when the
    // trace's object drops its own, at the retention deadline the trace had, if the cron has not deleted it yet.
    await deliverSpans(testEnv, { tenant: 'default', retentionDays: 30, spans });
    expect(await rowOf(traceId)).toBeNull();
    expect(await tombstoneOf(traceId)).not.toBeNull();
    await expireAt(traceId, 1, true);
    expect(await tombstoneOf(traceId)).toBeNull();
  });

  it('a redelivery answered just before the retention expires does not write the row back after it', async () => {
    const traceId = newTraceId();
    const spans = spansOf(traceId);
    await deliverSpans(testEnv, { tenant: 'default', retentionDays: 30, spans });
    expect(await rowOf(traceId)).not.toBeNull();
    // The trace expires in 5 min, and a redelivery (no new span, so no new deadline) reaches its object now; the
    // expiry's alarm runs before the consumer's write, if the consumer writes at all.
    await expireAt(traceId, Date.now() + 5 * MINUTE_MS, false);
    let expired = false;
    const expire = async () => {
      if (expired) return;
      expired = true;
      await expireAt(traceId, 1, true);
    };
    await deliverSpans({ ...testEnv, DB: racingDb(expire) }, { tenant: 'default', retentionDays: 30, spans });
    await expire();
    expect(await rowOf(traceId)).toBeNull();
    expect((await api(`/v1/traces/${traceId}`)).status).toBe(404);
  });

  it("the cron's retention run deletes a tombstone once no consumer can hold its row, and keeps a younger one", async () => {
    const tenant = `tomb-${newTestId('t')}`;
    const now = Date.now();
    const old = newTraceId();
    const young = newTraceId();
    // 61 min: past the hour a tombstone is kept. 20 min: a consumer's invocation (15 min at most) may still hold it.
    await db()
      .prepare('INSERT INTO trace_tombstones (tenant, trace_id, deleted_at) VALUES (?1, ?2, ?3), (?1, ?4, ?5)')
      .bind(tenant, old, now - 61 * MINUTE_MS, young, now - 20 * MINUTE_MS)
      .run();
    await sweepRetentionShard(testEnv, db(), now);
    expect(await tombstoneOf(old)).toBeNull();
    expect(await tombstoneOf(young)).not.toBeNull();
    // A repeat deletes nothing more of them.
    await sweepRetentionShard(testEnv, db(), now);
    expect(await tombstoneOf(young)).not.toBeNull();
  });
});
