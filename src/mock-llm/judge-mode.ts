/**
 * @module
 * The mock's judge mode: writes a well-formed reply in the output format a prompt asks for (found by
 * ./detect-format.ts), with scores derived from a hash of the prompt (verdicts vary across items, repeat
 * exactly) and inside the scale the prompt states.
 */
import { hash53, unitFromHash } from '../llm/hash53.js';

import type { DetectedFormat } from './detect-format.js';

const OPENERS = [
  'Looking at both responses carefully,',
  'Considering the question and the answers given,',
  'Having weighed the arguments so far,',
  'From the perspective of accuracy and helpfulness,',
  'Taking the previous points into account,',
];
const BODIES = [
  'the first answer is more specific and addresses the question directly, while the second stays general.',
  'the second answer is better organised and covers the key points, though the first adds a useful detail.',
  'both answers are relevant, but one of them contains an unsupported claim that weakens it.',
  'the level of detail differs: one answer explains its reasoning step by step, the other only states a conclusion.',
  'neither answer is perfect; they differ mostly in clarity and completeness.',
];
const CRITICISMS = [
  'The score overlooks that the output omits a key point of the source.',
  'The assessment is too generous: several sentences are repetitive and add little.',
  'The evaluation ignores a factual inconsistency between the output and the source.',
  'The score does not account for the awkward transitions between sentences.',
];

function pickOf<T>(list: readonly T[], h: number): T {
  return list[h % list.length] as T;
}

/** A deterministic integer in [min, max] from a hash. */
function scoreIn(h: number, min: number, max: number): number {
  const lo = Math.ceil(min);
  const hi = Math.floor(max);
  if (hi < lo) return min;
  return lo + (h % (hi - lo + 1));
}

/** A hidden quality tag in an answer: `[quality=0.73]` (any finite number). */
const QUALITY_TAG = /\[quality=(-?\d+(?:\.\d+)?)\]/g;

/** The tag to put in an answer text so that the mock's judge ranks it by `quality` (higher is better). */
export function qualityTag(quality: number): string {
  return `[quality=${quality}]`;
}

/**
 * The hidden quality tags of the two answers a prompt shows, in the order shown (the first tag belongs to
 * the answer shown first: every pairwise template shows answer 1 before answer 2); undefined unless the
 * prompt carries exactly two.
 */
export function shownQualities(prompt: string): [number, number] | undefined {
  const tags = [...prompt.matchAll(QUALITY_TAG)].map((m) => Number(m[1]));
  return tags.length === 2 ? [tags[0] as number, tags[1] as number] : undefined;
}

/** A pointwise prompt's hidden quality and the mock's leniency, when the prompt carries exactly one tag. */
export function pointQualityOf(prompt: string, generous: number): Pick<JudgeReplyOptions, 'pointQuality'> {
  const tags = [...prompt.matchAll(QUALITY_TAG)].map((m) => Number(m[1]));
  return tags.length === 1 ? { pointQuality: { quality: tags[0] as number, generous } } : {};
}

/** The two answers a pairwise prompt shows, in order: the last two `[The Start of Assistant X's Answer]` blocks. */
export function shownAnswers(prompt: string): [string, string] | undefined {
  const blocks = [
    ...prompt.matchAll(/\[The Start of Assistant (\w+)'s Answer\]\n([\s\S]*?)\n\[The End of Assistant \1's Answer\]/g),
  ].map((m) => m[2] ?? '');
  const [a, b] = blocks.slice(-2);
  return a !== undefined && b !== undefined ? [a, b] : undefined;
}

/**
 * The few-shot examples of a prompt (the form `fewShotCriteria` writes, src/align/few-shot.ts: `Answer A: …`,
 * `Answer B: …`, `Human verdict: A|B|tie` lines) correct a verbosity bias when one of them went to the shorter answer.
 */
