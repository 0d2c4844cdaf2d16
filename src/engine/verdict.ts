/**
 * @module
 * The verdict: the one schema for what an evaluation concludes. The API, D1 rows, the OpenAPI document
 * and the meta-evaluation runner all read this shape.
 */
import { z } from 'zod';
import { UsageSchema } from './call.js';

export const WinnerSchema = z.enum(['A', 'B', 'tie']);

/** One agent's vote or score, in the task's own A/B terms (swapped orders are mapped back). */
export const VoteSchema = z
  .object({
    /** Agent id, e.g. `agent0`, `judge`, `juror2`, `scorer`. */
    agent: z.string(),
    /** Role or display name, e.g. `General Public`. */
    label: z.string(),
    /** Presentation order the vote was cast in: `AB` (as submitted) or `BA` (swapped). */
    order: z.enum(['AB', 'BA']).optional(),
    winner: WinnerSchema.optional(),
    /** Pairwise scores the agent gave A and B. */
    scores: z.object({ a: z.number(), b: z.number() }).strict().optional(),
    /** Pointwise score. */
    score: z.number().optional(),
    /** False when the agent's final reply never parsed (the vote then follows the preset's failure rule). */
    parsed: z.boolean(),
  })
  .strict();
export type Vote = z.infer<typeof VoteSchema>;

/** One reply in the transcript, in the order results were recorded. */
export const TranscriptEntrySchema = z
  .object({
    callId: z.string(),
    agent: z.string(),
    label: z.string(),
    stage: z.string(),
    model: z.string(),
    content: z.string(),
    usage: UsageSchema,
    /** Why the reply did not parse (the next entry with the same base id is the repair). */
    parseError: z.string().optional(),
    /**
     * Set when this reply came as a further choice of one request with `n` (samples asked at once): that
     * request's call id. Its usage is counted on the request's own entry, so this entry's usage is zero.
     */
    request: z.string().optional(),
  })
  .strict();
export type TranscriptEntry = z.infer<typeof TranscriptEntrySchema>;

/** A reply that never parsed, even after repairs. */
export const UnparsedSchema = z
  .object({ callId: z.string(), agent: z.string(), stage: z.string(), reason: z.string() })
  .strict();
export type Unparsed = z.infer<typeof UnparsedSchema>;

/** What a budget cut from a run (present only on a verdict a budget cut short). */
export const TruncationSchema = z
  .object({
    /** The calls the budget refused, with the limit each would have passed; none of them was made. */
    refused: z.array(z.object({ callId: z.string(), message: z.string() }).strict()),
    /**
     * What was cut, method-specific: e.g. `{ roundsRun: 2, roundsPlanned: 4, jurorsRun: 0, jurorsPlanned: 3 }`
     * (SAMRE), `{ iterationsRun: 1, iterationsPlanned: 2 }` (DEBATE); per order (`ab`, `ba`) when calibrated.
     */
    cut: z.record(z.string(), z.unknown()),
  })
  .strict();
export type Truncation = z.infer<typeof TruncationSchema>;

/** One aspect of a verdict on several aspects: its score on its own scale, and what scoring it took. */
export const AspectResultSchema = z
  .object({
    /** The aspect's name, as the rubric or the task gives it. */
    name: z.string(),
    /** The aspect's score on its scale; absent when no reply for it could be read. */
    score: z.number().optional(),
    /** The aspect's scale, inclusive. */
    scale: z.object({ min: z.number(), max: z.number() }).strict(),
    /** Its weight in `overall`. */
    weight: z.number().positive(),
    /** 0-1: the confidence of the aspect's own verdict (one call for all aspects: that call's). */
    confidence: z.number().min(0).max(1),
    /** LLM requests made for this aspect, repairs included; with one call for every aspect, that call's (shared). */
    calls: z.number().int().nonnegative(),
    /** What this aspect's calls cost, USD; absent when one call scored every aspect (the verdict's `usage` has it). */
    costUsd: z.number().nonnegative().optional(),
    /** The judge's reason for the score, when the method asks for one per aspect (one call for all aspects). */
    rationale: z.string().optional(),
  })
  .strict();
export type AspectResult = z.infer<typeof AspectResultSchema>;

