/**
 * The cascade: nested stages with `s<k>/` ids, each escalation rule, the deciding stage, per-stage cost and
 * savings (hand-computed from scripted usage), calibration runs, config resolution, idempotent application,
 * JSON round trips and replay from a transcript.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import type { CascadeDetails } from '../../src/engine/methods/cascade/index.js';
import { FASTCHAT_PAIR_V2_SYSTEM, FASTCHAT_PAIR_V2_TEMPLATE } from '../../src/engine/methods/single/index.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, plannedCalls, readyCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { transcriptOf } from '../../src/engine/ledger.js';
import { getMethod, METHODS, resolveMethodConfig } from '../../src/engine/registry.js';
import { replayReplies } from '../../src/engine/replay.js';
import type { PairwiseTask } from '../../src/engine/task.js';
import type { Verdict } from '../../src/engine/verdict.js';
import { VerdictSchema } from '../../src/engine/verdict.js';
import { driveByWaves, promptText, verdictOf, waveIds } from '../support/waves.js';

const cascade = getMethod('cascade');
const pair: PairwiseTask = { kind: 'pairwise', question: 'Q?', answerA: 'ALPHA answer', answerB: 'BETA answer' };

/** Usage per call: stage 0 costs $0.001 (10 + 5 tokens), stage 1 $0.01 (100 + 50 tokens). */
const usageFor = (id: string) =>
  id.startsWith('s0/')
    ? { promptTokens: 10, completionTokens: 5, cachedPromptTokens: 0, estimated: false, costUsd: 0.001 }
    : { promptTokens: 100, completionTokens: 50, cachedPromptTokens: 0, estimated: false, costUsd: 0.01 };

/** A scripted reply with the stage's usage. */
const reply = (req: LlmCallRequest, content: string): LlmCallResult => ({
  id: req.id,
  ok: true,
  content,
  model: req.model ?? 'fake',
  usage: usageFor(req.id),
});

/** Which answer the call shows first: ALPHA (as submitted) or BETA (swapped). */
const firstShown = (req: LlmCallRequest) =>
  promptText(req).indexOf('ALPHA') < promptText(req).indexOf('BETA') ? 'ALPHA' : 'BETA';

/** FastChat's verdict naming the submitted answer `w` (A or B), whichever order the call shows. */
const fastchatFor = (req: LlmCallRequest, w: 'A' | 'B') =>
  `Because.\n[[${(firstShown(req) === 'ALPHA') === (w === 'A') ? 'A' : 'B'}]]`;

/** ChatEval's two score lines giving the submitted A `a` and B `b`, whichever order the call shows. */
const chatevalFor = (req: LlmCallRequest, a: number, b: number) => {
  const [first, second] = firstShown(req) === 'ALPHA' ? [a, b] : [b, a];
  return `Reasons.\nThe score of Assistant 1: ${first}\nThe score of Assistant 2: ${second}`;
};

const run = (config: EngineState['config'], script: (req: LlmCallRequest) => string, roundTrip = false) =>
  driveByWaves(cascade, createEvaluation(cascade, config, pair), (req) => reply(req, script(req)), { roundTrip });

const cascadeOf = (v: Verdict) => v.details.cascade as CascadeDetails;

/** The preset; stage 0 agrees on `s0` (or flips when `s0` is 'flip'), ChatEval scores A 7 / B 5 per agent. */
function presetScript(s0: 'A' | 'B' | 'flip'): (req: LlmCallRequest) => string {
  return (req) => {
    if (req.id.startsWith('s0/')) return s0 === 'flip' ? 'Because.\n[[A]]' : fastchatFor(req, s0);
    return chatevalFor(req, 7, 5);
  };
}

