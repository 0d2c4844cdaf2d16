/**
 * The shared call pool (src/engine/pool.ts), driven with hand-made requests and deferred replies so
 * every assertion is about ordering, not timing.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { runCallPool } from '../../src/engine/pool.js';

function req(id: string): LlmCallRequest {
  return {
    id,
    agent: 'a',
    label: 'A',
    stage: 's',
    messages: [],
    temperature: 0,
    maxTokens: 1,
    parser: { type: 'text' },
  };
}

/** A reply the test releases by hand. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run. */
const flush = () => new Promise((r) => setImmediate(r));

describe('runCallPool', () => {
  it('runs at most `concurrency` calls at once and launches the next as soon as one settles', async () => {
    const pending = new Map<string, ReturnType<typeof deferred>>();
    const done = new Set<string>();
    const all = ['c0', 'c1', 'c2', 'c3', 'c4'];
    const pool = runCallPool({
      concurrency: 2,
      ready: () => all.filter((id) => !done.has(id)).map(req),
      run: async (r) => {
        const d = deferred();
        pending.set(r.id, d);
        await d.promise;
        done.add(r.id);
      },
    });
    await flush();
    expect([...pending.keys()]).toEqual(['c0', 'c1']);
    pending.get('c1')!.resolve();
    await flush();
    expect([...pending.keys()]).toEqual(['c0', 'c1', 'c2']);
    for (const id of ['c0', 'c2', 'c3', 'c4']) {
      await flush();
      pending.get(id)!.resolve();
    }
    expect(await pool).toEqual({ launched: 5, refused: 0 });
  });

  it('launches a call its predecessor made ready within the same run (no round trip)', async () => {
    const order: string[] = [];
    let stage = 0;
    const report = await runCallPool({
      concurrency: 4,
      ready: () => (stage < 3 ? [req(`step${stage}`)] : []),
      run: (r) => {
        order.push(r.id);
        stage += 1;
        return Promise.resolve();
      },
    });
    expect(order).toEqual(['step0', 'step1', 'step2']);
    expect(report.launched).toBe(3);
  });

  it('skips ids running elsewhere and reports 0 launched when the first round found nothing', async () => {
    const report = await runCallPool({
      concurrency: 6,
      ready: () => [req('x')],
      skip: (id) => id === 'x',
      run: () => Promise.reject(new Error('must not run')),
    });
    expect(report).toEqual({ launched: 0, refused: 0 });
  });

  it('always runs the first round, then launches nothing new once `more()` says no', async () => {
    const ran: string[] = [];
    let n = 0;
    const report = await runCallPool({
      concurrency: 6,
      ready: () => [req(`c${n}`)],
      more: () => false,
      run: (r) => {
        ran.push(r.id);
        n += 1;
        return Promise.resolve();
      },
    });
    expect(ran).toEqual(['c0']);
    expect(report.launched).toBe(1);
  });

  it('after a throw it launches nothing new, waits for the calls in flight, then rethrows the first error', async () => {
    const slow = deferred();
    const launched: string[] = [];
    let slowDone = false;
    const pool = runCallPool({
      concurrency: 6,
      ready: () => ['bad', 'slow', 'later'].filter((id) => !launched.includes(id)).map(req),
      run: async (r) => {
        launched.push(r.id);
        if (r.id === 'bad') throw new Error('storage failed');
        if (r.id === 'slow') {
          await slow.promise;
          slowDone = true;
        }
      },
    });
    const outcome = pool.then(
      () => 'resolved',
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await flush();
    // The first round launched all three; none after the throw.
    expect(launched).toEqual(['bad', 'slow', 'later']);
    expect(slowDone).toBe(false);
    slow.resolve();
    expect(await outcome).toBe('storage failed');
    expect(slowDone).toBe(true);
  });
});
