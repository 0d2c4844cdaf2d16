/**
 * @module
 * Where an item stands from its labels, and the one label it then carries. Pure, so the rules are tested
 * apart from D1:
 * - an adjudicator's label settles the item (`adjudicated`), whatever the annotators said;
 * - judge labels never count (they are what the labels are compared with);
 * - with fewer annotators' labels than `labelsPerItem`, the item is `pending`;
 * - pairwise: the winner more than half the labels give (`unanimous` when all do), else `needs_adjudication`;
 * - pointwise, for the score and for each aspect: the value more than half the labels give, else the mean
 *   when the values lie within one point of each other (`mean`), else `needs_adjudication`.
 */
import type { ItemStatus, Label, Resolution } from './schemas.js';

/** One label as the rules read it. */
export interface CountedLabel {
  role: 'annotator' | 'adjudicator';
  provenance: 'human' | 'judge' | 'imported';
  label: Label;
}

/** Where an item stands, with its label once it has one. */
export interface Consensus {
  status: ItemStatus;
  resolution: Resolution | null;
  label: Label | null;
}

/** Widest spread of pointwise values that is still averaged rather than adjudicated: 1 point. */
export const MEAN_SPREAD = 1;

type Agreed<T> = { value: T; how: 'unanimous' | 'majority' | 'mean' } | null;

/** The value more than half of `values` share, or null. */
function majority<T>(values: readonly T[]): Agreed<T> {
  const counts = new Map<T, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const [value, n] of counts)
    if (n * 2 > values.length) return { value, how: n === values.length ? 'unanimous' : 'majority' };
  return null;
}

/** A majority score, else the mean of scores within {@link MEAN_SPREAD}, else null. */
function agreedScore(values: readonly number[]): Agreed<number> {
  const m = majority(values);
  if (m) return m;
  const spread = Math.max(...values) - Math.min(...values);
  return spread <= MEAN_SPREAD ? { value: values.reduce((a, b) => a + b, 0) / values.length, how: 'mean' } : null;
}

const RANK: Record<'unanimous' | 'majority' | 'mean', number> = { unanimous: 0, majority: 1, mean: 2 };

/**
 * Where an item stands given all its labels and how many annotators' labels it waits for.
 * @param labelsPerItem annotators' labels wanted, ≥ 1.
 */
export function consensusOf(labels: readonly CountedLabel[], labelsPerItem: number): Consensus {
  const adjudicator = labels.find((l) => l.role === 'adjudicator');
  if (adjudicator) return { status: 'adjudicated', resolution: 'adjudicated', label: adjudicator.label };
  const counted = labels.filter((l) => l.role === 'annotator' && l.provenance !== 'judge').map((l) => l.label);
  if (counted.length === 0 || counted.length < labelsPerItem)
    return { status: 'pending', resolution: null, label: null };
  const disagree: Consensus = { status: 'needs_adjudication', resolution: null, label: null };
  const parts: Agreed<unknown>[] = [];
  const label: Label = {};
  const winners = counted.flatMap((l) => (l.winner === undefined ? [] : [l.winner]));
  if (winners.length > 0) {
    const w = majority(winners);
    if (!w) return disagree;
    label.winner = w.value;
    parts.push(w);
  }
  const scores = counted.flatMap((l) => (l.score === undefined ? [] : [l.score]));
  if (scores.length > 0) {
    const s = agreedScore(scores);
    if (!s) return disagree;
    label.score = s.value;
    parts.push(s);
  }
  const names = [...new Set(counted.flatMap((l) => Object.keys(l.aspects ?? {})))].sort();
  if (names.length > 0) label.aspects = {};
  for (const name of names) {
    const a = agreedScore(counted.flatMap((l) => (l.aspects?.[name] === undefined ? [] : [l.aspects[name]])));
    if (!a) return disagree;
    label.aspects = { ...label.aspects, [name]: a.value };
    parts.push(a);
  }
  // The weakest agreement among the parts names how the label was reached.
  const how = parts.reduce<'unanimous' | 'majority' | 'mean'>(
    (worst, p) => (p && RANK[p.how] > RANK[worst] ? p.how : worst),
    'unanimous',
  );
  return { status: 'labelled', resolution: counted.length === 1 ? 'single' : how, label };
}

/** The label as one value the agreement maths take: the winner, else the score, else null (aspects only). */
export function humanValue(label: Label): 'A' | 'B' | 'tie' | number | null {
  return label.winner ?? label.score ?? null;
}