describe('cascade-fastchat-chateval', () => {
  const config = resolveMethodConfig('cascade-fastchat-chateval', undefined);

  it('stores each stage resolved: labels, full configs, rules on every stage but the last; parsing it again changes nothing', () => {
    const stages = config.stages as {
      label: string;
      preset: string;
      config: Record<string, unknown>;
      escalate?: unknown;
    }[];
    expect(stages.map((s) => [s.label, s.preset, s.config.method])).toEqual([
      ['FastChat pair-v2', 'fastchat-pair', 'single'],
      ['ChatEval', 'chateval-faireval', 'chateval'],
    ]);
    expect(stages[0]?.config).toEqual(resolveMethodConfig('fastchat-pair', undefined));
    expect(stages[0]?.escalate).toEqual({ orderFlip: true, split: true, tie: false, unparsed: true, minConfidence: 0 });
    expect(stages[1]).not.toHaveProperty('escalate');
    expect(resolveMethodConfig(undefined, config)).toEqual(config);
    expect(plannedCalls(cascade, createEvaluation(cascade, config, pair))).toBe(2 + 8);
  });

  it('orders that agree: stage 0 decides after 2 calls; savings against ChatEval alone are its 6 planned calls', () => {
    const { waves, outcome } = run(config, presetScript('B'));
    expect(waveIds(waves)).toEqual([['s0/ab/sample0', 's0/ba/sample0']]);
    const v = verdictOf(outcome);
    expect(v.winner).toBe('B');
    expect(v.positionFlip).toBe(false);
    expect(v.calls).toBe(2);
    expect(v.usage.costUsd).toBeCloseTo(0.002, 12);
    const c = cascadeOf(v);
    expect(c.decidedBy).toEqual({ stage: 0, label: 'FastChat pair-v2' });
    expect(c.stages.map((s) => [s.ran, s.calls, s.plannedCalls, s.escalatedBecause])).toEqual([
      [true, 2, 2, []],
      [false, 0, 8, undefined],
    ]);
    expect(c.savings).toEqual({
      basis: 'planned',
      calls: 6,
      promptTokens: null,
      completionTokens: null,
      costUsd: null,
    });
    expect(v.votes.map((x) => x.agent)).toEqual(['s0/judge', 's0/judge']);
    expect(VerdictSchema.safeParse(v).success).toBe(true);
  });

  it('orders that disagree: escalates to ChatEval, which decides; cost per stage and negative savings measured', () => {
    const { waves, outcome, state } = run(config, presetScript('flip'));
    expect(waves[0]?.map((c) => c.id)).toEqual(['s0/ab/sample0', 's0/ba/sample0']);
    // ChatEval one-by-one, both orders in parallel: 4 waves of 2 calls.
    expect(waveIds(waves.slice(1))).toEqual([
      ['s1/ab/turn1/agent0', 's1/ba/turn1/agent0'],
      ['s1/ab/turn1/agent1', 's1/ba/turn1/agent1'],
      ['s1/ab/turn2/agent0', 's1/ba/turn2/agent0'],
      ['s1/ab/turn2/agent1', 's1/ba/turn2/agent1'],
    ]);
    expect(waves[1]?.[0]?.stage).toBe('ChatEval: turn 1');
    const v = verdictOf(outcome);
    // Totals over both agents and both orders: A 4 × 7 = 28, B 4 × 5 = 20.
    expect(v.winner).toBe('A');
    expect(v.scores).toEqual({ a: 28, b: 20 });
    expect(v.calls).toBe(10);
    const c = cascadeOf(v);
    expect(c.decidedBy.stage).toBe(1);
    expect(c.stages[0]).toMatchObject({
      winner: 'tie',
      positionFlip: true,
      escalatedBecause: ['orders-disagree'],
      calls: 2,
    });
    expect(c.stages[0]?.usage.costUsd).toBeCloseTo(0.002, 12);
    expect(c.stages[1]).toMatchObject({ ran: true, winner: 'A', calls: 8 });
    expect(c.stages[1]?.usage).toMatchObject({ promptTokens: 800, completionTokens: 400 });
    expect(c.stages[1]?.usage.costUsd).toBeCloseTo(0.08, 12);
    // Against ChatEval alone (8 calls, 800/400 tokens, $0.08) the cascade spent 10 calls, 820/410, $0.082.
    expect(c.savings).toMatchObject({ basis: 'measured', calls: -2, promptTokens: -20, completionTokens: -10 });
    expect(c.savings.costUsd).toBeCloseTo(-0.002, 12);
    expect(
      transcriptOf(state)
        .map((t) => t.callId)
        .slice(0, 3),
    ).toEqual(['s0/ab/sample0', 's0/ba/sample0', 's1/ab/turn1/agent0']);
  });

  it('an unreadable stage-0 reply is re-asked inside the stage (its own parseRetries), then escalates as unparsed', () => {
    const script = (req: LlmCallRequest) =>
      req.id.startsWith('s0/ab/')
        ? 'no verdict'
        : req.id.startsWith('s0/')
          ? fastchatFor(req, 'A')
          : chatevalFor(req, 4, 9);
    const { waves, outcome } = run(config, script);
    // fastchat-pair keeps the default 3 re-asks with a repair instruction.
    expect(waveIds(waves.slice(0, 4))).toEqual([
      ['s0/ab/sample0', 's0/ba/sample0'],
      ['s0/ab/sample0#1'],
      ['s0/ab/sample0#2'],
      ['s0/ab/sample0#3'],
    ]);
    expect(waves[1]?.[0]?.messages.at(-1)?.content).toMatch(/\[\[A\]\]/);
    const v = verdictOf(outcome);
    expect(v.unparsed.map((u) => u.callId)).toEqual(['s0/ab/sample0']);
    // The unread order is a tie, so the orders also disagree.
    expect(cascadeOf(v).stages[0]?.escalatedBecause).toEqual(['orders-disagree', 'unparsed']);
    expect(v.winner).toBe('B');
    expect(v.calls).toBe(5 + 8);
  });
});

