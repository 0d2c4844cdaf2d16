/**
 * @module
 * The mock's judge mode: finds which output format a prompt asks for and writes a well-formed reply in
 * it, with scores derived from a hash of the prompt (verdicts vary across items, repeat exactly).
 *
 * Detection looks for the papers' output instructions, and for the `describeFormat` texts of the
 * engine's parsers (they appear in repair prompts). Where several appear, the one written last wins:
 * templates put the output instruction at the end, after any quoted history. The last user message is
 * searched first, then the system messages, then everything. Scores stay inside the scale the prompt
 * states nearest to the instruction ("from 1 to 10", "1-5", "between 0 and 1", "on a scale of 1 to 3").
 */
import { hash53, unitFromHash } from '../llm/hash53.js';

/** Chat message as the mock receives it. */
export interface MockMessage {
  role: string;
  content: string;
}

/** A reply format the mock can write. */
export type DetectedFormat =
  | { kind: 'text' }
  | { kind: 'critique' }
  | { kind: 'chateval'; min: number; max: number }
  | { kind: 'faireval'; min: number; max: number }
  | { kind: 'tuple'; min: number; max: number; line?: string }
  | { kind: 'juror' }
  | { kind: 'fastchat' }
  | { kind: 'choice' }
  | { kind: 'leading'; min: number; max: number; label?: string }
  | { kind: 'labelled'; label: string; min: number; max: number }
  | { kind: 'json'; shape: 'pair-scores' | 'winner' | 'score'; min: number; max: number }
  | {
      kind: 'aspects';
      aspects: { name: string; min: number; max: number }[];
      /** A trajectory's reply: the first failing step the mock names (the first step with an error), or null. */
      firstFailingStep?: number | null;
    }
  | { kind: 'steps' }
  | { kind: 'label'; labels: string[] };

interface Scale {
  min: number;
  max: number;
}

type Candidate = { at: number; make: (scale: Scale | undefined) => DetectedFormat };

const SCALE_PATTERNS: RegExp[] = [
  /\bfrom\s+(-?\d+)\s+(?:to|-|–)\s+(-?\d+)/gi,
  /\bbetween\s+(-?\d+)\s+and\s+(-?\d+)/gi,
  /\bscale\s+(?:of\s+|from\s+)?(-?\d+)\s*(?:to|-|–)\s*(-?\d+)/gi,
  /\b(-?\d+)\s*(?:-|–|to)\s*(-?\d+)\s*(?:scale|points?)\b/gi,
  /\(\s*(-?\d+)\s*[-–]\s*(-?\d+)\s*\)/g,
  // Topical-Chat groundedness: "(0 or 1)", "on a scale of 0 or 1".
  /\(\s*(-?\d+)\s+or\s+(-?\d+)\s*\)/g,
  /\bscale\s+of\s+(-?\d+)\s+or\s+(-?\d+)/gi,
  /\b(-?\d+)\s*\(\s*(?:lowest|worst|poor|bad)[^)]*\)\s*(?:to|-|–)\s*(-?\d+)/gi,
];

/** The scale stated nearest to position `at`, if any plausible one. */
function scaleNear(text: string, at: number): Scale | undefined {
  let best: { d: number; s: Scale } | undefined;
  for (const re of SCALE_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const min = Number(m[1]);
      const max = Number(m[2]);
      if (!(max > min) || max - min > 100) continue;
      const d = Math.abs(m.index - at);
      if (!best || d < best.d) best = { d, s: { min, max } };
    }
  }
  return best?.s;
}

function lastIndex(text: string, re: RegExp): number {
  let at = -1;
  for (const m of text.matchAll(re)) at = m.index;
  return at;
}

function withScale(scale: Scale | undefined, dflt: Scale): Scale {
  return scale ?? dflt;
}

