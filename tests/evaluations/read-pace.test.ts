/**
 * A reader of many evaluations' objects (a batch's results page) opens them at a bounded pace where the runtime
 * sets `OBJECT_READ_PACE` (the local one: it keeps an object resident 10 s after its last request and caps SQLite's
 * heap for the whole process, so 1,000 objects read straight through, page after page, ended in SQLITE_NOMEM and
 * a 500); deployed (the default, 0) unpaced, so one tenant's paging never waits on an isolate's window.
 */
import { describe, expect, it, vi } from 'vitest';
import { withObjectVerdicts } from '../../src/evaluations/content.js';
import type { EvaluationNamespaceEnv } from '../../src/evaluations/stub.js';
import { OBJECT_READ_WINDOW_MS, objectReadPaceOf, ReadPace } from '../../src/evaluations/read-pace.js';
import { ConfigError, configOf } from '../../src/config/vars.js';

/** A clock the test moves, and sleepers woken when it passes their time. */
function fakeTime(): { now: () => number; sleep: (ms: number) => Promise<void>; advance: (ms: number) => void } {
  let t = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  return {
    now: () => t,
    sleep: (ms) => new Promise((wake) => sleepers.push({ at: t + ms, wake })),
    advance: (ms) => {
      t += ms;
      for (const s of sleepers.splice(0).filter((x) => (x.at <= t ? (x.wake(), false) : true))) sleepers.push(s);
    },
  };
}

/** An evaluation namespace whose objects answer a verdict and count the reads. */
function countingEnv(): { env: EvaluationNamespaceEnv; reads: () => number } {
  let reads = 0;
  const ns = {
    idFromName: (name: string) => name,
    get: (id: string) => ({
      content: () => {
        reads += 1;
        return Promise.resolve({ task: null, verdict: JSON.stringify({ id }) });
      },
    }),
  };
  return { env: { EVALUATION: ns } as unknown as EvaluationNamespaceEnv, reads: () => reads };
}

/** Lets every settled promise's continuation run. */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('reading many evaluations objects', () => {
  it('opens at most the pace per window, and the rest once the window has passed', async () => {
    const time = fakeTime();
    const { env, reads } = countingEnv();
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: `ev_${i}`, status: 'succeeded', verdict: null }));
    const done = withObjectVerdicts(env, rows, new ReadPace(20, 1_000, time.now, time.sleep));
    await settle();
    expect(reads()).toBe(20);
    time.advance(999);
    await settle();
    expect(reads()).toBe(20);
    time.advance(1);
    await settle();
    expect(reads()).toBe(40);
    time.advance(1_000);
    const page = await done;
    expect(reads()).toBe(50);
    expect(page.map((r) => r.verdict)).toEqual(rows.map((r) => JSON.stringify({ id: r.id })));
  });

  it('serves waiters in the order they asked: a newcomer does not take the slot a sleeping page waits for', async () => {
    const time = fakeTime();
    const pace = new ReadPace(1, 1_000, time.now, time.sleep);
    const order: string[] = [];
    const take = (who: string) => pace.take().then(() => order.push(who));
    const both = [take('first'), take('waiting')];
    await settle();
    expect(order).toEqual(['first']);
    time.advance(1_000);
    const late = take('newcomer');
    await settle();
    expect(order).toEqual(['first', 'waiting']);
    time.advance(1_000);
    await Promise.all([...both, late]);
    expect(order).toEqual(['first', 'waiting', 'newcomer']);
  });

  it('deployed (the default configuration) reads every object at once: no pace, no wait', async () => {
    expect(configOf({}).OBJECT_READ_PACE).toBe(0);
    expect(objectReadPaceOf(configOf({}).OBJECT_READ_PACE)).toBeNull();
    const { env, reads } = countingEnv();
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ id: `ev_${i}`, status: 'succeeded', verdict: null }));
    const page = await withObjectVerdicts(env, rows, null);
    expect(reads()).toBe(2_000);
    expect(page.map((r) => r.verdict)).toEqual(rows.map((r) => JSON.stringify({ id: r.id })));
  });

  it("a configured pace is the isolate's one window per rate, made once", () => {
    const local = objectReadPaceOf(configOf({ OBJECT_READ_PACE: '1000' }).OBJECT_READ_PACE);
    expect(local).toMatchObject({ perWindow: 1_000, windowMs: OBJECT_READ_WINDOW_MS });
    expect(objectReadPaceOf(1_000)).toBe(local);
    expect(objectReadPaceOf(500)).not.toBe(local);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => configOf({ OBJECT_READ_PACE: '-1' })).toThrow(ConfigError);
    } finally {
      logged.mockRestore();
    }
  });
});
