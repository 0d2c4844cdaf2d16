/**
 * The jury (PoLL): one wave of k jurors on their own models, votes and means with hand-computed values,
 * tie handling, abstaining jurors, both orders, config checks, idempotent application and JSON round trips.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { FASTCHAT_PAIR_V2_SYSTEM, FASTCHAT_PAIR_V2_TEMPLATE } from '../../src/engine/methods/single/index.js';
import { POLL_JURORS } from '../../src/engine/methods/jury/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, plannedCalls, readyCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { PairwiseTask, PointwiseTask, Task } from '../../src/engine/task.js';
import { VerdictSchema } from '../../src/engine/verdict.js';
import type { Script } from '../support/waves.js';
import { driveByWaves, promptText, verdictOf, waveIds } from '../support/waves.js';

const jury = getMethod('jury');
const pair: PairwiseTask = { kind: 'pairwise', question: 'Q?', answerA: 'ALPHA answer', answerB: 'BETA answer' };
const summary: PointwiseTask = {
  kind: 'pointwise',
  source: 'The article.',
  output: 'The summary.',
  aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
};

/** A jury of three (models m0, m1, m2) with FastChat's verdict prompt, one order unless overridden. */
function fastchatJury(overrides: Record<string, unknown> = {}): EngineState['config'] {
  return resolveMethodConfig(undefined, {
    method: 'jury',
    judge: {
      systemPrompt: FASTCHAT_PAIR_V2_SYSTEM,
      template: FASTCHAT_PAIR_V2_TEMPLATE,
      parser: { type: 'fastchat-verdict' },
    },
    jurors: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }],
    ...overrides,
  });
}

/** Each juror (by model) answers with a fixed reply. */
const byModel =
  (replies: Record<string, string>): Script =>
  (req) =>
    replies[req.model ?? ''] ?? 'no reply scripted';

/** Which answer the juror sees first: ALPHA (as submitted) or BETA (swapped). */
const firstShown = (req: LlmCallRequest) =>
  promptText(req).indexOf('ALPHA') < promptText(req).indexOf('BETA') ? 'ALPHA' : 'BETA';

const run = (config: EngineState['config'], task: Task, script: Script, roundTrip = false) =>
  driveByWaves(jury, createEvaluation(jury, config, task), script, { roundTrip });

describe('poll-3', () => {
  it('asks three jurors on their own models in one wave per order, with one prompt', () => {
    const config = resolveMethodConfig('poll-3', undefined);
    const state = createEvaluation(jury, config, pair);
    const calls = readyCalls(jury, state);
    expect(calls.map((c) => c.id)).toEqual([
      'ab/juror0/sample0',
      'ab/juror1/sample0',
      'ab/juror2/sample0',
      'ba/juror0/sample0',
      'ba/juror1/sample0',
      'ba/juror2/sample0',
    ]);
    expect(calls.map((c) => c.model)).toEqual([...POLL_JURORS.map((j) => j.model), ...POLL_JURORS.map((j) => j.model)]);
    expect(calls.map((c) => c.agent)).toEqual(['juror0', 'juror1', 'juror2', 'juror0', 'juror1', 'juror2']);
    expect(new Set(calls.slice(0, 3).map((c) => JSON.stringify(c.messages))).size).toBe(1);
    expect(calls[0]?.messages[0]).toEqual({ role: 'system', content: FASTCHAT_PAIR_V2_SYSTEM });
    expect(plannedCalls(jury, state)).toBe(6);
  });

  it('votes per order and needs both orders to agree: A, A, B in each order → A with confidence 1/3', () => {
    // In the swapped order "[[B]]" names the submitted A.
    const script: Script = (req) => {
      const forA = req.model !== POLL_JURORS[2].model;
      const saysFirst = firstShown(req) === 'ALPHA' ? forA : !forA;
      return `Because.\n${saysFirst ? '[[A]]' : '[[B]]'}`;
    };
    const { waves, outcome } = run(resolveMethodConfig('poll-3', undefined), pair, script);
    expect(waves).toHaveLength(1);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('A');
    expect(v.positionFlip).toBe(false);
    // Each order: margin (2 − 1) / 3; agreeing orders keep the mean.
    expect(v.confidence).toBeCloseTo(1 / 3, 10);
    expect(v.votes.map((x) => `${x.order ?? ''}:${x.agent}:${x.winner ?? ''}`)).toEqual([
      'AB:juror0:A',
      'AB:juror1:A',
      'AB:juror2:B',
      'BA:juror0:A',
      'BA:juror1:A',
      'BA:juror2:B',
    ]);
    expect(v.calls).toBe(6);
    expect(VerdictSchema.safeParse(v).success).toBe(true);
  });

  it('orders that disagree make a tie (agree-or-tie) and a flip', () => {
    // Every juror always names the first answer shown: A in AB, B in BA.
    const { outcome } = run(resolveMethodConfig('poll-3', undefined), pair, () => '[[A]]');
    const v = verdictOf(outcome);
    expect(v.winner).toBe('tie');
    expect(v.positionFlip).toBe(true);
  });
});

