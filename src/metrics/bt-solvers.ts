/**
 * @module
 * The two solvers of `bradley-terry.ts`, on games in flat arrays.
 *
 * - Newton–Raphson on (θ, ln ν) with the exact Hessian of the multinomial-logit log-likelihood and step
 *   halving, so the objective never decreases.
 * - MM: Hunter's (2004) πᵢ ← Wᵢ / Σⱼ nᵢⱼ/(πᵢ + πⱼ). For Davidson the same minorisation
 *   (−ln D ≥ −ln D₀ − (D − D₀)/D₀, and √(πᵢπⱼ) ≤ ½(πᵢ√(πⱼ⁰/πᵢ⁰) + πⱼ√(πᵢ⁰/πⱼ⁰))) gives
 *   πᵢ ← (Wᵢ + Tᵢ/2) / Σⱼ nᵢⱼ(1 + ½ν√(πⱼ/πᵢ))/Dᵢⱼ, and ν ← T / Σ nᵢⱼ√(πᵢπⱼ)/Dᵢⱼ: Davidson's own
 *   iteration, the two steps alternated, each an ascent step.
 *
 * The prior's virtual games (a wins and a losses against θ = 0 per candidate) are records like any other.
 *
 * Runtime-neutral: no imports at all.
 */

/** Games in flat arrays: pair p is (pi[p], pj[p]) with counts[3p..3p+2] = wins of i, wins of j, ties. */
export interface Games {
  k: number;
  pi: Int32Array;
  pj: Int32Array;
  counts: Float64Array;
}

/** A solver's answer. */
export interface Solved {
  /** θ₀…θₖ₋₁ as fitted (anchored by the prior, or summing to 0), then ln ν for Davidson. */
  beta: Float64Array;
  iterations: number;
  converged: boolean;
}

const softplus = (x: number) => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));

/** Total ties in the games. */
export function totalTies(g: Games): number {
  let t = 0;
  for (let p = 0; p < g.pi.length; p++) t += g.counts[3 * p + 2] as number;
  return t;
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
export function evaluate(
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

/** Newton–Raphson with step halving from `start`; converged when no parameter moves by `tol` or more. */
export function newton(
  g: Games,
  davidson: boolean,
  prior: number,
  start: Float64Array,
  tol: number,
  maxIt: number,
): Solved {
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

/** MM (Hunter 2004; Davidson's iteration for ties) from `start`; converged when no parameter moves by `tol` or more. */
export function mm(
  g: Games,
  davidson: boolean,
  prior: number,
  start: Float64Array,
  tol: number,
  maxIt: number,
): Solved {
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
