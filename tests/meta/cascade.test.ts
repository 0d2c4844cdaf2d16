/**
 * The cascade report of a meta-evaluation: per-stage agreement and cost, the last stage on every item,
 * savings, threshold tables priced from recorded stage verdicts and calibrated thresholds — on four items
 * whose figures are computed by hand in the comments, then on verdicts the engine itself produced.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { CascadeDetails, StageReport } from '../../src/engine/methods/cascade/index.js';
import { createEvaluation } from '../../src/engine/protocol.js';
import { getMethod, resolveMethodConfig } from '../../src/engine/registry.js';
import type { PairwiseTask } from '../../src/engine/task.js';
import type { CascadeItem } from '../../src/metrics/cascade-thresholds.js';
import { cascadeMarkdown, cascadeReport, cascadeReportOfJudged } from '../../src/metrics/cascade.js';
import { binomialCdf, calibrateThreshold, ruleTable, thresholdTable } from '../../src/metrics/cascade-thresholds.js';
import { driveByWaves, verdictOf } from '../support/waves.js';

const RULES = { orderFlip: true, split: false, tie: false, unparsed: true, minConfidence: 0 };
const usage = (p: number, c: number, usd: number) => ({
  promptTokens: p,
  completionTokens: c,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd: usd,
});

/** Stage 0: 2 calls, 20/10 tokens, $0.002. */
const s0 = (winner: 'A' | 'B' | 'tie', confidence: number, positionFlip: boolean, escalated: boolean): StageReport => ({
  stage: 0,
  label: 'cheap',
  method: 'single',
  ran: true,
  winner,
  confidence,
  positionFlip,
  split: false,
  unparsed: 0,
  rules: RULES,
  escalatedBecause: escalated ? ['orders-disagree'] : [],
  calls: 2,
  plannedCalls: 2,
  usage: usage(20, 10, 0.002),
});
/** Stage 1: 8 calls, 800/400 tokens, $0.08 when it ran. */
const s1 = (winner?: 'A' | 'B' | 'tie'): StageReport =>
  winner === undefined
    ? { stage: 1, label: 'debate', method: 'chateval', ran: false, calls: 0, plannedCalls: 8, usage: usage(0, 0, 0) }
    : {
        stage: 1,
        label: 'debate',
        method: 'chateval',
        ran: true,
        winner,
        confidence: 0.8,
        positionFlip: false,
        split: false,
        unparsed: 0,
        calls: 8,
        plannedCalls: 8,
        usage: usage(800, 400, 0.08),
      };

const item = (human: 'A' | 'B', stages: StageReport[], decided: number, runAllStages = false): CascadeItem => ({
  human,
  cascade: {
    decidedBy: { stage: decided, label: decided === 0 ? 'cheap' : 'debate' },
    runAllStages,
    stages,
    savings: { basis: 'planned', calls: 0, promptTokens: null, completionTokens: null, costUsd: null },
  },
});

// 1: A right at stage 0 · 2: A (conf 0.5) wrong at stage 0 · 3: flip → B right at stage 1 · 4: flip → B wrong at stage 1.
const ITEMS: CascadeItem[] = [
  item('A', [s0('A', 1, false, false), s1()], 0),
  item('B', [s0('A', 0.5, false, false), s1()], 0),
  item('B', [s0('tie', 0.5, true, true), s1('B')], 1),
  item('A', [s0('tie', 0.5, true, true), s1('B')], 1),
];

