/**
 * @module
 * A cursor-paged list page (`#/batches`, `#/comparisons`, `#/rubrics`): the title with a "Show" filter (if any), a line saying where
 * the items come from, the table (or an empty state), and "Load more" following the API's `nextCursor`.
 * A deployment whose API does not serve the list gets the "not available" state (./unavailable.ts).
 */
import { page, pageHead } from '../components.js';
import { getJson } from '../api.js';
import { h, replaceChildren } from '../dom.js';
import type { ViewContext } from '../view.js';
import type { UnavailableOptions } from './unavailable.js';
import { isUnavailable, renderUnavailable } from './unavailable.js';

/** A page of a list as the API answers it. */
export interface CursorPage<T> {
  data: T[];
  nextCursor: string | null;
}

/** What a list page shows and where it reads from. */
export interface ListPageOptions<T> {
  title: string;
  /** The API path for one page: the first with `cursor` null. */
  path: (cursor: string | null) => string;
  /** Reads an answer of another shape as a page (OpenAI's `{data, has_more, last_id}`); default: as it is. */
  toPage?: (body: unknown) => CursorPage<T>;
  /**
   * The "Show" filter: its select's id, `[value, label]` options (the first unfiltered), the current value and
   * where a pick goes; none: no filter.
   */
  filter?: {
    id: string;
    options: readonly (readonly [string, string])[];
    value: string;
    href: (value: string) => string;
  };
  /** The line under the title. */
  intro: string;
  /** The empty state's text. */
  empty: string;
  /** The table's caption (screen readers) and its columns (`[label, class]`). */
  caption: string;
  columns: readonly (readonly [string, string | null])[];
  row: (item: T) => HTMLElement;
  /** Items shown, as a sentence (`3 rubrics shown`), after each page; none: no such line. */
  count?: (n: number) => string;
  /** The "not available" state, without its title (the list's). */
  unavailable: Omit<UnavailableOptions, 'title'>;
}

/**
 * A list page's "Show" filter: a labelled select of `[value, label]` options (the first is the unfiltered
 * one); `onChange` gets the picked value.
 */
function showFilter(
  id: string,
  options: readonly (readonly [string, string])[],
  value: string,
  onChange: (value: string) => void,
): HTMLElement {
  const select = h(
    'select',
    { id },
    options.map(([v, l]) => h('option', { value: v, selected: v === value }, l)),
  );
  select.addEventListener('change', () => {
    onChange(select.value);
  });
  return h('div', { class: 'field field-inline' }, h('label', { for: id }, 'Show'), select);
}

/**
 * A list page's table in its card: a caption for screen readers, the column headers (`[label, class]`,
 * class null for none) and the rows' `body`, which the page fills and pages on.
 */
function listTable(
  caption: string,
  columns: readonly (readonly [string, string | null])[],
  body: HTMLTableSectionElement,
): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap card card-flush' },
    h(
      'table',
      { class: 'table list-table' },
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          columns.map(([label, cls]) => h('th', { scope: 'col', class: cls }, label)),
        ),
      ),
      body,
    ),
  );
}

/** Renders a cursor-paged list page into `ctx.root`. */
export async function listPage<T>(ctx: ViewContext, o: ListPageOptions<T>): Promise<void> {
  const read = async (cursor: string | null): Promise<CursorPage<T>> => {
    const body = await getJson<unknown>(o.path(cursor), ctx.signal);
    return o.toPage ? o.toPage(body) : (body as CursorPage<T>);
  };
  let first: CursorPage<T>;
  try {
    first = await read(null);
  } catch (e) {
    if (!isUnavailable(e)) throw e;
    renderUnavailable(ctx, { title: o.title, ...o.unavailable });
    return;
  }
  const filter = o.filter;
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'btn' }, 'Load more');
  const status = o.count ? h('p', { class: 'muted small', role: 'status' }) : null;
  let cursor = first.nextCursor;
  const add = (rows: readonly T[]) => {
    body.append(...rows.map(o.row));
    more.hidden = cursor === null;
    if (status && o.count) status.textContent = `${o.count(body.childElementCount)}${cursor ? '; more below' : ''}.`;
  };
  more.addEventListener('click', () => {
    if (!cursor) return;
    more.disabled = true;
    read(cursor).then((next) => {
      cursor = next.nextCursor;
      more.disabled = false;
      add(next.data);
    }, ctx.fail);
  });
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'title-row',
        h('h1', null, o.title),
        h('span', { class: 'spacer' }),
        filter
          ? showFilter(filter.id, filter.options, filter.value, (v) => {
              ctx.navigate(filter.href(v));
            })
          : null,
      ),
      h('p', { class: 'muted' }, o.intro),
      first.data.length === 0
        ? h('div', { class: 'card empty' }, o.empty)
        : [listTable(o.caption, o.columns, body), h('div', { class: 'pager' }, more), status],
    ),
  );
  add(first.data);
}
