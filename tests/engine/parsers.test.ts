/**
 * Parsers against the authors' recorded outputs (datasets/parser_fixtures, the repo copy) and malformed replies.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { describeFormat, parseReply, repairInstruction } from '../../src/engine/parsers/parse.js';
import type { ParseResult, ParserSpec } from '../../src/engine/parsers/spec.js';
import { ParserSpecSchema } from '../../src/engine/parsers/spec.js';

const FIXTURES = new URL('../../datasets/parser_fixtures/', import.meta.url);
const readJson = (name: string): unknown => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8')) as unknown;

interface PilotItem {
  evaluation: { role: string; evaluation: string }[];
}

/** Histogram of parse outcomes: `A`, `B`, `tie`, a score, or `unparsed`. */
function tally(results: ParseResult[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of results) {
    const k = !r.ok
      ? 'unparsed'
      : r.value.kind === 'winner'
        ? r.value.winner
        : r.value.kind === 'score'
          ? String(r.value.score)
          : r.value.kind;
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

const value = (spec: ParserSpec, text: string) => {
  const r = parseReply(spec, text);
  return r.ok ? r.value : { failed: r.reason };
};

describe('FastChat recorded GPT-4 pair judgments', () => {
  const rows = gunzipSync(readFileSync(new URL('fastchat_gpt4_pair_judgments.jsonl.gz', FIXTURES)))
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('parses every judgment to the winner FastChat recorded', () => {
    expect(rows).toHaveLength(75);
    let checked = 0;
    let errors = 0;
    for (const row of rows) {
      for (const g of ['g1', 'g2'] as const) {
        const recorded = row[`${g}_winner`];
        const r = parseReply({ type: 'fastchat-verdict' }, String(row[`${g}_judgment`]));
        if (recorded === 'error') {
          // FastChat's "error" is our unparsed, with a reason for the repair prompt.
          expect(r.ok).toBe(false);
          errors += 1;
          continue;
        }
        // g1 shows model_1 as A; g2 swaps the answers, so model_1 is B there.
        const expected = recorded === 'tie' ? 'tie' : (recorded === 'model_1') === (g === 'g1') ? 'A' : 'B';
        expect(r).toEqual({ ok: true, value: { kind: 'winner', winner: expected } });
        checked += 1;
      }
    }
    expect(checked).toBe(147);
    expect(errors).toBe(3);
  });
});

describe('ChatEval pilot recorded outputs', () => {
  it('single-role direct: 76 "Answer: ..." lines parse, 4 are reported unparsed', () => {
    const items = readJson('chateval_pilot_single_role_direct.json') as PilotItem[];
    const results = items.flatMap((i) =>
      i.evaluation.map((e) => parseReply({ type: 'assistant-choice' }, e.evaluation)),
    );
    expect(tally(results)).toEqual({ A: 43, B: 23, tie: 10, unparsed: 4 });
    // The unparsed ones are 3 × "[Silence]" and 1 reply truncated at "Answer: Assistant ".
    const failed = items
      .flatMap((i) => i.evaluation)
      .filter((e) => !parseReply({ type: 'assistant-choice' }, e.evaluation).ok);
    expect(failed.filter((e) => e.evaluation.trim() === '[Silence]')).toHaveLength(3);
    expect(failed.filter((e) => e.evaluation.trimEnd().endsWith('Answer: Assistant'))).toHaveLength(1);
    for (const r of results) if (!r.ok) expect(r.reason).toMatch(/Answer: Assistant 1/);
  });

  it('two-turn direct: 237 bare choices parse, 3 "[Silence]" are unparsed', () => {
    const items = readJson('chateval_pilot_two_turns_direct.json') as PilotItem[];
    const results = items.flatMap((i) =>
      i.evaluation.map((e) => parseReply({ type: 'assistant-choice' }, e.evaluation)),
    );
    expect(tally(results)).toEqual({ A: 166, B: 65, tie: 6, unparsed: 3 });
  });

  it('SummEval multi-role: 105 of 108 replies carry all four "<Aspect>: n" lines, 3 are prose only', () => {
    const items = (readJson('chateval_pilot_summeval_multi_role.json') as PilotItem[][])[0] ?? [];
    const replies = items.flatMap((i) => i.evaluation.map((e) => e.evaluation));
    expect(replies).toHaveLength(108);
    const expected: Record<string, Record<string, number>> = {
      Relevance: { '1': 5, '2': 37, '3': 44, '4': 19, unparsed: 3 },
      Consistency: { '1': 17, '2': 51, '3': 37, unparsed: 3 },
      Fluency: { '1': 10, '2': 47, '3': 19, '4': 29, unparsed: 3 },
      Coherence: { '1': 13, '2': 48, '3': 32, '4': 12, unparsed: 3 },
    };
    for (const [label, hist] of Object.entries(expected)) {
      const results = replies.map((t) => parseReply({ type: 'labelled-score', label, min: 1, max: 5 }, t));
      expect(tally(results), label).toEqual(hist);
    }
  });
});

describe('malformed replies', () => {
  const chateval: ParserSpec = { type: 'chateval-scores', min: 1, max: 10 };
  const tuple: ParserSpec = { type: 'score-tuple', min: 1, max: 20 };
  const lead: ParserSpec = { type: 'leading-number', min: 1, max: 5 };

  it('empty and whitespace-only replies never parse to a value', () => {
    for (const spec of [
      chateval,
      tuple,
      lead,
      { type: 'fastchat-verdict' },
      { type: 'assistant-choice' },
    ] as ParserSpec[]) {
      expect(parseReply(spec, '')).toEqual({ ok: false, reason: 'the reply is empty' });
      expect(parseReply(spec, '  \n ').ok).toBe(false);
    }
    expect(parseReply({ type: 'text' }, '')).toEqual({ ok: true, value: { kind: 'text', text: '' } });
  });

  it("chateval-scores: the last two lines, as ChatEval's code checks", () => {
    expect(value(chateval, 'Both fine.\n\nThe score of Assistant 1: 8\nThe score of Assistant 2: 6\n')).toEqual({
      kind: 'pair-scores',
      a: 8,
      b: 6,
    });
    expect(value(chateval, 'x\n**The score of Assistant 1:** 7.5\n**The score of Assistant 2:** 9/10')).toEqual({
      kind: 'pair-scores',
      a: 7.5,
      b: 9,
    });
    // FairEval's wording.
    expect(value(chateval, 'Evidence...\nScore of the Assistant 1: 4\nScore of the Assistant 2: 3')).toEqual({
      kind: 'pair-scores',
      a: 4,
      b: 3,
    });
    // Truncated: the second line is missing.
    expect(parseReply(chateval, 'Reasons.\nThe score of Assistant 1: 8').ok).toBe(false);
    // Scores followed by more text: ChatEval re-asks.
    expect(parseReply(chateval, 'The score of Assistant 1: 8\nThe score of Assistant 2: 6\nThanks!').ok).toBe(false);
    expect(parseReply(chateval, 'a\nThe score of Assistant 1: 11\nThe score of Assistant 2: 6')).toEqual({
      ok: false,
      reason: 'score of Assistant 1 11 is outside the scale 1-10',
    });
  });

  it('score-tuple: last (a, b) or [a, b] wins; bold; out of scale fails', () => {
    expect(
      value({ type: 'score-tuple', min: 0, max: 120 }, 'Relevance: [18, 15]\nDepth: [12, 17]\nFinal: (95, 87)'),
    ).toEqual({ kind: 'pair-scores', a: 95, b: 87 });
    expect(
      value({ type: 'score-tuple', min: 0, max: 120 }, 'Relevance: [18, 15]\nFinal: (95, 87)\nso [40, 41]'),
    ).toEqual({ kind: 'pair-scores', a: 40, b: 41 });
    expect(value(tuple, 'Final scores: **(12, 9)**')).toEqual({ kind: 'pair-scores', a: 12, b: 9 });
    expect(value(tuple, 'Final: (**12**, **9**)')).toEqual({ kind: 'pair-scores', a: 12, b: 9 });
    expect(value(tuple, '(12, 9) then (3, 4)')).toEqual({ kind: 'pair-scores', a: 3, b: 4 });
    expect(value(tuple, 'Final: (25, 9)')).toEqual({ failed: 'first score 25 is outside the scale 1-20' });
    expect(value(tuple, 'Final: (12, -1)')).toEqual({ failed: 'second score -1 is outside the scale 1-20' });
    expect(parseReply(tuple, 'Final scores (95, ').ok).toBe(false);
  });

  it('score-tuple with line: only the last "<line>:" line, one distinct tuple', () => {
    const vote: ParserSpec = { type: 'score-tuple', min: 0, max: 1, line: 'Vote' };
    expect(ParserSpecSchema.parse(vote)).toEqual(vote);
    const echo = 'Vote: (1, 0) if you vote for Advocate1, or (0, 1) if you vote for Advocate2';
    // An echoed format line, then the real vote: the real vote is read.
    expect(value(vote, `Reasoning: [Your brief explanation]\n${echo}\n\nReasoning: B is right.\nVote: (0, 1)`)).toEqual(
      { kind: 'pair-scores', a: 0, b: 1 },
    );
    expect(value(vote, `${echo}\nVote: (1, 0)\nThank you.`)).toEqual({ kind: 'pair-scores', a: 1, b: 0 });
    // Only the echo: both options on the line, so no vote (the plain rule would read (0, 1)).
    expect(value(vote, `I agree with Advocate1.\n${echo}`)).toEqual({
      failed: 'the final "Vote:" line holds (1, 0) and (0, 1), not a single choice',
    });
    expect(value({ type: 'score-tuple', min: 0, max: 1 }, echo)).toEqual({ kind: 'pair-scores', a: 0, b: 1 });
    // A repeated identical tuple is one choice.
    expect(value(vote, 'Vote: (1, 0), i.e. (1, 0) for Advocate1')).toEqual({ kind: 'pair-scores', a: 1, b: 0 });
    // No Vote line, or a Vote line without a tuple.
    expect(value(vote, 'Advocate1 wins.\n(1, 0)')).toEqual({ failed: 'no line "Vote: (score_1, score_2)" found' });
    expect(value(vote, 'My final vote: (1, 0)')).toEqual({ failed: 'no line "Vote: (score_1, score_2)" found' });
    expect(value(vote, 'Vote: Advocate1')).toEqual({
      failed: 'the final "Vote:" line holds no "(score_1, score_2)" tuple',
    });
    // A later Vote line without a tuple is the one read.
    expect(parseReply(vote, 'Vote: (1, 0)\nVote: pending').ok).toBe(false);
    // Markdown, bullets, case.
    expect(value(vote, 'Reasoning: ...\n**Vote:** (0, 1)')).toEqual({ kind: 'pair-scores', a: 0, b: 1 });
    expect(value(vote, '**Vote**: **(1, 0)**')).toEqual({ kind: 'pair-scores', a: 1, b: 0 });
    expect(value(vote, '- vote: [0, 1]')).toEqual({ kind: 'pair-scores', a: 0, b: 1 });
    expect(value(vote, '  * __VOTE:__ (1, 0)')).toEqual({ kind: 'pair-scores', a: 1, b: 0 });
    expect(value(vote, 'Vote: (2, 0)')).toEqual({ failed: 'first score 2 is outside the scale 0-1' });
    // The repair prompt asks for the line.
    expect(describeFormat(vote)).toBe('a final line "Vote: (score_1, score_2)" with each score from 0 to 1');
    expect(describeFormat({ type: 'score-tuple', min: 1, max: 20 })).toBe(
      'a final score tuple in the form (score_1, score_2), each from 1 to 20',
    );
    // The label is one plain line label.
    expect(ParserSpecSchema.safeParse({ ...vote, line: '' }).success).toBe(false);
    expect(ParserSpecSchema.safeParse({ ...vote, line: 'Vote:\nx' }).success).toBe(false);
  });

  it("fastchat-verdict: FastChat's precedence [[A]] > [[B]] > [[C]], exact marks only", () => {
    expect(value({ type: 'fastchat-verdict' }, 'explanation\n[[B]]')).toEqual({ kind: 'winner', winner: 'B' });
    expect(value({ type: 'fastchat-verdict' }, 'tie: [[C]]')).toEqual({ kind: 'winner', winner: 'tie' });
    expect(value({ type: 'fastchat-verdict' }, 'first [[B]] then [[A]]')).toEqual({ kind: 'winner', winner: 'A' });
    expect(parseReply({ type: 'fastchat-verdict' }, 'Final verdict: [A]').ok).toBe(false);
    expect(parseReply({ type: 'fastchat-verdict' }, 'Final verdict: [[').ok).toBe(false);
  });

  it('assistant-choice: last line; labelled answer; refuses prose', () => {
    const spec: ParserSpec = { type: 'assistant-choice' };
    expect(value(spec, 'text\n**Answer: Assistant 2**.')).toEqual({ kind: 'winner', winner: 'B' });
    expect(value(spec, 'Answer: Assistant 1\nBecause it is longer.')).toEqual({ kind: 'winner', winner: 'A' });
    expect(parseReply(spec, 'Both answers are good').ok).toBe(false);
  });

  it("leading-number: G-Eval's leading score, tolerating the echoed form label", () => {
    expect(value(lead, '4')).toEqual({ kind: 'score', score: 4 });
    expect(value(lead, ' 3.5 - the summary is mostly coherent')).toEqual({ kind: 'score', score: 3.5 });
    expect(value(lead, '- Coherence: 2')).toEqual({ kind: 'score', score: 2 });
    expect(value(lead, '**Coherence:** **5**')).toEqual({ kind: 'score', score: 5 });
    expect(value(lead, '6')).toEqual({ failed: 'score 6 is outside the scale 1-5' });
    expect(parseReply(lead, 'The summary deserves a 4.').ok).toBe(false);
    expect(value({ type: 'leading-number', min: 0, max: 1 }, '0')).toEqual({ kind: 'score', score: 0 });
  });

  it('labelled-score: last label line, markdown, DEBATE prose', () => {
    const spec: ParserSpec = { type: 'labelled-score', label: 'Score', min: 1, max: 5 };
    expect(value(spec, 'Score: 2\n...revised. **Score:** 3')).toEqual({ kind: 'score', score: 3 });
    // DEBATE paper 004 Appendix F.1 scorer reply.
    expect(
      value(spec, 'Therefore, the score of 1 for fluency seems harsh; a score of 2 might be more appropriate.'),
    ).toEqual({ kind: 'score', score: 2 });
    expect(value({ type: 'labelled-score', label: 'Coherence', min: 1, max: 5 }, 'Incoherence: 4')).toMatchObject({
      failed: expect.any(String) as string,
    });
    expect(value(spec, 'Score: 9')).toEqual({ failed: 'Score 9 is outside the scale 1-5' });
  });

  it('critique: NO_ISSUE / NO ISSUE / NO_ISSUES in capitals; lower-case prose is a critique', () => {
    for (const t of ['NO_ISSUE', 'NO ISSUE.', 'NO_ISSUES', '**NO ISSUES**', 'Critic: NO-ISSUE']) {
      expect(value({ type: 'critique' }, t)).toMatchObject({ kind: 'critique', noIssue: true });
    }
    for (const t of ['I have no issues with fluency, but coherence is overrated.', 'NO_ISSUED', '']) {
      expect(value({ type: 'critique' }, t)).toMatchObject({ kind: 'critique', noIssue: false });
    }
  });

  it('json: code fences, string numbers, no null-as-zero, fallback to the text rule', () => {
    const pair: ParserSpec = { type: 'json', shape: 'pair-scores', min: 1, max: 10 };
    expect(value(pair, 'Here:\n```json\n{"score_a": 7, "score_b": "8"}\n```')).toEqual({
      kind: 'pair-scores',
      a: 7,
      b: 8,
    });
    expect(parseReply(pair, '{"score_a": null, "score_b": 8}').ok).toBe(false);
    expect(parseReply(pair, '{"score_a": 0, "score_b": 8}').ok).toBe(false);
    expect(value({ type: 'json', shape: 'winner' }, '```\n{"winner": "Assistant B"}\n```')).toEqual({
      kind: 'winner',
      winner: 'B',
    });
    expect(value({ type: 'json', shape: 'score', min: 1, max: 5 }, '{"score": 4}')).toEqual({
      kind: 'score',
      score: 4,
    });
    const withFallback: ParserSpec = { type: 'json', shape: 'winner', fallback: { type: 'fastchat-verdict' } };
    expect(ParserSpecSchema.parse(withFallback)).toEqual(withFallback);
    expect(value(withFallback, 'I prefer B. [[B]]')).toEqual({ kind: 'winner', winner: 'B' });
    expect(value(withFallback, '{"winner": "A"}')).toEqual({ kind: 'winner', winner: 'A' });
    expect(value(withFallback, 'no idea')).toEqual({
      failed: 'the reply is not a JSON object; fallback: no final verdict "[[A]]", "[[B]]" or "[[C]]" found',
    });
  });

  it('repair instructions quote the reason and the expected format', () => {
    const msg = repairInstruction(chateval, 'missing lines');
    expect(msg).toContain('missing lines');
    expect(msg).toContain(describeFormat(chateval));
    expect(describeFormat({ type: 'fastchat-verdict' })).toContain('[[C]]');
  });
});
