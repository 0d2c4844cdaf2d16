import { describe, expect, it } from 'vitest';
import type { PairCounts } from '../../src/metrics/bradley-terry.js';
import {
  fitStrengths,
  StrengthsUndefinedError,
  stronglyConnected,
  winProbability,
} from '../../src/metrics/bradley-terry.js';
import { createRng } from '../../src/metrics/bootstrap.js';

const ln2 = Math.log(2);
const ln4 = Math.log(4);
const solvers = ['newton', 'mm'] as const;

/**
 * Three candidates with counts exactly proportional to Bradley–Terry probabilities for π = (4, 2, 1):
 * A–B 2:1 (4/6), B–C 2:1 (2/3), A–C 4:1 (4/5). By hand, the likelihood equations Wᵢ = Σⱼ nᵢⱼ πᵢ/(πᵢ + πⱼ)
 * hold at π = (4, 2, 1): A 6 = 3·4/6 + 5·4/5 = 2 + 4; B 3 = 3·2/6 + 3·2/3 = 1 + 2; C 2 = 3·1/3 + 5·1/5.
 * The graph is strongly connected, so the MLE is unique: θ = ln(4, 2, 1) − ln 2 = (ln 2, 0, −ln 2).
 */
const handCase: PairCounts[] = [
  { i: 0, j: 1, winsI: 2, winsJ: 1, ties: 0 },
  { i: 1, j: 2, winsI: 2, winsJ: 1, ties: 0 },
  { i: 0, j: 2, winsI: 4, winsJ: 1, ties: 0 },
];

/**
 * Davidson with π = (4, 1, ¼) and ν = 1: A–B probabilities 4 : 1 : ν√4 = 4 : 1 : 2; B–C 1 : ¼ : ½ = 4 : 1 : 2;
 * A–C 4 : ¼ : 1 = 16 : 1 : 4. Counts proportional to the probabilities make the score equations (observed =
 * expected) hold exactly at the truth: θ = (ln 4, 0, −ln 4), ν = 1.
 */
const davidsonCase: PairCounts[] = [
  { i: 0, j: 1, winsI: 4, winsJ: 1, ties: 2 },
  { i: 1, j: 2, winsI: 4, winsJ: 1, ties: 2 },
  { i: 0, j: 2, winsI: 16, winsJ: 1, ties: 4 },
];

function expectClose(actual: readonly number[], expected: readonly number[], digits: number) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((x, i) => {
    expect(x).toBeCloseTo(expected[i]!, digits);
  });
}

describe('Bradley–Terry on a case solved by hand', () => {
  for (const solver of solvers) {
    it(`${solver}: θ = (ln 2, 0, −ln 2), converged`, () => {
      const fit = fitStrengths(3, handCase, { prior: 0, solver });
      expect(fit.converged).toBe(true);
      expect(fit.model).toBe('bradley-terry');
      expect(fit.nu).toBeNull();
      expectClose(fit.strengths, [ln2, 0, -ln2], 9);
    });
  }

  it('reports the log-likelihood of the data: 2·(2 ln ⅔ + ln ⅓) + 4 ln ⅘ + ln ⅕', () => {
    const expected = 2 * (2 * Math.log(2 / 3) + Math.log(1 / 3)) + 4 * Math.log(0.8) + Math.log(0.2);
    expect(fitStrengths(3, handCase, { prior: 0 }).logLikelihood).toBeCloseTo(expected, 10);
  });

  it('counts a tie as half a win for each side: A–B 1 win + 2 ties : 0 is the 2 : 1 of the hand case', () => {
    const withTies = [{ i: 0, j: 1, winsI: 1, winsJ: 0, ties: 2 }, ...handCase.slice(1)];
    expectClose(fitStrengths(3, withTies, { prior: 0 }).strengths, [ln2, 0, -ln2], 9);
  });

  it('the fitted win probabilities reproduce the data: P(A beats C) = 4/5', () => {
    const [a, , c] = fitStrengths(3, handCase, { prior: 0 }).strengths;
    expect(winProbability(a!, c!)).toBeCloseTo(0.8, 10);
  });
});

describe('Davidson ties', () => {
  for (const solver of solvers) {
    it(`${solver}: θ = (ln 4, 0, −ln 4) and ν = 1 on the hand case`, () => {
      const fit = fitStrengths(3, davidsonCase, { prior: 0, solver, model: 'davidson' });
      expect(fit.converged).toBe(true);
      expectClose(fit.strengths, [ln4, 0, -ln4], 8);
      expect(fit.nu).toBeCloseTo(1, 8);
    });
  }

  it('two candidates, closed form: π_A/π_B = w/l and ν = t/√(wl) (the model is saturated)', () => {
    // w = 3, l = 2, t = 5: θ_A − θ_B = ln 1.5, ν = 5/√6.
    for (const solver of solvers) {
      const fit = fitStrengths(2, [{ i: 0, j: 1, winsI: 3, winsJ: 2, ties: 5 }], {
        prior: 0,
        solver,
        model: 'davidson',
      });
      expect(fit.strengths[0]! - fit.strengths[1]!).toBeCloseTo(Math.log(1.5), 8);
      expect(fit.nu).toBeCloseTo(5 / Math.sqrt(6), 8);
    }
  });

  it('without a tie in the data ν̂ = 0 and the fit is Bradley–Terry', () => {
    const fit = fitStrengths(3, handCase, { prior: 0, model: 'davidson' });
    expect(fit.nu).toBe(0);
    expectClose(fit.strengths, [ln2, 0, -ln2], 9);
  });
});

