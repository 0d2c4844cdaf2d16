/**
 * Engine versions pinned per evaluation (src/engine/version.ts): a deploy that changes the engine
 * version of a running evaluation's method ends it `engine_version_changed` without repeating a stored
 * call; evaluations started after the deploy run under the new version. The deploy is simulated with
 * the test subclass's `engineVersionSuffix` (every instance reports a different version) and an
 * eviction of every object (a deploy starts fresh instances).
 */
import { WAIT_MS } from '../support/patience.js';
import { abortAllDurableObjects } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluationStub } from '../../src/evaluations/stub.js';
import {
  countRows,
  drainAlarms,
  engineVersionIn,
  insertJob,
  LONG_DEBATE,
  mockRequests,
  expectNoAlarmLeft,
  pollUntil,
  POINTWISE,
  runInTestObject,
  storedVerdict,
  stubbornCritic,
  testEnv,
  waitForEnd,
} from './helpers.js';
import { TestEvaluationDO } from './test-evaluation-do.js';
import { getMethod } from '../../src/engine/registry.js';
import { engineVersionOf } from '../../src/engine/version.js';

afterEach(async () => {
  TestEvaluationDO.engineVersionSuffix = '';
  await drainAlarms();
});

/** Starts a long debate and runs exactly its first call by hand (no alarm left armed). */
async function startOneCall(ns: string): Promise<string> {
  const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns } });
  await runInTestObject(id, async (o, state) => {
    // One round of calls per alarm invocation, for this instance only.
    o.useBindings({ STEP_BUDGET_MS: '0' });
    await o.start(id);
    await state.storage.deleteAlarm();
    await o.alarm();
    await state.storage.deleteAlarm();
  });
  return id;
}

/** The debate method's engine version as deployed (the test subclass's suffix simulates the next deploy). */
const DEBATE_VERSION = engineVersionOf(getMethod('debate'));

describe('engine version pinning', () => {
  it('a running evaluation whose method version changed ends engine_version_changed; no stored call is repeated', async () => {
    const ns = `version-${Date.now()}`;
    await stubbornCritic(ns);
    const id = await startOneCall(ns);
    const before = await evaluationStub(testEnv, id).snapshot();
    expect(before?.callsDone).toBe(1);
    expect(before?.engineVersion).toBe(DEBATE_VERSION);
    expect(
      await pollUntil(
        () => engineVersionIn(id),
        (v) => v !== null,
        WAIT_MS,
      ),
    ).toBe(DEBATE_VERSION);

    // The deploy: new code with another version for "debate", fresh instances.
    TestEvaluationDO.engineVersionSuffix = '+changed';
    await abortAllDurableObjects();
    // Whatever reaches the object next (here the sweeper's or a queue redelivery's start) ends it.
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('failed');

    const row = await waitForEnd(id);
    expect(row.status).toBe('failed');
    expect(row.error_code).toBe('engine_version_changed');
    expect(row.error_message).toContain(DEBATE_VERSION);
    expect(row.error_message).toContain(`${DEBATE_VERSION}+changed`);
    // The stored call was neither repeated nor followed by a new one; it is billed and in the transcript.
    expect(await mockRequests(id)).toBe(1);
    expect(await countRows('usage', id)).toBe(1);
    expect(await countRows('transcripts', id)).toBe(1);
    expect(await countRows('verdicts', id)).toBe(0);
    const after = await evaluationStub(testEnv, id).snapshot();
    expect(after).toMatchObject({
      status: 'failed',
      callsDone: 1,
      engineVersion: DEBATE_VERSION,
      error: { code: 'engine_version_changed' },
    });
    expect(await engineVersionIn(id)).toBe(DEBATE_VERSION);
    // Nothing more will happen.
    await expectNoAlarmLeft(id);
  });

  it('without a version change, the same restart finishes the evaluation under the version it started with', async () => {
    const ns = `version-same-${Date.now()}`;
    await stubbornCritic(ns);
    const id = await startOneCall(ns);
    await abortAllDurableObjects();
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('running');
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    const calls = (await storedVerdict(id))!.calls;
    expect(calls).toBe(7);
    expect(await mockRequests(id)).toBe(calls);
    expect(await engineVersionIn(id)).toBe(DEBATE_VERSION);
  });

  it('an evaluation started after the deploy runs under the new version', async () => {
    TestEvaluationDO.engineVersionSuffix = '+changed';
    await abortAllDurableObjects();
    const ns = `version-new-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns } });
    await testEnv.JOBS.send({ id });
    const row = await waitForEnd(id);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    expect((await evaluationStub(testEnv, id).snapshot())?.engineVersion).toBe(`${DEBATE_VERSION}+changed`);
    expect(await engineVersionIn(id)).toBe(`${DEBATE_VERSION}+changed`);
  });
});
