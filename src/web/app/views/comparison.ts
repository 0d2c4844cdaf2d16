/**
 * @module
 * `#/comparisons/{id}`: a comparison (candidates judged pair by pair): the gate's outcome in words, the
 * leaderboard (Bradley–Terry strengths with their interval bars), the win matrix as a heat map (each cell
 * says its rate in text too), the judge's flip and tie rates, and the items where the candidates disagree
 * most, each pair linked to its evaluation (its debate). Polled while it runs.
 *
 * "Disagree most": an item's pair verdicts that contradict the ranking (the lower-ranked candidate won)
 * plus those whose two presentation orders disagreed (a flip), most first; the first 200 items are read.
 */
import { request, getJson } from '../api.js';
import type { EstimateRow } from '../charts.js';
import { estimateTable } from '../charts.js';
import { ago, breadcrumb, card, facts, idCode, page, pageHead, progressBar, statusPill } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatInt, formatPct, formatUsd, shortId } from '../format.js';
import type { Comparison, ComparisonResultLine } from '../types.js';
import type { View, ViewContext } from '../view.js';
import { setTitle, sleep } from '../view.js';

/** How often a running comparison is read again, ms. */
const POLL_MS = 2000;

type ItemLine = Extract<ComparisonResultLine, { kind: 'item' }>;

function gateCard(c: Comparison): HTMLElement | null {
  const g = c.gate;
  if (!g) return null;
  const words =
    g.outcome === 'passed'
      ? `Passed: ${g.candidate} beats ${g.baseline} often enough.`
      : g.outcome === 'failed'
        ? `Failed: ${g.candidate} does not beat ${g.baseline} often enough.`
        : `Inconclusive: the items so far cannot tell whether ${g.candidate} beats ${g.baseline} often enough.`;
  return card(
    'CI gate',
    h('p', { class: `gate gate-${g.outcome}` }, h('strong', null, words)),
    h('p', null, g.summary),
    c.basis === 'final'
      ? null
      : h('p', { class: 'muted small' }, 'Live: the outcome may change until every evaluation ended.'),
  );
}

function leaderboard(c: Comparison): HTMLElement {
  const bounds = c.ranking.flatMap((r) => (r.interval ? [r.interval[0], r.interval[1]] : [r.strength]));
  const lo = Math.floor(Math.min(-1, ...bounds));
  const hi = Math.ceil(Math.max(1, ...bounds));
  const rows: EstimateRow[] = c.ranking.map((r) => ({
    label: `${r.rank}. ${r.candidate}`,
    value: r.strength,
    ci: r.interval ? { lo: r.interval[0], hi: r.interval[1] } : null,
    note: `rank ${r.rank}`,
  }));
  return card(
    'Leaderboard',
    estimateTable('Bradley–Terry strength (log scale, 0 = average)', rows, [lo, hi], c.strengths.bootstrap.level),
    h(
      'p',
      { class: 'muted small' },
      'Candidates whose intervals overlap share a rank. Strength differences are log-odds: +1 wins about 73% of the time against 0.',
    ),
  );
}

/** A cell's class: the win rate in 5 steps each side of 50%, blue (won) to orange (lost); the text says the rate. */
function heat(rate: number | null): string {
  if (rate === null) return 'num heat-cell';
  const step = Math.min(5, Math.round(Math.abs(rate - 0.5) * 10));
  return `num heat-cell ${rate >= 0.5 ? 'heat-w' : 'heat-l'}${step}`;
}