describe('vote (pairwise)', () => {
  it('a shared top count is a tie with confidence 0: A, B, tie', () => {
    const v = verdictOf(run(fastchatJury(), pair, byModel({ m0: '[[A]]', m1: '[[B]]', m2: '[[C]]' })).outcome);
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBe(0);
  });

  it('two ties against one A: tie wins the vote, margin 1/3', () => {
    const v = verdictOf(run(fastchatJury(), pair, byModel({ m0: '[[C]]', m1: '[[A]]', m2: '[[C]]' })).outcome);
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBeCloseTo(1 / 3, 10);
  });

  it('a juror whose reply never parses abstains: A vs B of the other two is a tie, 2 counted', () => {
    const { outcome, waves } = run(
      fastchatJury({ parseRetries: 1 }),
      pair,
      byModel({ m0: '[[A]]', m1: '[[B]]', m2: 'I cannot say.' }),
    );
    const v = verdictOf(outcome);
    // The jury's parseRetries: one re-ask for juror 2, then it is unparsed.
    expect(waveIds(waves)).toEqual([['juror0/sample0', 'juror1/sample0', 'juror2/sample0'], ['juror2/sample0#1']]);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['juror2/sample0']);
    expect(v.votes.map((x) => x.parsed)).toEqual([true, true, false]);
    expect(v.winner).toBe('tie');
    expect(v.details.jurorsCounted).toBe(2);
  });

  it('no juror counted: a tie with confidence 0', () => {
    const v = verdictOf(run(fastchatJury({ parseRetries: 0 }), pair, () => 'no verdict here').outcome);
    expect(v.winner).toBe('tie');
    expect(v.confidence).toBe(0);
    expect(v.details.jurorsCounted).toBe(0);
  });
});

describe('mean', () => {
  const scores = (a: number, b: number) => `Reasons.\nThe score of Assistant 1: ${a}\nThe score of Assistant 2: ${b}`;

  it('pairwise mean pools the jurors’ scores: (8,6) (5,7) (9,3) → A 22/3, B 16/3, confidence 2/9', () => {
    const config = resolveMethodConfig(undefined, {
      method: 'jury',
      aggregate: 'mean',
      jurors: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }],
    });
    const v = verdictOf(run(config, pair, byModel({ m0: scores(8, 6), m1: scores(5, 7), m2: scores(9, 3) })).outcome);
    expect(v.winner).toBe('A');
    expect(v.scores?.a).toBeCloseTo(22 / 3, 10);
    expect(v.scores?.b).toBeCloseTo(16 / 3, 10);
    // Gap 2 over ChatEval's 1-10 scale (width 9).
    expect(v.confidence).toBeCloseTo(2 / 9, 10);
  });

  it('the same scores by vote: A, B, A → A with margin 1/3, the mean scores reported beside', () => {
    const config = resolveMethodConfig(undefined, {
      method: 'jury',
      aggregate: 'vote',
      jurors: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }],
    });
    const v = verdictOf(run(config, pair, byModel({ m0: scores(8, 6), m1: scores(5, 7), m2: scores(9, 3) })).outcome);
    expect(v.winner).toBe('A');
    expect(v.confidence).toBeCloseTo(1 / 3, 10);
    expect(v.scores?.a).toBeCloseTo(22 / 3, 10);
  });

  it('pointwise mean: 3, 4, 5 on 1-5 → 4, confidence 1 − 2/4', () => {
    const config = resolveMethodConfig(undefined, {
      method: 'jury',
      judge: {
        parser: { type: 'leading-number', min: 1, max: 5 },
        template: 'Rate {{output}} for {{aspect}} from {{min}} to {{max}}.',
      },
      jurors: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }],
    });
    const v = verdictOf(run(config, summary, byModel({ m0: '3', m1: '4', m2: '5' })).outcome);
    expect(v.score).toBe(4);
    expect(v.confidence).toBeCloseTo(0.5, 10);
  });

  it('pointwise vote: the modal score (3, 3, 5 → 3, margin 1/3); a three-way tie → the mean of the tied (3, 4, 5 → 4, margin 0)', () => {
    const config = resolveMethodConfig(undefined, {
      method: 'jury',
      aggregate: 'vote',
      judge: {
        parser: { type: 'leading-number', min: 1, max: 5 },
        template: 'Rate {{output}} from {{min}} to {{max}}.',
      },
      jurors: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }],
    });
    const modal = verdictOf(run(config, summary, byModel({ m0: '3', m1: '3', m2: '5' })).outcome);
    expect(modal.score).toBe(3);
    expect(modal.confidence).toBeCloseTo(1 / 3, 10);
    const tied = verdictOf(run(config, summary, byModel({ m0: '3', m1: '4', m2: '5' })).outcome);
    expect(tied.score).toBe(4);
    expect(tied.confidence).toBe(0);
  });
});

