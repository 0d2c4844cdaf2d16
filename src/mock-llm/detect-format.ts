/**
 * @module
 * Which output format a judge prompt asks for, for the mock's judge mode (./judge-mode.ts).
 *
 * Detection looks for the papers' output instructions, and for the `describeFormat` texts of the
 * engine's parsers (they appear in repair prompts). Where several appear, the one written last wins:
 * templates put the output instruction at the end, after any quoted history. The last user message is
 * searched first, then the system messages, then everything. Scores stay inside the scale the prompt
 * states nearest to the instruction ("from 1 to 10", "1-5", "between 0 and 1", "on a scale of 1 to 3").
 */

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
  for (const m of labelledMatches(text)) {
    const label = m[1]?.trim();
    // ChatEval's "The score of Assistant 1: <score>" is its own format, not a label.
    if (!label || /assistant|score of/i.test(label)) continue;
    const at = m.index;
    out.push({ at, make: (s) => ({ kind: 'labelled', label, ...withScale(s, { min: 1, max: 5 }) }) });
  }
  return out;
}

/** A label and its score placeholder: `<Label>: <score>`, `Score: [number]`, `Score: 4`. */
const LABELLED = /([A-Za-z][A-Za-z ]{0,40}?)\s*:\s*[<[{]\s*(?:score|number|rating|\d)[^>\]}]*[>\]}]/y;
/** What follows the label's colon in {@link LABELLED}. */
const LABELLED_TAIL = /:\s*[<[{]\s*(?:score|number|rating|\d)[^>\]}]*[>\]}]/y;
/** Most characters {@link LABELLED}'s label spans. */
const LABEL_MAX = 41;

/**
 * `text.matchAll` of {@link LABELLED} made global, the same matches, tried only where one can start. Run
 * everywhere, the lazy label tried up to 41 lengths at every letter: 2-3.4 ms of a 3,600-character prompt (0.7 now),
 * nearly all of the mock's format detection. A match's colon is the first one after its start (neither the
 * label nor the white space before the colon holds one), so it starts at most 41 characters plus the white
 * space right before that colon, and that colon is followed by {@link LABELLED_TAIL}.
 */
export function labelledMatches(text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  let from = 0;
  // Every colon from where the last match ended (tails may overlap: one colon can lie inside another's tail).
  for (let colon = text.indexOf(':', from); colon >= 0; colon = text.indexOf(':', Math.max(colon + 1, from))) {
    LABELLED_TAIL.lastIndex = colon;
    if (!LABELLED_TAIL.test(text)) continue;
    let start = colon;
    while (start > 0 && /\s/.test(text.charAt(start - 1))) start--;
    for (let at = Math.max(from, start - LABEL_MAX); at < colon; at++) {
      LABELLED.lastIndex = at;
      const m = LABELLED.exec(text);
      if (m) {
        out.push(m);
        from = at + m[0].length;
        break;
      }
    }
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
