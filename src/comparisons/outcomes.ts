/**
 * @module
 * A comparison's outcomes read from D1 and turned into statistics: per item and pair from the evaluations
 * (the final statistics, and a running comparison's up to {@link LIVE_ITEM_LEVEL_MAX} evaluations), or from
 * verdict counts per pair (a larger running comparison), so a read stays bounded.
 */
import type { Gate } from '../metrics/gate.js';
import type { PairOutcome } from '../metrics/pairs.js';
import type { EvaluationOutcome, Layout } from './layout.js';
import { mapBack, pairOutcome, toPairOutcome, widthOf } from './layout.js';
import type { OutcomeRow } from './rows.js';
import { outcomesIn, winnerCounts } from './rows.js';
import type { StatisticsOptions } from './schemas.js';
import type { ComparisonStatistics } from './answer-schemas.js';
import type { PairTally } from './statistics.js';
import { LIVE_ITEM_LEVEL_MAX, statisticsFromCounts, statisticsOf } from './statistics.js';

/** Bootstrap resamples of a running comparison's intervals (the final ones use the request's, default 1,000). */
export const LIVE_RESAMPLES = 200;

/** Evaluations read per query when every outcome is needed. */
const READ_PAGE = 20_000;

const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** An ended evaluation's outcome in its own A/B terms (null winner: none). */
export function evaluationOutcome(r: OutcomeRow): EvaluationOutcome {
  return { winner: r.winner, flip: r.position_flip === null ? null : r.position_flip !== 0 };
}

/** One item's evaluations grouped by pair: each pair's outcome once every evaluation of it ended, else null. */
export function itemPairOutcomes(
  layout: Layout,
  rows: readonly OutcomeRow[],
  item: number,
): (EvaluationOutcome | null)[] {
  const width = widthOf(layout);
  return layout.pairs.map((_, pair) => {
    const evals: OutcomeRow[] = [];
    for (let o = 0; o < layout.orders; o++) {
      const r = rows.find((x) => x.batch_seq === item * width + pair * layout.orders + o);
      if (!r || !ENDED.has(r.status)) return null;
      evals.push(r);
    }
    return pairOutcome(layout, evals.map(evaluationOutcome));
  });
}

/** Every pair outcome of rows covering whole items, ended pairs only. */
function pairOutcomesOf(layout: Layout, rows: readonly OutcomeRow[]): PairOutcome[] {
  const width = widthOf(layout);
  const byItem = new Map<number, OutcomeRow[]>();
  for (const r of rows) {
    const item = Math.floor(r.batch_seq / width);
    const list = byItem.get(item);
    if (list) list.push(r);
    else byItem.set(item, [r]);
  }
  const out: PairOutcome[] = [];
  for (const [item, list] of byItem) {
    itemPairOutcomes(layout, list, item).forEach((o, pair) => {
      if (o) out.push(toPairOutcome(layout, item, pair, o));
    });
  }
  return out;
}

/** Every pair outcome of the comparison, read a page of whole items at a time. */
export async function allPairOutcomes(
  db: D1Database,
  id: string,
  layout: Layout,
  items: number,
): Promise<PairOutcome[]> {
  const width = widthOf(layout);
  const step = Math.max(1, Math.floor(READ_PAGE / width)) * width;
  const out: PairOutcome[] = [];
  for (let from = 0; from < items * width; from += step) {
    out.push(...pairOutcomesOf(layout, await outcomesIn(db, id, from, from + step)));
  }
  return out;
}

/** The final statistics: every item's outcomes. */
export async function finalStatistics(
  db: D1Database,
  id: string,
  layout: Layout,
  items: number,
  options: StatisticsOptions,
  gate: Gate | null,
): Promise<ComparisonStatistics> {
  return statisticsOf(layout, await allPairOutcomes(db, id, layout, items), options, gate, 'final');
}

/** A running comparison's statistics: from items up to {@link LIVE_ITEM_LEVEL_MAX} evaluations, else from counts. */
export async function liveStatistics(
  db: D1Database,
  id: string,
  layout: Layout,
  items: number,
  options: StatisticsOptions,
  gate: Gate | null,
): Promise<ComparisonStatistics> {
  const width = widthOf(layout);
  if (items * width <= LIVE_ITEM_LEVEL_MAX) {
    // Fewer resamples while it runs: a poll's CPU stays small next to the evaluations it shares the isolate with.
    const live = { ...options, resamples: Math.min(options.resamples, LIVE_RESAMPLES) };
    return statisticsOf(layout, await allPairOutcomes(db, id, layout, items), live, gate, 'live');
  }
  // Counted per evaluation: with one order per evaluation each order counts as a verdict of its own.
  const tallies: PairTally[] = layout.pairs.map((_, pair) => ({
    pair,
    wins: 0,
    ties: 0,
    losses: 0,
    missing: 0,
    flipsMeasured: 0,
    flips: 0,
  }));
  for (const c of await winnerCounts(db, id, width)) {
    const pair = Math.floor(c.offset / layout.orders);
    const t = tallies[pair];
    if (!t) continue;
    const winner = c.offset % layout.orders === 1 ? mapBack(c.winner as 'A' | 'B' | 'tie' | null) : c.winner;
    if (winner === 'A') t.wins += c.n;
    else if (winner === 'B') t.losses += c.n;
    else if (winner === 'tie') t.ties += c.n;
    else t.missing += c.n;
    if (c.flip !== null) {
      t.flipsMeasured += c.n;
      if (c.flip !== 0) t.flips += c.n;
    }
  }
  return statisticsFromCounts(layout, tallies, options, gate);
}
