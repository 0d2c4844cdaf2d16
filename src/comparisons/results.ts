/**
 * @module
 * `GET /v1/comparisons/{id}/results`: NDJSON pages of items in request order, each pair with its verdict
 * (a candidate's name, `tie` or null), flip and evaluations, how the item went for the gate, and on the
 * last page a closing `summary` line (the gate, the ranking and the summary string as of now).
 */
import type { Bindings } from '../config/bindings.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { invalidRequest } from '../http/errors.js';
import type { EvaluationStatus } from '../evaluations/status.js';
import { z } from 'zod';
import type { Layout } from './layout.js';
import { slotsOf, widthOf, winnerName } from './layout.js';
import { itemPairOutcomes } from './outcomes.js';
import type { OutcomeRow } from './rows.js';
import { outcomesIn } from './rows.js';
import type { ComparisonResultLine } from './answer-schemas.js';
import type { ComparisonRef } from './service.js';
import { statisticsNow, storedLayout } from './service.js';
import { tenantDb } from '../config/d1-shards.js';

const CursorSchema = z.object({ c: z.string(), i: z.number().int().min(0) }).strict();

type ItemLine = Extract<ComparisonResultLine, { kind: 'item' }>;

/** How item `item` went for the gate's candidate against its baseline. */
function gateOf(layout: Layout, line: ItemLine['pairs'], gate: { candidate: string; baseline: string } | null) {
  if (!gate) return null;
  const p = line.find(
    (x) => (x.a === gate.candidate && x.b === gate.baseline) || (x.a === gate.baseline && x.b === gate.candidate),
  );
  if (!p || p.winner === null) return null;
  return p.winner === 'tie' ? 'tie' : p.winner === gate.candidate ? 'win' : 'loss';
}

/** The line of item `item` from its evaluations' rows. */
export function itemLine(
  layout: Layout,
  item: number,
  rows: readonly OutcomeRow[],
  gate: { candidate: string; baseline: string } | null,
  certified = false,
): ItemLine {
  const width = widthOf(layout);
  const outcomes = itemPairOutcomes(layout, rows, item);
  const slots = slotsOf(layout);
  const pairs: ItemLine['pairs'] = layout.pairs.map(([i, j], pair) => {
    const o = outcomes[pair];
    return {
      a: layout.candidates[i] as string,
      b: layout.candidates[j] as string,
      winner: o ? winnerName(layout, pair, o.winner) : null,
      flip: o ? o.flip : null,
      evaluations: slots
        .filter((s) => s.pair === pair)
        .flatMap((s) => {
          const r = rows.find((x) => x.batch_seq === item * width + s.offset);
          if (!r) return [];
          return [
            {
              id: r.id,
              order: s.order,
              status: r.status as EvaluationStatus,
              winner: r.winner,
              error: r.error_code !== null ? { code: r.error_code, message: r.error_message ?? '' } : null,
              // A certified pairwise verdict always names a winner: an abstention has none, an error no verdict.
              certified: certified ? r.status === 'succeeded' && r.winner !== null : null,
            },
          ];
        }),
    };
  });
  const itemId = rows.find((r) => r.item_id !== null)?.item_id ?? String(item);
  return { kind: 'item', index: item, itemId, pairs, gate: gateOf(layout, pairs, gate) };
}

/**
 * One page of results: NDJSON text and the next page's cursor (null on the last, which ends with the
 * summary line). @throws ApiError 400 naming `cursor` for a cursor of another comparison or none this API made.
 */
export async function comparisonResults(
  env: Bindings,
  ref: ComparisonRef,
  cursor: string | undefined,
  limit: number,
): Promise<{ ndjson: string; next: string | null }> {
  const c = ref.comparison;
  const position = cursor === undefined ? { c: c.id, i: 0 } : decodeCursor(cursor, CursorSchema);
  if (position.c !== c.id)
    throw invalidRequest([{ path: 'cursor', message: 'belongs to another comparison' }], 'query');
  const layout = storedLayout(c);
  const width = widthOf(layout);
  const end = Math.min(c.itemsTotal, position.i + limit);
  const rows = await outcomesIn(tenantDb(env, c.tenant), c.id, position.i * width, end * width);
  const lines: ComparisonResultLine[] = [];
  for (let item = position.i; item < end; item++) {
    const mine = rows.filter((r) => Math.floor(r.batch_seq / width) === item);
    lines.push(itemLine(layout, item, mine, c.gate, ref.batch.certify !== null));
  }
  const last = end >= c.itemsTotal;
  if (last) {
    const s = await statisticsNow(env, ref);
    lines.push({
      kind: 'summary',
      status: ref.batch.status,
      basis: s.basis,
      gate: s.gate,
      ranking: s.ranking,
      summary: s.summary,
    });
  }
  return {
    ndjson: lines.map((l) => `${JSON.stringify(l)}\n`).join(''),
    next: last ? null : encodeCursor({ c: c.id, i: end }),
  };
}
