/**
 * @module
 * Well-formed synthetic replies, one per parser (src/engine/parsers/spec.ts): the format the parser reads,
 * placed where it reads it (the start for leading-number rules, the end for last-line rules), around a
 * filler text that sets the reply's length. Every reply parses (tests/engine/estimates.test.ts runs every
 * preset and checks that no call is repaired).
 */
import type { ParserSpec } from '../engine/parsers/spec.js';

/** Which way a synthetic judgement leans: the preferred answer (or top / bottom / middle score) and, for critics, agreement. */
export interface Lean {
  side: 'A' | 'B' | 'tie';
  /** A critic's reply says NO_ISSUE (ends DEBATE's loop). */
  noIssue: boolean;
}

/** A score on `[min, max]`: the top for A, the bottom for B, the middle (rounded down) for a tie. */
function scoreOn(lean: Lean, min: number, max: number): number {
  return lean.side === 'A' ? max : lean.side === 'B' ? min : Math.floor((min + max) / 2);
}

/** Scores of A and B on `[min, max]`: the preferred answer gets the top, the other the bottom; equal for a tie. */
function pairOn(lean: Lean, min: number, max: number): [number, number] {
  const mid = Math.floor((min + max) / 2);
  return lean.side === 'A' ? [max, min] : lean.side === 'B' ? [min, max] : [mid, mid];
}

/** Joins the parts that are not empty with a space (head, filler, tail) or a newline before a last line. */
function around(head: string, filler: string, tail = '', lastLine = ''): string {
  const body = [head, filler, tail].filter((p) => p !== '').join(' ');
  return lastLine === '' ? body : `${body === '' ? 'Verdict.' : body}\n${lastLine}`;
}

/**
 * A reply that `spec` parses, leaning as `lean` says, with `filler` as its body (may be empty).
 * Scales the spec does not carry (G-Eval, DEBATE's code read, Bandi's tuples) use 1-5 and 1-9.
 */
export function syntheticReply(spec: ParserSpec, lean: Lean, filler: string): string {
  switch (spec.type) {
    case 'text':
      return around('', filler) || 'Noted.';
    case 'critique':
      return around('', filler, lean.noIssue ? 'NO_ISSUE' : 'The evaluation misses points.');
    case 'chateval-scores': {
      const [a, b] = pairOn(lean, spec.min, spec.max);
      return around('', filler, '', `The score of Assistant 1: ${a}\nThe score of Assistant 2: ${b}`);
    }
    case 'faireval-scores': {
      const [a, b] = pairOn(lean, 1, 10);
      return around('', filler, '', `Score of the Assistant 1: ${a}\nScore of the Assistant 2: ${b}`);
    }
    case 'geval-score':
    case 'leading-number':
      return around(
        String(spec.type === 'leading-number' ? scoreOn(lean, spec.min, spec.max) : scoreOn(lean, 1, 5)),
        filler,
      );
    case 'last-char':
      return around('', filler, '', `Rating: ${scoreOn(lean, 0, 1)}`);
    case 'debate-score': {
      const s = String(scoreOn(lean, 1, 5));
      return spec.from === 'first' ? around(s, filler) : around('', filler, s);
    }
    case 'bandi-tuple': {
      const [a, b] = pairOn(lean, 1, 9);
      return spec.rule === 'last-int' ? around('', filler, `(${a}, ${b})`) : around(`(${a}, ${b})`, filler);
    }
    case 'score-tuple': {
      const [a, b] = pairOn(lean, spec.min, spec.max);
      return spec.line === undefined
        ? around('', filler, `(${a}, ${b})`)
        : around('', filler, '', `${spec.line}: (${a}, ${b})`);
    }
    case 'fastchat-verdict':
      return around('', filler, lean.side === 'A' ? '[[A]]' : lean.side === 'B' ? '[[B]]' : '[[C]]');
    case 'assistant-choice':
      return around(
        '',
        filler,
        '',
        `Answer: ${lean.side === 'A' ? 'Assistant 1' : lean.side === 'B' ? 'Assistant 2' : 'Same'}`,
      );
    case 'labelled-score':
      return around('', filler, '', `${spec.label}: ${scoreOn(lean, spec.min, spec.max)}`);
    case 'json': {
      const min = spec.min ?? 1;
      const max = spec.max ?? 10;
      const explanation = filler === '' ? {} : { explanation: filler };
      if (spec.shape === 'winner')
        return JSON.stringify({ winner: lean.side === 'tie' ? 'tie' : lean.side, ...explanation });
      if (spec.shape === 'score') return JSON.stringify({ score: scoreOn(lean, min, max), ...explanation });
      const [a, b] = pairOn(lean, min, max);
      return JSON.stringify({ score_a: a, score_b: b, ...explanation });
    }
    case 'aspect-scores':
      // The rationale carries the filler (the one-call form asks for a reason per aspect).
      return JSON.stringify(
        Object.fromEntries(
          spec.aspects.map((a, i) => [
            a.name,
            { rationale: i === 0 ? filler || 'ok' : 'ok', score: scoreOn(lean, a.min, a.max) },
          ]),
        ),
      );
    case 'steps':
      return `1. Read the inputs carefully.${filler === '' ? '' : ` ${filler}`}\n2. Judge them against the criteria.\n3. Assign a score.`;
  }
}