describe('config', () => {
  it('defaults: three jurors, vote pairwise; juror settings override the jury defaults', () => {
    const config = resolveMethodConfig(undefined, {
      method: 'jury',
      defaults: { model: 'base', temperature: 0.5 },
      jurors: [{ model: 'x', label: 'X' }, {}, { temperature: 1 }],
    });
    const calls = readyCalls(jury, createEvaluation(jury, config, pair));
    expect(calls.map((c) => [c.model, c.temperature, c.label])).toEqual([
      ['x', 0.5, 'X'],
      ['base', 0.5, 'Juror 2'],
      ['base', 1, 'Juror 3'],
    ]);
    expect(resolveMethodConfig(undefined, { method: 'jury' }).jurors).toEqual([{}, {}, {}]);
  });

  it('refuses a judge that is not a valid single judge, naming the field', () => {
    expect(() => resolveMethodConfig(undefined, { method: 'jury', judge: { parser: { type: 'text' } } })).toThrow(
      /judge\.parser/,
    );
    expect(() => resolveMethodConfig(undefined, { method: 'jury', judge: { label: 'x' } })).toThrow(/invalid config/);
    expect(() => resolveMethodConfig(undefined, { method: 'jury', jurors: [] })).toThrow(/jurors/);
  });

  it('refuses mean pooling with a reader that gives winners only', () => {
    const config = fastchatJury({ aggregate: 'mean' });
    expect(() => createEvaluation(jury, config, pair)).toThrow(EngineInputError);
  });

  it('its version carries the single judge’s', () => {
    expect(jury.version).toBe(100 + (getMethod('single').version ?? 1));
  });
});

describe('idempotency and replay', () => {
  it('a duplicate or unknown result leaves the state unchanged', () => {
    const config = fastchatJury();
    let state = createEvaluation(jury, config, pair);
    const [first] = readyCalls(jury, state);
    if (!first) throw new Error('no call');
    const result = {
      id: first.id,
      ok: true as const,
      content: '[[A]]',
      model: 'm0',
      usage: { promptTokens: 1, completionTokens: 1, cachedPromptTokens: 0, estimated: false, costUsd: 0 },
    };
    state = applyResult(jury, state, result);
    expect(applyResult(jury, state, result)).toBe(state);
    expect(applyResult(jury, state, { ...result, id: 'juror7/sample0' })).toBe(state);
    expect(readyCalls(jury, state).map((c) => c.id)).toEqual(['juror1/sample0', 'juror2/sample0']);
  });

  it('gives the same verdict through a JSON round trip after every result', () => {
    const script = byModel({ m0: '[[A]]', m1: '[[B]]', m2: '[[A]]' });
    const direct = verdictOf(run(fastchatJury(), pair, script).outcome);
    const stored = verdictOf(run(fastchatJury(), pair, script, true).outcome);
    expect(stored).toEqual(direct);
  });
});
