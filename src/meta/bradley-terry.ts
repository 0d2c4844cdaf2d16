/**
 * @module
 * Bradley–Terry strengths by maximum likelihood, with Davidson's tie model as an option, two solvers and
 * item-bootstrap intervals.
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
 * **Solvers.** `newton`: Newton–Raphson on (θ, ln ν) with the exact Hessian of the multinomial-logit
 * log-likelihood and step halving (the log-likelihood never decreases). `mm`: Hunter's (2004) MM
 * algorithm πᵢ ← Wᵢ / Σⱼ nᵢⱼ/(πᵢ + πⱼ); for Davidson the same minorisation (−ln D ≥ −ln D₀ − (D − D₀)/D₀,
 * and √(πᵢπⱼ) ≤ ½(πᵢ√(πⱼ⁰/πᵢ⁰) + πⱼ√(πᵢ⁰/πⱼ⁰))) gives πᵢ ← (Wᵢ + Tᵢ/2) / Σⱼ nᵢⱼ(1 + ½ν√(πⱼ/πᵢ))/Dᵢⱼ
 * and ν ← T / Σ nᵢⱼ√(πᵢπⱼ)/Dᵢⱼ, Davidson's own iteration, alternated. The two must agree (tested).
 *
 * **Intervals.** Percentile bootstrap resampling items (an item carries all its pairwise outcomes, so
 * the correlation between an item's games is kept), seeded with the PRNG of `bootstrap.ts`; each resample is
 * refitted by Newton from the full fit. **Ranks** follow the Chatbot Arena convention: rank = 1 + the number
 * of candidates whose interval lies entirely above this one's, so candidates whose intervals overlap can
 * share a rank, and a rank never claims a separation the intervals do not show.
 *
 * Runtime-neutral: no platform imports.
 */
import { z } from 'zod';
import type { BootstrapOptions } from './bootstrap.js';
import { createRng, DEFAULT_BOOTSTRAP, quantile } from './bootstrap.js';

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

/** Games in flat arrays: pair p is (pi[p], pj[p]) with counts[3p..3p+2] = wins of i, wins of j, ties. */
interface Games {
  k: number;
  pi: Int32Array;
  pj: Int32Array;
  counts: Float64Array;
}

interface Solved {
  /** θ₀…θₖ₋₁ as fitted (anchored by the prior, or summing to 0), then ln ν for Davidson. */
  beta: Float64Array;
  iterations: number;
  converged: boolean;
}

const softplus = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));

