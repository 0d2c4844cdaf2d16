/**
 * @module
 * Reply parsers, one per authors' parse rule (see {@link ParserSpec}), plus the repair instruction
 * sent when a reply does not parse. Each rule follows the authors' code where it is public:
 *
 * - `chateval-scores` — ChatEval (paper 000 Table 6; thunlp/ChatEval `LLMEvalParser`): after collapsing
 *   blank lines, the last two lines must start with `The score of Assistant 1:` / `The score of Assistant 2:`.
 *   FairEval's `Score of the Assistant 1:` lines (Wang et al., read the same way: last two lines) also pass.
 * - `score-tuple` — Bandi et al. (paper 003 Appendix E): the last `(a, b)` or `[a, b]` in the reply. With
 *   `line` (SAMRE's jurors: `Vote`), only the last `<line>:` line is read and it must hold exactly one distinct
 *   tuple: the public code's juror prompt ends with "Vote: (1, 0) if you vote for Advocate1, or (0, 1) if you
 *   vote for Advocate2", and a juror echoing it would otherwise count as a vote for Answer 2.
 * - `fastchat-verdict` — FastChat `run_judge_pair`: `[[A]]` in the reply → A, else `[[B]]` → B, else
 *   `[[C]]` → tie (precedence A, B, C, exactly as FastChat; not "the last mark").
 * - `assistant-choice` — ChatEval pilot outputs: a final line `Answer: Assistant 1|2|Same` or a bare
 *   `Assistant 1|2|Same` reply.
 * - `leading-number` — G-Eval `parse_output` (`^ ?([\d.]+)`), used by DEBATE (paper 004 Appendix E.2);
 *   a short label such as `Coherence:` before the number is tolerated since the form ends with it.
 * - `labelled-score` — ChatEval SummEval pilots (`Relevance: 2`) and DEBATE's scorer (`a score of 2`).
 * - `critique` — DEBATE (paper 004 Alg. 1, Appendix E.1): `NO_ISSUE` / `NO ISSUE` / `NO_ISSUES` in capitals.
 * - `faireval-scores`, `geval-score`, `last-char`, `debate-score`, `bandi-tuple` and `chateval-scores` with
 *   `read: 'script'` — the authors' own read rules, in `authors.ts`.
 *
 * Parsers never invent a number: a reply without a readable, in-scale value is a failure with a reason.
 */
import {
  noIssueByCode,
  readBandiTuple,
  readChatEvalScript,
  readDebateScore,
  readFairEval,
  readGEval,
  readLastChar,
} from './authors.js';
import { extractJsonObject } from './json.js';
import { parseAspectScores, parseSteps } from './rubric.js';
import type { ParseResult, ParserSpec, ParsedValue, Winner } from './spec.js';

/** A decimal number; the sign is part of it so out-of-scale negatives are reported, not misread. */
const NUMBER = String.raw`[-+]?\d+(?:\.\d+)?`;
/** Markdown emphasis models wrap around labels and numbers (`**`, `__`, `*`). */
const EMPH = String.raw`[*_]*`;

function inRange(n: number, min: number, max: number): boolean {
  return Number.isFinite(n) && n >= min && n <= max;
}

function outOfRange(what: string, n: number, min: number, max: number): ParseResult {
  return { ok: false, reason: `${what} ${n} is outside the scale ${min}-${max}` };
}

function ok(value: ParsedValue): ParseResult {
  return { ok: true, value };
}

/** Last match of a global regex, or undefined. */
function lastMatch(re: RegExp, text: string): RegExpExecArray | undefined {
  let last: RegExpExecArray | undefined;
  for (const m of text.matchAll(re)) last = m;
  return last;
}

/** Non-empty lines, trimmed (ChatEval's code strips the reply and collapses blank lines first). */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

/** Two scores checked against the scale. */
function pairScores(a: number, b: number, min: number, max: number, names: [string, string]): ParseResult {
  if (!inRange(a, min, max)) return outOfRange(names[0], a, min, max);
  if (!inRange(b, min, max)) return outOfRange(names[1], b, min, max);
  return ok({ kind: 'pair-scores', a, b });
}

function parseChatEvalScores(text: string, min: number, max: number): ParseResult {
  const line = (n: 1 | 2) =>
    new RegExp(
      String.raw`^${EMPH}\s*(?:the\s+)?score\s+of\s+(?:the\s+)?assistant\s*${n}${EMPH}\s*[:：]\s*${EMPH}\s*(${NUMBER})`,
      'i',
    );
  const [l1, l2] = lines(text).slice(-2);
  const a = l1 === undefined ? null : line(1).exec(l1);
  const b = l2 === undefined ? null : line(2).exec(l2);
  if (!a?.[1] || !b?.[1]) {
    return {
      ok: false,
      reason: 'missing the final two lines "The score of Assistant 1: <score>" and "The score of Assistant 2: <score>"',
    };
  }
  return pairScores(Number(a[1]), Number(b[1]), min, max, ['score of Assistant 1', 'score of Assistant 2']);
}