/** Candidate formats found in one text, each at the position of its last marker. */
function candidates(text: string): Candidate[] {
  const out: Candidate[] = [];
  const add = (re: RegExp, make: Candidate['make']) => {
    const at = lastIndex(text, re);
    if (at >= 0) out.push({ at, make });
  };
  // JSON shapes (describeFormat: 'a JSON object {"score_a": <number>, ...}').
  const jsonAt = lastIndex(text, /\bJSON\b/gi);
  if (jsonAt >= 0) {
    const shape = /"score_a"|"score_b"|\bscore_a\b/.test(text)
      ? 'pair-scores'
      : /"winner"/.test(text)
        ? 'winner'
        : /"score"/.test(text)
          ? 'score'
          : undefined;
    if (shape) out.push({ at: jsonAt, make: (s) => ({ kind: 'json', shape, ...withScale(s, { min: 1, max: 10 }) }) });
  }
  add(/The score of Assistant 1/gi, (s) => ({ kind: 'chateval', ...withScale(s, { min: 1, max: 10 }) }));
  // FairEval.py: "Score of the Assistant 1: <score>".
  add(/Score of the Assistant 1/g, (s) => ({ kind: 'faireval', ...withScale(s, { min: 1, max: 10 }) }));
  add(/\[\[A\]\]/g, () => ({ kind: 'fastchat' }));
  add(/Answer\s*:\s*Assistant 1/gi, () => ({ kind: 'choice' }));
  // Bandi et al.'s jurors answer a one-hot tuple.
  add(/\(\s*1\s*,\s*0\s*\)|\(\s*0\s*,\s*1\s*\)/g, () => ({ kind: 'juror' }));
  // describeFormat of a labelled tuple: 'a final line "Vote: (score_1, score_2)" with each score from 0 to 1'.
  // Placed at the match's end so it outranks the bare "(score_1, score_2)" inside it; a 0-1 "Vote" is a juror.
  for (const m of text.matchAll(/"([A-Za-z][A-Za-z ]{0,40}?)\s*:\s*\(\s*score_?1\s*,\s*score_?2\s*\)"/gi)) {
    const line = m[1]?.trim();
    if (!line) continue;
    out.push({
      at: m.index + m[0].length,
      make: (s) => {
        const scale = withScale(s, { min: 1, max: 10 });
        return /^vote$/i.test(line) && scale.min === 0 && scale.max === 1
          ? { kind: 'juror' }
          : { kind: 'tuple', ...scale, line };
      },
    });
  }
  add(
    /\(\s*(?:s_?1|score_?1|score_?a|score of (?:answer|assistant) (?:1|a))\s*,\s*(?:s_?2|score_?2|score_?b|score of (?:answer|assistant) (?:2|b))\s*\)|score tuple/gi,
    (s) => ({ kind: 'tuple', ...withScale(s, { min: 1, max: 10 }) }),
  );
  add(/NO[_ ]ISSUES?\b/g, () => ({ kind: 'critique' }));
  // An eval's label model (src/evals/graders.ts `labelInstruction`): one of the quoted labels.
  for (const m of text.matchAll(/Reply with exactly one of these labels and nothing else: (.+)$/gm)) {
    const labels = [...(m[1] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map(
      (l) => JSON.parse(`"${l[1] ?? ''}"`) as string,
    );
    if (labels.length > 0) out.push({ at: m.index + m[0].length, make: () => ({ kind: 'label', labels }) });
  }
  // The single judge's one-call form for several aspects (and its repair): one line per aspect,
  // `"<name>": {"rationale": "<your reason>", "score": <a number from <min> to <max>>}`.
  const aspectLines = [
    ...text.matchAll(
      /("(?:[^"\\]|\\.)+"):\s*\{"rationale": "<your reason>", "score": <a number from (-?\d+) to (-?\d+)>\}/g,
    ),
  ];
  const lastAspect = aspectLines.at(-1);
  if (lastAspect) {
    const aspects = aspectLines.map((m) => ({
      name: JSON.parse(m[1] ?? '""') as string,
      min: Number(m[2]),
      max: Number(m[3]),
    }));
    // A trajectory's one-call form also asks for the first failing step: the mock names the first step that
    // carries an error (a step of type error, or one with an `Error:` line), so tests can tell what it meant.
    const step = /"first_failing_step": </.test(text) ? { firstFailingStep: firstErrorStep(text) } : {};
    out.push({ at: lastAspect.index + lastAspect[0].length, make: () => ({ kind: 'aspects', aspects, ...step }) });
  }
  // G-Eval's auto-CoT: the prompt ends with "Evaluation Steps:" (the repair names "a numbered list").
  if (/Evaluation Steps:\s*$/.test(text)) out.push({ at: text.length, make: () => ({ kind: 'steps' }) });
  add(/the evaluation steps as a numbered list/g, () => ({ kind: 'steps' }));
  // G-Eval: "Evaluation Form (scores ONLY): - Coherence:"; describeFormat: "only a number from ...".
  const formLabel = /-\s*([A-Z][A-Za-z ]{1,40}?)\s*:\s*$/.exec(text.trimEnd())?.[1];
  // Case matters: ChatEval's "[score only]" placeholder is not G-Eval's "(scores ONLY)".
  add(/scores ONLY|Evaluation Form|[Oo]nly (?:a|the) (?:number|score)\b/g, (s) => ({
    kind: 'leading',
    ...withScale(s, { min: 1, max: 5 }),
    ...(formLabel ? { label: formLabel } : {}),
  }));
  // "<Label>: <score>" (describeFormat 'a line "Coherence: <score>"'), DEBATE's "Score: 4".
  for (const m of text.matchAll(/([A-Za-z][A-Za-z ]{0,40}?)\s*:\s*[<[{]\s*(?:score|number|rating|\d)[^>\]}]*[>\]}]/g)) {
    const label = m[1]?.trim();
    // ChatEval's "The score of Assistant 1: <score>" is its own format, not a label.
    if (!label || /assistant|score of/i.test(label)) continue;
    const at = m.index;
    out.push({ at, make: (s) => ({ kind: 'labelled', label, ...withScale(s, { min: 1, max: 5 }) }) });
  }
  return out;
}

