/**
 * A receiver's lanes (src/webhooks/lane.ts, `WEBHOOK_LANES`): its deliveries are spread over that many lanes by
 * a hash of their evaluation, so a busy receiver gets up to `WEBHOOK_LANES` × `WEBHOOK_CONCURRENCY` at once, no
 * more, and each delivery still lands once. The project runs with one lane (tests/vitest.worker.config.ts); here
 * deliveries are handed over with a count of 2, as the queue consumer and the sweeper hand them over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { handOver, laneKeyOf } from '../../src/webhooks/lane.js';
import { drainAlarms, testEnv } from './helpers.js';
import {
  configureSink,
  deliveriesOf,
  deliveryRow,
  endedEvaluation,
  endpointOf,
  hookEnv,
  received,
  releaseSink,
  sinkUrl,
} from './webhooks-helpers.js';

afterEach(drainAlarms);

const LANES = 2;
const spread = { ...hookEnv, WEBHOOK_LANES: String(LANES) } as Bindings;

describe("a receiver's lanes", () => {
  it('keys a delivery by its evaluation: lane 0 is the receiver’s own key, one evaluation always one lane', () => {
    const receiver = { tenant: 't', target: 'ep_1', endpoint_id: 'ep_1', url: null };
    expect(laneKeyOf(receiver, 1)).toBe('ep:ep_1');
    expect(laneKeyOf({ ...receiver, cause_id: 'ev_x' }, 1)).toBe('ep:ep_1');
    const keys = Array.from({ length: 64 }, (_, i) => laneKeyOf({ ...receiver, cause_id: `ev_${i}` }, 4));
    expect(new Set(keys)).toEqual(new Set(['ep:ep_1', 'ep:ep_1#1', 'ep:ep_1#2', 'ep:ep_1#3']));
    expect(laneKeyOf({ ...receiver, cause_id: 'ev_7' }, 4)).toBe(keys[7]);
  });

  it('a hanging receiver gets WEBHOOK_LANES × WEBHOOK_CONCURRENCY requests at once, no more; each lands once', async () => {
    const limit = Number(hookEnv.WEBHOOK_CONCURRENCY);
    const ep = await endpointOf('spread', sinkUrl('spread'));
    await configureSink('spread', [ep.secret], ['hold']);
    // One more than a lane's slots in each lane: evaluations until both lanes have limit + 1.
    const byLane = new Map<string, string[]>();
    while ([...byLane.values()].filter((d) => d.length > limit).length < LANES) {
      const ids = await Promise.all(Array.from({ length: 4 }, () => endedEvaluation('spread')));
      for (const id of ids) {
        const lane = laneKeyOf({ tenant: 'spread', target: ep.id, endpoint_id: ep.id, url: null, cause_id: id }, LANES);
        const list = byLane.get(lane) ?? [];
        if (list.length <= limit) list.push((await deliveriesOf(id))[0]!.id);
        byLane.set(lane, list);
      }
    }
    const dlvs = [...byLane.values()].flat();
    expect(dlvs).toHaveLength(LANES * (limit + 1));
    for (const d of dlvs) expect(await handOver(spread, d)).toBe(true);
    await expect.poll(async () => (await received('spread')).length, { timeout: 10_000 }).toBe(LANES * limit);
    const first = (await received('spread')).map((r) => r.webhookId);
    // Every slot of both lanes hangs: the one behind each lane's slots has not gone out.
    const waiting = await testEnv.DB.prepare(
      `SELECT count(*) AS n FROM webhook_deliveries WHERE attempts = 0 AND id IN (${dlvs.map(() => '?').join(', ')})`,
    )
      .bind(...dlvs)
      .first<{ n: number }>();
    expect(waiting?.n).toBe(LANES);

    await configureSink('spread', [ep.secret], [200]);
    expect(await releaseSink('spread')).toBe(LANES * limit);
    await expect
      .poll(async () => (await Promise.all(dlvs.map(async (d) => (await deliveryRow(d)).status))).join())
      .toBe(dlvs.map(() => 'delivered').join());
    const rest = (await received('spread')).map((r) => r.webhookId);
    const all = [...first, ...rest];
    expect(all).toHaveLength(dlvs.length);
    expect(new Set(all).size).toBe(dlvs.length);
    const attempts = await testEnv.DB.prepare(
      `SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id IN (${dlvs.map(() => '?').join(', ')})`,
    )
      .bind(...dlvs)
      .first<{ n: number }>();
    expect(attempts?.n).toBe(dlvs.length);
  });
});