export function fewShotCorrects(prompt: string): boolean {
  for (const m of prompt.matchAll(/^Answer A: (.*)\nAnswer B: (.*)\nHuman verdict: (A|B|tie)$/gm)) {
    const [a, b, v] = [m[1] ?? '', m[2] ?? '', m[3]];
    if ((v === 'A' && a.length < b.length) || (v === 'B' && b.length < a.length)) return true;
  }
  return false;
}

/**
 * The rule the mock's criteria rewrite ({@link rewriteReply}) writes when a disagreement it is shown went to the
 * shorter answer; a judge prompt that carries it has a quarter of the `verbose` bias, as few-shot examples do.
 */
export const LENGTH_RULE = 'An answer is not better for being longer: judge what it says, never its length.';

/**
 * The mock's answer to a criteria rewrite (a prompt ending `Revised rules:`, src/align/prompts.ts): a numbered
 * list of rules, with {@link LENGTH_RULE} when a disagreement shown (`fewShotCorrects`) went to the shorter answer;
 * undefined for any other prompt.
 */
export function rewriteReply(prompt: string): string | undefined {
  if (!/Revised rules:\s*$/.test(prompt)) return undefined;
  const rules = ['Decide by the criteria above, point by point.'];
  if (fewShotCorrects(prompt)) rules.push(LENGTH_RULE);
  rules.push('When both answers meet the criteria equally, say tie.');
  return rules.map((r, i) => `${i + 1}. ${r}`).join('\n');
}

/** How a pairwise reply is decided besides the hash. */
export interface JudgeReplyOptions {
  /** The shown answers' hidden qualities (first shown, second shown): the higher wins, equal tie. */
  quality?: [number, number] | undefined;
  /** Probability (0-1, seeded by the key) that the verdict goes to the answer shown first. Default 0. */
  firstShownBias?: number;
  /** A verbosity bias: with probability `p` (seeded by the key) the verdict goes to the longer shown answer. */
  longerBias?: { p: number; longer: 'A' | 'B' | undefined };
  /** Pointwise: the output's hidden quality (0-1) decides every score, plus `generous` points, clamped. */
  pointQuality?: { quality: number; generous: number };
}

/** The pairwise winner in presentation terms that the options decide, or undefined (the hash decides). */
function pairwiseChoice(key: string, o: JudgeReplyOptions): 'A' | 'B' | 'tie' | undefined {
  if ((o.firstShownBias ?? 0) > 0 && unitFromHash(key, 5) < (o.firstShownBias ?? 0)) return 'A';
  const lb = o.longerBias;
  if (lb?.longer !== undefined && unitFromHash(key, 6) < lb.p) return lb.longer;
  if (!o.quality) return undefined;
  const [first, second] = o.quality;
  return first > second ? 'A' : second > first ? 'B' : 'tie';
}

/** Scores of answer 1 and 2 on [min, max] that give `choice`: the better one the top of the scale. */
function scoresFor(choice: 'A' | 'B' | 'tie', min: number, max: number): [number, number] {
  const hi = Math.floor(max);
  const lo = Math.max(Math.ceil(min), hi - 1);
  return choice === 'A' ? [hi, lo] : choice === 'B' ? [lo, hi] : [lo, lo];
}

/** A wrong-format reply: no marker any parser accepts (starts with a word, holds no numbers). */
export const WRONG_FORMAT_REPLY = 'I would rather not commit to a verdict on these responses without more context.';

/**
 * Writes a judge-mode reply for a conversation in the detected format.
 * @param key the hash input: the prompt plus the model's seed; equal keys give equal replies.
 */
