/**
 * Delivery lanes (src/webhooks/lane.ts): each receiver's deliveries run in its own lane, so a receiver that
 * hangs delays only itself; the queue consumer only hands deliveries over; a lane holds its retries; a
 * delivery erased while it is being sent ends cleanly. Through the real queue and the lanes' objects; a
 * receiver the test holds (`"hold"`) stands for one that hangs, and is released at the end.
 */
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteEvaluation } from '../../src/evaluations/list.js';
import { enqueueDeliveries } from '../../src/webhooks/dispatch.js';
import type { AttemptOutcome } from '../../src/webhooks/deliver.js';
import {
  DeliveryLane,
  laneKeyOf,
  laneRetryDelayMs,
  laneStub,
  RUN_BUDGET_MS,
  staleRunMs,
} from '../../src/webhooks/lane.js';
import { MAX_ATTEMPTS_PER_INVOCATION } from '../../src/config/platform-limits.js';
import { configOf } from '../../src/config/vars.js';
import { drainAlarms, testEnv } from './helpers.js';
import {
  configureSink,
  deliveriesOf,
  deliveryRow,
  endedEvaluation,
  endpointOf,
  hookEnv,
  makeDue,
  received,
  releaseSink,
  runConsumer,
  sinkUrl,
} from './webhooks-helpers.js';

afterEach(drainAlarms);

/** An endpoint of `tenant` at sink `name` answering `script`, and one ended evaluation's delivery to it. */
async function deliveryTo(
  tenant: string,
  name: string,
  script: Parameters<typeof configureSink>[2],
): Promise<{ id: string; dlv: string; lane: string }> {
  const ep = await endpointOf(tenant, sinkUrl(name));
  await configureSink(name, [ep.secret], script);
  const id = await endedEvaluation(tenant);
  const dlv = (await deliveriesOf(id))[0]!.id;
  return {
    id,
    dlv,
    lane: laneKeyOf({ tenant, target: ep.id, endpoint_id: ep.id, url: null }, configOf(testEnv).WEBHOOK_LANES),
  };
}

/** The deliveries lane `key` holds, with their due times. */
async function laneRows(key: string): Promise<{ id: string; due_at: number }[]> {
  return runInDurableObject(laneStub(hookEnv, key), (_o, state) =>
    state.storage.sql.exec<{ id: string; due_at: number }>('SELECT id, due_at FROM deliveries ORDER BY id').toArray(),
  );
}

