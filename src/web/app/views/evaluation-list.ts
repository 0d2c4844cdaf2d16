/**
 * @module
 * `#/`: the evaluations, newest first (`GET /v1/evaluations`), filtered by status, preset, rubric (or one
 * version of it), batch, a metadata entry and a creation range. The filters live in the hash (`#/?status=failed&preset=…`), so a
 * filtered list can be bookmarked and shared; "Load more" follows the API's keyset cursor. While the
 * first page shows evaluations that have not ended, it is read again every few seconds.
 */
import { getJson } from '../api.js';
import { ago, badge, confidenceLabel, page, pageHead, statusPill, winnerChip } from '../components.js';
import { isTerminal } from '../debate.js';
import { h, replaceChildren } from '../dom.js';
import { formatDuration, scoreOf, shortId } from '../format.js';
import type { EvaluationList, EvaluationListItem, EvaluationStatus, MethodsResponse } from '../types.js';
import type { View, ViewContext } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { isUnavailable, renderUnavailable } from './unavailable.js';

/** The list's filters, as `GET /v1/evaluations` names them. */
const FILTERS = ['status', 'preset', 'rubric', 'batch', 'metadata', 'createdAfter', 'createdBefore'] as const;
type Filter = (typeof FILTERS)[number];

/** How often a first page with unfinished evaluations is read again, ms. */
const REFRESH_MS = 3000;

/** Every status, in lifecycle order: a status the API adds, renames or drops fails the type check here. */
const STATUSES = Object.keys({ queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 } satisfies Record<
  EvaluationStatus,
  0
>);

/** The API query for the filters in the hash (dates as ISO times, start of day UTC). */
export function listQuery(query: URLSearchParams, cursor: string | null): string {
  const out = new URLSearchParams();
  for (const f of FILTERS) {
    const v = query.get(f)?.trim();
    if (!v) continue;
    out.set(f, f === 'createdAfter' || f === 'createdBefore' ? new Date(`${v}T00:00:00Z`).toISOString() : v);
  }
  out.set('limit', '25');
  if (cursor) out.set('cursor', cursor);
  return out.toString();
}

function verdictCell(e: EvaluationListItem): Node {
  if (e.verdict) {
    const main =
      e.verdict.winner !== null
        ? winnerChip(e.verdict.winner)
        : h('strong', null, e.verdict.score === null ? '—' : scoreOf(e.verdict.score, e.verdict.scale));
    return h('span', { class: 'vote' }, main, confidenceLabel(e.verdict.confidence));
  }
  if (e.error) return h('span', { class: 'error-text small', title: e.error.message }, e.error.code);
  return h('span', { class: 'muted' }, '—');
}

function row(e: EvaluationListItem): HTMLElement {
  const duration =
    e.startedAt && e.finishedAt ? formatDuration(Date.parse(e.finishedAt) - Date.parse(e.startedAt)) : '—';
  const batch = e.metaId ?? e.batchId;
  return h(
    'tr',
    null,
    h(
      'th',
      { scope: 'row' },
      h('a', { href: `#/evaluations/${encodeURIComponent(e.id)}`, title: e.id }, shortId(e.id)),
    ),
    h('td', null, e.preset ?? h('span', null, e.method, ' ', badge('custom', 'neutral'))),
    h('td', { class: 'hide-sm' }, e.taskKind),
    h('td', null, statusPill(e.status)),
    h('td', null, verdictCell(e)),
    h(
      'td',
      { class: 'hide-sm' },
      batch
        ? h(
            'a',
            {
              href: e.metaId ? `#/meta/${encodeURIComponent(e.metaId)}` : `#/batches/${encodeURIComponent(batch)}`,
              title: batch,
            },
            shortId(batch, 10),
          )
        : h('span', { class: 'muted' }, '—'),
    ),
    h('td', { class: 'hide-sm num' }, duration),
    h('td', { class: 'num' }, ago(e.createdAt)),
  );
}