/** A cascade whose stage 0 is a one-order jury of m0, m1, m2 (FastChat prompt), stage 1 ChatEval's single judge. */
function juryFirst(escalate: Record<string, unknown>, extra: Record<string, unknown> = {}): EngineState['config'] {
  return resolveMethodConfig(undefined, {
    method: 'cascade',
    stages: [
      {
        label: 'jury',
        config: {
          method: 'jury',
          judge: {
            systemPrompt: FASTCHAT_PAIR_V2_SYSTEM,
            template: FASTCHAT_PAIR_V2_TEMPLATE,
            parser: { type: 'fastchat-verdict' },
          },
          jurors: [{ model: 'm0' }, { model: 'm1' }, { model: 'm2' }],
        },
        escalate,
      },
      { preset: 'chateval-single' },
    ],
    ...extra,
  });
}

/** Jurors m0, m1 say `first`, m2 says `third` (submitted terms); stage 1 scores A 3, B 8. */
const jurorScript =
  (first: string, third: string) =>
  (req: LlmCallRequest): string => {
    if (req.id.startsWith('s1/')) return chatevalFor(req, 3, 8);
    return `Because.\n[[${req.model === 'm2' ? third : first}]]`;
  };

describe('escalation rules', () => {
  it('jurors split (A, A, B): escalates with votes-split; the split rule off lets the jury decide', () => {
    const split = verdictOf(run(juryFirst({ split: true }), jurorScript('A', 'B')).outcome);
    expect(cascadeOf(split).stages[0]?.escalatedBecause).toEqual(['votes-split']);
    expect(cascadeOf(split).decidedBy.stage).toBe(1);
    expect(split.winner).toBe('B');
    const kept = verdictOf(run(juryFirst({ split: false }), jurorScript('A', 'B')).outcome);
    expect(cascadeOf(kept).decidedBy.stage).toBe(0);
    expect(kept.winner).toBe('A');
    expect(kept.confidence).toBeCloseTo(1 / 3, 10);
  });

  it('confidence below the threshold: 1/3 < 0.5 escalates (low-confidence); 1/3 ≥ 0.3 decides', () => {
    const low = verdictOf(run(juryFirst({ split: false, minConfidence: 0.5 }), jurorScript('A', 'B')).outcome);
    expect(cascadeOf(low).stages[0]?.escalatedBecause).toEqual(['low-confidence']);
    expect(cascadeOf(low).decidedBy.stage).toBe(1);
    const ok = verdictOf(run(juryFirst({ split: false, minConfidence: 0.3 }), jurorScript('A', 'B')).outcome);
    expect(cascadeOf(ok).decidedBy.stage).toBe(0);
  });

  it('tie: a unanimous [[C]] decides by default and escalates with tie: true', () => {
    expect(cascadeOf(verdictOf(run(juryFirst({}), jurorScript('C', 'C')).outcome)).decidedBy.stage).toBe(0);
    const tie = verdictOf(run(juryFirst({ tie: true }), jurorScript('C', 'C')).outcome);
    expect(cascadeOf(tie).stages[0]?.escalatedBecause).toEqual(['tie']);
    expect(tie.winner).toBe('B');
  });

  it('every reason that fires is listed', () => {
    const v = verdictOf(run(juryFirst({ split: true, minConfidence: 0.9 }), jurorScript('A', 'C')).outcome);
    expect(cascadeOf(v).stages[0]?.escalatedBecause).toEqual(['votes-split', 'low-confidence']);
  });
});