/** Total ties in the games. */
function totalTies(g: Games): number {
  let t = 0;
  for (let p = 0; p < g.pi.length; p++) t += g.counts[3 * p + 2] as number;
  return t;
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

function toGames(k: number, pairs: readonly PairCounts[]): Games {
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
// Newton–Raphson

/** Objective value, gradient and Hessian (row-major m × m) at some β. */
interface Evaluation {
  value: number;
  grad: Float64Array;
  hess: Float64Array;
}

/**
 * Objective (log-likelihood + prior, minus ½(Σθ)² without a prior), its gradient and Hessian in β.
 * Each game record is a multinomial logit with linear predictors η = (θᵢ, θⱼ, ln ν + ½(θᵢ + θⱼ)) (Davidson)
 * or (θᵢ, θⱼ) with half-ties (Bradley–Terry): gradient Jᵀ(y − np), Hessian −n Jᵀ(diag p − ppᵀ)J, written
 * out below per entry. Scalar code, no allocation per record: the bootstrap calls this thousands of times.
 */
function evaluate(
  g: Games,
  davidson: boolean,
  prior: number,
  beta: Float64Array,
  wantDerivatives: boolean,
): Evaluation {
  const k = g.k;
  const m = davidson ? k + 1 : k;
  const grad = new Float64Array(wantDerivatives ? m : 0);
  const hess = new Float64Array(wantDerivatives ? m * m : 0);
  const lnNu = davidson ? (beta[k] as number) : 0;
  const L = k; // index of ln ν
  let value = 0;
  const addH = (u: number, v: number, x: number) => {
    hess[u * m + v] = (hess[u * m + v] as number) + x;
  };
  const addG = (u: number, x: number) => {
    grad[u] = (grad[u] as number) + x;
  };
  // One record: candidates i and j (j = -1: the prior's virtual opponent at θ = 0).
  const record = (i: number, j: number, a: number, b: number, t: number) => {
    const ti = beta[i] as number;
    const tj = j >= 0 ? (beta[j] as number) : 0;
    if (!davidson) {
      const yi = a + t / 2;
      const yj = b + t / 2;
      const n = yi + yj;
      if (n === 0) return;
      const d = tj - ti;
      value -= yi * softplus(d) + yj * softplus(-d);
      if (!wantDerivatives) return;
      const p = 1 / (1 + Math.exp(d));
      const r = yi - n * p;
      const w = n * p * (1 - p);
      addG(i, r);
      addH(i, i, -w);
      if (j >= 0) {
        addG(j, -r);
        addH(j, j, -w);
        addH(i, j, w);
        addH(j, i, w);
      }
      return;
    }
    const n = a + b + t;
    if (n === 0) return;
    const et = lnNu + (ti + tj) / 2;
    const top = Math.max(ti, tj, et);
    const e0 = Math.exp(ti - top);
    const e1 = Math.exp(tj - top);
    const e2 = Math.exp(et - top);
    const sum = e0 + e1 + e2;
    const logSum = top + Math.log(sum);
    if (a > 0) value += a * (ti - logSum);
    if (b > 0) value += b * (tj - logSum);
    if (t > 0) value += t * (et - logSum);
    if (!wantDerivatives) return;
    const [p0, p1, p2] = [e0 / sum, e1 / sum, e2 / sum];
    const [r0, r1, r2] = [a - n * p0, b - n * p1, t - n * p2];
    // Columns of J per parameter: θᵢ (1, 0, ½), θⱼ (0, 1, ½), ln ν (0, 0, 1) over (i wins, j wins, tie).
    // H_uv = −n(Σ_c J_cu J_cv p_c − m_u m_v) with m_u = Σ_c J_cu p_c.
    const mi = p0 + p2 / 2;
    const mj = p1 + p2 / 2;
    addG(i, r0 + r2 / 2);
    addG(L, r2);
    addH(i, i, -n * (p0 + p2 / 4 - mi * mi));
    addH(L, L, -n * (p2 - p2 * p2));
    const hiL = -n * (p2 / 2 - mi * p2);
    addH(i, L, hiL);
    addH(L, i, hiL);
    if (j >= 0) {
      addG(j, r1 + r2 / 2);
      addH(j, j, -n * (p1 + p2 / 4 - mj * mj));
      const hij = -n * (p2 / 4 - mi * mj);
      addH(i, j, hij);
      addH(j, i, hij);
      const hjL = -n * (p2 / 2 - mj * p2);
      addH(j, L, hjL);
      addH(L, j, hjL);
    }
  };
  for (let p = 0; p < g.pi.length; p++) {
    record(
      g.pi[p] as number,
      g.pj[p] as number,
      g.counts[3 * p] as number,
      g.counts[3 * p + 1] as number,
      g.counts[3 * p + 2] as number,
    );
  }
  if (prior > 0) for (let i = 0; i < k; i++) record(i, -1, prior, prior, 0);
  else {
    // Without a prior the likelihood is flat along θ + c: ½(Σθ)² pins Σθ = 0 and leaves the optimum alone.
    let s = 0;
    for (let i = 0; i < k; i++) s += beta[i] as number;
    value -= (s * s) / 2;
    if (wantDerivatives) {
      for (let i = 0; i < k; i++) {
        addG(i, -s);
        for (let j = 0; j < k; j++) addH(i, j, -1);
      }
    }
  }
  return { value, grad, hess };
}

/** Solves A x = b for a small row-major m × m matrix A (copied) by Gaussian elimination with partial pivoting; null when singular. */
function solveLinear(A: Float64Array, b: Float64Array): Float64Array | null {
  const m = b.length;
  const w = m + 1;
  // Augmented rows [A | b], row-major.
  const M = new Float64Array(m * w);
  for (let r = 0; r < m; r++) {
    M.set(A.subarray(r * m, r * m + m), r * w);
    M[r * w + m] = b[r] as number;
  }
  const at = (r: number, c: number) => M[r * w + c] as number;
  for (let col = 0; col < m; col++) {
    let best = col;
    for (let r = col + 1; r < m; r++) if (Math.abs(at(r, col)) > Math.abs(at(best, col))) best = r;
    const pivot = at(best, col);
    if (Math.abs(pivot) < 1e-300) return null;
    if (best !== col) {
      for (let c = 0; c < w; c++) {
        const x = at(col, c);
        M[col * w + c] = at(best, c);
        M[best * w + c] = x;
      }
    }
    for (let r = col + 1; r < m; r++) {
      const f = at(r, col) / pivot;
      if (f === 0) continue;
      for (let c = col; c < w; c++) M[r * w + c] = at(r, c) - f * at(col, c);
    }
  }
  const x = new Float64Array(m);
  for (let r = m - 1; r >= 0; r--) {
    let s = at(r, m);
    for (let c = r + 1; c < m; c++) s -= at(r, c) * (x[c] as number);
    x[r] = s / at(r, r);
  }
  return x;
}

function newton(g: Games, davidson: boolean, prior: number, start: Float64Array, tol: number, maxIt: number): Solved {
  const beta = Float64Array.from(start);
  const m = beta.length;
  let current = evaluate(g, davidson, prior, beta, true);
  for (let it = 1; it <= maxIt; it++) {
    const step = solveLinear(
      current.hess.map((x) => -x),
      current.grad,
    );
    if (!step) return { beta, iterations: it, converged: false };
    let t = 1;
    const trial = new Float64Array(m);
    let next = current;
    for (let halvings = 0; halvings < 60; halvings++) {
      for (let u = 0; u < m; u++) trial[u] = (beta[u] as number) + t * (step[u] as number);
      next = evaluate(g, davidson, prior, trial, true);
      // Accept any step that does not lower the objective (beyond rounding); else halve it.
      if (next.value >= current.value - 1e-12 * Math.max(1, Math.abs(current.value))) break;
      t /= 2;
    }
    let change = 0;
    for (let u = 0; u < m; u++) change = Math.max(change, Math.abs(t * (step[u] as number)));
    beta.set(trial);
    current = next;
    if (change < tol) return { beta, iterations: it, converged: true };
  }
  return { beta, iterations: maxIt, converged: false };
}

// ---------------------------------------------------------------------------------------------
// MM (Hunter 2004; Davidson's iteration for ties)

function mm(g: Games, davidson: boolean, prior: number, start: Float64Array, tol: number, maxIt: number): Solved {
  const k = g.k;
  const pi = Array.from({ length: k }, (_, i) => Math.exp(start[i] as number));
  let nu = davidson ? Math.exp(start[k] as number) : 0;
  // Numerators: half-ties for Bradley–Terry; for Davidson Wᵢ + Tᵢ/2 too (the tie term's √πᵢ).
  const num = new Float64Array(k).fill(prior);
  let ties = 0;
  for (let p = 0; p < g.pi.length; p++) {
    const [a, b, t] = [g.counts[3 * p], g.counts[3 * p + 1], g.counts[3 * p + 2]] as [number, number, number];
    const i = g.pi[p] as number;
    const j = g.pj[p] as number;
    num[i] = (num[i] as number) + a + t / 2;
    num[j] = (num[j] as number) + b + t / 2;
    ties += t;
  }
  const denominators = (): Float64Array => {
    const den = new Float64Array(k);
    for (let p = 0; p < g.pi.length; p++) {
      const n = (g.counts[3 * p] as number) + (g.counts[3 * p + 1] as number) + (g.counts[3 * p + 2] as number);
      if (n === 0) continue;
      const i = g.pi[p] as number;
      const j = g.pj[p] as number;
      const [x, y] = [pi[i] as number, pi[j] as number];
      const D = x + y + nu * Math.sqrt(x * y);
      den[i] = (den[i] as number) + (n * (1 + (nu / 2) * Math.sqrt(y / x))) / D;
      den[j] = (den[j] as number) + (n * (1 + (nu / 2) * Math.sqrt(x / y))) / D;
    }
    if (prior > 0) {
      for (let i = 0; i < k; i++) {
        const x = pi[i] as number;
        const D = x + 1 + nu * Math.sqrt(x);
        den[i] = (den[i] as number) + (2 * prior * (1 + nu / 2 / Math.sqrt(x))) / D;
      }
    }
    return den;
  };
  for (let it = 1; it <= maxIt; it++) {
    const den = denominators();
    const next = pi.map((_, i) => (num[i] as number) / (den[i] as number));
    if (prior === 0) {
      // Without a prior only ratios matter: keep the geometric mean at 1.
      const logMean = next.reduce((s, x) => s + Math.log(x), 0) / k;
      for (let i = 0; i < k; i++) next[i] = (next[i] as number) / Math.exp(logMean);
    }
    let change = 0;
    for (let i = 0; i < k; i++) change = Math.max(change, Math.abs(Math.log((next[i] as number) / (pi[i] as number))));
    for (let i = 0; i < k; i++) pi[i] = next[i] as number;
    if (davidson) {
      let s = 0;
      for (let p = 0; p < g.pi.length; p++) {
        const n = (g.counts[3 * p] as number) + (g.counts[3 * p + 1] as number) + (g.counts[3 * p + 2] as number);
        const [x, y] = [pi[g.pi[p] as number] as number, pi[g.pj[p] as number] as number];
        s += (n * Math.sqrt(x * y)) / (x + y + nu * Math.sqrt(x * y));
      }
      if (prior > 0) for (const x of pi) s += (2 * prior * Math.sqrt(x)) / (x + 1 + nu * Math.sqrt(x));
      const nextNu = ties / s;
      change = Math.max(change, Math.abs(Math.log(nextNu / nu)));
      nu = nextNu;
    }
    if (change < tol) return { beta: betaOf(pi, davidson ? nu : null), iterations: it, converged: true };
  }
  return { beta: betaOf(pi, davidson ? nu : null), iterations: maxIt, converged: false };
}

function betaOf(pi: readonly number[], nu: number | null): Float64Array {
  const out = new Float64Array(pi.length + (nu === null ? 0 : 1));
  pi.forEach((x, i) => (out[i] = Math.log(x)));
  if (nu !== null) out[pi.length] = Math.log(nu);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fitting

interface Settings {
  model: StrengthModel;
  solver: Solver;
  prior: number;
  tolerance: number;
  maxIterations: number;
}

function settingsOf(options: FitOptions): Settings {
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
function fitGames(g: Games, s: Settings, warm?: Float64Array): Solved & { davidson: boolean } {
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

function centred(beta: Float64Array, k: number, reference: number | null): number[] {
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

function fitWith(g: Games, s: Settings): { fit: StrengthFit; beta: Float64Array } {
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

// ---------------------------------------------------------------------------------------------
// Tournaments: item-level data, bootstrap intervals and the ranking

/** Result of one judged comparison of pair (i, j): 0 = i won, 1 = j won, 2 = tie. */
export type GameResult = 0 | 1 | 2;

/** Item-level data: which pairs were played and each item's outcomes (an item carries all of them). */
export interface Tournament {
  candidates: readonly string[];
  /** Candidate indices of each pair. */
  pairs: readonly { i: number; j: number }[];
  /** Per item, its outcomes: the pair's index in `pairs` and the result. */
  items: readonly (readonly { pair: number; result: GameResult }[])[];
}

/** One row of the ranking, best first. */
export const RankingEntrySchema = z
  .object({
    candidate: z.string(),
    /** 1 + the number of candidates whose interval lies entirely above this one's (ties share a rank). */
    rank: z.number().int().positive(),
    /** θ, natural log, Σθ = 0 (or 0 for the reference candidate). */
    strength: z.number(),
    /** Percentile bootstrap interval of θ at the bootstrap level; null only with `prior: 0` when no resample had finite strengths. */
    interval: z.tuple([z.number(), z.number()]).nullable(),
  })
  .strict();
/** See {@link RankingEntrySchema}. */
export type RankingEntry = z.infer<typeof RankingEntrySchema>;

/** Ranking settings: the fit's, a reference candidate and the bootstrap's. */
export interface RankingOptions extends FitOptions {
  /** Index of a candidate pinned at θ = 0 (its interval is [0, 0]); default none (Σθ = 0). */
  reference?: number | null;
  /** Resamples (default 1000), seed (default 0), level (default 0.95). */
  bootstrap?: BootstrapOptions;
}

/** A ranking with its fit and what the bootstrap did. */
export interface Ranking {
  fit: StrengthFit;
  ranking: RankingEntry[];
  bootstrap: {
    resamples: number;
    seed: number;
    level: number;
    /** Resamples without finite strengths (only with `prior: 0`), left out. */ dropped: number;
  };
}

/** Pair counts over the given items (all items when `indices` is omitted). */
export function countsOf(t: Tournament, indices?: readonly number[]): PairCounts[] {
  const counts = t.pairs.map(({ i, j }) => ({ i, j, winsI: 0, winsJ: 0, ties: 0 }));
  const add = (item: readonly { pair: number; result: GameResult }[] | undefined) => {
    for (const o of item ?? []) {
      const c = counts[o.pair];
      if (!c) throw new RangeError(`outcome names pair ${o.pair}, which is not in the tournament`);
      if (o.result === 0) c.winsI++;
      else if (o.result === 1) c.winsJ++;
      else c.ties++;
    }
  };
  if (indices) for (const u of indices) add(t.items[u]);
  else for (const item of t.items) add(item);
  return counts;
}

/**
 * Strengths, bootstrap intervals (resampling items) and the ranking. Every resample is fitted by Newton
 * from the full fit's estimate, whatever `solver` the full fit used.
 */
export function rankCandidates(t: Tournament, options: RankingOptions = {}): Ranking {
  const s = settingsOf(options);
  const k = t.candidates.length;
  const reference = options.reference ?? null;
  if (reference !== null && !(Number.isInteger(reference) && reference >= 0 && reference < k)) {
    throw new RangeError(`reference must be a candidate index in [0, ${k}), got ${reference}`);
  }
  const { resamples, seed, level } = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  const g = toGames(k, countsOf(t));
  const full = fitWith(g, s);
  const strengths = centred(full.beta, k, reference);

  // Items as flat codes 3·pair + result, so a resample only adds counts.
  const offsets = new Int32Array(t.items.length + 1);
  const codes: number[] = [];
  for (const [u, item] of t.items.entries()) {
    for (const o of item) codes.push(3 * o.pair + o.result);
    offsets[u + 1] = codes.length;
  }

  const draws: number[][] = Array.from({ length: k }, () => []);
  let dropped = 0;
  const random = createRng(seed);
  const n = t.items.length;
  const resampled: Games = { k, pi: g.pi, pj: g.pj, counts: new Float64Array(g.counts.length) };
  const newtonSettings: Settings = { ...s, solver: 'newton', maxIterations: 200 };
  for (let r = 0; r < resamples && n > 0; r++) {
    resampled.counts.fill(0);
    for (let d = 0; d < n; d++) {
      const u = Math.floor(random() * n);
      for (let x = offsets[u] as number; x < (offsets[u + 1] as number); x++) {
        const c = codes[x] as number;
        resampled.counts[c] = (resampled.counts[c] as number) + 1;
      }
    }
    let solved: Solved;
    try {
      solved = fitGames(resampled, newtonSettings, full.beta);
    } catch (e) {
      if (e instanceof StrengthsUndefinedError) {
        dropped++;
        continue;
      }
      throw e;
    }
    if (!solved.converged) {
      dropped++;
      continue;
    }
    centred(solved.beta, k, reference).forEach((x, i) => {
      draws[i]?.push(x);
    });
  }
  const intervals = draws.map((xs): [number, number] | null => {
    if (xs.length === 0) return null;
    xs.sort((a, b) => a - b);
    return [quantile(xs, (1 - level) / 2), quantile(xs, (1 + level) / 2)];
  });
  const order = t.candidates
    .map((_, i) => i)
    .sort((a, b) => (strengths[b] as number) - (strengths[a] as number) || compare(t.candidates[a], t.candidates[b]));
  const ranking = order.map((i) => {
    const mine = intervals[i] ?? null;
    const above = mine ? intervals.filter((other, j) => j !== i && other !== null && other[0] > mine[1]).length : 0;
    return { candidate: t.candidates[i] as string, rank: 1 + above, strength: strengths[i] as number, interval: mine };
  });
  return { fit: full.fit, ranking, bootstrap: { resamples, seed, level, dropped } };
}

function compare(a: string | undefined, b: string | undefined): number {
  return (a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0;
}

/** P(i beats j) under Bradley–Terry for log strengths θᵢ, θⱼ (ties as half: the expected half-tie score). */
export function winProbability(thetaI: number, thetaJ: number): number {
  return 1 / (1 + Math.exp(thetaJ - thetaI));
}
