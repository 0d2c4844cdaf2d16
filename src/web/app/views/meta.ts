/**
 * @module
 * `#/meta/{id}`: a meta-evaluation (a labelled batch judged against human labels): progress while its
 * items run (polled), then the agreement report with its charts, and every item with a link to its
 * evaluation page.
 */
import { getJson } from '../api.js';
import { card, facts, idCode, progressBar, statusPill } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatAgo, formatInt, formatTime, shortId } from '../format.js';
import type { MetaEvaluation } from '../types.js';
import type { View, ViewContext } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { reportSections } from './report-view.js';

/** How often a running meta-evaluation is read again, ms. */
const POLL_MS = 2000;

function itemsTable(m: MetaEvaluation): HTMLElement {
  return card(`Items (${formatInt(m.items.length)})`,
    h('div', { class: 'table-wrap table-scroll' },
      h('table', { class: 'table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Item'), h('th', { scope: 'col' }, 'Evaluation'), h('th', { scope: 'col' }, 'Status'))),
        h('tbody', null, m.items.map((i) => h('tr', null,
          h('th', { scope: 'row' }, i.itemId),
          h('td', null, h('a', { href: `#/evaluations/${encodeURIComponent(i.evaluationId)}` }, shortId(i.evaluationId))),
          h('td', null, statusPill(i.status))))))));
}

function render(ctx: ViewContext, m: MetaEvaluation): void {
  const p = m.progress;
  replaceChildren(ctx.root,
    h('div', { class: 'page' },
      h('div', { class: 'page-head' },
        h('nav', { class: 'breadcrumb', 'aria-label': 'Breadcrumb' }, h('a', { href: '#/batches' }, 'Batches'), ' / ', shortId(m.id)),
        h('div', { class: 'title-row' }, h('h1', null, `Meta-evaluation: ${m.preset ?? m.method}`), statusPill(m.status)),
        facts([
          ['Id', idCode(m.id)],
          ['Method', m.method],
          ['Created', h('time', { datetime: m.createdAt, title: formatTime(m.createdAt) }, formatAgo(m.createdAt))],
          ['Progress', `${p.ended} of ${p.total} ended · ${p.succeeded} succeeded${p.failed > 0 ? ` · ${p.failed} failed` : ''}${p.cancelled > 0 ? ` · ${p.cancelled} cancelled` : ''}`],
        ], 'facts facts-inline')),
      m.report
        ? h('div', { class: 'stack' }, reportSections(m.report))
        : card('Report', h('p', { class: 'muted' }, m.status === 'running' ? 'The report appears once every item has ended.' : 'No report: no item succeeded.'),
          progressBar(p.ended, p.total, 'Items ended')),
      itemsTable(m)));
}

/** The meta-evaluation page. */
export const metaView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/meta-evaluations/${encodeURIComponent(id)}`;
  let m = await getJson<MetaEvaluation>(path, ctx.signal);
  setTitle(`Meta-evaluation ${shortId(id)}`);
  render(ctx, m);
  void (async () => {
    while (m.status === 'running') {
      await sleep(POLL_MS, ctx.signal);
      m = await getJson<MetaEvaluation>(path, ctx.signal);
      render(ctx, m);
    }
  })().catch((e: unknown) => { if (!ctx.signal.aborted) ctx.fail(e); });
};
