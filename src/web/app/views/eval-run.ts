/**
 * @module
 * `#/evals/{id}/runs/{runId}`, the page a run's `report_url` opens: the run's status, its result counts, each
 * testing criterion's passes and failures, the tokens per model, its error if it failed, and its output items
 * (`GET …/output_items`, OpenAI's `after` / `has_more` paging), each with its item, the sample's output and
 * every grader's result. Read again every few seconds while the run is queued or in progress.
 */
import { getJson } from '../api.js';
import { ago, breadcrumb, card, facts, idCode, page, pageHead, progressBar, statusPill } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatInt, formatPct, formatScore } from '../format.js';
import type { Eval, EvalOutputItem, EvalRun, OpenAiList } from '../types.js';
import type { View } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { evalHref, isoOf } from './evals.js';
import { kpi } from './report-view.js';

/** How often a running run is read again, ms. */
const POLL_MS = 2000;

/** Items per page of output items. */
const ITEMS_PAGE = 50;

/** Most characters of an item's JSON shown in its row (the rest in its tooltip). */
const ITEM_CHARS = 160;

const ENDED = new Set<EvalRun['status']>(['completed', 'canceled', 'failed']);

function table(caption: string, head: readonly string[], rows: readonly HTMLElement[]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap table-scroll' },
    h(
      'table',
      { class: 'table' },
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          head.map((t, i) => h('th', { scope: 'col', class: i === 0 ? null : 'num' }, t)),
        ),
      ),
      h('tbody', null, rows),
    ),
  );
}

function countsKpis(r: EvalRun): HTMLElement {
  const c = r.result_counts;
  const graded = c.passed + c.failed;
  return h(
    'div',
    { class: 'kpis' },
    kpi('Passed', formatInt(c.passed), graded > 0 ? `${formatPct(c.passed / graded)} of those graded` : null),
    kpi('Failed', formatInt(c.failed), null),
    kpi('Errored', formatInt(c.errored), 'no result: the sample or a grader failed'),
    kpi('Items', formatInt(c.total), null),
  );
}

function criteriaCard(r: EvalRun): HTMLElement {
  const rows = r.per_testing_criteria_results.map((c) => {
    const n = c.passed + c.failed;
    return h(
      'tr',
      null,
      h('th', { scope: 'row' }, c.testing_criteria),
      h('td', { class: 'num' }, formatInt(c.passed)),
      h('td', { class: 'num' }, formatInt(c.failed)),
      h(
        'td',
        { class: 'num' },
        h(
          'div',
          { class: 'progress-cell' },
          progressBar(c.passed, n, `${c.testing_criteria}: items passed`),
          h('span', { class: 'muted small' }, n > 0 ? formatPct(c.passed / n) : '—'),
        ),
      ),
    );
  });
  return card(
    'Per testing criterion',
    rows.length === 0
      ? h('p', { class: 'muted' }, 'No item graded yet.')
      : table('Passes and failures per testing criterion', ['Criterion', 'Passed', 'Failed', 'Pass rate'], rows),
  );
}

function usageCard(r: EvalRun): HTMLElement {
  const rows = r.per_model_usage.map((m) =>
    h(
      'tr',
      null,
      h('th', { scope: 'row' }, m.model_name),
      ...[m.invocation_count, m.prompt_tokens, m.completion_tokens, m.total_tokens, m.cached_tokens].map((v) =>
        h('td', { class: 'num' }, formatInt(v)),
      ),
    ),
  );
  return card(
    'Usage by model',
    rows.length === 0
      ? h('p', { class: 'muted' }, 'No model call yet.')
      : table(
          'Calls and tokens per model',
          ['Model', 'Calls', 'Prompt tokens', 'Completion tokens', 'Total tokens', 'Cached tokens'],
          rows,
        ),
  );
}

