/**
 * @module
 * The CI gate: is the candidate better than the baseline, by how much, with what confidence?
 *
 * The candidate's win rate over the baseline (ties as half) gets a two-sided Wilson interval at the gate's
 * `confidence` (`intervals.ts`):
 * - `passed` when the interval's lower bound is above `minWinRate`;
 * - `failed` when its upper bound is below `minWinRate`;
 * - `inconclusive` otherwise, with `moreItems`, the items that would likely decide it.
 *
 * If the true win rate equals `minWinRate`, the gate passes wrongly with probability at most about
 * (1 − confidence)/2 (one tail of the two-sided interval).
 *
 * **Sample-size projection** (`moreItems`), at the observed win rate p̂, for threshold m, z = Φ⁻¹((1 + c)/2)
 * and z_β = Φ⁻¹(power), power 0.8 by default:
 *
 *   N = max(⌈(z + z_β)² p̂(1 − p̂) / (p̂ − m)²⌉, N_W)
 *
 * the items at which a future interval excludes m with probability `power` if the true rate is p̂ (normal
 * approximation), and at least N_W, the items at which the Wilson interval around p̂ itself excludes m (the
 * bound that holds at p̂ = 0 or 1, where the first term is 0). `moreItems` = ⌈(N − n) / s⌉ for n decided
 * items and s the share of this pair's items that came back with a verdict (so failures are budgeted for);
 * null when p̂ = m, when nothing was decided, or past 10⁹ items.
 *
 * Runtime-neutral: no platform imports.
 */
import { z } from 'zod';
import { MAX_SAMPLE_SIZE, normalQuantile, wilsonInterval, wilsonSampleSize, zFor } from './intervals.js';
import type { PairResult } from './pairs.js';
import { IntervalSchema } from './pairs.js';

/** A gate: candidate versus baseline, the win rate to clear and the confidence to clear it with. */
export const GateSchema = z
  .object({
    candidate: z.string().min(1),
    baseline: z.string().min(1),
    /** Win rate of the candidate over the baseline (ties as half) to clear, in (0, 1); default 0.5. */
    minWinRate: z.number().gt(0).lt(1).default(0.5),
    /** Two-sided confidence level of the interval, in [0.5, 1); default 0.95. */
    confidence: z.number().min(0.5).lt(1).default(0.95),
  })
  .strict()
  .refine((g) => g.candidate !== g.baseline, { message: 'baseline must differ from candidate', path: ['baseline'] });
/** A gate as given (defaults optional). */
export type GateInput = z.input<typeof GateSchema>;
/** A gate with its defaults filled in. */
export type Gate = z.infer<typeof GateSchema>;

/** `passed`, `failed` or `inconclusive`. */
export const GateOutcomeSchema = z.enum(['passed', 'failed', 'inconclusive']);
/** See {@link GateOutcomeSchema}. */
export type GateOutcome = z.infer<typeof GateOutcomeSchema>;

/** What the gate decided and the figures behind it. */
export const GateResultSchema = z
  .object({
    candidate: z.string(),
    baseline: z.string(),
    minWinRate: z.number(),
    confidence: z.number(),
    outcome: GateOutcomeSchema,
    /** Candidate over baseline, ties as half, 0-1; null when no item has a verdict. */
    winRate: z.number().min(0).max(1).nullable(),
    /** Wilson interval of `winRate` at `confidence`; [0, 1] when no item has a verdict. */
    interval: IntervalSchema,
    /** Items with a verdict on this pair, and how they went for the candidate. */
    n: z.number().int().nonnegative(),
    wins: z.number().int().nonnegative(),
    ties: z.number().int().nonnegative(),
    losses: z.number().int().nonnegative(),
    /** Items of this pair without a verdict. */
    missing: z.number().int().nonnegative(),
    /**
     * Inconclusive only: more items that would likely decide it (see the module note); null when decided, with no
     * verdict, and when no number would (a win rate exactly at `minWinRate`, or past 10⁹ items).
     */
    moreItems: z.number().int().positive().nullable(),
    /** One line a CI log can print. */
    summary: z.string(),
  })
  .strict();
/** See {@link GateResultSchema}. */
export type GateResult = z.infer<typeof GateResultSchema>;

