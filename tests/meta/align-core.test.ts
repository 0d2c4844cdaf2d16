/**
 * The alignment job's decisions (src/align/core.ts): the split keeps held-out items apart from everything a
 * method learns from, `auto`'s validation apart from its training; the held-out figures and the tag rule (moves
 * only when the gain's interval lies above 0); the mock's criteria rewrite writes the length rule from a
 * disagreement that went to the shorter answer.
 */
import { describe, expect, it } from 'vitest';
import type { Winner } from '../../src/align/core.js';
import {
  bestCandidate,
  heldOutAgreement,
  instructionsCriteria,
  rewriteInput,
  seedOf,
  splitOf,
  tagMoves,
} from '../../src/align/core.js';
import type { JudgedLabel } from '../../src/align/few-shot.js';
import { REWRITE_TEMPLATE } from '../../src/align/prompts.js';
import type { PointItem } from '../../src/align/thresholds.js';
import { learnThresholds, pointHeldOut, thresholdsCandidate } from '../../src/align/thresholds.js';
import { RubricContentSchema } from '../../src/engine/rubric.js';
import { bandOf, labelOf, learnCutoffs } from '../../src/engine/thresholds.js';
import { LENGTH_RULE, rewriteReply } from '../../src/mock-llm/judge-mode.js';

describe('the split', () => {
  it('holds out the share asked, apart from the learning items, and splits those again for auto', () => {
    const s = splitOf(100, 0.3, seedOf('al_x'));
    expect(s.heldOut).toHaveLength(30);
    expect(s.learn).toHaveLength(70);
    expect(new Set([...s.heldOut, ...s.learn]).size).toBe(100);
    expect(s.train.length + s.validation.length).toBe(70);
    expect(s.validation).toHaveLength(21);
    for (const i of [...s.train, ...s.validation]) expect(s.heldOut).not.toContain(i);
    expect(s.train.filter((i) => s.validation.includes(i))).toEqual([]);
    // The same job, the same split; another job, another one.
    expect(splitOf(100, 0.3, seedOf('al_x'))).toEqual(s);
    expect(splitOf(100, 0.3, seedOf('al_y')).heldOut).not.toEqual(s.heldOut);
  });

  it('keeps one item on each side of a small set', () => {
    expect(splitOf(10, 0.1, 1).heldOut).toHaveLength(1);
    expect(splitOf(2, 0.5, 1)).toMatchObject({ heldOut: [expect.any(Number)], learn: [expect.any(Number)] });
  });
});

describe('held-out figures and the tag rule', () => {
  const humans: Winner[] = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? 'A' : 'B'));
  const flipped = (xs: readonly Winner[], every: number): Winner[] =>
    xs.map((x, i) => (i % every === 0 ? (x === 'A' ? 'B' : 'A') : x));

  it('moves the tag when the gain’s interval lies above 0', () => {
    const h = heldOutAgreement(humans, flipped(humans, 2), humans, 1);
    expect(h).toMatchObject({ metric: 'kappa', n: 40, aligned: { value: 1 } });
    expect(h.base.value).toBeCloseTo(0, 5);
    expect(h.gain.interval?.lo).toBeGreaterThan(0);
    expect(tagMoves(h)).toBe(true);
  });

  it('leaves it when the interval reaches 0, or cannot be computed', () => {
    const same = flipped(humans, 4);
    const h = heldOutAgreement(humans, same, same, 1);
    expect(h.gain.value).toBe(0);
    expect(tagMoves(h)).toBe(false);
    // A loss never moves it.
    expect(tagMoves(heldOutAgreement(humans, humans, flipped(humans, 2), 1))).toBe(false);
    // One item: κ is undefined, so is every interval.
    const one = heldOutAgreement(['A'], ['B'], ['A'], 1);
    expect(one.aligned.value).toBeNull();
    expect(tagMoves(one)).toBe(false);
  });

  it('gives an interval reaching 0 to a full gain when the held-out humans are nearly all of one label', () => {
    // A resample with the humans' one label makes both κ 0 (their gain 0): with 2 of 20 items labelled B,
    // (18/20)^20 = 12% of the resamples hold none, so the interval's lower end is 0 on every seed. Which items a
    // job holds out follows from its random id: tests/worker/align.test.ts cannot expect the tag to move.
    const flip = (xs: readonly Winner[]): Winner[] =>
      xs.map((x, i) => (i % 4 === 1 || i % 4 === 2 ? (x === 'A' ? 'B' : 'A') : x));
    const oneSided: Winner[] = Array.from({ length: 20 }, (_, i) => (i < 2 ? 'B' : 'A'));
    const balanced: Winner[] = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 'B' : 'A'));
    for (const seed of [1, 2, 3]) {
      const h = heldOutAgreement(oneSided, flip(oneSided), oneSided, seed);
      expect(h.gain).toMatchObject({ value: 1, interval: { lo: 0 } });
      expect(tagMoves(h)).toBe(false);
      const b = heldOutAgreement(balanced, flip(balanced), balanced, seed);
      expect(b.gain.value).toBe(1);
      expect(b.gain.interval?.lo).toBeGreaterThan(0.5);
      // Seeded: the same job, the same interval.
      expect(heldOutAgreement(balanced, flip(balanced), balanced, seed)).toEqual(b);
    }
  });

  it('keeps the best candidate on validation, the first on a tie', () => {
    expect(
      bestCandidate([
        { m: 'a', kappa: 0.2 },
        { m: 'b', kappa: 0.5 },
        { m: 'c', kappa: 0.5 },
      ])?.m,
    ).toBe('b');
    expect(
      bestCandidate([
        { m: 'a', kappa: null },
        { m: 'b', kappa: -0.1 },
      ])?.m,
    ).toBe('b');
  });
});

