/**
 * @module
 * Where each evaluation of a comparison sits, and what its verdict says about its pair. Pure.
 *
 * A comparison of `n` items judges `pairs` pairs of candidates on every item, each with `orders`
 * evaluations (1 when the judge runs both presentation orders itself, 2 when it runs one: AB, then BA).
 * An item's evaluations are consecutive in the batch, so an item's outcomes are complete as soon as its
 * last evaluation ended, and a page of results is a range of positions:
 *
 *   batch_seq = item × width + pair × orders + order,   width = pairs × orders.
 *
 * Pairs are (i, j) candidate indices with i < j, in the order `all-pairs` lists them (0-1, 0-2, …, 1-2, …)
 * or, against a baseline, in the order of the other candidates. Order 0 (`AB`) shows candidate i as answer
 * A; order 1 (`BA`) shows candidate j as answer A, and its verdict is mapped back.
 */
import type { Winner } from '../engine/verdict.js';
import { combineOrderWinners } from '../metrics/pairs.js';
import type { PairOutcome } from '../metrics/pairs.js';
import type { Design } from './schemas.js';

/** The shape of a comparison's evaluations. */
export interface Layout {
  candidates: readonly string[];
  /** Candidate indices (i < j) of each pair, in position order. */
  pairs: readonly (readonly [number, number])[];
  /** Evaluations per pair and item: 1 (both orders inside each) or 2 (AB, then BA). */
  orders: 1 | 2;
}

/** The pairs a design judges, as candidate indices (i < j). */
export function pairsOf(candidates: readonly string[], design: Design): [number, number][] {
  const out: [number, number][] = [];
  if (design === 'all-pairs') {
    for (let i = 0; i < candidates.length; i++) for (let j = i + 1; j < candidates.length; j++) out.push([i, j]);
    return out;
  }
  const b = candidates.indexOf(design.baseline);
  candidates.forEach((_, c) => {
    if (c !== b) out.push(c < b ? [c, b] : [b, c]);
  });
  return out;
}

/** Evaluations per item. */
export function widthOf(layout: Layout): number {
  return layout.pairs.length * layout.orders;
}

/** One evaluation slot of an item: its offset in the item, the pair, the order and who is shown as A and B. */
export interface Slot {
  /** Offset in the item: pair × orders + order. */
  offset: number;
  pair: number;
  order: 'AB' | 'BA';
  /** The pair's candidates (a listed first). */
  a: string;
  b: string;
  /** Candidate indices shown as answer A and answer B. */
  shownA: number;
  shownB: number;
}

/** Every slot of an item, in position order. */
export function slotsOf(layout: Layout): Slot[] {
  return layout.pairs.flatMap(([i, j], pair) =>
    (layout.orders === 1 ? (['AB'] as const) : (['AB', 'BA'] as const)).map((order, o) => ({
      offset: pair * layout.orders + o,
      pair,
      order,
      a: layout.candidates[i] as string,
      b: layout.candidates[j] as string,
      shownA: order === 'AB' ? i : j,
      shownB: order === 'AB' ? j : i,
    })),
  );
}

/** Where position `seq` is: its item, pair and order. */
export function positionOf(layout: Layout, seq: number): { item: number; pair: number; order: 0 | 1 } {
  const width = widthOf(layout);
  const offset = seq % width;
  return {
    item: Math.floor(seq / width),
    pair: Math.floor(offset / layout.orders),
    order: (offset % layout.orders) as 0 | 1,
  };
}

/** A verdict of an order shown BA, in the pair's own a/b terms. */
export function mapBack(w: Winner | null): Winner | null {
  return w === 'A' ? 'B' : w === 'B' ? 'A' : w;
}

/** What one evaluation of a pair came to: its winner in its own A/B terms (null: none) and its flip. */
export interface EvaluationOutcome {
  winner: Winner | null;
  flip: boolean | null;
}

/**
 * One item's verdict on one pair from its evaluations (one per order, in order): with both orders inside
 * the evaluation, its winner and flip; with one order each, the two combined by agree-or-tie (the BA
 * verdict mapped back first).
 */
export function pairOutcome(layout: Layout, evaluations: readonly EvaluationOutcome[]): EvaluationOutcome {
  if (layout.orders === 1) return evaluations[0] ?? { winner: null, flip: null };
  return combineOrderWinners(evaluations[0]?.winner ?? null, mapBack(evaluations[1]?.winner ?? null));
}

/** A pair outcome as the metrics take it, for item `item`. */
export function toPairOutcome(layout: Layout, item: number, pair: number, o: EvaluationOutcome): PairOutcome {
  const [i, j] = layout.pairs[pair] ?? [0, 1];
  return {
    item: String(item),
    a: layout.candidates[i] as string,
    b: layout.candidates[j] as string,
    winner: o.winner,
    flip: o.flip,
  };
}

/** The winner of a pair outcome as a candidate name (or `tie`), or null. */
export function winnerName(layout: Layout, pair: number, w: Winner | null): string | null {
  const [i, j] = layout.pairs[pair] ?? [0, 1];
  if (w === null) return null;
  return w === 'tie' ? 'tie' : (layout.candidates[w === 'A' ? i : j] ?? null);
}