/** The format a conversation asks for; `text` when it asks for none. */
export function detectFormat(messages: readonly MockMessage[]): DetectedFormat {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const system = messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n');
  const all = messages.map((m) => m.content).join('\n');
  for (const text of [lastUser, system, all]) {
    const found = candidates(text);
    if (found.length === 0) continue;
    const pick = found.reduce((a, b) => (b.at >= a.at ? b : a));
    return pick.make(scaleNear(text, pick.at));
  }
  return { kind: 'text' };
}

/** The format a `response_format: json_schema` asks for, from the schema's properties. */
export function formatFromJsonSchema(schema: unknown): DetectedFormat | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const props = (schema as { properties?: Record<string, { minimum?: unknown; maximum?: unknown }> }).properties;
  if (!props) return undefined;
  const bound = (p: { minimum?: unknown; maximum?: unknown } | undefined): Scale => ({
    min: typeof p?.minimum === 'number' ? p.minimum : 1,
    max: typeof p?.maximum === 'number' ? p.maximum : 10,
  });
  if (props.score_a) return { kind: 'json', shape: 'pair-scores', ...bound(props.score_a) };
  if (props.winner) return { kind: 'json', shape: 'winner', min: 0, max: 0 };
  if (props.score) return { kind: 'json', shape: 'score', ...bound(props.score) };
  return undefined;
}

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

/** The number of the first rendered trajectory step (`[n] <type> …`) that is an error or has an `Error:` line. */
function firstErrorStep(text: string): number | null {
  const heads = [...text.matchAll(/^\[(\d+)\] (model call|tool call|message|error)\b.*$/gm)];
  for (const [i, h] of heads.entries()) {
    const end = heads[i + 1]?.index ?? text.length;
    const block = text.slice(h.index, end);
    if (h[2] === 'error' || /^Error: /m.test(block)) return Number(h[1]);
  }
  return null;
}
