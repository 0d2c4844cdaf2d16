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