/** Options of {@link evaluateGate}. */
export interface GateOptions {
  /** Chance the projected items decide it if the true rate is the observed one; default 0.8. */
  power?: number;
}

/**
 * Decides a gate from the comparison's pair tallies (either orientation of the pair).
 * A pair never judged is `inconclusive` with n = 0.
 */
export function evaluateGate(
  gateInput: GateInput,
  pairs: readonly PairResult[],
  options: GateOptions = {},
): GateResult {
  const gate = GateSchema.parse(gateInput);
  const { candidate, baseline, minWinRate, confidence } = gate;
  const direct = pairs.find((p) => p.a === candidate && p.b === baseline);
  const reversed = pairs.find((p) => p.a === baseline && p.b === candidate);
  const tally = direct
    ? { wins: direct.wins, ties: direct.ties, losses: direct.losses, missing: direct.missing }
    : reversed
      ? { wins: reversed.losses, ties: reversed.ties, losses: reversed.wins, missing: reversed.missing }
      : { wins: 0, ties: 0, losses: 0, missing: 0 };
  const n = tally.wins + tally.ties + tally.losses;
  const score = tally.wins + tally.ties / 2;
  const winRate = n === 0 ? null : score / n;
  const interval = wilsonInterval(score, n, confidence);
  const outcome: GateOutcome =
    interval[0] > minWinRate ? 'passed' : interval[1] < minWinRate ? 'failed' : 'inconclusive';
  const moreItems =
    outcome === 'inconclusive' && winRate !== null
      ? projectMoreItems(winRate, n, n + tally.missing, minWinRate, confidence, options.power ?? 0.8)
      : null;
  const result = { ...gate, outcome, winRate, interval, n, ...tally, moreItems };
  return { ...result, summary: gateSummary(result) };
}

/**
 * More items to likely decide an inconclusive gate (see the module note); null when none would.
 * @param attempted items of the pair submitted so far (with or without a verdict).
 */
export function projectMoreItems(
  winRate: number,
  decided: number,
  attempted: number,
  minWinRate: number,
  confidence: number,
  power = 0.8,
): number | null {
  if (decided === 0 || winRate === minWinRate) return null;
  const z = zFor(confidence);
  const zPower = normalQuantile(power);
  const gap = winRate - minWinRate;
  const powered = Math.ceil(((z + zPower) ** 2 * winRate * (1 - winRate)) / (gap * gap));
  const wilson = wilsonSampleSize(winRate, minWinRate, confidence);
  if (wilson === null) return null;
  const total = Math.max(powered, wilson);
  if (total > MAX_SAMPLE_SIZE) return null;
  const verdictShare = decided / attempted;
  return Math.max(1, Math.ceil((total - decided) / verdictShare));
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const thousands = (x: number) => String(x).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * One line for a CI log, e.g.
 * `gate passed: v2 beats v1 62.0% of the time (95% CI 55.1%–68.4%), above the 50.0% bar; 200 items: 118 wins, 12 ties, 70 losses`.
 */
export function gateSummary(r: Omit<GateResult, 'summary'>): string {
  const level = `${+(r.confidence * 100).toFixed(2)}% CI`;
  const bar = pct(r.minWinRate);
  const counts = `${r.n} item${r.n === 1 ? '' : 's'}: ${r.wins} wins, ${r.ties} ties, ${r.losses} losses${r.missing > 0 ? `, ${r.missing} without a verdict` : ''}`;
  if (r.winRate === null) {
    return `gate inconclusive: no verdict yet on ${r.candidate} vs ${r.baseline}${r.missing > 0 ? ` (${r.missing} without a verdict)` : ''}`;
  }
  const rate = `${r.candidate} beats ${r.baseline} ${pct(r.winRate)} of the time (${level} ${pct(r.interval[0])}–${pct(r.interval[1])})`;
  if (r.outcome === 'passed') return `gate passed: ${rate}, above the ${bar} bar; ${counts}`;
  if (r.outcome === 'failed') return `gate failed: ${rate}, below the ${bar} bar; ${counts}`;
  const more =
    r.moreItems === null
      ? 'no number of items is likely to decide it at this rate'
      : `about ${thousands(r.moreItems)} more items would likely decide it`;
  return `gate inconclusive: ${rate}, which spans the ${bar} bar; ${counts}; ${more}`;
}