/** A `(a, b)` or `[a, b]` tuple, emphasis tolerated around the numbers. */
function tupleRegExp(): RegExp {
  return new RegExp(String.raw`[([]\s*${EMPH}(${NUMBER})${EMPH}\s*,\s*${EMPH}(${NUMBER})${EMPH}\s*[)\]]`, 'g');
}

function parseScoreTuple(text: string, min: number, max: number): ParseResult {
  const m = lastMatch(tupleRegExp(), text);
  if (!m) return { ok: false, reason: 'no score tuple "(score_1, score_2)" found' };
  return pairScores(Number(m[1]), Number(m[2]), min, max, ['first score', 'second score']);
}

/**
 * The tuple on the last `<label>:` line. Why only that line, and why one distinct tuple: a reply echoing
 * "Vote: (1, 0) if ..., or (0, 1) if ..." states no vote, and reading its last tuple would invent one.
 */
function parseLabelledTuple(text: string, label: string, min: number, max: number): ParseResult {
  const head = new RegExp(
    String.raw`^(?:[-*•]\s+)?(?:#+\s*)?${EMPH}\s*${escapeRegExp(label)}\s*${EMPH}\s*[:：]\s*${EMPH}(.*)$`,
    'i',
  );
  const rest = lines(text)
    .map((l) => head.exec(l)?.[1])
    .filter((r): r is string => r !== undefined)
    .at(-1);
  if (rest === undefined) return { ok: false, reason: `no line "${label}: (score_1, score_2)" found` };
  const tuples = [...rest.matchAll(tupleRegExp())].map((m) => ({ a: Number(m[1]), b: Number(m[2]) }));
  const first = tuples[0];
  if (!first) return { ok: false, reason: `the final "${label}:" line holds no "(score_1, score_2)" tuple` };
  const distinct = tuples.filter((t, i) => tuples.findIndex((u) => u.a === t.a && u.b === t.b) === i);
  if (distinct.length > 1) {
    return {
      ok: false,
      reason: `the final "${label}:" line holds ${distinct.map((t) => `(${t.a}, ${t.b})`).join(' and ')}, not a single choice`,
    };
  }
  return pairScores(first.a, first.b, min, max, ['first score', 'second score']);
}

function parseFastChatVerdict(text: string): ParseResult {
  // FastChat tests the marks in this order with plain substring checks; we do the same so our parse of
  // a recorded judgment always equals FastChat's (a reply quoting the format would read as A there too).
  const winner: Winner | undefined = text.includes('[[A]]')
    ? 'A'
    : text.includes('[[B]]')
      ? 'B'
      : text.includes('[[C]]')
        ? 'tie'
        : undefined;
  if (!winner) return { ok: false, reason: 'no final verdict "[[A]]", "[[B]]" or "[[C]]" found' };
  return ok({ kind: 'winner', winner });
}

/** `Assistant 1` / `Assistant 2` / `Same` (and tie synonyms) → winner. */
const CHOICE = String.raw`${EMPH}\s*(?:assistant\s*([12])\b|(same|tie|equal|both)\b)`;

function choiceWinner(m: RegExpExecArray): Winner {
  return m[1] === '1' ? 'A' : m[1] === '2' ? 'B' : 'tie';
}

function parseAssistantChoice(text: string): ParseResult {
  const last = lines(text).at(-1) ?? '';
  // The pilot format: the whole last line is the choice, with or without "Answer:".
  const final = new RegExp(String.raw`^(?:${EMPH}answer${EMPH}\s*[:：]\s*)?${CHOICE}${EMPH}[\s.!]*$`, 'i').exec(last);
  // A labelled "Answer: ..." line followed by more text still states the choice explicitly.
  const labelled = final ?? lastMatch(new RegExp(String.raw`^${EMPH}answer${EMPH}\s*[:：]\s*${CHOICE}`, 'gim'), text);
  if (!labelled) {
    return { ok: false, reason: 'no final line "Answer: Assistant 1", "Answer: Assistant 2" or "Answer: Same" found' };
  }
  return ok({ kind: 'winner', winner: choiceWinner(labelled) });
}

