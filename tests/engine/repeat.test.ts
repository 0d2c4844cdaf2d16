/**
 * The repeat method: N runs of one judge with `r<k>/` ids, each a separate call; the majority verdict and the
 * runs listed for the stability report; idempotent application; a failed call fails the evaluation.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import { ZERO_USAGE } from '../../src/engine/call.js';
import { applyResult, createEvaluation, outcome, plannedCalls, readyCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import { runEvaluation } from '../../src/engine/runner.js';
import type { PairwiseTask, PointwiseTask } from '../../src/engine/task.js';
import { VerdictSchema } from '../../src/engine/verdict.js';

const repeat = getMethod('repeat');
const pair: PairwiseTask = { kind: 'pairwise', question: 'Q?', answerA: 'ALPHA answer', answerB: 'BETA answer' };
const point: PointwiseTask = {
  kind: 'pointwise',
  source: 'A text.',
  output: 'A summary.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

const judge = resolveMethodConfig('fastchat-pair', { calibration: { enabled: false } });
const config = (n: number, j = judge) => resolveMethodConfig(undefined, { method: 'repeat', n, judge: j });

const ok = (req: LlmCallRequest, content: string): LlmCallResult => ({
  id: req.id,
  ok: true,
  content,
  model: 'fake',
  usage: ZERO_USAGE,
});

describe('repeat', () => {
  it('runs the judge n times, each run its own call, and lists every run', async () => {
    const seen: string[] = [];
    // Runs 0 and 2 say A, run 1 says B: the majority is A, 2 of 3 runs agree.
    const { outcome: o } = await runEvaluation(repeat, createEvaluation(repeat, config(3), pair), (req) => {
      seen.push(req.id);
      return Promise.resolve(ok(req, req.id.startsWith('r1/') ? 'B is better.\n[[B]]' : 'A is better.\n[[A]]'));
    });
    expect(seen.map((id) => id.slice(0, 3)).sort()).toEqual(['r0/', 'r1/', 'r2/']);
    expect(o.status).toBe('succeeded');
    if (o.status !== 'succeeded') return;
    expect(VerdictSchema.parse(o.verdict)).toBeTruthy();
    expect(o.verdict.winner).toBe('A');
    expect(o.verdict.confidence).toBeCloseTo(2 / 3);
    expect(o.verdict.calls).toBe(3);
    expect(o.verdict.details.repeat).toMatchObject({ n: 3, runs: [{ winner: 'A' }, { winner: 'B' }, { winner: 'A' }] });
  });

  it('plans n times the judge and refuses a repeat of a repeat or n outside 2-10', () => {
    const single = plannedCalls(getMethod(judge.method), createEvaluation(getMethod(judge.method), judge, pair));
    expect(plannedCalls(repeat, createEvaluation(repeat, config(4), pair))).toBe(4 * single);
    expect(() => config(1)).toThrow(EngineInputError);
    expect(() => config(11)).toThrow(EngineInputError);
    expect(() => config(2, config(2))).toThrow(/other than repeat/);
  });

  it('takes a result once: a redelivered reply changes nothing', () => {
    let state = createEvaluation(repeat, config(2), pair);
    const [first] = readyCalls(repeat, state);
    if (!first) throw new Error('no call');
    state = applyResult(repeat, state, ok(first, '[[A]]'));
    const again = applyResult(repeat, state, ok(first, '[[B]]'));
    expect(again).toBe(state);
    expect(readyCalls(repeat, state).map((c) => c.id)).not.toContain(first.id);
  });

  it('fails on a failed call: a provider error is never a verdict', () => {
    let state = createEvaluation(repeat, config(2), pair);
    const [first] = readyCalls(repeat, state);
    if (!first) throw new Error('no call');
    state = applyResult(repeat, state, {
      id: first.id,
      ok: false,
      error: { code: 'provider_error', message: '500' },
    });
    expect(outcome(repeat, state)).toMatchObject({ status: 'failed', error: { code: 'provider_error' } });
  });

  it('pointwise: the mean score, every run listed', async () => {
    const j = resolveMethodConfig('rubric-judge', {});
    const scores = [2, 4, 3];
    const { outcome: o } = await runEvaluation(repeat, createEvaluation(repeat, config(3, j), point), (req) => {
      const k = Number(/^r(\d+)\//.exec(req.id)?.[1]);
      return Promise.resolve(ok(req, String(scores[k])));
    });
    expect(o.status).toBe('succeeded');
    if (o.status !== 'succeeded') return;
    expect(o.verdict.score).toBeCloseTo(3);
    expect((o.verdict.details.repeat as { runs: { score: number }[] }).runs.map((r) => r.score)).toEqual(scores);
  });
});
