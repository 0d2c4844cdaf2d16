/**
 * @module
 * `#/rubrics`: the tenant's rubrics, newest first (`GET /v1/rubrics`, cursor-paged like the other lists):
 * name, kind, latest version, the tags and the versions they point at, archived or not. The filter lives
 * in the hash (`#/rubrics?archived=false`). Each name opens the latest version's page (./rubric-version.ts),
 * each tag and version number the version it names.
 */
import { ago, badge } from '../components.js';
import { h } from '../dom.js';
import { formatTime, shortId } from '../format.js';
import type { Rubric, RubricStamp } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';
import { listPage } from './list-page.js';

/** Rubrics per page (the API allows 1-100). */
const PAGE = 25;

/** The page of a rubric's version `n` (`#/rubrics/rb_…/versions/3`), or of its latest version without `n`. */
export function rubricHref(id: string, version?: number): string {
  const base = `#/rubrics/${encodeURIComponent(id)}`;
  return version === undefined ? base : `${base}/versions/${String(version)}`;
}

/**
 * What an evaluation (or a batch's result) records of its rubric: a stored version links to its page
 * (`rb_…@n`); an inline rubric has only its hash.
 */
export function rubricStamp(stamp: RubricStamp): HTMLElement {
  if (stamp.id !== undefined && stamp.version !== undefined) {
    const ref = `${stamp.id}@${String(stamp.version)}`;
    return h(
      'a',
      { href: rubricHref(stamp.id, stamp.version), title: ref, class: 'mono' },
      `${shortId(stamp.id)}@${String(stamp.version)}`,
    );
  }
  return h('span', { title: `sha-256 ${stamp.hash}` }, 'inline ', h('code', null, stamp.hash.slice(0, 12)));
}

/** The `archived` query of the API for the hash's filter: `true`, `false`, or absent (all). */
function archivedFilter(value: string | null): 'true' | 'false' | null {
  return value === 'true' || value === 'false' ? value : null;
}

function row(r: Rubric): HTMLElement {
  return h(
    'tr',
    null,
    h(
      'th',
      { scope: 'row' },
      h('a', { href: rubricHref(r.id), title: r.id }, r.name),
      h('span', { class: 'block muted small mono' }, r.id),
    ),
    h('td', null, badge(r.kind, r.kind === 'pairwise' ? 'info' : 'neutral')),
    h('td', { class: 'num' }, h('a', { href: rubricHref(r.id, r.latestVersion) }, `v${r.latestVersion}`)),
    h(
      'td',
      null,
      r.tags.length === 0
        ? h('span', { class: 'muted' }, '—')
        : h(
            'ul',
            { class: 'tag-list' },
            r.tags.map((t) =>
              h(
                'li',
                null,
                h(
                  'a',
                  { href: rubricHref(r.id, t.version), class: 'tag' },
                  `#${t.tag}`,
                  h('span', { class: 'muted' }, ` → v${t.version}`),
                ),
              ),
            ),
          ),
    ),
    h(
      'td',
      null,
      r.archivedAt ? badge('archived', 'warn', `archived ${formatTime(r.archivedAt)}`) : h('span', null, 'no'),
    ),
    h('td', { class: 'num hide-sm' }, ago(r.updatedAt)),
  );
}

/** The rubrics list. */
export const rubricsView: View = async (ctx) => {
  setTitle('Rubrics');
  const archived = archivedFilter(ctx.query.get('archived'));
  await listPage<Rubric>(ctx, {
    title: 'Rubrics',
    path: (cursor) => {
      const q = new URLSearchParams({ limit: String(PAGE) });
      if (archived) q.set('archived', archived);
      if (cursor) q.set('cursor', cursor);
      return `/v1/rubrics?${q.toString()}`;
    },
    filter: {
      id: 'filter-archived',
      options: [
        ['', 'All'],
        ['false', 'Not archived'],
        ['true', 'Archived'],
      ],
      value: archived ?? '',
      href: (v) => (v ? `#/rubrics?archived=${v}` : '#/rubrics'),
    },
    intro:
      'Your own criteria: POST /v1/rubrics creates one, POST /v1/rubrics/{id}/versions adds an immutable version. Judge with rb_… (latest), rb_…@n or rb_…#tag.',
    empty: archived ? 'No rubric matches this filter.' : 'No rubrics yet.',
    caption: 'Rubrics, newest first',
    columns: [
      ['Rubric', null],
      ['Kind', null],
      ['Latest', 'num'],
      ['Tags', null],
      ['Archived', null],
      ['Updated', 'num hide-sm'],
    ],
    row,
    count: (n) => `${n} rubric${n === 1 ? '' : 's'} shown`,
    unavailable: {
      endpoint: 'GET /v1/rubrics',
      open: { label: 'Open a rubric by id', placeholder: 'rb_…', href: (id) => rubricHref(id) },
    },
  });
};
