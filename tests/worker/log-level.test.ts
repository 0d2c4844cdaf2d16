/**
 * The Worker's entries apply `LOG_LEVEL` before anything logs: the HTTP entry and the evaluation's object
 * (an isolate may start at either), so a deployment at `warn` builds no info line anywhere.
 */
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index.js';
import { EvaluationDO } from '../../durable-objects/evaluation/index.js';
import { applyLogLevel } from '../../src/config/vars.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { logs } from '../../src/log/log.js';
import type { Evaluation } from '../../src/evaluations/schemas.js';
import { drainAlarms, newTestId, PAIRWISE, testEnv } from './helpers.js';
import { postJson } from './api-fetch.js';
import { mockModel } from '../../src/mock-llm/model-name.js';

// The test shares the isolate with the Worker: put the deployment's level back after each test.
afterEach(async () => {
  applyLogLevel(testEnv);
  await drainAlarms();
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

describe('the lines of an evaluation', () => {
  it('at info, one that went well writes one line: evaluation.finalized, with its method, status, calls and time', async () => {
    expect([logs('info'), logs('debug')]).toEqual([true, false]);
    const lines: string[] = [];
    const spies = (['log', 'warn', 'error'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map(String).join(' '));
      }),
    );
    let ended: Evaluation;
    try {
      // The answer comes once the object wrote its final line (Prefer: wait).
      const r = await postJson(
        '/v1/evaluations',
        {
          preset: 'fastchat-pair',
          config: { calibration: { enabled: false }, defaults: { model: mockModel({ seed: 'log-lines' }) } },
          task: PAIRWISE,
        },
        { Prefer: 'wait=30' },
      );
      expect(r.status).toBe(200);
      ended = await r.json<Evaluation>();
    } finally {
      for (const s of spies) s.mockRestore();
    }
    expect(ended.status).toBe('succeeded');
    const mine = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.evaluationId === ended.id);
    expect(mine).toEqual([
      expect.objectContaining({
        level: 'info',
        event: 'evaluation.finalized',
        method: 'single',
        status: 'succeeded',
        calls: 1,
        durationMs: expect.any(Number) as number,
      }),
    ]);
  });
});
