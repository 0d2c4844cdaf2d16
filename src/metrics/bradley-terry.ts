/**
 * @module
 * Bradley–Terry strengths by maximum likelihood, with Davidson's tie model as an option.
 *
 * **Models.** Candidate i has strength πᵢ = e^θᵢ.
 * - `bradley-terry`: P(i beats j) = πᵢ / (πᵢ + πⱼ). A tie counts as half a win for each side, so the
 *   likelihood is Πᵢⱼ pᵢⱼ^(wᵢⱼ + tᵢⱼ/2) (fractional counts are fine for the likelihood and both solvers).
 * - `davidson` (Davidson 1970): P(i beats j) = πᵢ / Dᵢⱼ, P(tie) = ν√(πᵢπⱼ) / Dᵢⱼ with
 *   Dᵢⱼ = πᵢ + πⱼ + ν√(πᵢπⱼ) and ν ≥ 0 fitted too. With no tie in the data ν̂ = 0 and it is Bradley–Terry.
 *
 * **Scale and identifiability.** `strength` is θ on the natural-log scale, centred so that Σθ = 0 (the
 * likelihood only sees differences). θᵢ − θⱼ = ln 2 means i beats j two times in three under
 * bradley-terry; ×400/ln 10 gives Elo points. A `reference` candidate instead pins that candidate at 0.
 *
 * **Candidates that never win or never lose.** Their MLE is ±∞. We regularise: with `prior` = a > 0
 * (default 1) every candidate is credited with a virtual wins and a virtual losses against a virtual
 * opponent of fixed strength θ = 0 (a log-prior a·ln σ(θ) + a·ln σ(−θ), a logistic-Beta prior centred at
 * 0). Strengths then always exist, even on a disconnected design, and a = 1 moves a 1,000-item fit by
 * well under its interval. With `prior: 0` the fit is the plain MLE, which exists exactly when the win
 * graph is strongly connected (every split of the candidates into two groups has a win, or a tie, from each
 * group over the other: Hunter 2004, Assumption 1); otherwise {@link StrengthsUndefinedError} is thrown.
 *
 * **Solvers** (`bt-solvers.ts`): `newton`, Newton–Raphson with the exact Hessian, and `mm`, Hunter's
 * (2004) MM algorithm (Davidson's iteration for ties). They must agree (tested).
 *
 * Intervals and the ranking they give are in `ranking.ts`.
 *
 * Runtime-neutral: no platform imports.
 */
import { z } from 'zod';
import type { Games, Solved } from './bt-solvers.js';
import { evaluate, mm, newton, totalTies } from './bt-solvers.js';

/** `bradley-terry` (ties as half a win) or `davidson` (ties modelled, parameter ν). */
export const StrengthModelSchema = z.enum(['bradley-terry', 'davidson']);
/** See {@link StrengthModelSchema}. */
export type StrengthModel = z.infer<typeof StrengthModelSchema>;

/** `newton` (default) or `mm` (Hunter's MM; Davidson's iteration for `davidson`). */
export const SolverSchema = z.enum(['newton', 'mm']);
/** See {@link SolverSchema}. */
export type Solver = z.infer<typeof SolverSchema>;

/** Virtual wins and losses each candidate gets against a θ = 0 opponent (see the module note). */
export const DEFAULT_PRIOR = 1;

/** The outcomes of candidate `i` against candidate `j` (indices, i ≠ j), as counts (may be fractional). */
export interface PairCounts {
  i: number;
  j: number;
  winsI: number;
  winsJ: number;
  ties: number;
}

/** Fit settings. */
export interface FitOptions {
  /** Default `bradley-terry`. */
  model?: StrengthModel;
  /** Default `newton`. */
  solver?: Solver;
  /** Virtual wins and losses per candidate against a θ = 0 opponent, ≥ 0; default {@link DEFAULT_PRIOR}. */
  prior?: number;
  /**
   * Convergence: largest change of any θ (and ln ν) in a step; default 1e-10 for Newton (quadratic, so the
   * error is far smaller) and 1e-12 for MM (linear, so the error is a multiple of the last step).
   */
  tolerance?: number;
  /** Iteration cap; default 200 for Newton, 100,000 for MM. */
  maxIterations?: number;
}

