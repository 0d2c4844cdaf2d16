/**
 * @module
 * Serializable descriptions of how a reply is parsed, and what a parse yields.
 * A spec travels inside engine state and call requests, so it is data, never a function.
 */
import { z } from 'zod';

const Bounds = { min: z.number(), max: z.number() };

/** How one reply is parsed. Each variant is one authors' parse rule. */
export const ParserSpecSchema = z
  .discriminatedUnion('type', [
    /** Free text (discussion turns, advocates' arguments); always parses. */
    z.object({ type: z.literal('text') }).strict(),
    /**
     * ChatEval: the last two lines `The score of Assistant 1: x` / `The score of Assistant 2: y`. With `read:
     * 'script'`, exactly as the authors' pipeline: re-ask when `LLMEvalParser`'s check fails, read the numbers
     * as their scoring script does (no scale check), and a reply that passes the check but cannot be read is
     * final (the item becomes a tie); see `authors.ts`.
     */
    z.object({ type: z.literal('chateval-scores'), ...Bounds, read: z.literal('script').optional() }).strict(),
    /** FairEval (FairEval.py `parse_score_from_review`): the last two lines, each read after its last `:`. */
    z.object({ type: z.literal('faireval-scores') }).strict(),
    /** G-Eval (`parse_output`): the number at the very start of the reply, `^ ?([\d.]+)`; no scale check. */
    z.object({ type: z.literal('geval-score') }).strict(),
    /** ChatEval's Topical-Chat script: the last character of the last line, read as a number; no scale check. */
    z.object({ type: z.literal('last-char') }).strict(),
    /**
     * DEBATE (`evalute_score.py`): the first digit of the first integer in the reply (`from: 'first'`), or the
     * last digit of the last integer (`from: 'last'`, the script's rule for fluency).
     */
    z.object({ type: z.literal('debate-score'), from: z.enum(['first', 'last']) }).strict(),
    /**
     * Bandi et al.'s public code: a `(a, b)` tuple read as one of its regexes — the first tuple with decimals
     * (`main.py`, baseline judge), the first integer tuple (MORE's scorer), or the last integer tuple in round or
     * square brackets (SAMRE's judge and jurors). No scale check.
     */
    z.object({ type: z.literal('bandi-tuple'), rule: z.enum(['first-decimal', 'first-int', 'last-int']) }).strict(),
    /**
     * Bandi et al.: the last `(a, b)` or `[a, b]` tuple in the reply (the authors' rule; judge scale 1-20 per
     * criterion summed). With `line` (e.g. `'Vote'` for SAMRE's jurors, who vote `(1, 0)` / `(0, 1)`), only the
     * last line starting with `<line>:` (case-insensitive, markdown bullets/emphasis tolerated) is read, and it
     * must hold one tuple (repeats of the same tuple are fine): a line quoting both options, or no such line,
     * fails, so a juror echoing the format line is re-asked instead of being read as its last option.
     */
    z
      .object({
        type: z.literal('score-tuple'),
        ...Bounds,
        line: z
          .string()
          .min(1)
          .max(100)
          .regex(/^[^\r\n:]+$/, 'a line label has no colon or line break')
          .optional(),
      })
      .strict(),
    /** FastChat pairwise, in FastChat's own order: `[[A]]` anywhere → A, else `[[B]]` → B, else `[[C]]` → tie. */
    z.object({ type: z.literal('fastchat-verdict') }).strict(),
    /** ChatEval pilot / FairEval style: `Answer: Assistant 1` / `Assistant 2` / `tie`. */
    z.object({ type: z.literal('assistant-choice') }).strict(),
    /** G-Eval style: the reply's leading number (e.g. `4` or `4 - the summary...`). */
    z.object({ type: z.literal('leading-number'), ...Bounds }).strict(),
    /** A `<label>: <number>` line, e.g. `Coherence: 3`, or DEBATE's scorer `Score: 4` / `a score of 4` (last one wins). */
    z.object({ type: z.literal('labelled-score'), label: z.string().min(1), ...Bounds }).strict(),
    /**
     * DEBATE critic: free text; always parses. Agreement: `NO_ISSUE` / `NO ISSUE` / `NO_ISSUES` in capitals, or
     * with `noIssue: 'code'` the substring `NO_ISSUE` exactly as `debate.py` tests it (`NO ISSUE` does not count).
     */
    z.object({ type: z.literal('critique'), noIssue: z.literal('code').optional() }).strict(),
    /**
     * Several aspects in one reply (the single judge's one-call form): one JSON object with a key per aspect,
     * each `{"rationale": "…", "score": n}` or the bare score; every aspect present, no other key, each score a
     * number within its aspect's scale.
     */
    z
      .object({
        type: z.literal('aspect-scores'),
        aspects: z
          .array(z.object({ name: z.string().min(1).max(64), ...Bounds }).strict())
          .min(1)
          .max(16),
        /** A trajectory's step count: the object also names `first_failing_step` (1-steps, or null). */
        steps: z.number().int().min(1).max(200).optional(),
      })
      .strict(),
    /** G-Eval's auto-CoT reply: the numbered evaluation steps (`1. …`, `2. …`), from step 1 while the numbers follow on. */
    z.object({ type: z.literal('steps') }).strict(),
    /** Structured output: a JSON object of the given shape; when `fallback` is set and the reply is not JSON, the fallback text parser is tried. */
    z
      .object({
        type: z.literal('json'),
        shape: z.enum(['pair-scores', 'winner', 'score']),
        min: z.number().optional(),
        max: z.number().optional(),
        get fallback() {
          return ParserSpecSchema.optional();
        },
      })
      .strict(),
    // The id names the recursion (`fallback`) for schema generators (JSON Schema / OpenAPI `$ref`).
  ])
  .meta({ id: 'ParserSpec' });