/** The recorded attempts of delivery `dlv`. */
async function attemptsOf(dlv: string): Promise<number> {
  const row = await testEnv.DB.prepare('SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id = ?')
    .bind(dlv)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * A lane whose every slot hangs: an endpoint of tenant `name` at held sink `name`, `WEBHOOK_CONCURRENCY +
 * extra` deliveries to it handed over, resolved once the sink holds `WEBHOOK_CONCURRENCY` of them.
 */
async function fullLane(name: string, extra: number) {
  const limit = Number(hookEnv.WEBHOOK_CONCURRENCY);
  const ep = await endpointOf(name, sinkUrl(name));
  await configureSink(name, [ep.secret], ['hold']);
  const ids = await Promise.all(Array.from({ length: limit + extra }, () => endedEvaluation(name)));
  const dlvs = await Promise.all(ids.map(async (id) => (await deliveriesOf(id))[0]!.id));
  await enqueueDeliveries(hookEnv, dlvs);
  await expect.poll(async () => (await received(name)).length, { timeout: 10_000 }).toBe(limit);
  return { ep, dlvs, limit };
}

describe('one receiver that hangs delays only itself', () => {
  it("another tenant's delivery sent while it hangs lands at once, long before the hang's timeout", async () => {
    const slow = await deliveryTo('lane-slow', 'lane-slow', ['hold']);
    const fast = await deliveryTo('lane-fast', 'lane-fast', [200]);
    await enqueueDeliveries(hookEnv, [slow.dlv]);
    await expect.poll(async () => (await received('lane-slow')).length, { timeout: 10_000, interval: 20 }).toBe(1);

    // The hang has the receiver's request; the healthy receiver's event comes now, through the same queue.
    const sent = Date.now();
    await enqueueDeliveries(hookEnv, [fast.dlv]);
    await expect
      .poll(async () => (await deliveryRow(fast.dlv)).status, { timeout: 5_000, interval: 20 })
      .toBe('delivered');
    const [got] = await received('lane-fast');
    expect(got).toMatchObject({ verified: true, answered: 200 });
    // Far within the hang's timeout (WEBHOOK_TIMEOUT_MS, 10 s), and the hang is still under way: its
    // attempt holds its lease, with nothing recorded yet.
    expect(got!.at - sent).toBeLessThan(5_000);
    expect(await deliveryRow(slow.dlv)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await attemptsOf(slow.dlv)).toBe(0);

    // Released, the hanging receiver's delivery completes in its own lane.
    expect(await releaseSink('lane-slow')).toBe(1);
    await expect.poll(async () => (await deliveryRow(slow.dlv)).status).toBe('delivered');
    await expect.poll(() => laneRows(slow.lane)).toEqual([]);
  });

  it("another tenant's delivery lands at once while every slot of a tenant's lane hangs and more wait behind them", async () => {
    // The same receiver host for both tenants: nothing on the way out may be shared per host either.
    const { ep, dlvs: slow, limit } = await fullLane('full-slow', 2);

    // The lane is full; the other tenant's delivery comes through the same queue, into its own lane.
    const fast = await deliveryTo('full-fast', 'full-fast', [200]);
    await enqueueDeliveries(hookEnv, [fast.dlv]);
    await expect.poll(async () => (await deliveryRow(fast.dlv)).status).toBe('delivered');
    expect(await received('full-fast')).toMatchObject([{ verified: true, answered: 200 }]);
    // It went out while every hung request was still held: none of them has been recorded yet, and the two
    // behind them have not been sent.
    const attempts = await Promise.all(slow.map(attemptsOf));
    expect(attempts.reduce((a, b) => a + b, 0)).toBe(0);
    expect(await received('full-slow')).toHaveLength(limit);

    // Released, the lane sends the two behind them (answered at once now) and ends.
    await configureSink('full-slow', [ep.secret], [200]);
    await releaseSink('full-slow');
    await expect
      .poll(async () => (await Promise.all(slow.map(async (d) => (await deliveryRow(d)).status))).join())
      .toBe(slow.map(() => 'delivered').join());
  });

  it('a queue batch with a hanging receiver in it returns at once: its messages are handed over, not sent', async () => {
    const slow = await deliveryTo('batch-slow', 'batch-slow', ['hold']);
    const fast = await deliveryTo('batch-fast', 'batch-fast', [200]);
    const started = Date.now();
    const r = await runConsumer([slow.dlv, fast.dlv]);
    expect(r.acked.sort()).toEqual([...r.msgIds].sort());
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect.poll(async () => (await deliveryRow(fast.dlv)).status).toBe('delivered');
    await expect.poll(async () => (await received('batch-slow')).length).toBe(1);
    expect(await deliveryRow(slow.dlv)).toMatchObject({ status: 'pending' });
    await releaseSink('batch-slow');
    await expect.poll(async () => (await deliveryRow(slow.dlv)).status).toBe('delivered');
  });

  it('a receiver gets at most WEBHOOK_CONCURRENCY requests at once; the next goes out as one ends', async () => {
    const { ep, dlvs } = await fullLane('lane-cap', 1);
    // One more never goes out while all slots hang.
    await configureSink('lane-cap', [ep.secret], [200]);
    expect(await received('lane-cap')).toHaveLength(0);
    const rows = await testEnv.DB.prepare(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND attempts = 0`,
    )
      .bind(ep.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    await releaseSink('lane-cap');
    await expect.poll(async () => (await received('lane-cap')).length).toBe(1);
    await expect
      .poll(async () => {
        const statuses = await Promise.all(dlvs.map(async (d) => (await deliveryRow(d)).status));
        return statuses.every((s) => s === 'delivered');
      })
      .toBe(true);
  });
});

describe("a lane's invocation", () => {
  it('has at most 6 attempts in flight, its open connections, however many are due; the next goes out as one ends', async () => {
    // The lane's own logic on a lane object's SQLite: its attempts are the test's, each answered when told.
    await runInDurableObject(laneStub(hookEnv, 'invocation-cap'), async (_o, state) => {
      const sent: string[] = [];
      const pending = new Map<string, () => void>();
      let most = 0;
      const attempt = (_env: unknown, id: string): Promise<AttemptOutcome> =>
        new Promise((resolve) => {
          sent.push(id);
          pending.set(id, () => {
            pending.delete(id);
            resolve({ kind: 'delivered' });
          });
          most = Math.max(most, pending.size);
        });
      const answerAll = (): void => {
        for (const answer of [...pending.values()]) answer();
      };
      const storage = {
        sql: state.storage.sql,
        getAlarm: () => Promise.resolve(null),
        setAlarm: () => Promise.resolve(),
        deleteAlarm: () => Promise.resolve(),
      };
      const lane = new DeliveryLane(storage, hookEnv, attempt);
      const ids = Array.from({ length: MAX_ATTEMPTS_PER_INVOCATION + 4 }, (_, i) => `dlv_cap_${String(i)}`);
      try {
        expect(MAX_ATTEMPTS_PER_INVOCATION).toBe(6);
        await lane.take(ids);
        const run = lane.run();
        await expect.poll(() => sent.length).toBe(6);
        expect(lane.stats()).toEqual({ held: ids.length, inFlight: 6 });
        // One ends: exactly one more goes out.
        pending.get(ids[0]!)?.();
        await expect.poll(() => sent.length).toBe(7);
        expect(pending.size).toBe(6);
        // Each answered once it is out: all go out, never more than 6 at once.
        await expect
          .poll(() => {
            answerAll();
            return sent.length;
          })
          .toBe(ids.length);
        answerAll();
        await run;
        expect(most).toBe(6);
        expect([...sent].sort()).toEqual([...ids].sort());
        expect(lane.stats()).toEqual({ held: 0, inFlight: 0 });
      } finally {
        state.storage.sql.exec('DELETE FROM deliveries');
      }
    });
  });
});

describe('the lane holds its retries', () => {
  it('a 500 is retried by the lane at its backoff; a re-enqueue (the sweeper) of a due delivery runs at once', async () => {
    const { dlv, lane } = await deliveryTo('lane-retry', 'lane-retry', [500, 200]);
    await enqueueDeliveries(hookEnv, [dlv]);
    await expect.poll(async () => (await deliveryRow(dlv)).last_status_code).toBe(500);
    const row = await deliveryRow(dlv);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    // The lane holds it, due when D1 says (the backoff, 1-30 s after the attempt).
    await expect.poll(() => laneRows(lane)).toEqual([{ id: dlv, due_at: row.next_attempt_at }]);
    await makeDue(dlv);
    await enqueueDeliveries(hookEnv, [dlv]);
    await expect.poll(async () => (await deliveryRow(dlv)).status).toBe('delivered');
    expect((await received('lane-retry')).map((r) => r.answered)).toEqual([500, 200]);
    await expect.poll(() => laneRows(lane)).toEqual([]);
  });
});

describe('an evaluation deleted while its webhook is being sent', () => {
  it('ends the delivery cleanly: no error line, nothing retried, an info line; the lane lets it go', async () => {
    const tenant = 'lane-deleted';
    const { id, dlv, lane } = await deliveryTo(tenant, 'lane-deleted', ['hold']);
    const errors = vi.spyOn(console, 'error');
    const infos = vi.spyOn(console, 'log');
    try {
      await enqueueDeliveries(hookEnv, [dlv]);
      await expect.poll(async () => (await received('lane-deleted')).length).toBe(1);
      await deleteEvaluation(hookEnv, tenant, id);
      expect(await deliveriesOf(id)).toEqual([]);
      // The receiver answers after the deletion: the attempt has nothing left to record.
      await releaseSink('lane-deleted');
      await expect.poll(() => laneRows(lane)).toEqual([]);
      const lines = infos.mock.calls.map(([l]) => String(l)).filter((l) => l.includes(dlv));
      expect(lines.some((l) => l.includes('"event":"webhook.attempt_erased"'))).toBe(true);
      expect(errors.mock.calls.map(([l]) => String(l))).toEqual([]);
      expect(await attemptsOf(dlv)).toBe(0);
      expect(await received('lane-deleted')).toHaveLength(1);
    } finally {
      errors.mockRestore();
      infos.mockRestore();
    }
  });
});

describe('a lane whose run is lost', () => {
  it('warns and starts a new run at the next hand-over (the sweeper), instead of holding its deliveries for ever', async () => {
    // The lane's own logic on a lane object's SQLite, its clock and alarms the test's: the first attempt
    // never settles, as in a run whose alarm invocation was cancelled or hangs.
    await runInDurableObject(laneStub(hookEnv, 'lost-run'), async (_o, state) => {
      const start = 1_000_000;
      let now = start;
      const alarms: number[] = [];
      const attempted: string[] = [];
      const attempt = (_env: unknown, id: string): Promise<AttemptOutcome> => {
        attempted.push(id);
        return attempted.length === 1 ? new Promise<never>(() => undefined) : Promise.resolve({ kind: 'delivered' });
      };
      const storage = {
        sql: state.storage.sql,
        getAlarm: () => Promise.resolve(null),
        setAlarm: (at: number) => {
          alarms.push(at);
          return Promise.resolve();
        },
        deleteAlarm: () => Promise.resolve(),
      };
      const lane = new DeliveryLane(storage, hookEnv, attempt, () => now);
      const warnings = vi.spyOn(console, 'warn');
      try {
        await lane.take(['dlv_hung']);
        void lane.run();
        await expect.poll(() => attempted).toEqual(['dlv_hung']);
        // Within the attempt's lease the run is alive: a new delivery only wakes it.
        now += 5_000;
        await lane.take(['dlv_next']);
        await expect.poll(() => attempted).toEqual(['dlv_hung', 'dlv_next']);
        expect(warnings.mock.calls.map(([l]) => String(l)).filter((l) => l.includes('webhook.lane_stalled'))).toEqual(
          [],
        );

        // Past the run's budget (and within the lease of its last progress) nothing new is launched while
        // the hung attempt holds the run.
        now = start + RUN_BUDGET_MS + 1_000;
        await lane.take(['dlv_late']);
        await new Promise((r) => setTimeout(r, 20));
        expect(attempted).toEqual(['dlv_hung', 'dlv_next']);
        // Past the lease without progress: the next hand-over (a sweep re-enqueues every overdue delivery)
        // drops the lost run with a warning and a new run sends what the lane holds, the hung one again too.
        now += staleRunMs(hookEnv);
        await lane.take(['dlv_late']);
        await expect.poll(() => [...attempted].sort()).toEqual(['dlv_hung', 'dlv_hung', 'dlv_late', 'dlv_next']);
        const stalled = warnings.mock.calls.map(([l]) => String(l)).filter((l) => l.includes('webhook.lane_stalled'));
        expect(stalled).toHaveLength(1);
        expect(JSON.parse(stalled[0]!)).toMatchObject({ level: 'warn', inFlight: 1, held: 2 });
        await expect.poll(() => lane.stats()).toEqual({ held: 0, inFlight: 0 });
      } finally {
        warnings.mockRestore();
        state.storage.sql.exec('DELETE FROM deliveries');
      }
    });
  });
});

describe("the lane's alarm", () => {
  it('a hand-over arms it now, and never moves an alarm already due later (one take per delivery, ms apart)', async () => {
    // The lane's own logic on a lane object's SQLite, with the test's clock and an alarm the test reads.
    await runInDurableObject(laneStub(hookEnv, 'alarm-kept'), async (_o, state) => {
      let now = 2_000_000;
      let alarm: number | null = now + 60_000;
      const storage = {
        sql: state.storage.sql,
        getAlarm: () => Promise.resolve(alarm),
        setAlarm: (at: number) => {
          alarm = at;
          return Promise.resolve();
        },
        deleteAlarm: () => {
          alarm = null;
          return Promise.resolve();
        },
      };
      const lane = new DeliveryLane(
        storage,
        hookEnv,
        () => Promise.resolve({ kind: 'delivered' }),
        () => now,
      );
      try {
        // A retry due in a minute: the hand-over brings the alarm forward to now.
        await lane.take(['dlv_first']);
        expect(alarm).toBe(2_000_000);
        // The next hand-over, 9 ms later, leaves the alarm due at the first: moving it later raced its firing.
        now += 9;
        await lane.take(['dlv_second']);
        expect(alarm).toBe(2_000_000);
      } finally {
        state.storage.sql.exec('DELETE FROM deliveries');
      }
    });
  });
  it('a run whose own storage fails arms its own retry, which a hand-over brings forward, instead of throwing', async () => {
    // A throwing alarm handler leaves its alarm stored at its past time while the platform waits out its
    // backoff (seconds, doubling); a hand-over keeps an alarm already due, so its delivery waited that long.
    await runInDurableObject(laneStub(hookEnv, 'alarm-own-retry'), async (_o, state) => {
      let now = 3_000_000;
      let alarm: number | null = null;
      let failArming = false;
      const storage = {
        sql: state.storage.sql,
        getAlarm: () => Promise.resolve(alarm),
        setAlarm: (at: number) => {
          if (failArming) {
            failArming = false;
            return Promise.reject(new Error('storage operation failed'));
          }
          alarm = at;
          return Promise.resolve();
        },
        deleteAlarm: () => {
          alarm = null;
          return Promise.resolve();
        },
      };
      const attempted: string[] = [];
      const attempt = (_env: unknown, id: string): Promise<AttemptOutcome> => {
        attempted.push(id);
        return Promise.resolve({ kind: 'retry', delaySeconds: 60, at: now + 60_000 });
      };
      const lane = new DeliveryLane(storage, hookEnv, attempt, () => now);
      const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        await lane.take(['dlv_retried']);
        expect(alarm).toBe(now);
        // The run's arming of its next alarm (the retry's, in a minute) fails: the run arms its own retry.
        failArming = true;
        await lane.run();
        expect(attempted).toEqual(['dlv_retried']);
        expect(alarm).toBe(now + laneRetryDelayMs(1));
        const failed = errors.mock.calls.map(([l]) => String(l)).filter((l) => l.includes('webhook.lane_run_failed'));
        expect(failed.map((l) => JSON.parse(l) as object)).toEqual([
          expect.objectContaining({ level: 'error', failures: 1, error: 'storage operation failed' }),
        ]);
        // A real time, later than now: the next hand-over brings it forward, and the delivery goes out at once.
        now += 500;
        await lane.take(['dlv_new']);
        expect(alarm).toBe(now);
        await lane.run();
        expect(attempted).toEqual(['dlv_retried', 'dlv_new']);
        // A run that arms its next alarm again starts the backoff over.
        expect(alarm).toBe(now + 60_000 - 500);
      } finally {
        errors.mockRestore();
        state.storage.sql.exec('DELETE FROM deliveries');
      }
    });
  });
});