function itemRow(o: EvalOutputItem): HTMLElement {
  const json = JSON.stringify(o.datasource_item);
  // A `jsonl` line without a sample shows an empty output: a dash, as before it had a sample object.
  const output = o.sample.output.length === 0 ? null : o.sample.output.map((m) => m.content).join('\n');
  return h(
    'tr',
    null,
    h('td', { class: 'num' }, String(o.datasource_item_id + 1)),
    h('td', null, statusPill(o.status)),
    h(
      'td',
      null,
      h('code', { class: 'small', title: json }, json.length > ITEM_CHARS ? `${json.slice(0, ITEM_CHARS)}…` : json),
    ),
    h(
      'td',
      null,
      output === null ? h('span', { class: 'muted' }, '—') : h('span', { class: 'prewrap' }, output),
      o.sample.error ? h('span', { class: 'error-text small block' }, o.sample.error.message) : null,
    ),
    h(
      'td',
      null,
      h(
        'ul',
        { class: 'grader-results' },
        o.results.map((g) =>
          h(
            'li',
            null,
            h('strong', null, g.name),
            ' ',
            h('span', { class: g.passed ? 'ok-text' : 'error-text' }, g.passed ? 'passed' : 'failed'),
            ` · ${formatScore(g.score)}`,
          ),
        ),
      ),
    ),
  );
}

function itemsCard(path: string, first: OpenAiList<EvalOutputItem>, signal: AbortSignal): HTMLElement {
  const body = h('tbody', null, first.data.map(itemRow));
  const more = h('button', { type: 'button', class: 'btn' }, 'Load more');
  let after = first.has_more ? first.last_id : null;
  more.hidden = after === null;
  more.addEventListener('click', () => {
    if (after === null) return;
    more.disabled = true;
    getJson<OpenAiList<EvalOutputItem>>(
      `${path}/output_items?limit=${ITEMS_PAGE}&after=${encodeURIComponent(after)}`,
      signal,
    ).then(
      (next) => {
        body.append(...next.data.map(itemRow));
        after = next.has_more ? next.last_id : null;
        more.hidden = after === null;
        more.disabled = false;
      },
      () => {
        more.disabled = false;
      },
    );
  });
  return card(
    'Output items',
    first.data.length === 0
      ? h('p', { class: 'muted' }, 'No item graded yet.')
      : [
          h(
            'div',
            { class: 'table-wrap table-scroll' },
            h(
              'table',
              { class: 'table output-items' },
              h('caption', { class: 'visually-hidden' }, 'Output items with their grader results'),
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  h('th', { scope: 'col', class: 'num' }, '#'),
                  ['Status', 'Item', 'Sample output', 'Grader results'].map((t) => h('th', { scope: 'col' }, t)),
                ),
              ),
              body,
            ),
          ),
          h('div', { class: 'pager' }, more),
        ],
  );
}

/** The run's page. */
export const evalRunView: View = async (ctx) => {
  const evalId = ctx.params.id ?? '';
  const runId = ctx.params.run ?? '';
  const evalPath = `/v1/evals/${encodeURIComponent(evalId)}`;
  const path = `${evalPath}/runs/${encodeURIComponent(runId)}`;
  const e = await getJson<Eval>(evalPath, ctx.signal);
  for (;;) {
    const [run, items] = await Promise.all([
      getJson<EvalRun>(path, ctx.signal),
      getJson<OpenAiList<EvalOutputItem>>(`${path}/output_items?limit=${ITEMS_PAGE}`, ctx.signal),
    ]);
    setTitle(`Run ${run.name}`);
    replaceChildren(
      ctx.root,
      page(
        pageHead(
          'stack',
          breadcrumb(
            [
              ['Evals', '#/evals'],
              [e.name, evalHref(e.id)],
            ],
            run.name,
          ),
          h('div', { class: 'title-row' }, h('h1', null, run.name), statusPill(run.status)),
        ),
        facts([
          ['Id', idCode(run.id)],
          ['Model', run.model ?? '—'],
          ['Data source', typeof run.data_source.type === 'string' ? run.data_source.type : '—'],
          ['Created', ago(isoOf(run.created_at))],
          run.error ? ['Error', h('span', { class: 'error-text' }, `${run.error.message} (${run.error.code})`)] : null,
        ]),
        countsKpis(run),
        criteriaCard(run),
        usageCard(run),
        itemsCard(path, items, ctx.signal),
      ),
    );
    if (ENDED.has(run.status)) return;
    await sleep(POLL_MS, ctx.signal);
  }
};
