/**
 * @module
 * `#/comparisons`: the tenant's comparisons, newest first (`GET /v1/comparisons`, cursor-paged), each with its
 * candidates, its gate's outcome, its status and its evaluations ended. The gate's words and colours are
 * shared with the batches list, whose comparisons show their gate too.
 */
import { getJson } from '../api.js';
import { ago, listProgress, statusPill } from '../components.js';
import { h } from '../dom.js';
import { formatInt, shortId } from '../format.js';
import type { Comparison, ComparisonSummary } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';
import { listPage } from './list-page.js';

/** A comparison's page. */
export function comparisonHref(id: string): string {
  return `#/comparisons/${encodeURIComponent(id)}`;
}

/**
 * A gate's outcome in words (`passed`, `failed`, `inconclusive`; colour and text), `live` while it may still
 * change; a muted dash without a gate.
 */
function gateBadge(outcome: ComparisonSummary['gateOutcome'], live = false): HTMLElement {
  if (outcome === null) return h('span', { class: 'muted' }, '—');
  return h(
    'span',
    { class: `gate gate-${outcome}` },
    outcome,
    live ? h('span', { class: 'muted small' }, ' (live)') : null,
  );
}

/**
 * The gate cell of comparison `id` in a list that does not carry it (the batches list): filled once
 * `GET /v1/comparisons/{id}` answers (its gate as of now: live while it runs), a dash without a gate.
 */
export function gateCellOf(id: string, signal: AbortSignal): HTMLElement {
  const cell = h('td', { class: 'gate-cell' }, h('span', { class: 'muted' }, '…'));
  getJson<Comparison>(`/v1/comparisons/${encodeURIComponent(id)}`, signal).then(
    (c) => {
      cell.replaceChildren(gateBadge(c.gate?.outcome ?? null, c.gate !== null && c.basis !== 'final'));
    },
    () => {
      if (!signal.aborted) cell.replaceChildren(h('span', { class: 'muted', title: 'could not be read' }, '?'));
    },
  );
  return cell;
}

/** The comparisons list. */
export const comparisonsView: View = async (ctx) => {
  setTitle('Comparisons');
  await listPage<ComparisonSummary>(ctx, {
    title: 'Comparisons',
    path: (cursor) => {
      const q = new URLSearchParams({ limit: '25' });
      if (cursor) q.set('cursor', cursor);
      return `/v1/comparisons?${q.toString()}`;
    },
    intro:
      'Comparisons come from POST /v1/comparisons: candidates judged pair by pair on your items, a ranking, and with a gate the verdict a deploy can wait on.',
    empty: 'No comparisons yet.',
    caption: 'Comparisons, newest first',
    columns: [
      ['Comparison', null],
      ['Candidates', null],
      ['Gate', null],
      ['Status', null],
      ['Evaluations ended', null],
      ['Judge', 'hide-sm'],
      ['Created', 'num hide-sm'],
    ],
    row: (c) =>
      h(
        'tr',
        null,
        h('th', { scope: 'row' }, h('a', { href: comparisonHref(c.id), title: c.id }, shortId(c.id))),
        h(
          'td',
          null,
          c.candidates.join(', '),
          h(
            'span',
            { class: 'muted small block' },
            `${formatInt(c.items)} items · ${c.design === 'all-pairs' ? 'all pairs' : `against ${c.design.baseline}`}`,
          ),
        ),
        h('td', { class: 'gate-cell' }, gateBadge(c.gateOutcome)),
        h('td', null, statusPill(c.status)),
        h('td', null, listProgress(c.id, c.counts)),
        h('td', { class: 'hide-sm' }, c.preset ?? c.method),
        h('td', { class: 'num hide-sm' }, ago(c.createdAt)),
      ),
    unavailable: {
      endpoint: 'GET /v1/comparisons',
      open: { label: 'Open a comparison by id', placeholder: 'cp_…', href: comparisonHref },
    },
  });
};