describe('the criteria rewrite', () => {
  const judged: JudgedLabel[] = [
    {
      question: 'What is 2+2?',
      answerA: 'Let me think about this at length, checking twice. The answer is 5.',
      answerB: 'The answer is 4.',
      human: 'B',
      judge: 'A',
      confidence: null,
    },
  ];

  it('shows the disagreements; the mock writes the length rule from one that went to the shorter answer', () => {
    const input = rewriteInput('Correct answers win.', judged);
    expect(input).toContain('Human verdict: B');
    expect(
      rewriteInput(
        'Correct answers win.',
        judged.map((j) => ({ ...j, judge: 'B' as const })),
      ),
    ).toBeNull();
    const prompt = REWRITE_TEMPLATE.replace('{{criteria}}', input ?? '');
    const rules = rewriteReply(prompt) ?? '';
    expect(rules).toContain(LENGTH_RULE);
    expect(instructionsCriteria('Correct answers win.', rules)).toMatch(/^Correct answers win\.\n\nRules learned/);
    // Any other prompt is not a rewrite.
    expect(rewriteReply('Which answer is better?')).toBeUndefined();
  });
});

describe('thresholds (pointwise)', () => {
  const scale = { min: 1, max: 5 };
  const content = RubricContentSchema.parse({
    kind: 'pointwise',
    criteria: 'Helpful.',
    scale,
    aspects: [
      { name: 'clarity', criteria: 'Clear.' },
      { name: 'accuracy', criteria: 'Right.' },
    ],
  });
  /** A judge one point too generous (clamped at the top), against humans spread over the scale. */
  const humans = Array.from({ length: 60 }, (_, i) => 1 + (i % 5));
  const generous = (h: number) => Math.min(5, h + 1);

  it('learns cut-offs that undo a generous judge, and leaves silent bands at the rounding points', () => {
    const cuts = learnCutoffs(
      humans.map((h) => ({ human: h, judge: generous(h) })),
      scale,
    );
    expect(cuts).toHaveLength(4);
    // Judge 2 → 1, 3 → 2, 4 → 3; judge 5 reads as many humans' 4s as 5s: the tie keeps the judge's score.
    expect([2, 3, 4, 5].map((x) => bandOf(cuts, 1, x))).toEqual([1, 2, 3, 5]);
    expect(cuts).toEqual([...cuts].sort((a, b) => a - b));
    // Nothing to learn from: the identity (rounding) cut-offs.
    expect(learnCutoffs([], scale)).toEqual([1.5, 2.5, 3.5, 4.5]);
    // A judge that already agrees keeps its scores.
    const same = learnCutoffs(
      humans.map((h) => ({ human: h, judge: h })),
      scale,
    );
    expect([1, 2, 3, 4, 5].map((x) => bandOf(same, 1, x))).toEqual([1, 2, 3, 4, 5]);
  });

  it('learns per aspect and for the score; the held-out κ rises from the raw scores to the bands', () => {
    const items: PointItem[] = humans.map((h) => ({
      human: h,
      humanAspects: { clarity: h, accuracy: 6 - h },
    }));
    const judged = humans.map((h) => ({ score: generous(h), aspects: { clarity: generous(h), accuracy: 6 - h } }));
    const all = humans.map((_, i) => i);
    const t = learnThresholds(items, content, all.slice(0, 40), judged);
    expect(Object.keys(t?.aspects ?? {})).toEqual(['clarity', 'accuracy']);
    expect(t?.score).toHaveLength(4);
    // The accurate aspect keeps the rounding points.
    expect(t?.aspects?.accuracy).toEqual([1.5, 2.5, 3.5, 4.5]);
    const heldOut = all.slice(40);
    const h = pointHeldOut(items, content, t, heldOut, [judged, judged], 7);
    expect(h.n).toBe(20);
    expect(h.aligned.value ?? 0).toBeGreaterThan((h.base.value ?? 0) + 0.2);
    expect(tagMoves(h)).toBe(true);
    // Nothing labelled: nothing to learn.
    expect(
      thresholdsCandidate(content, [{ human: { score: null, aspects: null }, judge: judged[0] ?? null }]),
    ).toBeNull();
  });

  it('puts a verdict’s scores in bands; a rubric takes one cut-off per step of each scale, pointwise only', () => {
    const t = { score: [2, 3, 4, 5], aspects: { clarity: [1.5, 2.5, 3.5, 4.5] } };
    expect(
      labelOf(t, scale, 3, [
        { name: 'clarity', score: 3, scale },
        { name: 'accuracy', score: 2, scale },
      ]),
    ).toEqual({ score: 3, aspects: { clarity: 3 } });
    expect(labelOf(undefined, scale, 3, undefined)).toBeUndefined();
    expect(RubricContentSchema.safeParse({ ...content, thresholds: t }).success).toBe(true);
    const issues = (thresholds: unknown, kind = 'pointwise') => {
      const r = RubricContentSchema.safeParse(
        kind === 'pointwise' ? { ...content, thresholds } : { kind, criteria: 'x', thresholds },
      );
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    };
    expect(issues({ score: [1, 2] })).toEqual(['thresholds.score: the scale 1-5 takes 4 cut-offs, not 2']);
    expect(issues({ score: [4, 3, 2, 1] })[0]).toContain('must not decrease');
    expect(issues({ aspects: { tone: [1, 2, 3, 4] } })[0]).toContain(
      'thresholds.aspects.tone: the rubric has no aspect',
    );
    expect(issues({ score: [1] }, 'pairwise')).toEqual(['thresholds: thresholds cut scores: use a pointwise rubric']);
  });
});
