/**
 * @module
 * Closed-form intervals for a proportion: the normal quantile (Wichura's AS241), the Wilson score interval
 * and the sample size at which a Wilson interval would exclude a threshold. Used by the comparison's pair win
 * rates, the CI gate and the reliability report.
 *
 * Why Wilson and not a bootstrap for a win rate: it is closed-form (no RNG, no resamples), and it behaves at
 * the edges, where a percentile bootstrap collapses to [0, 0] or [1, 1] (every resample of an all-win pair
 * is all wins). It is the interval Agresti & Coull (1998) and Brown, Cai & DasGupta (2001) recommend for
 * small n. With ties counted as half a win the per-item score is 0, ½ or 1; its variance is at most
 * p(1 − p) (since s² ≤ s on [0, 1]), so Wilson on the half-tie rate is conservative when there are ties.
 *
 * Runtime-neutral: no platform imports.
 */

/**
 * The standard normal quantile Φ⁻¹(p), by Wichura's AS241 (PPND16, relative error about 1e-16).
 * @param p probability in (0, 1); 0 and 1 give ∓Infinity.
 * @throws RangeError outside [0, 1].
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile: p must be in [0, 1], got ${p}`);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    const num =
      (((((((2509.0809287301227 * r + 33430.57558358813) * r + 67265.7709270087) * r + 45921.95393154987) * r +
        13731.69376550946) *
        r +
        1971.5909503065513) *
        r +
        133.14166789178438) *
        r +
        3.3871328727963665) *
      q;
    const den =
      ((((((5226.495278852854 * r + 28729.085735721943) * r + 39307.89580009271) * r + 21213.794301586597) * r +
        5394.196021424751) *
        r +
        687.1870074920579) *
        r +
        42.31333070160091) *
        r +
      1;
    return num / den;
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let x: number;
  if (r <= 5) {
    r -= 1.6;
    const num =
      ((((((0.0007745450142783414 * r + 0.022723844989269184) * r + 0.2417807251774506) * r + 1.2704582524523684) * r +
        3.6478483247632045) *
        r +
        5.769497221460691) *
        r +
        4.630337846156546) *
        r +
      1.4234371107496835;
    const den =
      ((((((1.0507500716444169e-9 * r + 0.0005475938084995345) * r + 0.015198666563616457) * r + 0.14810397642748008) *
        r +
        0.6897673349851) *
        r +
        1.6763848301838038) *
        r +
        2.053191626637759) *
        r +
      1;
    x = num / den;
  } else {
    r -= 5;
    const num =
      ((((((2.0103343992922881e-7 * r + 2.7115555687434876e-5) * r + 0.0012426609473880784) * r +
        0.026532189526576124) *
        r +
        0.29656057182850487) *
        r +
        1.7848265399172913) *
        r +
        5.463784911164114) *
        r +
      6.657904643501103;
    const den =
      ((((((2.0442631033899397e-15 * r + 1.421511758316446e-7) * r + 1.8463183175100548e-5) * r +
        0.0007868691311456133) *
        r +
        0.014875361290850615) *
        r +
        0.1369298809227358) *
        r +
        0.599832206555888) *
        r +
      1;
    x = num / den;
  }
  return q < 0 ? -x : x;
}

/**
 * The two-sided z for a confidence level: Φ⁻¹((1 + level) / 2), e.g. 1.95996 for 0.95, 0.67449 for 0.5.
 * @param level confidence level in (0, 1).
 */
export function zFor(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`confidence level must be in (0, 1), got ${level}`);
  return normalQuantile((1 + level) / 2);
}

/**
 * Wilson score interval for a proportion, two-sided at `level`:
 * centre (p̂ + z²/2n) / (1 + z²/n), half-width z/(1 + z²/n) · √(p̂(1 − p̂)/n + z²/4n²), with p̂ = successes / n.
 * `successes` may be fractional (wins + ½ ties). `[0, 1]` when n = 0 (nothing is known).
 * @param successes 0 ≤ successes ≤ n.
 * @param n number of trials (items).
 * @param level confidence level in (0, 1); default 0.95.
 * @returns `[lo, hi]`, clamped to [0, 1].
 */
export function wilsonInterval(successes: number, n: number, level = 0.95): [number, number] {
  if (n < 0 || successes < 0 || successes > n + 1e-9) {
    throw new RangeError(`wilsonInterval: need 0 ≤ successes ≤ n, got ${successes} of ${n}`);
  }
  if (n === 0) return [0, 1];
  const z = zFor(level);
  return wilsonAt(successes / n, n, z);
}

function wilsonAt(p: number, n: number, z: number): [number, number] {
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  // At p = 0 and p = 1 the bound is exactly 0 or 1; rounding would leave a 1e-17 there.
  // The bounds hold p̂ itself, whatever the rounding.
  return [p === 0 ? 0 : Math.max(0, Math.min(p, centre - half)), p === 1 ? 1 : Math.min(1, Math.max(p, centre + half))];
}

/** Largest n {@link wilsonSampleSize} searches; beyond it the answer is `null` (no practical decision). */
export const MAX_SAMPLE_SIZE = 1e9;

/**
 * The smallest number of trials N at which the Wilson interval at `level`, with the proportion held at
 * `p`, would lie entirely above `threshold` (p > threshold) or entirely below it (p < threshold):
 * the sample-size projection "how many items would likely decide it". The Wald approximation of the same
 * condition is N ≈ z² p(1 − p) / (p − threshold)²; the search uses Wilson itself so that the projection
 * and the gate agree. `null` when p = threshold (no N decides at that rate) or N > {@link MAX_SAMPLE_SIZE}.
 * @param p observed proportion in [0, 1].
 * @param threshold in (0, 1).
 * @param level confidence level in (0, 1); default 0.95.
 */
export function wilsonSampleSize(p: number, threshold: number, level = 0.95): number | null {
  if (p === threshold) return null;
  const z = zFor(level);
  const decides = (n: number) => {
    const [lo, hi] = wilsonAt(p, n, z);
    return p > threshold ? lo > threshold : hi < threshold;
  };
  // The Wilson bound moves towards p as n grows: find a deciding n by doubling, then the first by bisection.
  let hi = 1;
  while (!decides(hi)) {
    hi *= 2;
    if (hi > MAX_SAMPLE_SIZE) return null;
  }
  let lo = Math.floor(hi / 2);
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (decides(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