function parseLeadingNumber(text: string, min: number, max: number): ParseResult {
  // G-Eval reads `^ ?([\d.]+)`. Its form ends with "<Aspect>:", so replies often echo that label or a
  // bullet first; anything longer than a short label before the number is not a leading number.
  const m = new RegExp(
    String.raw`^\s*(?:[-•]\s*)?(?:${EMPH}[A-Za-z][A-Za-z ]{0,30}${EMPH}\s*[:：]${EMPH}\s*)?${EMPH}\s*(${NUMBER})`,
  ).exec(text);
  if (!m?.[1]) return { ok: false, reason: 'the reply does not start with a score' };
  const n = Number(m[1]);
  if (!inRange(n, min, max)) return outOfRange('score', n, min, max);
  return ok({ kind: 'score', score: n });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function parseLabelledScore(text: string, label: string, min: number, max: number): ParseResult {
  const l = escapeRegExp(label);
  const m =
    lastMatch(new RegExp(String.raw`\b${l}${EMPH}\s*(?:score)?${EMPH}\s*[:：=]\s*${EMPH}\s*(${NUMBER})`, 'gi'), text) ??
    // DEBATE's scorer states its score in prose ("a score of 2 might be more appropriate").
    lastMatch(
      new RegExp(String.raw`\b(?:score|rating)\s+(?:of|is|as|to|should\s+be)\s+(?:a\s+)?${EMPH}(${NUMBER})`, 'gi'),
      text,
    );
  if (!m?.[1]) return { ok: false, reason: `no "${label}: <score>" line found` };
  const n = Number(m[1]);
  if (!inRange(n, min, max)) return outOfRange(label, n, min, max);
  return ok({ kind: 'score', score: n });
}

function parseCritique(text: string, rule: 'code' | undefined): ParseResult {
  // Capitals only, as the prompts ask: "I have no issues with X, but..." is a critique, not agreement.
  const noIssue = rule === 'code' ? noIssueByCode(text) : /\bNO[_ -]ISSUES?\b/.test(text);
  return ok({ kind: 'critique', noIssue, text });
}

/** A JSON field as a number: numbers and numeric strings only (`null`, `""`, `true` are not 0 or 1). */
function numberField(obj: object, ...names: string[]): number | undefined {
  const rec = obj as Record<string, unknown>;
  for (const n of names) {
    const v = rec[n];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && new RegExp(String.raw`^\s*${NUMBER}\s*$`).test(v)) return Number(v);
  }
  return undefined;
}