describe('cascadeReport', () => {
  const r = cascadeReport(ITEMS);
  if (!r) throw new Error('no report');

  it('per stage: reached, decided, agreement where it decided and alone, spend', () => {
    expect(r.metric).toBe('accuracy');
    expect(r.stages.map((s) => [s.reached, s.decided, s.agreementDecided, s.agreementAll])).toEqual([
      [4, 2, 0.5, 0.25],
      [2, 2, 0.5, 0.5],
    ]);
    expect(r.stages[0]?.spend).toEqual({ calls: 8, promptTokens: 80, completionTokens: 40, costUsd: 0.008 });
    expect(r.stages[1]?.spend).toEqual({ calls: 16, promptTokens: 1600, completionTokens: 800, costUsd: 0.16 });
    expect(r.overall.agreement).toBe(0.5);
    expect(r.overall.spend).toMatchObject({ calls: 24, promptTokens: 1680, completionTokens: 840 });
    expect(r.overall.spend.costUsd).toBeCloseTo(0.168, 12);
  });

  it('the last stage on every item is extrapolated from the 2 it ran for; escalation saved 8 calls and 47.5% of the cost', () => {
    expect(r.lastStageAlone).toMatchObject({
      basis: 'extrapolated',
      measuredOn: 2,
      calls: 32,
      promptTokens: 3200,
      completionTokens: 1600,
    });
    expect(r.lastStageAlone?.costUsd).toBeCloseTo(0.32, 12);
    expect(r.saved).toMatchObject({ calls: 8, promptTokens: 1520, completionTokens: 760 });
    expect(r.saved?.costUsd).toBeCloseTo(0.152, 12);
    expect(r.saved?.costShare).toBeCloseTo(0.475, 12);
  });

  it('without any item reaching the last stage, its cost is not guessed', () => {
    const early = ITEMS.slice(0, 2);
    const e = cascadeReport(early);
    expect(e?.lastStageAlone).toBeNull();
    expect(e?.saved).toBeNull();
    expect(e && cascadeMarkdown(e)).toContain('Last stage on every item: not measured');
  });

  it('thresholds: 0 and 0.5 are the run; 1 escalates item 2, whose debate was never run (unpriced)', () => {
    const rows = thresholdTable(ITEMS, 0);
    expect(rows.map((x) => x.minConfidence)).toEqual([0, 0.5, 1]);
    expect(rows[0]).toMatchObject({
      priced: 4,
      unpriced: 0,
      decidedShare: [0.5, 0.5],
      agreement: 0.5,
      callsPerItem: 6,
    });
    expect(rows[0]?.costPerItem).toBeCloseTo(0.042, 12);
    expect(rows[1]).toMatchObject({ priced: 4, agreement: 0.5 });
    expect(rows[2]).toMatchObject({
      priced: 3,
      unpriced: 1,
      decidedShare: [1 / 3, 2 / 3],
      agreement: 2 / 3,
      callsPerItem: 22 / 3,
    });
    expect(rows[2]?.costPerItem).toBeCloseTo(0.166 / 3, 12);
    expect(r.thresholds.map((t) => t.stage)).toEqual([0]);
  });

  it('rules switched one at a time: without orderFlip items 3-4 stop at the cheap tie (accuracy 1/4, 2 calls each)', () => {
    const rows = ruleTable(ITEMS, 0);
    expect(rows.map((x) => x.change)).toEqual([
      'as run',
      'orderFlip: false',
      'split: true',
      'tie: true',
      'unparsed: false',
    ]);
    expect(rows[0]).toMatchObject({ agreement: 0.5, decidedShare: [0.5, 0.5] });
    expect(rows[1]).toMatchObject({ priced: 4, agreement: 0.25, decidedShare: [1, 0], callsPerItem: 2 });
    expect(rows.slice(2).map((x) => x.agreement)).toEqual([0.5, 0.5, 0.5]);
    expect(r.rules[0]?.rows).toEqual(rows);
  });

  it('the markdown has the stage table, the savings line and the threshold table', () => {
    const md = cascadeMarkdown(r);
    expect(md).toContain('| 0 cheap | 4 | 2 (50%) | 0.500 | 0.250 | 8 | 80 / 40 | $0.0080 |');
    expect(md).toContain('| overall | 4 | 4 | 0.500 | – | 24 | 1680 / 840 | $0.1680 |');
    expect(md).toContain('Escalation saved 8 calls, 1520 / 760 tokens, $0.1520 (48% of the cost).');
    expect(md).toContain('| 1.000 | 33% / 67% | 0.667 | 7.33 | $0.0553 | 3 | 1 |');
    expect(md).toMatch(/Calibrated \(α = 0\.2, δ = 0\.1\): no threshold of stage 0/);
  });

  it('a calibration run (every stage on every item) measures the last stage and prices every threshold', () => {
    const all = [
      item('A', [s0('A', 1, false, false), s1('A')], 0, true),
      item('B', [s0('A', 0.5, false, false), s1('A')], 0, true),
      ITEMS[2] && { ...ITEMS[2], cascade: { ...ITEMS[2].cascade, runAllStages: true } },
      ITEMS[3] && { ...ITEMS[3], cascade: { ...ITEMS[3].cascade, runAllStages: true } },
    ].filter((x): x is CascadeItem => x !== undefined);
    const c = cascadeReport(all);
    expect(c?.calibrationRun).toBe(true);
    expect(c?.lastStageAlone).toMatchObject({ basis: 'measured', measuredOn: 4, calls: 32 });
    // What the cascade would have spent: 2 + 2 + 10 + 10 calls.
    expect(c?.overall.spend.calls).toBe(24);
    expect(c?.saved?.calls).toBe(8);
    const t1 = thresholdTable(all, 0).at(-1);
    expect(t1).toMatchObject({ minConfidence: 1, priced: 4, unpriced: 0, decidedShare: [0.25, 0.75], agreement: 0.5 });
  });
});