/** Random counts for k candidates, every pair played. */
function randomCounts(k: number, seed: number, ties: boolean): PairCounts[] {
  const random = createRng(seed);
  const out: PairCounts[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = i + 1; j < k; j++) {
      out.push({
        i,
        j,
        winsI: Math.floor(random() * 20),
        winsJ: Math.floor(random() * 20),
        ties: ties ? Math.floor(random() * 8) : 0,
      });
    }
  }
  return out;
}

describe('MM and Newton agree', () => {
  for (const model of ['bradley-terry', 'davidson'] as const) {
    for (const prior of [0, 1]) {
      it(`${model}, prior ${prior}: 20 random 5-candidate data sets to 1e-7`, () => {
        for (let seed = 1; seed <= 20; seed++) {
          const counts = randomCounts(5, seed, true);
          if (prior === 0 && !stronglyConnected(5, counts)) continue;
          const newton = fitStrengths(5, counts, { prior, model, solver: 'newton' });
          const mm = fitStrengths(5, counts, { prior, model, solver: 'mm' });
          expect(newton.converged && mm.converged).toBe(true);
          expectClose(mm.strengths, newton.strengths, 7);
          if (model === 'davidson') expect(mm.nu!).toBeCloseTo(newton.nu!, 7);
          expect(mm.logLikelihood).toBeCloseTo(newton.logLikelihood, 8);
        }
      });
    }
  }
});

describe('candidates that never win or never lose', () => {
  const sweep: PairCounts[] = [
    { i: 0, j: 1, winsI: 5, winsJ: 3, ties: 0 },
    { i: 0, j: 2, winsI: 4, winsJ: 0, ties: 0 },
    { i: 1, j: 2, winsI: 6, winsJ: 0, ties: 0 },
  ];

  it('without a prior: no finite MLE, said with a typed error', () => {
    expect(stronglyConnected(3, sweep)).toBe(false);
    expect(() => fitStrengths(3, sweep, { prior: 0 })).toThrow(StrengthsUndefinedError);
  });

  it('with the default prior: finite, the loser lowest, and the score equations hold (Wᵢ + a = Σⱼ nᵢⱼpᵢⱼ + 2a·σ(θᵢ))', () => {
    const fit = fitStrengths(3, sweep);
    expect(fit.prior).toBe(1);
    expect(fit.strengths.every(Number.isFinite)).toBe(true);
    expect(fit.strengths[2]).toBeLessThan(fit.strengths[1]!);
    // The prior anchors θ (not only differences), so check the equations on the uncentred scale: shift
    // until candidate 0's equation holds, then the others must hold too.
    const wins = [9, 9, 0];
    const equation = (theta: number[], i: number) =>
      wins[i]! +
      1 -
      sweep.reduce((s, p) => {
        const n = p.winsI + p.winsJ + p.ties;
        if (p.i === i) return s + n * winProbability(theta[i]!, theta[p.j]!);
        if (p.j === i) return s + n * winProbability(theta[i]!, theta[p.i]!);
        return s;
      }, 0) -
      2 / (1 + Math.exp(-theta[i]!));
    // Σ of the three equations is 3·(1) + 18 − 18 − 2Σσ(θᵢ): solve the common shift c by bisection.
    let lo = -10;
    let hi = 10;
    for (let it = 0; it < 200; it++) {
      const mid = (lo + hi) / 2;
      const total = [0, 1, 2].reduce(
        (s, i) =>
          s +
          equation(
            fit.strengths.map((t) => t + mid),
            i,
          ),
        0,
      );
      if (total > 0) lo = mid;
      else hi = mid;
    }
    const theta = fit.strengths.map((t) => t + lo);
    for (const i of [0, 1, 2]) expect(Math.abs(equation(theta, i))).toBeLessThan(1e-8);
  });

  it('a prior of 1 on a large comparison moves strengths by far less than their spread', () => {
    const big = handCase.map((p) => ({ ...p, winsI: p.winsI * 200, winsJ: p.winsJ * 200 }));
    const shrunk = fitStrengths(3, big).strengths;
    expectClose(shrunk, [ln2, 0, -ln2], 2);
  });
});
