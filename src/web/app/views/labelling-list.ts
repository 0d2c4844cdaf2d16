/**
 * @module
 * `#/labelling`: the tenant's annotation queues, newest first (`GET /v1/annotation-queues`, cursor-paged), each
 * with its rubric, how many items are labelled, whether it is blind, and a link to label it (./labelling.ts).
 */
import { ago } from '../components.js';
import { h } from '../dom.js';
import { formatInt } from '../format.js';
import type { AnnotationQueue } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';
import { labellingHref, queueProgress } from './labelling.js';
import { listPage } from './list-page.js';

/** The annotation queues list. */
export const labellingListView: View = async (ctx) => {
  setTitle('Labelling');
  await listPage<AnnotationQueue>(ctx, {
    title: 'Labelling',
    path: (cursor) => {
      const q = new URLSearchParams({ limit: '25' });
      if (cursor) q.set('cursor', cursor);
      return `/v1/annotation-queues?${q.toString()}`;
    },
    intro:
      'Annotation queues come from POST /v1/annotation-queues: items for people to label by a rubric, one after another, with keyboard shortcuts. Their labels measure and align the judge.',
    empty: 'No annotation queues yet.',
    caption: 'Annotation queues, newest first',
    columns: [
      ['Queue', null],
      ['Kind', null],
      ['Labelled', null],
      ['Judge shown', 'hide-sm'],
      ['Created', 'num hide-sm'],
    ],
    row: (q) =>
      h(
        'tr',
        null,
        h(
          'th',
          { scope: 'row' },
          h('a', { href: labellingHref(q.id), title: q.id }, q.name),
          h('span', { class: 'muted small block' }, `${formatInt(q.labelsPerItem)} per item`),
        ),
        h('td', null, q.kind),
        h('td', null, queueProgress(q)),
        h('td', { class: 'hide-sm' }, q.blind ? 'no (blind)' : 'yes'),
        h('td', { class: 'num hide-sm' }, ago(q.createdAt)),
      ),
    unavailable: {
      endpoint: 'GET /v1/annotation-queues',
      open: { label: 'Open a queue by id', placeholder: 'aq_…', href: labellingHref },
    },
  });
};