describe('calibrated thresholds (fixed-sequence testing)', () => {
  it('binomial tail by hand', () => {
    expect(binomialCdf(0, 1, 0.2)).toBeCloseTo(0.8, 12);
    expect(binomialCdf(1, 2, 0.5)).toBeCloseTo(0.75, 12);
    expect(binomialCdf(2, 10, 0.3)).toBeCloseTo(0.3827828, 7);
    expect(binomialCdf(10, 10, 0.3)).toBe(1);
  });

  it('keeps thresholds from the strictest down while P(Bin(n, α) ≤ errors) ≤ δ, stops at the first failure', () => {
    // t = 1 trusts item 1 (0 errors of 1): 0.5 ≤ 0.6 passes; t = 0.5 trusts items 1-2 (1 error of 2): 0.75 > 0.6 stops.
    expect(calibrateThreshold(ITEMS, 0, 0.5, 0.6)).toEqual({
      stage: 0,
      alpha: 0.5,
      delta: 0.6,
      minConfidence: 1,
      n: 4,
      trusted: 1,
      agreement: 1,
    });
    // α = 0.2: 0.8 > 0.1 at once.
    expect(calibrateThreshold(ITEMS, 0).minConfidence).toBeNull();
  });
});

describe('from engine verdicts', () => {
  it('reads `details.cascade` of real cascade verdicts, skipping failed and non-cascade items', () => {
    const cascade = getMethod('cascade');
    const config = resolveMethodConfig('cascade-fastchat-chateval', undefined);
    const task: PairwiseTask = { kind: 'pairwise', question: 'Q?', answerA: 'ALPHA', answerB: 'BETA' };
    const first = (req: LlmCallRequest) =>
      req.messages
        .map((m) => m.content)
        .join('\n')
        .indexOf('ALPHA') <
      req.messages
        .map((m) => m.content)
        .join('\n')
        .indexOf('BETA');
    // Agreeing orders (always ALPHA) and flipping orders (always the first shown).
    const agree = (req: LlmCallRequest) => (first(req) ? '[[A]]' : '[[B]]');
    const flip = (req: LlmCallRequest) =>
      req.id.startsWith('s0/')
        ? '[[A]]'
        : `x\nThe score of Assistant 1: ${first(req) ? 3 : 9}\nThe score of Assistant 2: ${first(req) ? 9 : 3}`;
    const details = [agree, flip].map(
      (script) => verdictOf(driveByWaves(cascade, createEvaluation(cascade, config, task), script).outcome).details,
    );
    const r = cascadeReportOfJudged([
      { human: 'A', status: 'succeeded', details: details[0] },
      { human: 'B', status: 'succeeded', details: details[1] },
      { human: 'A', status: 'failed' },
      { human: 'A', status: 'succeeded', details: { orders: {} } },
    ]);
    expect(r?.n).toBe(2);
    expect(r?.stages.map((s) => [s.reached, s.decided])).toEqual([
      [2, 1],
      [1, 1],
    ]);
    expect(r?.overall.agreement).toBe(1);
    expect(r?.overall.spend.calls).toBe(12);
    expect(cascadeReportOfJudged([{ human: 'A', status: 'succeeded', details: { orders: {} } }])).toBeUndefined();
    expect((details[1]?.cascade as CascadeDetails).decidedBy.stage).toBe(1);
  });
});