function filterForm(ctx: ViewContext, presets: readonly string[]): HTMLFormElement {
  const value = (f: Filter) => ctx.query.get(f) ?? '';
  const select = (f: Filter, label: string, options: readonly string[]) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `filter-${f}` }, label),
      h(
        'select',
        { id: `filter-${f}`, name: f },
        h('option', { value: '' }, 'Any'),
        options.map((o) => h('option', { value: o, selected: o === value(f) }, o)),
      ),
    );
  const input = (f: Filter, label: string, type: string, placeholder = '') =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `filter-${f}` }, label),
      h('input', { id: `filter-${f}`, name: f, type, value: value(f), placeholder }),
    );
  const form = h(
    'form',
    { class: 'filters card', role: 'search', 'aria-label': 'Filter evaluations' },
    select('status', 'Status', STATUSES),
    select('preset', 'Preset', presets),
    input('rubric', 'Rubric', 'text', 'rb_… or rb_…@2'),
    input('batch', 'Batch', 'text', 'ba_… or me_…'),
    input('metadata', 'Metadata', 'text', 'key:value'),
    input('createdAfter', 'Created from', 'date'),
    input('createdBefore', 'Created before', 'date'),
    h(
      'div',
      { class: 'row filter-actions' },
      h('button', { type: 'submit', class: 'btn btn-primary' }, 'Apply'),
      h('a', { class: 'btn btn-ghost', href: '#/' }, 'Clear'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === 'string' && v.trim() !== '') q.set(k, v.trim());
    ctx.navigate(q.size > 0 ? `#/?${q.toString()}` : '#/');
  });
  return form;
}

/** The evaluations list. */
export const evaluationsView: View = async (ctx) => {
  setTitle('Evaluations');
  let presets: MethodsResponse['presets'];
  let first: EvaluationList;
  try {
    [{ presets }, first] = await Promise.all([
      getJson<MethodsResponse>('/v1/methods', ctx.signal),
      getJson<EvaluationList>(`/v1/evaluations?${listQuery(ctx.query, null)}`, ctx.signal),
    ]);
  } catch (e) {
    if (!isUnavailable(e)) throw e;
    renderUnavailable(ctx, {
      title: 'Evaluations',
      endpoint: 'GET /v1/evaluations',
      open: {
        label: 'Open an evaluation by id',
        placeholder: 'ev_…',
        href: (id) => `#/evaluations/${encodeURIComponent(id)}`,
      },
    });
    return;
  }
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'btn' }, 'Load more');
  const status = h('p', { class: 'muted small', role: 'status' });
  let cursor = first.nextCursor;
  // A function, not a `let`: the refresh loop below reads what the click handler writes.
  let pagesLoaded = 1;
  const onFirstPage = () => pagesLoaded === 1;
  const show = (rows: readonly EvaluationListItem[], append: boolean) => {
    if (!append) replaceChildren(body);
    body.append(...rows.map(row));
    more.hidden = cursor === null;
    status.textContent = `${body.childElementCount} evaluation${body.childElementCount === 1 ? '' : 's'} shown${cursor ? '; more below' : ''}.`;
  };
  more.addEventListener('click', () => {
    if (!cursor) return;
    more.disabled = true;
    getJson<EvaluationList>(`/v1/evaluations?${listQuery(ctx.query, cursor)}`, ctx.signal).then((next) => {
      cursor = next.nextCursor;
      pagesLoaded++;
      more.disabled = false;
      show(next.data, true);
    }, ctx.fail);
  });
  const filtered = FILTERS.some((f) => ctx.query.get(f));
  const table = h(
    'div',
    { class: 'table-wrap card card-flush' },
    h(
      'table',
      { class: 'table list-table' },
      h('caption', { class: 'visually-hidden' }, 'Evaluations, newest first'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Evaluation', 'Preset', 'Task', 'Status', 'Verdict', 'Batch', 'Duration', 'Created'].map((c, i) =>
            h(
              'th',
              {
                scope: 'col',
                class: [i === 2 || i === 5 || i === 6 ? 'hide-sm' : '', i >= 6 ? 'num' : ''].join(' ').trim() || null,
              },
              c,
            ),
          ),
        ),
      ),
      body,
    ),
  );
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'title-row',
        h('h1', null, 'Evaluations'),
        h('span', { class: 'spacer' }),
        h('a', { class: 'btn btn-primary', href: '#/new' }, 'New evaluation'),
      ),
      filterForm(
        ctx,
        presets.map((p) => p.id),
      ),
      first.data.length === 0
        ? h(
            'div',
            { class: 'card empty' },
            h('p', null, filtered ? 'No evaluation matches these filters.' : 'No evaluations yet.'),
            h('p', null, h('a', { href: '#/new' }, 'Submit a task'), ' to watch a debate live.'),
          )
        : [table, h('div', { class: 'pager' }, more), status],
    ),
  );
  show(first.data, false);
  // Keep the first page current while something on it is still running (in the background: the page is shown).
  void (async () => {
    let latest = first.data;
    while (onFirstPage() && latest.some((e) => !isTerminal(e.status))) {
      await sleep(REFRESH_MS, ctx.signal);
      if (!onFirstPage()) return;
      const first = await getJson<EvaluationList>(`/v1/evaluations?${listQuery(ctx.query, null)}`, ctx.signal);
      latest = first.data;
      cursor = first.nextCursor;
      show(latest, false);
    }
  })().catch((e: unknown) => {
    if (!ctx.signal.aborted) ctx.fail(e);
  });
};
