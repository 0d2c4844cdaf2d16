/**
 * @module
 * The papers' authors' own read rules, reproduced so a preset reads a reply exactly as the published
 * numbers were read (including their quirks, which `docs/fidelity.md` lists):
 *
 * - ChatEval FairEval (thunlp/ChatEval @ 3bb65ab): `LLMEvalParser` decides whether the agent asks again
 *   (strip, collapse blank lines, the last two lines start with `The score of Assistant 1:` / `2:`), and
 *   `calc_faireval_results_calc_score_calibration.py` reads the numbers: `float(text.split("\n")[-2]
 *   .split("The score of Assistant 1:")[-1])`, likewise `[-1]` for Assistant 2 — raw lines, no scale check.
 * - ChatEval Topical-Chat (@ 3f7612f, the correlation script): `float(text.split("\n")[-1][-1])`.
 * - FairEval (i-Eval/FairEval `parse_score_from_review`): the last two raw lines, `split(":")[-1].strip()`;
 *   -1, its failure value, drops the sample.
 * - G-Eval (nlpyang/geval `parse_output`): `re.search("^ ?([\d\.]+)", text)`.
 * - DEBATE (`evalute_score.py`): `re.findall(r'\d+')`, first digit of the first integer, or (fluency) last
 *   digit of the last one. The rule is described here, not copied: that repository has no licence.
 * - Bandi et al. (abirharrasse/LLM-Judging-Architectures @ 2c4e937): `main.py` `\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)\)`
 *   (first), MORE's `\((\d+),\s*(\d+)\)` (first), SAMRE's `[\(\[](\d+),\s*(\d+)[\)\]]` (last).
 */
import type { ParseResult, ParsedValue } from './spec.js';

function ok(value: ParsedValue): ParseResult {
  return { ok: true, value };
}

/**
 * Python's `float(s)` for the strings these scripts meet: surrounding whitespace allowed, a decimal with an
 * optional sign and exponent. (`inf`, `nan` and digit underscores, which Python also accepts, are refused.)
 */
export function pythonFloat(s: string): number | undefined {
  const t = s.trim();
  if (!/^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(t)) return undefined;
  return Number(t);
}

/** Python's `s.split(sep)[-1]`: the text after the last `sep`, or `s` itself when it has none. */
function afterLast(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(i + sep.length);
}

const CHATEVAL_LINE_1 = 'The score of Assistant 1:';
const CHATEVAL_LINE_2 = 'The score of Assistant 2:';

/**
 * ChatEval FairEval read. A reply failing `LLMEvalParser`'s check is re-asked (not final); one passing it
 * whose numbers the scoring script cannot convert is final: the authors' agent accepted it and their script
 * then scores the item as a tie.
 */
export function readChatEvalScript(text: string): ParseResult {
  const collapsed = text.trim().replace(/\n+/g, '\n').split('\n');
  const accepted =
    (collapsed.at(-2) ?? '').startsWith(CHATEVAL_LINE_1) && (collapsed.at(-1) ?? '').startsWith(CHATEVAL_LINE_2);
  if (!accepted) {
    return { ok: false, reason: `the last two lines must start with "${CHATEVAL_LINE_1}" and "${CHATEVAL_LINE_2}"` };
  }
  const raw = text.split('\n');
  const a = pythonFloat(afterLast(raw.at(-2) ?? '', CHATEVAL_LINE_1));
  const b = pythonFloat(afterLast(raw.at(-1) ?? '', CHATEVAL_LINE_2));
  if (a === undefined || b === undefined) {
    return {
      ok: false,
      final: true,
      reason: 'the score lines are present but the scoring script cannot read them as numbers',
    };
  }
  return ok({ kind: 'pair-scores', a, b });
}

/**
 * FairEval's read: the last two raw lines, each after its last `:`, as numbers. Unreadable: the sample is
 * dropped. `parse_score_from_review` returns `[-1, -1]` on failure and `get_eval` drops a sample when either
 * score equals -1, so a score that reads -1 drops it too.
 */
export function readFairEval(text: string): ParseResult {
  const raw = text.split('\n');
  const a = pythonFloat(afterLast(raw.at(-2) ?? '', ':'));
  const b = pythonFloat(afterLast(raw.at(-1) ?? '', ':'));
  if (a === -1 || b === -1)
    return { ok: false, reason: "a score of -1 is FairEval's failure value: the sample is dropped" };
  if (raw.length < 2 || a === undefined || b === undefined) {
    return {
      ok: false,
      reason:
        'the last two lines must end with the scores, "Score of the Assistant 1: <score>" and "Score of the Assistant 2: <score>"',
    };
  }
  return ok({ kind: 'pair-scores', a, b });
}

/** G-Eval's read: `^ ?([\d.]+)` converted by `float` (G-Eval would count a failure as 0; we report it unparsed). */
export function readGEval(text: string): ParseResult {
  const m = /^ ?([\d.]+)/.exec(text);
  const n = m?.[1] === undefined ? undefined : pythonFloat(m[1]);
  if (n === undefined) return { ok: false, reason: 'the reply does not start with a number' };
  return ok({ kind: 'score', score: n });
}

/** ChatEval's Topical-Chat read: the last character of the last raw line, which must be a digit. */
export function readLastChar(text: string): ParseResult {
  const last = (text.split('\n').at(-1) ?? '').at(-1) ?? '';
  if (!/^\d$/.test(last))
    return { ok: false, reason: 'the reply must end with the score digit, e.g. a last line "Naturalness: 2"' };
  return ok({ kind: 'score', score: Number(last) });
}

/**
 * DEBATE's read: the first digit of the first integer, or the last digit of the last integer. The script
 * takes the digit of `str(int(...))`, so leading zeros go first: "04" reads 4 (and "00" reads 0).
 */
export function readDebateScore(text: string, from: 'first' | 'last'): ParseResult {
  const ints = text.match(/\d+/g);
  const picked = from === 'first' ? ints?.[0] : ints?.at(-1);
  if (picked === undefined) return { ok: false, reason: 'the reply holds no number' };
  const int = picked.replace(/^0+(?=\d)/, '');
  return ok({ kind: 'score', score: Number(from === 'first' ? int[0] : int.at(-1)) });
}

const BANDI_RULES = {
  'first-decimal': { re: /\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)\)/g, last: false },
  'first-int': { re: /\((\d+),\s*(\d+)\)/g, last: false },
  'last-int': { re: /[([](\d+),\s*(\d+)[)\]]/g, last: true },
} as const;

/** Bandi et al.'s tuple read, one of the three regexes of their code. */
export function readBandiTuple(text: string, rule: keyof typeof BANDI_RULES): ParseResult {
  const { re, last } = BANDI_RULES[rule];
  const all = [...text.matchAll(new RegExp(re.source, 'g'))];
  const m = last ? all.at(-1) : all[0];
  if (!m?.[1] || !m[2]) return { ok: false, reason: 'no score tuple "(score_1, score_2)" found' };
  return ok({ kind: 'pair-scores', a: Number(m[1]), b: Number(m[2]) });
}

/** `debate.py`'s stop test: the critic's reply contains `NO_ISSUE` (so `NO_ISSUES` counts, `NO ISSUE` does not). */
export function noIssueByCode(text: string): boolean {
  return text.includes('NO_ISSUE');
}