function stringField(obj: object, ...names: string[]): string | undefined {
  const rec = obj as Record<string, unknown>;
  for (const n of names) {
    const v = rec[n];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function parseJsonObject(spec: Extract<ParserSpec, { type: 'json' }>, obj: object): ParseResult {
  const min = spec.min ?? Number.NEGATIVE_INFINITY;
  const max = spec.max ?? Number.POSITIVE_INFINITY;
  switch (spec.shape) {
    case 'pair-scores': {
      const a = numberField(obj, 'score_a', 'scoreA', 'a', 'score_1', 'assistant_1');
      const b = numberField(obj, 'score_b', 'scoreB', 'b', 'score_2', 'assistant_2');
      if (a === undefined || b === undefined)
        return { ok: false, reason: 'JSON needs numeric "score_a" and "score_b"' };
      return pairScores(a, b, min, max, ['score_a', 'score_b']);
    }
    case 'winner': {
      const w = (stringField(obj, 'winner', 'verdict') ?? '')
        .trim()
        .toUpperCase()
        .replace(/^ASSISTANT\s*/, '');
      const winner: Winner | undefined =
        w === 'A' || w === '1' ? 'A' : w === 'B' || w === '2' ? 'B' : w === 'TIE' || w === 'C' ? 'tie' : undefined;
      if (!winner) return { ok: false, reason: 'JSON needs "winner": "A", "B" or "tie"' };
      return ok({ kind: 'winner', winner });
    }
    case 'score': {
      const s = numberField(obj, 'score', 'rating');
      if (s === undefined) return { ok: false, reason: 'JSON needs a numeric "score"' };
      if (!inRange(s, min, max)) return outOfRange('score', s, min, max);
      return ok({ kind: 'score', score: s });
    }
  }
}

function parseJson(spec: Extract<ParserSpec, { type: 'json' }>, text: string): ParseResult {
  const obj = extractJsonObject(text);
  const parsed: ParseResult = obj
    ? parseJsonObject(spec, obj)
    : { ok: false, reason: 'the reply is not a JSON object' };
  if (parsed.ok || !spec.fallback) return parsed;
  // Why a fallback: some providers ignore structured-output requests; the text rule may still read it.
  const fb = parseReply(spec.fallback, text);
  return fb.ok ? fb : { ok: false, reason: `${parsed.reason}; fallback: ${fb.reason}` };
}

/** Parses one reply with the given spec. Pure; never throws. */
export function parseReply(spec: ParserSpec, text: string): ParseResult {
  if (spec.type === 'text') return ok({ kind: 'text', text });
  if (spec.type === 'critique') return parseCritique(text, spec.noIssue);
  if (text.trim() === '') return { ok: false, reason: 'the reply is empty' };
  switch (spec.type) {
    case 'chateval-scores':
      return spec.read === 'script' ? readChatEvalScript(text) : parseChatEvalScores(text, spec.min, spec.max);
    case 'faireval-scores':
      return readFairEval(text);
    case 'geval-score':
      return readGEval(text);
    case 'last-char':
      return readLastChar(text);
    case 'debate-score':
      return readDebateScore(text, spec.from);
    case 'bandi-tuple':
      return readBandiTuple(text, spec.rule);
    case 'score-tuple':
      return spec.line === undefined
        ? parseScoreTuple(text, spec.min, spec.max)
        : parseLabelledTuple(text, spec.line, spec.min, spec.max);
    case 'fastchat-verdict':
      return parseFastChatVerdict(text);
    case 'assistant-choice':
      return parseAssistantChoice(text);
    case 'leading-number':
      return parseLeadingNumber(text, spec.min, spec.max);
    case 'labelled-score':
      return parseLabelledScore(text, spec.label, spec.min, spec.max);
    case 'json':
      return parseJson(spec, text);
    case 'aspect-scores':
      return parseAspectScores(spec.aspects, text, spec.steps);
    case 'steps':
      return parseSteps(text);
  }
}

/** The format a spec expects, in words, for repair prompts. */
export function describeFormat(spec: ParserSpec): string {
  switch (spec.type) {
    case 'text':
    case 'critique':
      return 'free text';
    case 'chateval-scores':
      return `two final lines exactly "The score of Assistant 1: <score>" and "The score of Assistant 2: <score>", each score from ${spec.min} to ${spec.max}`;
    case 'faireval-scores':
      return 'two final lines exactly "Score of the Assistant 1: <score>" and "Score of the Assistant 2: <score>"';
    case 'geval-score':
      return 'only a number (the score) at the start of the reply';
    case 'last-char':
      return 'a final line ending in the score as a single digit, e.g. "Rating: <score>"';
    case 'debate-score':
      return 'your score as a number in a line "Score: <score>"';
    case 'bandi-tuple':
      return 'a final score tuple in the form (score_1, score_2)';
    case 'score-tuple':
      if (spec.line !== undefined) {
        return `a final line "${spec.line}: (score_1, score_2)" with each score from ${spec.min} to ${spec.max}`;
      }
      return `a final score tuple in the form (score_1, score_2), each from ${spec.min} to ${spec.max}`;
    case 'fastchat-verdict':
      return 'a final verdict in exactly this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie';
    case 'assistant-choice':
      return 'a final line "Answer: Assistant 1", "Answer: Assistant 2" or "Answer: Same"';
    case 'leading-number':
      return `only a number from ${spec.min} to ${spec.max} at the start of the reply`;
    case 'labelled-score':
      return `a line "${spec.label}: <score>" with a score from ${spec.min} to ${spec.max}`;
    case 'json': {
      const range =
        spec.min !== undefined && spec.max !== undefined ? ` (numbers from ${spec.min} to ${spec.max})` : '';
      return spec.shape === 'pair-scores'
        ? `a JSON object {"score_a": <number>, "score_b": <number>}${range}`
        : spec.shape === 'winner'
          ? 'a JSON object {"winner": "A" | "B" | "tie"}'
          : `a JSON object {"score": <number>}${range}`;
    }
    case 'aspect-scores':
      return `one JSON object with exactly these keys: ${spec.aspects
        .map(
          (a) =>
            `${JSON.stringify(a.name)}: {"rationale": "<your reason>", "score": <a number from ${a.min} to ${a.max}>}`,
        )
        .join(
          ', ',
        )}${spec.steps !== undefined ? `, "first_failing_step": <a step number from 1 to ${spec.steps}, or null>` : ''}`;
    case 'steps':
      return 'the evaluation steps as a numbered list ("1. ...", "2. ...")';
  }
}

/** The user message that asks for a reformatted reply after a parse failure. */
export function repairInstruction(spec: ParserSpec, reason: string): string {
  return `Your previous reply could not be read: ${reason}. Keep your judgement, and reply again ending with ${describeFormat(spec)}.`;
}