/** What an evaluation concludes. */
export const VerdictSchema = z
  .object({
    method: z.string(),
    taskKind: z.enum(['pairwise', 'pointwise']),
    /** Pairwise: the better answer, or `tie`. */
    winner: WinnerSchema.optional(),
    /** Pairwise methods that score: aggregate score of A and B (sum over orders when calibrated). */
    scores: z.object({ a: z.number(), b: z.number() }).strict().optional(),
    /**
     * Pointwise: the final score on the aspect's scale. With several aspects: `overall` on the overall scale
     * (the rubric's scale, else the aspects' common scale, else 0-1; `details.overallScale`).
     */
    score: z.number().optional(),
    /**
     * Pointwise: the scale `score` is on, inclusive (the task's aspect, else the rubric's scale, else the
     * overall's: `details.overallScale`), so a score reads as `4 / 5` wherever it is shown.
     */
    scale: z.object({ min: z.number(), max: z.number() }).strict().optional(),
    /** Pointwise with several aspects (a rubric's `aspects` or the task's): every aspect, in order. */
    aspects: z.array(AspectResultSchema).optional(),
    /**
     * With several aspects: the weighted mean of the scored aspects' scores, each normalised to 0-1 on its own
     * scale ((score − min) / (max − min), clamped to 0-1). Absent when no aspect could be scored.
     */
    overall: z.number().min(0).max(1).optional(),
    /**
     * With several aspects: the weighted standard deviation of the same normalised scores around `overall`
     * (0 when the aspects agree, at most 0.5), so a 0.6 from uniform 0.6s reads apart from one from 1s and 0s.
     */
    spread: z.number().min(0).max(0.5).optional(),
    /**
     * Pointwise, judged by a rubric version with `thresholds`: the score's band (`score`) and each aspect's
     * (`aspects`, by name) by its cut-offs, in the form of a human's pointwise label; absent otherwise.
     */
    label: z
      .object({ score: z.number().optional(), aspects: z.record(z.string(), z.number()).optional() })
      .strict()
      .optional(),
    votes: z.array(VoteSchema),
    /** 0-1: vote margin for votes, normalised score gap or 1 − normalised spread for scores. */
    confidence: z.number().min(0).max(1),
    /** Pairwise with position calibration: whether swapping the answers changed the outcome; null otherwise. */
    positionFlip: z.boolean().nullable(),
    /** Replies that never parsed, listed even where the preset counts them as a tie. */
    unparsed: z.array(UnparsedSchema),
    /** LLM requests made, repairs included. */
    calls: z.number().int().nonnegative(),
    usage: UsageSchema,
    transcript: z.array(TranscriptEntrySchema),
    /** Method-specific facts: rounds run, early stop, per-round scores, juror votes, tie-breaker use. */
    details: z.record(z.string(), z.unknown()).default({}),
    /**
     * A trajectory judged in one call (`trajectory-judge`): the first step that went wrong, numbered from 1 in
     * the task's order with its span id, or null when the judge found none. Absent for other tasks and methods.
     */
    firstFailingStep: z
      .object({ step: z.number().int().min(1), spanId: z.string().optional() })
      .strict()
      .nullable()
      .optional(),
    /** Present (true) only when a budget stopped the run early and the method concluded from what it had. */
    budgetTruncated: z.literal(true).optional(),
    /** What the budget cut; present with `budgetTruncated`. */
    truncation: TruncationSchema.optional(),
  })
  .strict();
export type Verdict = z.infer<typeof VerdictSchema>;

/** What a method itself concludes; the protocol core adds calls, usage, transcript and calibration. */
export interface MethodVerdict {
  winner?: z.infer<typeof WinnerSchema>;
  scores?: { a: number; b: number };
  score?: number;
  votes: Vote[];
  confidence: number;
  details?: Record<string, unknown>;
  /**
   * Set when the method's rule makes the item a tie whatever the scores say (ChatEval's script: a final
   * reply it cannot read turns the item into a tie); the reason. Position calibration keeps the tie.
   */
  forceTie?: string;
  /**
   * Whether swapping the answers changed the outcome, for a method that runs one order itself but decides by
   * a calibrated inner protocol (a cascade's deciding stage). Default: null for one order.
   */
  positionFlip?: boolean | null;
  /** What a budget cut, when the method concluded after its `truncate` (method.ts): e.g. rounds run vs planned. */
  truncation?: Record<string, unknown>;
  /**
   * A method that scored every aspect of the task in one call (`MethodDefinition.aspectsAtOnce`): each
   * aspect's score (absent when unread) and the judge's reason, by aspect name in the task's order.
   */
  aspectScores?: { name: string; score?: number; rationale?: string }[];
  /** A trajectory's first failing step as the judge numbered it (1-based), null for none; absent when not asked. */
  firstFailingStep?: number | null;
}

/** A pairwise outcome: `A`, `B` or `tie`. */
export type Winner = z.infer<typeof WinnerSchema>;

/** The winner by two scores: the higher wins, equal is a tie. */
export function winnerOf(a: number, b: number): Winner {
  return a > b ? 'A' : b > a ? 'B' : 'tie';
}

/**
 * The most-voted of A / B / tie; a shared top count is a tie. Returns the winner and the vote margin
 * (top count − second count) / number of votes, 0-1 (0 for no votes).
 */
export function majority(winners: readonly Winner[]): { winner: Winner; margin: number } {
  const counts = (['A', 'B', 'tie'] as const)
    .map((w) => ({ w, n: winners.filter((x) => x === w).length }))
    .sort((x, y) => y.n - x.n);
  const [top, second] = counts;
  if (!top || winners.length === 0) return { winner: 'tie', margin: 0 };
  return { winner: top.n === second?.n ? 'tie' : top.w, margin: (top.n - (second?.n ?? 0)) / winners.length };
}

/** Arithmetic mean of a non-empty list (NaN for an empty one). */
export function mean(xs: readonly number[]): number {
  return xs.reduce((s, x) => s + x, 0) / xs.length;
}

/** Mean of pairwise scores per answer; undefined for an empty list. */
export function meanPair(pairs: readonly { a: number; b: number }[]): { a: number; b: number } | undefined {
  if (pairs.length === 0) return undefined;
  return { a: mean(pairs.map((s) => s.a)), b: mean(pairs.map((s) => s.b)) };
}
