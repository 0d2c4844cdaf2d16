/**
 * @module
 * `#/meta/{id}`: a meta-evaluation (a labelled batch judged against human labels): progress while its
 * items run (polled), then the agreement report with its charts, and every item with a link to its
 * evaluation page.
 */
import { getJson } from '../api.js';
import type { ScatterPoint } from '../charts.js';
import { scatterPlot } from '../charts.js';
import {
  ago,
  breadcrumb,
  card,
  facts,
  idCode,
  page,
  pageHead,
  progressBar,
  statusPill,
  winnerChip,
} from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatInt, formatScore, shortId } from '../format.js';
import type { MetaEvaluation, ReliabilityReport } from '../types.js';
import type { EstimateRow } from '../charts.js';
import { estimateTable } from '../charts.js';
import type { View, ViewContext } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { aspectAgreementCard, itemAspectLines } from './meta-aspects.js';
import { reportSections } from './report-view.js';

/** How often a running meta-evaluation is read again, ms. */
const POLL_MS = 2000;

/** A pairwise label as a chip, a score as a number, nothing yet as a dash. */
function label(v: string | number | null): Node {
  if (v === null) return h('span', { class: 'muted' }, '—');
  return typeof v === 'number' ? h('span', null, formatScore(v)) : winnerChip(v);
}

function itemsTable(m: MetaEvaluation): HTMLElement {
  const aspectsOf = itemAspectLines(m);
  return card(
    `Items (${formatInt(m.items.length)})`,
    h(
      'div',
      { class: 'table-wrap table-scroll' },
      h(
        'table',
        { class: 'table' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Item', 'Evaluation', 'Status', 'Human', 'Judge'].map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          null,
          m.items.map((i) => {
            const aspects = aspectsOf(i);
            return h(
              'tr',
              null,
              h('th', { scope: 'row' }, i.itemId),
              h(
                'td',
                null,
                h('a', { href: `#/evaluations/${encodeURIComponent(i.evaluationId)}` }, shortId(i.evaluationId)),
              ),
              h('td', null, statusPill(i.status)),
              h('td', null, label(i.human), aspects.human),
              h('td', null, label(i.winner ?? i.score), aspects.judge),
            );
          }),
        ),
      ),
    ),
  );
}

/** Whole-number bounds around the values (a 1-5 scale stays 1-5; an empty list gives 0-1). */
function domainOf(values: readonly number[]): [number, number] {
  if (values.length === 0) return [0, 1];
  const lo = Math.floor(Math.min(...values));
  const hi = Math.ceil(Math.max(...values));
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

/** Pointwise: each scored item's judge score against its human score. */
function scatterCard(m: MetaEvaluation): HTMLElement | null {
  const points: ScatterPoint[] = m.items.flatMap((i) =>
    typeof i.human === 'number' && i.score !== null ? [{ x: i.human, y: i.score, label: i.itemId }] : [],
  );
  if (points.length === 0) return null;
  const domain = domainOf(points.flatMap((p) => [p.x, p.y]));
  return card(
    'Judge against human',
    scatterPlot(points, domain, domain, `Judge score against human score, ${formatInt(points.length)} items`),
    h(
      'p',
      { class: 'muted small' },
      "One point per scored item (integer scores slightly jittered so equal pairs stay visible). On the diagonal, the judge gave the human's score.",
    ),
  );
}

/** An estimate of the reliability report as a row. */
function row(
  label: string,
  e: { value: number | null; ci: { lo: number; hi: number } | null } | null,
  note?: string,
): EstimateRow {
  return {
    label,
    value: e?.value ?? null,
    ci: e?.ci ?? null,
    ...(note !== undefined ? { note } : {}),
  };
}

/** The judge's reliability over every repeat (`repeats` > 1). */
function reliabilityCard(r: ReliabilityReport, repeats: number): HTMLElement {
  const rows: EstimateRow[] = [
    row(
      'Test-retest: all repeats agree',
      r.testRetest.allAgree,
      `${formatInt(r.testRetest.itemsCompared)} items compared`,
    ),
    row('Test-retest: pairs of repeats agree', r.testRetest.pairAgreement),
    row('First-shown answer wins', r.positionBias.firstShownWins, '0.5 is unbiased'),
    row('Orders disagree (flips)', r.flips.rate, `${formatInt(r.flips.measured)} measured`),
    ...(r.labelled
      ? [
          row('Accuracy of each repeat', r.labelled.perRepeatAccuracy, 'every repeat against the label'),
          row("Accuracy of the repeats' majority", r.labelled.majorityAccuracy, "each item's majority verdict"),
        ]
      : []),
  ];
  const rates = r.rates;
  return card(
    `Reliability over ${repeats} repeats`,
    estimateTable('Reliability, with bootstrap intervals over items', rows, [0, 1], r.bootstrap.level),
    facts([
      ['Repeats judged', formatInt(r.repeats)],
      ['Ties', formatScore(rates.tie ?? 0)],
      ['Unparsed', formatScore(rates.unparsed ?? 0)],
      ['Inconclusive', formatScore(rates.inconclusive ?? 0)],
      ['Failed', formatScore(rates.failed ?? 0)],
    ]),
  );
}

/**
 * The run's status in the word the batches list and a golden check use for it: `completed` once every item
 * ended with a report (the API's `succeeded`), so one run never reads as both; items keep theirs.
 */
function runStatus(m: MetaEvaluation): string {
  return m.status === 'succeeded' ? 'completed' : m.status;
}

function render(ctx: ViewContext, m: MetaEvaluation): void {
  const p = m.progress;
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'stack',
        breadcrumb([['Batches', '#/batches']], shortId(m.id)),
        h(
          'div',
          { class: 'title-row' },
          h('h1', null, `Meta-evaluation: ${m.preset ?? m.method}`),
          statusPill(runStatus(m)),
        ),
        facts(
          [
            ['Id', idCode(m.id)],
            ['Method', m.method],
            ['Created', ago(m.createdAt)],
            [
              'Progress',
              `${p.ended} of ${p.total} ended · ${p.succeeded} succeeded${p.failed > 0 ? ` · ${p.failed} failed` : ''}${p.cancelled > 0 ? ` · ${p.cancelled} cancelled` : ''}`,
            ],
          ],
          'facts facts-inline',
        ),
      ),
      m.report
        ? h(
            'div',
            { class: 'stack' },
            m.reliability ? reliabilityCard(m.reliability, m.repeats) : null,
            reportSections(m.report, m.repeats),
            aspectAgreementCard(m.report),
            scatterCard(m),
          )
        : card(
            'Report',
            h(
              'p',
              { class: 'muted' },
              m.status === 'running'
                ? 'The report appears once every item has ended.'
                : 'No report: no item succeeded.',
            ),
            progressBar(p.ended, p.total, 'Items ended'),
          ),
      itemsTable(m),
    ),
  );
}

/** The meta-evaluation page. */
export const metaView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/meta-evaluations/${encodeURIComponent(id)}`;
  let m = await getJson<MetaEvaluation>(path, ctx.signal);
  setTitle(`Meta-evaluation ${shortId(id)}`);
  render(ctx, m);
  void (async () => {
    while (m.status === 'running' || (m.repeats > 1 && m.reliability === null)) {
      await sleep(POLL_MS, ctx.signal);
      m = await getJson<MetaEvaluation>(path, ctx.signal);
      render(ctx, m);
    }
  })().catch((e: unknown) => {
    if (!ctx.signal.aborted) ctx.fail(e);
  });
};