export type ParserSpec =
  | { type: 'text' }
  | { type: 'chateval-scores'; min: number; max: number; read?: 'script' }
  | { type: 'faireval-scores' }
  | { type: 'geval-score' }
  | { type: 'last-char' }
  | { type: 'debate-score'; from: 'first' | 'last' }
  | { type: 'bandi-tuple'; rule: 'first-decimal' | 'first-int' | 'last-int' }
  | {
      type: 'score-tuple';
      min: number;
      max: number;
      /** Read only the last `<line>:` line (e.g. `Vote`), which must hold one distinct tuple. */
      line?: string;
    }
  | { type: 'fastchat-verdict' }
  | { type: 'assistant-choice' }
  | { type: 'leading-number'; min: number; max: number }
  | { type: 'labelled-score'; label: string; min: number; max: number }
  | { type: 'critique'; noIssue?: 'code' }
  | { type: 'aspect-scores'; aspects: { name: string; min: number; max: number }[]; steps?: number }
  | { type: 'steps' }
  | {
      type: 'json';
      shape: 'pair-scores' | 'winner' | 'score';
      min?: number;
      max?: number;
      fallback?: ParserSpec;
    };

/** Which answer won a pairwise comparison. */
export type Winner = 'A' | 'B' | 'tie';

/** What a successful parse yields. */
export type ParsedValue =
  | { kind: 'text'; text: string }
  | { kind: 'pair-scores'; a: number; b: number }
  | { kind: 'winner'; winner: Winner }
  | { kind: 'score'; score: number }
  | { kind: 'critique'; noIssue: boolean; text: string }
  | {
      kind: 'aspect-scores';
      scores: { name: string; score: number; rationale?: string }[];
      /** A trajectory's first failing step (1-based), null when none failed; absent for other tasks. */
      firstFailingStep?: number | null;
    }
  | { kind: 'steps'; steps: string };

/**
 * A parse result: a value, or why the reply did not parse (fed back into the repair prompt). `final` marks a
 * reply the authors' flow accepts without asking again even though their scoring script cannot read it
 * (ChatEval: the format check passes, the float conversion fails): it is not re-asked.
 */
export type ParseResult = { ok: true; value: ParsedValue } | { ok: false; reason: string; final?: boolean };