describe('calibration run (runAllStages)', () => {
  it('runs every stage, decides by the rules, and measures what the cascade would have saved', () => {
    const v = verdictOf(run(juryFirst({ split: false }, { runAllStages: true }), jurorScript('A', 'A')).outcome);
    const c = cascadeOf(v);
    expect(c.runAllStages).toBe(true);
    expect(c.decidedBy.stage).toBe(0);
    expect(v.winner).toBe('A');
    expect(c.stages.map((s) => [s.ran, s.winner, s.calls])).toEqual([
      [true, 'A', 3],
      [true, 'B', 2],
    ]);
    expect(v.calls).toBe(5);
    // Stage 1 alone: 2 calls, 200/100 tokens, $0.02; the cascade would have spent stage 0: 3 calls, 30/15, $0.003.
    expect(c.savings).toMatchObject({ basis: 'measured', calls: -1, promptTokens: 170, completionTokens: 85 });
    expect(c.savings.costUsd).toBeCloseTo(0.017, 12);
  });
});

describe('config', () => {
  it('names the failing stage field', () => {
    const bad = (stages: unknown[]) => () => resolveMethodConfig(undefined, { method: 'cascade', stages });
    expect(bad([{ preset: 'fastchat-pair' }, { preset: 'nope' }])).toThrow(/stages\.1\.preset/);
    expect(bad([{ preset: 'fastchat-pair' }, { preset: 'chateval-faireval', escalate: {} }])).toThrow(
      /stages\.1\.escalate: the last stage/,
    );
    expect(bad([{ preset: 'fastchat-pair', config: { turns: 3 } }, { preset: 'chateval-faireval' }])).toThrow(
      /stages\.0\.config/,
    );
    expect(bad([{ preset: 'fastchat-pair' }, { preset: 'cascade-fastchat-chateval' }])).toThrow(/cannot be a cascade/);
    expect(bad([{ label: 'x' }, { preset: 'fastchat-pair' }])).toThrow(/stages\.0: give the stage a "preset"/);
    expect(bad([{ preset: 'fastchat-pair' }])).toThrow(/stages/);
    expect(() => resolveMethodConfig('cascade-fastchat-chateval', { parseRetries: 1 })).toThrow(/parseRetries/);
  });

  it('the cascade’s defaults go under each stage’s own: a model for the whole cascade', () => {
    const config = resolveMethodConfig('cascade-fastchat-chateval', { defaults: { model: 'cheap' } });
    const calls = readyCalls(cascade, createEvaluation(cascade, config, pair));
    expect(calls.map((c) => [c.model, c.maxTokens])).toEqual([
      ['cheap', 2048],
      ['cheap', 2048],
    ]);
  });

  it('a stage that cannot judge the task fails at creation, before any call', () => {
    const config = resolveMethodConfig('cascade-fastchat-chateval', undefined);
    const pointwise = {
      kind: 'pointwise' as const,
      source: 's',
      output: 'o',
      aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
    };
    expect(() => createEvaluation(cascade, config, pointwise)).toThrow(EngineInputError);
  });

  it('its version carries every stage method’s', () => {
    const stageSum = [...METHODS.values()]
      // rubric-steps writes a rubric's steps and repeat wraps a judge; neither is a stage method.
      .filter((m) => !['cascade', 'rubric-steps', 'repeat'].includes(m.method))
      .reduce((n, m) => n + (m.version ?? 1), 0);
    expect(cascade.version).toBe(2000 + stageSum);
  });
});

