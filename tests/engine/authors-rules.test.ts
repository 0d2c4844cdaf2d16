/**
 * The authors' read rules (`parsers/authors.ts`) and the calibration rules (`calibration.ts`) on hand-made
 * replies and verdicts. Each expected value is what the authors' Python gives for that input.
 */
import { describe, expect, it } from 'vitest';
import { combineOrders } from '../../src/engine/calibration.js';
import type { Calibration } from '../../src/engine/method.js';
import { parseReply } from '../../src/engine/parsers/parse.js';
import type { ParseResult, ParserSpec } from '../../src/engine/parsers/spec.js';
import type { MethodVerdict } from '../../src/engine/verdict.js';

const read = (spec: ParserSpec, text: string): ParseResult => parseReply(spec, text);
const pair = (a: number, b: number) => ({ ok: true, value: { kind: 'pair-scores', a, b } });
const score = (s: number) => ({ ok: true, value: { kind: 'score', score: s } });

describe('ChatEval FairEval: LLMEvalParser check, then calc_score_calibration.py', () => {
  const spec: ParserSpec = { type: 'chateval-scores', min: 1, max: 10, read: 'script' };
  it.each([
    ['Evidence.\n\nThe score of Assistant 1: 8\nThe score of Assistant 2: 7.5', pair(8, 7.5)],
    // No scale check in the script.
    ['The score of Assistant 1: 11\nThe score of Assistant 2: -2', pair(11, -2)],
    ['The score of Assistant 1:  9 \nThe score of Assistant 2: 8', pair(9, 8)],
  ])('reads %j', (text, expected) => {
    expect(read(spec, text)).toEqual(expected);
  });

  it('re-asks when the check fails (the agent raises OutputParserError)', () => {
    for (const text of [
      'Scores: 8 and 7',
      'The score of Assistant 1: 8',
      'The score of Assistant 2: 7\nThe score of Assistant 1: 8',
    ]) {
      const r = read(spec, text);
      expect(r.ok).toBe(false);
      expect(!r.ok && r.final).toBeUndefined();
    }
  });

  it('is final (the item becomes a tie) when the check passes but float() fails on the raw lines', () => {
    // The check collapses blank lines; the script splits the raw text, so [-2] is the empty line.
    for (const text of [
      'E.\nThe score of Assistant 1: 8\n\nThe score of Assistant 2: 7',
      'The score of Assistant 1: 8/10\nThe score of Assistant 2: 6/10',
      'The score of Assistant 1: 8\nThe score of Assistant 2: 7\n',
    ]) {
      expect(read(spec, text)).toMatchObject({ ok: false, final: true });
    }
  });
});

describe('FairEval.py parse_score_from_review', () => {
  const spec: ParserSpec = { type: 'faireval-scores' };
  it('the last two raw lines, each after its last colon', () => {
    expect(read(spec, 'Evaluation evidence: x\nScore of the Assistant 1: 7\nScore of the Assistant 2: 8.5')).toEqual(
      pair(7, 8.5),
    );
    expect(read(spec, 'Assistant 1 gets: 3\nand Assistant 2 gets: 4')).toEqual(pair(3, 4));
    expect(read(spec, 'Score of the Assistant 1: 7/10\nScore of the Assistant 2: 8').ok).toBe(false);
    expect(read(spec, 'Score of the Assistant 1: 7\nScore of the Assistant 2: 8\n').ok).toBe(false);
  });
  it('a score of -1, the failure value get_eval tests for, drops the sample', () => {
    expect(read(spec, 'Score of the Assistant 1: -1\nScore of the Assistant 2: 8').ok).toBe(false);
    expect(read(spec, 'Score of the Assistant 1: 8\nScore of the Assistant 2: -1.0').ok).toBe(false);
    expect(read(spec, 'Score of the Assistant 1: -2\nScore of the Assistant 2: 8')).toEqual(pair(-2, 8));
  });
});

