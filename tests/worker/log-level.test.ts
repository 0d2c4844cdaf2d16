/**
 * The Worker's entries apply `LOG_LEVEL` before anything logs: the HTTP entry and the evaluation's object
 * (an isolate may start at either), so a deployment at `warn` builds no info line anywhere.
 */
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import { EvaluationDO } from '../../durable-objects/evaluation/index.js';
import { applyLogLevel } from '../../src/config/vars.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { logs } from '../../src/log/log.js';
import { newTestId, testEnv } from './helpers.js';

// The test shares the isolate with the Worker: put the deployment's level back after each test.
afterEach(() => {
  applyLogLevel(testEnv);
});

describe('LOG_LEVEL at the entries', () => {
  it('the HTTP entry applies it', async () => {
    expect(logs('info')).toBe(true);
    const ctx = createExecutionContext();
    const res = await worker.fetch(new Request('http://tribunal.test/health'), { ...testEnv, LOG_LEVEL: 'warn' }, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect([logs('info'), logs('warn')]).toEqual([false, true]);
  });

  it("the evaluation's object applies it as it is made", async () => {
    expect(logs('warn')).toBe(true);
    await runInDurableObject(evaluationStub(testEnv, newTestId()), (_o, state) => {
      new EvaluationDO(state, { ...testEnv, LOG_LEVEL: 'error' });
    });
    expect([logs('warn'), logs('error')]).toEqual([false, true]);
  });
});
