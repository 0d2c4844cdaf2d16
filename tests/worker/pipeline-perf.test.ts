import { afterEach, expect, it } from 'vitest';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { drainAlarms, insertJob, LONG_DEBATE, POINTWISE, stubbornCritic, testEnv, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

/**
 * Structure of the call loop, from the object's stored timings: each dependent call goes out only
 * after its predecessor's result is stored, and in the same order. No wall-clock bound on purpose: the
 * test machine's CPU is shared and noisy, so a millisecond bound is flaky; `bench/` measures overhead.
 */
it('every dependent call starts after its predecessor is stored, in protocol order', async () => {
  const ns = `perf-${Date.now()}`;
  await stubbornCritic(ns);
  const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 50 } });
  await testEnv.JOBS.send({ id });
  const row = await waitForEnd(id);
  expect(row.status).toBe('succeeded');
  const t = await evaluationStub(testEnv, id).timings();
  expect(t.map((x) => x.callId)).toEqual(['score0', 'critic1', 'score1', 'critic2', 'score2', 'critic3', 'score3']);
  for (const [i, x] of t.entries()) {
    expect(x.ok).toBe(true);
    // The object's clock brackets the call: its span holds the mock's 50 ms, and so does the LLM layer's
    // own time, which fits inside the span.
    expect(x.finishedAt - x.startedAt).toBeGreaterThanOrEqual(50);
    expect(x.latencyMs).toBeGreaterThanOrEqual(50);
    expect(x.latencyMs!).toBeLessThanOrEqual(x.finishedAt - x.startedAt);
    if (i > 0) expect(x.startedAt).toBeGreaterThanOrEqual(t[i - 1]!.finishedAt);
  }
});