describe('G-Eval parse_output: ^ ?([\\d.]+)', () => {
  const spec: ParserSpec = { type: 'geval-score' };
  it.each([
    ['4', score(4)],
    [' 3.5 - coherent', score(3.5)],
    ['5\n', score(5)],
  ])('reads %j', (text, expected) => {
    expect(read(spec, text)).toEqual(expected);
  });
  it.each(['- Coherence: 4', '\n4', '4.5.1', 'Four'])('does not read %j (G-Eval counts it 0)', (text) => {
    expect(read(spec, text).ok).toBe(false);
  });
});

describe("ChatEval Topical-Chat script: float(text.split('\\n')[-1][-1])", () => {
  const spec: ParserSpec = { type: 'last-char' };
  it('the last character of the last raw line', () => {
    expect(read(spec, 'Explaination: fine.\nNaturalness: 3')).toEqual(score(3));
    // A bare score parses.
    expect(read(spec, '2')).toEqual(score(2));
    // A two-digit number reads as its last digit, as in the script.
    expect(read(spec, 'Score: 10')).toEqual(score(0));
    expect(read(spec, 'Naturalness: 3.').ok).toBe(false);
    expect(read(spec, 'Naturalness: 2\n').ok).toBe(false);
  });
});

describe('DEBATE evalute_score.py', () => {
  it('first digit of the first integer; fluency: last digit of the last integer', () => {
    expect(read({ type: 'debate-score', from: 'first' }, 'Coherence: 4/5')).toEqual(score(4));
    expect(read({ type: 'debate-score', from: 'first' }, 'I would rate it 35 points')).toEqual(score(3));
    expect(read({ type: 'debate-score', from: 'last' }, 'Fluency: 2 (out of 3)')).toEqual(score(3));
    expect(read({ type: 'debate-score', from: 'first' }, 'No number here').ok).toBe(false);
    // `int()` comes before the digit: leading zeros go first.
    expect(read({ type: 'debate-score', from: 'first' }, 'Score: 04')).toEqual(score(4));
    expect(read({ type: 'debate-score', from: 'last' }, 'Fluency: 10, then 003')).toEqual(score(3));
    expect(read({ type: 'debate-score', from: 'first' }, 'Score: 00')).toEqual(score(0));
  });

  it("debate.py's stop test is the substring NO_ISSUE", () => {
    const code: ParserSpec = { type: 'critique', noIssue: 'code' };
    const value = (t: string) => {
      const r = read(code, t);
      return r.ok && r.value.kind === 'critique' ? r.value.noIssue : undefined;
    };
    expect([value('NO_ISSUE'), value('There are NO_ISSUES.'), value('NO ISSUE'), value('no_issue')]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});

describe('Bandi et al. tuple regexes', () => {
  it('main.py (baseline): the first (a, b) with decimals; MORE: the first integer tuple; SAMRE: the last, ( or [', () => {
    expect(
      read({ type: 'bandi-tuple', rule: 'first-decimal' }, 'Relevance: [18, 15]\nFinal: (95, 87.5)\nExample: (18, 9)'),
    ).toEqual(pair(95, 87.5));
    expect(read({ type: 'bandi-tuple', rule: 'first-decimal' }, 'Final: [95, 87]').ok).toBe(false);
    expect(read({ type: 'bandi-tuple', rule: 'first-int' }, '(95.5, 87) then (90, 80)')).toEqual(pair(90, 80));
    expect(
      read(
        { type: 'bandi-tuple', rule: 'last-int' },
        'Vote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2',
      ),
    ).toEqual(pair(0, 1));
    expect(read({ type: 'bandi-tuple', rule: 'last-int' }, 'Scores (95, 87) ... final [70, 75]')).toEqual(pair(70, 75));
  });
});

describe('calibration rules (calibration.ts)', () => {
  const v = (
    scores: { a: number; b: number },
    votes: { agent: string; a: number; b: number }[],
    extra: Partial<MethodVerdict> = {},
  ): MethodVerdict => ({
    winner: scores.a > scores.b ? 'A' : scores.b > scores.a ? 'B' : 'tie',
    scores,
    votes: votes.map((x) => ({
      agent: x.agent,
      label: x.agent,
      parsed: true,
      scores: { a: x.a, b: x.b },
      winner: x.a > x.b ? 'A' : x.b > x.a ? 'B' : 'tie',
    })),
    confidence: 1,
    ...extra,
  });
  const cal = (combine: Calibration['combine']): Calibration => ({ enabled: true, combine });
  // AB: agents g (1, 10), c (6, 5) → totals (7, 15). BA (mapped back): g (1, 10), c (6, 5), one unparsed agent n.
  const ab = v({ a: 7, b: 15 }, [
    { agent: 'g', a: 1, b: 10 },
    { agent: 'c', a: 6, b: 5 },
  ]);
  const ba = v({ a: 7, b: 15 }, [
    { agent: 'g', a: 1, b: 10 },
    { agent: 'c', a: 6, b: 5 },
  ]);

  it('sum-scores: totals added over the orders', () => {
    expect(combineOrders(ab, ba, cal('sum-scores'))).toMatchObject({
      winner: 'B',
      scores: { a: 14, b: 30 },
      flip: false,
    });
  });
  it('mean-scores: the mean of the orders', () => {
    expect(combineOrders(ab, ba, cal('mean-scores'))).toMatchObject({ winner: 'B', scores: { a: 7, b: 15 } });
  });
  it('pooled-mean: the mean over every scored vote of both orders', () => {
    const one = v({ a: 9, b: 1 }, [{ agent: 's', a: 9, b: 1 }]);
    const three = v({ a: 3, b: 5 }, [
      { agent: 's', a: 3, b: 5 },
      { agent: 's', a: 3, b: 5 },
      { agent: 's', a: 3, b: 5 },
    ]);
    // (9 + 3 × 3) / 4 = 4.5 against (1 + 3 × 5) / 4 = 4.
    expect(combineOrders(one, three, cal('pooled-mean'))).toMatchObject({ winner: 'A', scores: { a: 4.5, b: 4 } });
  });
  it('per-agent-majority: each agent sums its orders, then the agents vote', () => {
    const three = (x: MethodVerdict) => ({
      ...x,
      votes: [...x.votes, { ...x.votes[1], agent: 'n', label: 'n' } as MethodVerdict['votes'][number]],
    });
    // g (2, 20) → B; c (12, 10) → A; n (12, 10) → A: A by 2 of 3.
    const r = combineOrders(three(ab), three(ba), cal('per-agent-majority'));
    expect(r).toMatchObject({ winner: 'A', scores: { a: 26, b: 40 } });
    expect(r.confidence).toBeCloseTo(1 / 3);
  });
  it('agree-or-tie: a winner only when both orders agree', () => {
    expect(combineOrders(ab, ba, cal('agree-or-tie')).winner).toBe('B');
    expect(combineOrders(ab, v({ a: 9, b: 1 }, []), cal('agree-or-tie'))).toMatchObject({ winner: 'tie', flip: true });
  });
  it('forceTie in either order makes the item a tie whatever the rule, and keeps the scores', () => {
    for (const rule of ['sum-scores', 'mean-scores', 'pooled-mean', 'per-agent-majority', 'agree-or-tie'] as const) {
      const r = combineOrders(ab, { ...ba, forceTie: 'unreadable' }, cal(rule));
      expect(r.winner, rule).toBe('tie');
      expect(r.confidence, rule).toBe(0);
      expect(r.details?.tieBecause, rule).toBe('unreadable');
    }
    expect(combineOrders(ab, { ...ba, forceTie: 'x' }, cal('sum-scores')).scores).toEqual({ a: 14, b: 30 });
  });
});
