/**
 * @module
 * `#/batches`: every batch, meta-evaluation and comparison, newest first (`GET /v1/batches`, by kind,
 * cursor-paged), each with its items ended and, for a comparison, its gate.
 */
import { ago, listProgress, statusPill } from '../components.js';
import { h } from '../dom.js';
import { shortId } from '../format.js';
import type { BatchSummary } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';
import { comparisonHref, gateCellOf } from './comparison-list.js';
import { listPage } from './list-page.js';

/** A batch's page, or its meta-evaluation's report page, or its comparison's page. */
export function batchHref(b: Pick<BatchSummary, 'id' | 'kind'>): string {
  if (b.kind === 'comparison') return comparisonHref(b.id);
  return b.kind === 'meta_evaluation' ? `#/meta/${encodeURIComponent(b.id)}` : `#/batches/${encodeURIComponent(b.id)}`;
}

/** The batches list. */
export const batchesView: View = async (ctx) => {
  setTitle('Batches');
  const kind = ctx.query.get('kind') ?? '';
  await listPage<BatchSummary>(ctx, {
    title: 'Batches',
    path: (cursor) => {
      const q = new URLSearchParams({ limit: '25' });
      if (kind) q.set('kind', kind);
      if (cursor) q.set('cursor', cursor);
      return `/v1/batches?${q.toString()}`;
    },
    filter: {
      id: 'filter-kind',
      options: [
        ['', 'All'],
        ['batch', 'Batches'],
        ['meta_evaluation', 'Meta-evaluations'],
        ['comparison', 'Comparisons'],
      ],
      value: kind,
      href: (v) => (v ? `#/batches?kind=${v}` : '#/batches'),
    },
    intro:
      'Batches come from POST /v1/batches (up to 10,000 items, JSON or NDJSON); meta-evaluations from POST /v1/meta-evaluations (labelled items, an agreement report); comparisons from POST /v1/comparisons (their gate in the Gate column).',
    empty: 'No batches yet.',
    caption: 'Batches, newest first',
    columns: [
      ['Batch', null],
      ['Kind', null],
      ['Preset', null],
      ['Status', null],
      ['Gate', null],
      ['Items ended', null],
      ['Created', 'num hide-sm'],
    ],
    row: (b) =>
      h(
        'tr',
        null,
        h('th', { scope: 'row' }, h('a', { href: batchHref(b), title: b.id }, shortId(b.id))),
        h('td', null, b.kind === 'meta_evaluation' ? 'meta-evaluation' : b.kind),
        h('td', null, b.preset ?? b.method),
        h('td', null, statusPill(b.status)),
        // Only a comparison has a gate; the list does not carry it, its own read does.
        b.kind === 'comparison'
          ? gateCellOf(b.id, ctx.signal)
          : h('td', { class: 'gate-cell' }, h('span', { class: 'muted', title: 'only comparisons have a gate' }, '—')),
        h('td', null, listProgress(b.id, b.counts)),
        h('td', { class: 'num hide-sm' }, ago(b.createdAt)),
      ),
    unavailable: {
      endpoint: 'GET /v1/batches',
      open: {
        label: 'Open a meta-evaluation by id',
        placeholder: 'me_…',
        href: (id) => `#/meta/${encodeURIComponent(id)}`,
      },
    },
  });
};
