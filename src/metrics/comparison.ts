/**
 * @module
 * The statistics of a comparison of candidates over items: the pair tallies with Wilson intervals and the
 * win matrix (`pairs.ts`), Bradley–Terry (or Davidson) strengths (`bradley-terry.ts`) with item-bootstrap
 * intervals and the ranking they give (`ranking.ts`), the judge's flip and tie rates, and the CI gate (`gate.ts`).
 * Works on a finished comparison or on the outcomes so far of a running one.
 *
 * Pairs are oriented by the order of `candidates`: `a` is the one listed first. With a baseline design
 * only the candidate-vs-baseline pairs exist; the strengths are still identified (a star graph is
 * connected) and the prior keeps them finite where a candidate swept its baseline.
 *
 * Runtime-neutral: only `zod` and the engine's verdict schema.
 */
import { z } from 'zod';
import { DEFAULT_PRIOR, SolverSchema, StrengthModelSchema } from './bradley-terry.js';
import { evaluateGate, GateResultSchema, GateSchema } from './gate.js';
import type { PairOutcome } from './pairs.js';
import type { GameResult, RankingOptions } from './ranking.js';
import { RankingEntrySchema, rankCandidates } from './ranking.js';
import {
  JudgeRatesSchema,
  orientOutcomes,
  PairOutcomeSchema,
  PairResultSchema,
  tallyPairs,
  WinMatrixSchema,
  judgeRates,
  winMatrix,
} from './pairs.js';

/** How to compute a comparison's statistics. */
export const ComparisonStatsOptionsSchema = z
  .object({
    /** `bradley-terry` (ties as half a win, default) or `davidson` (ties modelled). */
    model: StrengthModelSchema.default('bradley-terry'),
    /** Full-data solver; the bootstrap always uses Newton. Default `newton`. */
    solver: SolverSchema.default('newton'),
    /** Virtual wins and losses per candidate against a θ = 0 opponent (see `bradley-terry.ts`); default 1. */
    prior: z.number().min(0).default(DEFAULT_PRIOR),
    /** Candidate whose strength is pinned at 0; default none (strengths sum to 0). */
    reference: z.string().min(1).optional(),
    /** Level of the pair and strength intervals, in (0, 1); default 0.95. */
    level: z.number().gt(0).lt(1).default(0.95),
    /** Bootstrap resamples of items for the strength intervals; default 1000. */
    resamples: z.number().int().positive().max(100_000).default(1000),
    /** Bootstrap seed (32-bit integer); default 0. Same seed and outcomes, same intervals. */
    seed: z.number().int().default(0),
    /** The CI gate, when asked for. */
    gate: GateSchema.optional(),
  })
  .strict();
/** Options as given (defaults optional). */
export type ComparisonStatsOptions = z.input<typeof ComparisonStatsOptionsSchema>;

/** A comparison's statistics. */
export const ComparisonStatsSchema = z
  .object({
    candidates: z.array(z.string()),
    /** Distinct item ids among the outcomes. */
    items: z.number().int().nonnegative(),
    /** One entry per pair with at least one outcome, `a` before `b` in `candidates`. */
    pairs: z.array(PairResultSchema),
    matrix: WinMatrixSchema,
    /** Best first. */
    ranking: z.array(RankingEntrySchema),
    /** The strength model and how it was fitted. */
    strengths: z
      .object({
        model: StrengthModelSchema,
        /** `strength` is θ on the natural-log scale: P(i beats j) = 1/(1 + e^(θⱼ − θᵢ)) under bradley-terry. */
        scale: z.literal('log'),
        /** Σθ = 0, or the reference candidate at 0. */
        centring: z.union([z.literal('sum-zero'), z.object({ reference: z.string() }).strict()]),
        /** Davidson's tie parameter ν; null for bradley-terry. */
        nu: z.number().nonnegative().nullable(),
        prior: z.number().nonnegative(),
        solver: SolverSchema,
        converged: z.boolean(),
        iterations: z.number().int().nonnegative(),
        /** Log-likelihood of the real games at the fit. */
        logLikelihood: z.number(),
        bootstrap: z
          .object({
            resamples: z.number().int().positive(),
            seed: z.number().int(),
            level: z.number(),
            /** Resamples left out: no finite strengths (only with prior 0) or no convergence. */
            dropped: z.number().int().nonnegative(),
          })
          .strict(),
      })
      .strict(),
    judge: JudgeRatesSchema,
    gate: GateResultSchema.optional(),
  })
  .strict();
