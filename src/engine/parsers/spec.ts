/**
 * @module
 * Serializable descriptions of how a reply is parsed, and what a parse yields.
 * A spec travels inside engine state and call requests, so it is data, never a function.
 */
import { z } from 'zod';

const Bounds = { min: z.number(), max: z.number() };

/** How one reply is parsed. Each variant is one authors' parse rule. */
export const ParserSpecSchema = z.discriminatedUnion('type', [
  /** Free text (discussion turns, advocates' arguments); always parses. */
  z.object({ type: z.literal('text') }).strict(),
  /** ChatEval: `The score of Assistant 1: x` / `The score of Assistant 2: y` (last occurrences). Default scale 1-10. */
  z.object({ type: z.literal('chateval-scores'), ...Bounds }).strict(),
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
  /** DEBATE critic: free text; `NO_ISSUE` / `NO ISSUE` / `NO_ISSUES` marks agreement. Always parses. */
  z.object({ type: z.literal('critique') }).strict(),
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
]).meta({ id: 'ParserSpec' });
export type ParserSpec =
  | { type: 'text' }
  | { type: 'chateval-scores'; min: number; max: number }
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
  | { type: 'critique' }
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
  | { kind: 'critique'; noIssue: boolean; text: string };

/** A parse result: a value, or why the reply did not parse (fed back into the repair prompt). */
export type ParseResult = { ok: true; value: ParsedValue } | { ok: false; reason: string };