describe('idempotency and replay', () => {
  const config = resolveMethodConfig('cascade-fastchat-chateval', undefined);

  it('a duplicate result, a result of a later stage, or a stale re-ask id leaves the state unchanged', () => {
    let state = createEvaluation(cascade, config, pair);
    const [ab, ba] = readyCalls(cascade, state);
    if (!ab || !ba) throw new Error('no calls');
    const first = reply(ab, 'Because.\n[[A]]');
    state = applyResult(cascade, state, first);
    expect(applyResult(cascade, state, first)).toBe(state);
    expect(applyResult(cascade, state, { ...first, id: 's1/ab/turn1/agent0' })).toBe(state);
    expect(applyResult(cascade, state, { ...first, id: 's0/ab/sample0#1' })).toBe(state);
    expect(applyResult(cascade, state, { ...first, id: 'ab/sample0' })).toBe(state);
    expect(readyCalls(cascade, state).map((c) => c.id)).toEqual(['s0/ba/sample0']);
    // The stage's own state holds the reply once.
    const inner = (state.orders[0]?.m as { stages: EngineState[] }).stages[0];
    expect(inner?.log).toEqual(['ab/sample0#0']);
  });

  it('a failed call ends the evaluation with that call’s id', () => {
    const state = createEvaluation(cascade, config, pair);
    const failed = applyResult(cascade, state, {
      id: 's0/ab/sample0',
      ok: false,
      error: { code: 'timeout', message: 'slow' },
    });
    expect(failed.failure).toMatchObject({ callId: 's0/ab/sample0', code: 'timeout' });
    expect(readyCalls(cascade, failed)).toEqual([]);
  });

  it('gives the same verdict through a JSON round trip after every result, and replays from its transcript', () => {
    const direct = run(config, presetScript('flip'));
    const stored = run(config, presetScript('flip'), true);
    expect(verdictOf(stored.outcome)).toEqual(verdictOf(direct.outcome));
    const replies = transcriptOf(direct.state).map((t) => ({ callId: t.callId, model: t.model, content: t.content }));
    const replayed = replayReplies(cascade, createEvaluation(cascade, config, pair), replies);
    if (!('outcome' in replayed)) throw new Error(`missing ${replayed.missing.join(', ')}`);
    expect(verdictOf(replayed.outcome).winner).toBe('A');
    expect(cascadeOf(verdictOf(replayed.outcome)).decidedBy.stage).toBe(1);
    expect(replayed.applied).toBe(10);
  });
});

describe('calibrated thresholds (Trust or Escalate)', () => {
  const calibrated = (thresholds: (number | null)[]) =>
    resolveMethodConfig('cascade-fastchat-chateval', { calibrated: { thresholds, alpha: 0.2, delta: 0.1 } });

  it('a stage at or above its threshold is trusted, whatever the escalation rules would say', () => {
    // Stage 0's orders disagree (a flip): its rules would escalate, its threshold 0 trusts it.
    const v = verdictOf(run(calibrated([0, null]), presetScript('flip')).outcome);
    expect(cascadeOf(v).decidedBy.stage).toBe(0);
    expect(cascadeOf(v).abstained).toBeUndefined();
    expect(v.winner).toBeDefined();
  });

  it('below every threshold: no winner, the abstaining stage and the reason, never the last stage guessing', () => {
    const v = verdictOf(run(calibrated([null, null]), presetScript('A')).outcome);
    expect(v.winner).toBeUndefined();
    expect(cascadeOf(v).abstained).toEqual({
      stage: 1,
      label: cascadeOf(v).stages[1]?.label,
      reason: "no stage's confidence reached its calibrated threshold",
    });
    expect(cascadeOf(v).stages.map((s) => s.escalatedBecause)).toEqual([['below-threshold'], ['below-threshold']]);
    expect(VerdictSchema.safeParse(v).success).toBe(true);
  });

  it('needs one threshold per stage', () => {
    expect(() => calibrated([0.5])).toThrow(EngineInputError);
  });

  // Certified mode wraps a plain judge this way: its verdict where its confidence reaches the threshold, else none.
  const single = (threshold: number | null) =>
    resolveMethodConfig(undefined, {
      method: 'cascade',
      stages: [{ preset: 'fastchat-pair' }],
      calibrated: { thresholds: [threshold], alpha: 0.2, delta: 0.05 },
    });

  it('one stage with a threshold: trusted at or above it, abstained below it', () => {
    // Both orders agree on A: confidence 1, trusted at 1.
    const trusted = verdictOf(run(single(1), presetScript('A')).outcome);
    expect(trusted.winner).toBe('A');
    expect(cascadeOf(trusted).abstained).toBeUndefined();
    // The orders disagree: confidence below 1, abstained (no winner), never stage 0's guess.
    const abstained = verdictOf(run(single(1), presetScript('flip')).outcome);
    expect(abstained.winner).toBeUndefined();
    expect(cascadeOf(abstained).abstained?.stage).toBe(0);
    expect(VerdictSchema.safeParse(abstained).success).toBe(true);
  });

  it('one stage without `calibrated` is refused: a cascade of one judge would decide nothing', () => {
    expect(() => resolveMethodConfig(undefined, { method: 'cascade', stages: [{ preset: 'fastchat-pair' }] })).toThrow(
      /one stage only with `calibrated`/,
    );
  });
});