/** See {@link ComparisonStatsSchema}. */
export type ComparisonStats = z.infer<typeof ComparisonStatsSchema>;

/**
 * The statistics of a comparison. `outcomes` are checked (every candidate named must be in `candidates`,
 * one outcome per item and pair); `options` are parsed by {@link ComparisonStatsOptionsSchema}.
 * @throws Error for an unknown candidate, a repeated (item, pair), fewer than 2 candidates, a duplicate
 *   candidate, or a reference or gate naming a candidate not in the list; ZodError for bad options.
 */
export function comparisonStats(
  candidates: readonly string[],
  outcomes: readonly PairOutcome[],
  optionsInput: ComparisonStatsOptions = {},
): ComparisonStats {
  const options = ComparisonStatsOptionsSchema.parse(optionsInput);
  if (candidates.length < 2) throw new Error('a comparison needs at least 2 candidates');
  if (new Set(candidates).size !== candidates.length) throw new Error('candidates must be distinct');
  const known = (name: string, field: string) => {
    if (!candidates.includes(name)) throw new Error(`${field}: ${JSON.stringify(name)} is not a candidate`);
  };
  if (options.reference !== undefined) known(options.reference, 'reference');
  if (options.gate) {
    known(options.gate.candidate, 'gate.candidate');
    known(options.gate.baseline, 'gate.baseline');
  }
  const parsed = outcomes.map((o) => PairOutcomeSchema.parse(o));
  const oriented = orientOutcomes(candidates, parsed);
  const pairs = tallyPairs(candidates, oriented, options.level);

  // Item-level games for the bootstrap: an item carries every outcome it has.
  const k = candidates.length;
  const pairIndex = new Map<number, number>();
  const tournamentPairs: { i: number; j: number }[] = [];
  const itemIndex = new Map<string, number>();
  const items: { pair: number; result: GameResult }[][] = [];
  for (const o of oriented) {
    let u = itemIndex.get(o.item);
    if (u === undefined) {
      u = items.length;
      itemIndex.set(o.item, u);
      items.push([]);
    }
    if (o.result === null) continue;
    const key = o.i * k + o.j;
    let p = pairIndex.get(key);
    if (p === undefined) {
      p = tournamentPairs.length;
      pairIndex.set(key, p);
      tournamentPairs.push({ i: o.i, j: o.j });
    }
    items[u]?.push({ pair: p, result: o.result });
  }
  const rankingOptions: RankingOptions = {
    model: options.model,
    solver: options.solver,
    prior: options.prior,
    reference: options.reference === undefined ? null : candidates.indexOf(options.reference),
    bootstrap: { resamples: options.resamples, seed: options.seed, level: options.level },
  };
  const ranked = rankCandidates({ candidates, pairs: tournamentPairs, items }, rankingOptions);
  return {
    candidates: [...candidates],
    items: itemIndex.size,
    pairs,
    matrix: winMatrix(candidates, pairs),
    ranking: ranked.ranking,
    strengths: {
      model: ranked.fit.model,
      scale: 'log',
      centring: options.reference === undefined ? 'sum-zero' : { reference: options.reference },
      nu: ranked.fit.nu,
      prior: ranked.fit.prior,
      solver: ranked.fit.solver,
      converged: ranked.fit.converged,
      iterations: ranked.fit.iterations,
      logLikelihood: ranked.fit.logLikelihood,
      bootstrap: ranked.bootstrap,
    },
    judge: judgeRates(oriented),
    ...(options.gate ? { gate: evaluateGate(options.gate, pairs) } : {}),
  };
}
