/**
 * @module
 * OpenAI Evals in the viewer: `#/evals`, the tenant's evals, newest first (`GET /v1/evals`, OpenAI's
 * `after` / `has_more` paging), and `#/evals/{id}`, one eval: its testing criteria (each grader's name and type)
 * and its runs with their status and result counts, each linked to its page (./eval-run.ts).
 */
import { getJson } from '../api.js';
import { ago, breadcrumb, card, facts, idCode, page, pageHead, progressBar, statusPill } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatInt } from '../format.js';
import type { Eval, EvalRun, OpenAiList } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';
import type { CursorPage } from './list-page.js';
import { listPage } from './list-page.js';

/** An eval's page. */
export function evalHref(id: string): string {
  return `#/evals/${encodeURIComponent(id)}`;
}

/** A run's page: what a run's `report_url` opens. */
export function runHref(evalId: string, runId: string): string {
  return `${evalHref(evalId)}/runs/${encodeURIComponent(runId)}`;
}

/** OpenAI's Unix seconds as the ISO time the page's relative times read. */
export function isoOf(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** An OpenAI list as a cursor page: the next page starts after its last id while it has more. */
export function openAiPage<T>(body: unknown): CursorPage<T> {
  const list = body as OpenAiList<T>;
  return { data: list.data, nextCursor: list.has_more ? list.last_id : null };
}

/** A run's result counts: a bar of the items passed, then `7 passed · 2 failed · 1 errored of 10`. */
export function runCounts(r: EvalRun): HTMLElement {
  const c = r.result_counts;
  return h(
    'div',
    { class: 'progress-cell' },
    progressBar(c.passed, c.total, `${r.name}: items passed`),
    h(
      'span',
      { class: 'muted small' },
      `${formatInt(c.passed)} passed · ${formatInt(c.failed)} failed`,
      c.errored > 0 ? ` · ${formatInt(c.errored)} errored` : '',
      ` of ${formatInt(c.total)}`,
    ),
  );
}

/** The evals list. */
export const evalsView: View = async (ctx) => {
  setTitle('Evals');
  await listPage<Eval>(ctx, {
    title: 'Evals',
    path: (cursor) => {
      const q = new URLSearchParams({ limit: '25', order: 'desc' });
      if (cursor) q.set('after', cursor);
      return `/v1/evals?${q.toString()}`;
    },
    toPage: openAiPage,
    intro:
      "Evals come from OpenAI's Evals API at /v1/evals (the openai SDK with baseURL set to this deployment): testing criteria, and runs that grade items with them.",
    empty: 'No evals yet.',
    caption: 'Evals, newest first',
    columns: [
      ['Eval', null],
      ['Testing criteria', null],
      ['Created', 'num hide-sm'],
    ],
    row: (e) =>
      h(
        'tr',
        null,
        h('th', { scope: 'row' }, h('a', { href: evalHref(e.id), title: e.id }, e.name)),
        h('td', null, e.testing_criteria.map((g) => `${g.name} (${g.type})`).join(', ')),
        h('td', { class: 'num hide-sm' }, ago(isoOf(e.created_at))),
      ),
    unavailable: {
      endpoint: 'GET /v1/evals',
      open: { label: 'Open an eval by id', placeholder: 'eval_…', href: evalHref },
    },
  });
};

/** One eval with its runs (the newest 100). */
export const evalView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/evals/${encodeURIComponent(id)}`;
  const [e, runs] = await Promise.all([
    getJson<Eval>(path, ctx.signal),
    getJson<OpenAiList<EvalRun>>(`${path}/runs?order=desc&limit=100`, ctx.signal),
  ]);
  setTitle(`Eval ${e.name}`);
  replaceChildren(
    ctx.root,
    page(
      pageHead('stack', breadcrumb([['Evals', '#/evals']], e.name), h('h1', null, e.name)),
      facts([
        ['Id', idCode(e.id)],
        ['Created', ago(isoOf(e.created_at))],
        ['Data source', e.data_source_config.type],
      ]),
      card(
        'Testing criteria',
        h(
          'ul',
          null,
          e.testing_criteria.map((g) => h('li', null, h('strong', null, g.name), ` · ${g.type}`)),
        ),
      ),
      card(
        'Runs',
        runs.data.length === 0
          ? h('p', { class: 'muted' }, 'No runs yet: POST /v1/evals/{eval_id}/runs starts one.')
          : h(
              'div',
              { class: 'table-wrap' },
              h(
                'table',
                { class: 'table list-table' },
                h('caption', { class: 'visually-hidden' }, 'Runs of this eval, newest first'),
                h(
                  'thead',
                  null,
                  h(
                    'tr',
                    null,
                    ['Run', 'Status', 'Results'].map((t) => h('th', { scope: 'col' }, t)),
                    h('th', { scope: 'col', class: 'hide-sm' }, 'Model'),
                    h('th', { scope: 'col', class: 'num hide-sm' }, 'Created'),
                  ),
                ),
                h(
                  'tbody',
                  null,
                  runs.data.map((r) =>
                    h(
                      'tr',
                      null,
                      h('th', { scope: 'row' }, h('a', { href: runHref(e.id, r.id), title: r.id }, r.name)),
                      h('td', null, statusPill(r.status)),
                      h('td', null, runCounts(r)),
                      h('td', { class: 'hide-sm' }, r.model ?? h('span', { class: 'muted' }, '—')),
                      h('td', { class: 'num hide-sm' }, ago(isoOf(r.created_at))),
                    ),
                  ),
                ),
              ),
            ),
        runs.has_more ? h('p', { class: 'muted small' }, 'The newest 100 runs are shown.') : null,
      ),
    ),
  );
};