export function judgeReply(format: DetectedFormat, key: string, options: JudgeReplyOptions = {}): string {
  const h1 = hash53(key, 1);
  const h2 = hash53(key, 2);
  const reason = `${pickOf(OPENERS, h1)} ${pickOf(BODIES, h2)}`;
  const chosen = pairwiseChoice(key, options);
  const winnerRoll = unitFromHash(key, 3);
  const winner = chosen ?? (winnerRoll < 0.45 ? 'A' : winnerRoll < 0.9 ? 'B' : 'tie');
  // A tagged pointwise output is scored by its quality; otherwise from the hash, as always.
  const point = (h: number, min: number, max: number): number => {
    const q = options.pointQuality;
    if (!q) return scoreIn(h, min, max);
    const raw = Math.round(min + Math.min(1, Math.max(0, q.quality)) * (max - min)) + q.generous;
    return Math.min(Math.floor(max), Math.max(Math.ceil(min), raw));
  };
  // A decided pair writes its scores from the choice; otherwise from the hash, as always.
  const pair = (min: number, max: number): [number, number] =>
    chosen ? scoresFor(chosen, min, max) : [scoreIn(h1, min, max), scoreIn(h2, min, max)];
  switch (format.kind) {
    case 'text':
      return `${reason} ${pickOf(BODIES, h1 >>> 3)}`;
    case 'critique':
      return unitFromHash(key, 4) < 0.5
        ? 'I have reviewed the evaluation and agree with it. NO_ISSUE'
        : `${pickOf(CRITICISMS, h2)} I suggest lowering the score by one point.`;
    case 'chateval': {
      const [s1, s2] = pair(format.min, format.max);
      return `${reason}\nThe score of Assistant 1: ${s1}\nThe score of Assistant 2: ${s2}`;
    }
    case 'faireval': {
      const [s1, s2] = pair(format.min, format.max);
      return `Evaluation evidence: ${reason}\nScore of the Assistant 1: ${s1}\nScore of the Assistant 2: ${s2}`;
    }
    case 'tuple': {
      const [s1, s2] = pair(format.min, format.max);
      const tuple = `(${s1}, ${s2})`;
      return `${reason}\n${format.line ? `${format.line}: ${tuple}` : tuple}`;
    }
    case 'juror': {
      // The juror prompt's format line ("Vote: (1, 0) if ..."); the vote parser reads only that line.
      const first = chosen === undefined || chosen === 'tie' ? h1 % 2 === 0 : chosen === 'A';
      return `${reason}\nVote: ${first ? '(1, 0)' : '(0, 1)'}`;
    }
    case 'fastchat':
      return `${reason}\n[[${winner === 'tie' ? 'C' : winner}]]`;
    case 'choice':
      return `${reason}\nAnswer: ${winner === 'A' ? 'Assistant 1' : winner === 'B' ? 'Assistant 2' : 'tie'}`;
    case 'leading': {
      const n = point(h1, format.min, format.max);
      // G-Eval forms end in "- Coherence:": repeating the label keeps a labelled parser happy too.
      return format.label ? `${n}\n${format.label}: ${n}` : `${n}`;
    }
    case 'labelled':
      return `${reason}\n${format.label}: ${point(h1, format.min, format.max)}`;
    case 'aspects':
      return JSON.stringify({
        ...Object.fromEntries(
          format.aspects.map((a, i) => [
            a.name,
            { rationale: reason, score: point(hash53(key, 10 + i), a.min, a.max) },
          ]),
        ),
        ...(format.firstFailingStep !== undefined ? { first_failing_step: format.firstFailingStep } : {}),
      });
    case 'label':
      return pickOf(format.labels, h1);
    case 'steps':
      return '1. Read the criteria and the inputs carefully.\n2. Compare the output with each point of the criteria.\n3. Assign a score on the scale based on how well the output meets the criteria.';
    case 'json':
      return JSON.stringify(
        format.shape === 'pair-scores'
          ? { rationale: reason, score_a: pair(format.min, format.max)[0], score_b: pair(format.min, format.max)[1] }
          : format.shape === 'winner'
            ? { rationale: reason, winner }
            : { rationale: reason, score: point(h1, format.min, format.max) },
      );
  }
}