/** A fitted model. */
export interface StrengthFit {
  model: StrengthModel;
  solver: Solver;
  /** θ per candidate (natural log), centred to Σθ = 0. */
  strengths: number[];
  /** Davidson's ν (0 when the data has no tie); null for bradley-terry. */
  nu: number | null;
  prior: number;
  /** Log-likelihood of the real games at the fit (the prior's virtual games left out). */
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

/** Thrown for `prior: 0` when the MLE does not exist (a candidate set that never beats, or never loses to, the rest). */
export class StrengthsUndefinedError extends Error {
  readonly code = 'strengths_undefined';
  constructor(message: string) {
    super(message);
    this.name = 'StrengthsUndefinedError';
  }
}

/**
 * True when every candidate is reachable from every other along "has beaten or tied" edges (the
 * condition for a finite MLE without a prior).
 */
export function stronglyConnected(k: number, pairs: readonly PairCounts[]): boolean {
  return connected(toGames(k, pairs));
}

function connected(g: Games): boolean {
  if (g.k <= 1) return true;
  const forward: number[][] = Array.from({ length: g.k }, () => []);
  const backward: number[][] = Array.from({ length: g.k }, () => []);
  for (let p = 0; p < g.pi.length; p++) {
    const i = g.pi[p] as number;
    const j = g.pj[p] as number;
    const [a, b, t] = [g.counts[3 * p], g.counts[3 * p + 1], g.counts[3 * p + 2]] as [number, number, number];
    if (a + t > 0) {
      forward[i]?.push(j);
      backward[j]?.push(i);
    }
    if (b + t > 0) {
      forward[j]?.push(i);
      backward[i]?.push(j);
    }
  }
  const reachesAll = (edges: number[][]) => {
    const seen = new Uint8Array(g.k);
    const stack = [0];
    seen[0] = 1;
    let count = 1;
    while (stack.length > 0) {
      const u = stack.pop() as number;
      for (const v of edges[u] ?? []) {
        if (seen[v] === 0) {
          seen[v] = 1;
          count++;
          stack.push(v);
        }
      }
    }
    return count === g.k;
  };
  return reachesAll(forward) && reachesAll(backward);
}

/** Pair counts as flat games, checked: distinct indices in range, finite counts ≥ 0 (RangeError otherwise). */
export function toGames(k: number, pairs: readonly PairCounts[]): Games {
  const g: Games = {
    k,
    pi: new Int32Array(pairs.length),
    pj: new Int32Array(pairs.length),
    counts: new Float64Array(3 * pairs.length),
  };
  pairs.forEach((p, n) => {
    if (!Number.isInteger(p.i) || !Number.isInteger(p.j) || p.i < 0 || p.j < 0 || p.i >= k || p.j >= k || p.i === p.j) {
      throw new RangeError(`pair ${n}: candidate indices must be distinct integers in [0, ${k}), got ${p.i}, ${p.j}`);
    }
    if (![p.winsI, p.winsJ, p.ties].every((c) => Number.isFinite(c) && c >= 0)) {
      throw new RangeError(`pair ${n}: counts must be finite and ≥ 0`);
    }
    g.pi[n] = p.i;
    g.pj[n] = p.j;
    g.counts[3 * n] = p.winsI;
    g.counts[3 * n + 1] = p.winsJ;
    g.counts[3 * n + 2] = p.ties;
  });
  return g;
}

// ---------------------------------------------------------------------------------------------
// Fitting

/** {@link FitOptions} with every default filled in. */
export interface Settings {
  model: StrengthModel;
  solver: Solver;
  prior: number;
  tolerance: number;
  maxIterations: number;
}

/** Fills the defaults of {@link FitOptions}; RangeError for a negative or non-finite prior. */
export function settingsOf(options: FitOptions): Settings {
  const solver = options.solver ?? 'newton';
  const prior = options.prior ?? DEFAULT_PRIOR;
  if (!(prior >= 0) || !Number.isFinite(prior)) throw new RangeError(`prior must be a finite number ≥ 0, got ${prior}`);
  return {
    model: options.model ?? 'bradley-terry',
    solver,
    prior,
    tolerance: options.tolerance ?? (solver === 'newton' ? 1e-10 : 1e-12),
    maxIterations: options.maxIterations ?? (solver === 'newton' ? 200 : 100_000),
  };
}

/** A start for Davidson's ν: θ = 0 gives P(tie) = ν/(2 + ν), so ν₀ = 2t/(1 − t) for the observed tie share t. */
function startOf(g: Games, davidson: boolean, prior: number): Float64Array {
  const start = new Float64Array(davidson ? g.k + 1 : g.k);
  if (davidson) {
    let games = 2 * prior * g.k;
    for (let x = 0; x < g.counts.length; x++) games += g.counts[x] as number;
    const share = Math.min(totalTies(g) / games, 0.999);
    start[g.k] = Math.log(Math.max((2 * share) / (1 - share), 1e-6));
  }
  return start;
}

/** Fits the model; `beta` raw, plus whether Davidson fell back to ν = 0. */
export function fitGames(g: Games, s: Settings, warm?: Float64Array): Solved & { davidson: boolean } {
  // Davidson's ν̂ is 0 on data without a tie (a boundary ln ν cannot reach): fit Bradley–Terry there.
  const davidson = s.model === 'davidson' && totalTies(g) > 0;
  if (s.prior === 0) {
    if (!connected(g)) {
      throw new StrengthsUndefinedError(
        'no finite strengths: some group of candidates never beats (or never loses to) the others; use a prior > 0',
      );
    }
    if (davidson) {
      let decisive = 0;
      for (let p = 0; p < g.pi.length; p++) decisive += (g.counts[3 * p] as number) + (g.counts[3 * p + 1] as number);
      if (decisive === 0) throw new StrengthsUndefinedError('no finite ν: every game is a tie; use a prior > 0');
    }
  }
  const start = warm && warm.length === (davidson ? g.k + 1 : g.k) ? warm : startOf(g, davidson, s.prior);
  const solve = s.solver === 'newton' ? newton : mm;
  return { ...solve(g, davidson, s.prior, start, s.tolerance, s.maxIterations), davidson };
}

/** θ from a raw β: shifted to Σθ = 0, or so that candidate `reference` is 0. */
export function centred(beta: Float64Array, k: number, reference: number | null): number[] {
  const theta = Array.from(beta.subarray(0, k));
  const shift = reference === null ? theta.reduce((a, b) => a + b, 0) / k : (theta[reference] as number);
  return theta.map((t) => t - shift);
}

/**
 * Fits strengths to pairwise counts.
 * @param k number of candidates (indices 0…k−1).
 * @throws StrengthsUndefinedError with `prior: 0` when the MLE does not exist; RangeError on bad counts.
 */
export function fitStrengths(k: number, pairs: readonly PairCounts[], options: FitOptions = {}): StrengthFit {
  return fitWith(toGames(k, pairs), settingsOf(options)).fit;
}

/** The fit of flat games with its raw β (the ranking warm-starts its resamples from it). */
export function fitWith(g: Games, s: Settings): { fit: StrengthFit; beta: Float64Array } {
  const solved = fitGames(g, s);
  const k = g.k;
  const fit: StrengthFit = {
    model: s.model,
    solver: s.solver,
    strengths: centred(solved.beta, k, null),
    nu: s.model === 'davidson' ? (solved.davidson ? Math.exp(solved.beta[k] as number) : 0) : null,
    prior: s.prior,
    logLikelihood: evaluate(g, solved.davidson, 0, withMeanZero(solved.beta, k), false).value,
    iterations: solved.iterations,
    converged: solved.converged,
  };
  return { fit, beta: solved.beta };
}

/** β with θ shifted to sum 0 (so the no-prior objective's ½(Σθ)² term adds nothing). */
function withMeanZero(beta: Float64Array, k: number): Float64Array {
  const out = Float64Array.from(beta);
  const theta = centred(beta, k, null);
  theta.forEach((t, i) => (out[i] = t));
  return out;
}

/** P(i beats j) under Bradley–Terry for log strengths θᵢ, θⱼ (ties as half: the expected half-tie score). */
export function winProbability(thetaI: number, thetaJ: number): number {
  return 1 / (1 + Math.exp(thetaJ - thetaI));
}