function matrixCard(c: Comparison): HTMLElement {
  const names = c.matrix.candidates;
  return card(
    'Win matrix',
    h(
      'div',
      { class: 'table-wrap table-scroll' },
      h(
        'table',
        { class: 'table heatmap' },
        h('caption', null, 'Row candidate against column candidate: share won (ties as half)'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('td', null),
            names.map((n) => h('th', { scope: 'col' }, n)),
          ),
        ),
        h(
          'tbody',
          null,
          names.map((row, r) =>
            h(
              'tr',
              null,
              h('th', { scope: 'row' }, row),
              names.map((_, col) => {
                const rate = c.matrix.winRate[r]?.[col] ?? null;
                return h('td', { class: heat(rate) }, rate === null ? '—' : formatPct(rate));
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

/** Items ordered by how much their verdicts contradict the ranking or flip, most first (none: left out). */
function disagreements(c: Comparison, lines: readonly ItemLine[]): { line: ItemLine; score: number }[] {
  const rank = new Map(c.ranking.map((r, i) => [r.candidate, i]));
  return lines
    .map((line) => ({
      line,
      score: line.pairs.reduce((n, p) => {
        const better = (rank.get(p.a) ?? 0) <= (rank.get(p.b) ?? 0) ? p.a : p.b;
        const upset = p.winner !== null && p.winner !== 'tie' && p.winner !== better ? 1 : 0;
        return n + upset + (p.flip === true ? 1 : 0);
      }, 0),
    }))
    .filter((x) => x.score > 0)
    .sort((x, y) => y.score - x.score || x.line.index - y.line.index)
    .slice(0, 10);
}

function disagreementCard(c: Comparison, lines: readonly ItemLine[]): HTMLElement {
  const top = disagreements(c, lines);
  return card(
    'Where the candidates disagree most',
    top.length === 0
      ? h('p', { class: 'muted' }, 'No item contradicts the ranking or flips with the presentation order.')
      : h(
          'div',
          { class: 'table-wrap table-scroll' },
          h(
            'table',
            { class: 'table disagreements' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Item', 'Upsets + flips', 'Pairs (winner; open a debate)'].map((t) => h('th', { scope: 'col' }, t)),
              ),
            ),
            h(
              'tbody',
              null,
              top.map(({ line, score }) =>
                h(
                  'tr',
                  null,
                  h('th', { scope: 'row' }, line.itemId),
                  h('td', { class: 'num' }, String(score)),
                  h(
                    'td',
                    null,
                    h(
                      'ul',
                      { class: 'plain' },
                      line.pairs.map((p) =>
                        h(
                          'li',
                          null,
                          `${p.a} vs ${p.b}: ${p.winner ?? 'no verdict'}${p.flip ? ' (orders disagree)' : ''} `,
                          p.evaluations.map((e) =>
                            h('a', { href: `#/evaluations/${encodeURIComponent(e.id)}` }, `${e.order} debate`),
                          ),
                        ),
                      ),
                    ),
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}

function render(ctx: ViewContext, c: Comparison, lines: readonly ItemLine[]): void {
  const k = c.counts;
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'stack',
        breadcrumb([['Comparisons', '#/comparisons']], shortId(c.id)),
        h('div', { class: 'title-row' }, h('h1', null, `Comparison: ${c.candidates.join(', ')}`), statusPill(c.status)),
        facts(
          [
            ['Id', idCode(c.id)],
            ['Judge', c.preset ?? c.method],
            ['Design', c.design === 'all-pairs' ? 'all pairs' : `against ${c.design.baseline}`],
            ['Created', ago(c.createdAt)],
            ['Items', formatInt(c.items)],
            ['Cost', `${formatUsd(c.usage.costUsd)} · ${formatInt(c.usage.calls)} calls`],
          ],
          'facts facts-inline',
        ),
      ),
      c.basis === 'final' ? null : card('Progress', progressBar(k.ended, k.total, 'Evaluations ended')),
      gateCard(c),
      leaderboard(c),
      matrixCard(c),
      card(
        'The judge',
        facts([
          ['Pair verdicts', formatInt(c.judge.decided)],
          ['Ties', formatPct(c.judge.tieRate)],
          ['Orders disagree (flips)', `${formatPct(c.judge.flipRate)} of ${formatInt(c.judge.flipsMeasured)}`],
          ['Without a verdict', formatPct(c.judge.missingRate)],
        ]),
      ),
      disagreementCard(c, lines),
    ),
  );
}

async function itemLines(id: string, signal: AbortSignal): Promise<ItemLine[]> {
  const r = await request(`/v1/comparisons/${encodeURIComponent(id)}/results?limit=200`, {
    headers: { Accept: 'application/x-ndjson' },
    signal,
  });
  return (await r.text())
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ComparisonResultLine)
    .flatMap((l) => (l.kind === 'item' ? [l] : []));
}

/** The comparison page. */
export const comparisonView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/comparisons/${encodeURIComponent(id)}`;
  let c = await getJson<Comparison>(path, ctx.signal);
  setTitle(`Comparison ${shortId(id)}`);
  render(ctx, c, await itemLines(id, ctx.signal));
  void (async () => {
    while (c.basis !== 'final') {
      await sleep(POLL_MS, ctx.signal);
      c = await getJson<Comparison>(path, ctx.signal);
      render(ctx, c, await itemLines(id, ctx.signal));
    }
  })().catch((e: unknown) => {
    if (!ctx.signal.aborted) ctx.fail(e);
  });
};
