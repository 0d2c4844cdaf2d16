/**
 * @module
 * `#/batches/{id}`: one batch: its counts while it runs (read again every few seconds), the verdicts'
 * distribution (A / B / tie, or a histogram of scores; a rubric's aspects each with its mean), calls and
 * cost, and its results page by page (`GET /v1/batches/{id}/results`, NDJSON, each row with its aspects). A meta-evaluation's batch opens its report page (./meta.ts).
 */
import { describeError, getJson, request } from '../api.js';
import { histogram } from '../charts.js';
import {
  ago,
  breadcrumb,
  card,
  confidenceLabel,
  facts,
  idCode,
  progressBar,
  scoreHeadline,
  statusPill,
  winnerChip,
} from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatInt, formatTime, formatUsd, scoreOf, shortId } from '../format.js';
import type { Batch, BatchResultLine } from '../types.js';
import type { View } from '../view.js';
import { setTitle, sleep } from '../view.js';
import { aspectScores, batchAspectsCard } from './aspect-summary.js';
import { labelBars } from './report-view.js';
import { rubricStamp } from './rubrics.js';
import { batchHref } from './batch-list.js';

/** How often a running batch is read again, ms. */
const POLL_MS = 3000;

/** One page of results: the NDJSON lines and the next page's cursor. */
async function resultsPage(
  id: string,
  cursor: string | null,
  signal: AbortSignal,
): Promise<{ lines: BatchResultLine[]; next: string | null }> {
  const q = new URLSearchParams({ limit: '100' });
  if (cursor) q.set('cursor', cursor);
  const r = await request(`/v1/batches/${encodeURIComponent(id)}/results?${q.toString()}`, {
    headers: { Accept: 'application/x-ndjson' },
    signal,
  });
  const text = await r.text();
  const lines = text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as BatchResultLine);
  return { lines, next: r.headers.get('X-Next-Cursor') };
}

function resultRow(l: BatchResultLine): HTMLElement {
  const v = l.verdict;
  const verdict = v
    ? v.taskKind === 'pairwise'
      ? winnerChip(v.winner ?? 'tie')
      : h('strong', null, v.score === undefined ? '—' : scoreOf(v.score, v.scale))
    : l.error
      ? h('span', { class: 'error-text small', title: l.error.message }, l.error.code)
      : h('span', { class: 'muted' }, '—');
  return h(
    'tr',
    null,
    h('td', { class: 'num' }, String(l.index + 1)),
    h('th', { scope: 'row' }, l.itemId ?? h('span', { class: 'muted' }, '—')),
    h(
      'td',
      null,
      l.deleted
        ? h('span', { class: 'muted' }, 'deleted')
        : h(
            'a',
            { href: `#/evaluations/${encodeURIComponent(l.evaluationId)}`, title: l.evaluationId },
            shortId(l.evaluationId),
          ),
    ),
    h('td', null, statusPill(l.status)),
    h('td', null, h('span', { class: 'vote' }, verdict, v ? confidenceLabel(v.confidence) : null), aspectScores(v)),
  );
}

function summary(b: Batch, lines: readonly BatchResultLine[]): HTMLElement {
  const c = b.counts;
  const s = b.verdicts;
  const scores = lines.flatMap((l) => (l.verdict?.score !== undefined ? [l.verdict.score] : []));
  const pairwise = s.winsA + s.winsB + s.ties > 0;
  // Every item of a batch is judged by one judge on one scale: the first shown verdict's says which.
  const scale = lines.find((l) => l.verdict?.scale)?.verdict?.scale ?? null;
  return h(
    'div',
    { class: 'summary-grid' },
    h(
      'div',
      { class: 'summary-main' },
      card(
        'Verdicts',
        s.verdicts === 0
          ? h('p', { class: 'muted' }, 'No verdict yet.')
          : pairwise
            ? labelBars('Winner', { A: s.winsA, B: s.winsB, tie: s.ties })
            : [
                scoreHeadline(s.meanScore, scale, 'mean score'),
                scores.length > 1
                  ? histogram(scores, `Scores of the ${formatInt(scores.length)} items shown below`)
                  : null,
              ],
      ),
      batchAspectsCard(b, lines),
    ),
    h(
      'div',
      { class: 'summary-side' },
      card(
        'Items',
        progressBar(c.ended, c.total, 'Items ended'),
        facts([
          ['Ended', `${formatInt(c.ended)} of ${formatInt(c.total)}`],
          ['Succeeded', formatInt(c.succeeded)],
          ['Failed', formatInt(c.failed)],
          ['Cancelled', formatInt(c.cancelled)],
          ['Pending', formatInt(c.pending)],
        ]),
      ),
      card(
        'Cost',
        facts([
          ['LLM calls', formatInt(b.usage.calls)],
          ['Tokens', `${formatInt(b.usage.promptTokens)} in · ${formatInt(b.usage.completionTokens)} out`],
          ['Cost', formatUsd(b.usage.costUsd)],
          // Cached verdicts make no call: without this line a batch served from the cache reads "0 calls, $0".
          ['Verdict cache', cacheText(b.cache)],
        ]),
      ),
    ),
  );
}

/** The items served from the verdict cache and what they saved, e.g. `30 from cache, saved $0.12`. */
function cacheText(c: Batch['cache']): string {
  return c.hits === 0 ? 'no hits' : `${formatInt(c.hits)} from cache, saved ${formatUsd(c.savedUsd)}`;
}

/** A batch's budget in words, and when it ran out (items not started then fail `budget_exceeded`). */
function budgetText(b: NonNullable<Batch['budget']>, exhaustedAt: string | null): string {
  const parts = [
    b.maxCostUsd !== undefined ? formatUsd(b.maxCostUsd) : null,
    b.maxCalls !== undefined ? `${formatInt(b.maxCalls)} calls` : null,
    b.maxTokens !== undefined ? `${formatInt(b.maxTokens)} tokens` : null,
  ].filter((p) => p !== null);
  return `at most ${parts.join(', ')}${exhaustedAt ? ` · used up ${formatTime(exhaustedAt)}` : ''}`;
}

/** One batch. */
export const batchView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/batches/${encodeURIComponent(id)}`;
  let batch = await getJson<Batch>(path, ctx.signal);
  if (batch.kind !== 'batch') {
    window.location.replace(batchHref(batch));
    return;
  }
  setTitle(`Batch ${shortId(id)}`);
  let page = await resultsPage(id, null, ctx.signal);
  let cursor = page.next;
  let extraPages = 0;
  const summarySlot = h('div');
  const headSlot = h('div', { class: 'page-head' });
  const notice = h('div', { role: 'alert' });
  const body = h('tbody');
  const more = h('button', { type: 'button', class: 'btn' }, 'Load more results');
  const cancel = h('button', { type: 'button', class: 'btn btn-danger btn-small' }, 'Cancel batch');
  const render = () => {
    replaceChildren(
      headSlot,
      breadcrumb([['Batches', '#/batches']], shortId(batch.id)),
      h(
        'div',
        { class: 'title-row' },
        h('h1', null, `Batch: ${batch.preset ?? batch.method}`),
        statusPill(batch.status),
        h('span', { class: 'spacer' }),
        cancel,
      ),
      facts(
        [
          ['Batch', idCode(batch.id)],
          ['Method', batch.method],
          ['Created', ago(batch.createdAt)],
          batch.completedAt ? ['Completed', formatTime(batch.completedAt)] : null,
          // One rubric judges every item (resolved once, at submit): its record is on every result line.
          page.lines[0]?.rubric ? ['Rubric', rubricStamp(page.lines[0].rubric)] : null,
          batch.webhook ? ['Webhook', batch.webhook.url] : null,
          batch.budget ? ['Budget', budgetText(batch.budget, batch.budgetExhaustedAt)] : null,
        ],
        'facts facts-inline',
      ),
    );
    cancel.hidden = batch.status !== 'running';
    replaceChildren(summarySlot, summary(batch, page.lines));
    more.hidden = cursor === null;
  };
  const showResults = (lines: readonly BatchResultLine[], append: boolean) => {
    if (!append) replaceChildren(body);
    body.append(...lines.map(resultRow));
  };
  cancel.addEventListener('click', () => {
    if (!window.confirm('Cancel this batch? Items not started never start; calls in flight are still billed.')) return;
    cancel.disabled = true;
    request(`${path}/cancel`, { method: 'POST', headers: { Accept: 'application/json' } }).then(
      async (r) => {
        batch = (await r.json()) as Batch;
        render();
      },
      (e: unknown) => {
        cancel.disabled = false;
        replaceChildren(notice, h('p', { class: 'notice notice-error' }, `Could not cancel: ${describeError(e)}`));
      },
    );
  });
  more.addEventListener('click', () => {
    if (!cursor) return;
    more.disabled = true;
    resultsPage(id, cursor, ctx.signal).then((p) => {
      extraPages++;
      cursor = p.next;
      more.disabled = false;
      more.hidden = cursor === null;
      showResults(p.lines, true);
    }, ctx.fail);
  });
  replaceChildren(
    ctx.root,
    h(
      'div',
      { class: 'page' },
      headSlot,
      notice,
      summarySlot,
      card(
        'Results',
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
                ['#', 'Item', 'Evaluation', 'Status', 'Verdict'].map((c, i) =>
                  h('th', { scope: 'col', class: i === 0 ? 'num' : null }, c),
                ),
              ),
            ),
            body,
          ),
        ),
        h('div', { class: 'pager' }, more),
      ),
    ),
  );
  showResults(page.lines, false);
  render();
  void (async () => {
    while (batch.status === 'running' || batch.status === 'cancelling') {
      await sleep(POLL_MS, ctx.signal);
      batch = await getJson<Batch>(path, ctx.signal);
      if (extraPages === 0) {
        page = await resultsPage(id, null, ctx.signal);
        cursor = page.next;
        showResults(page.lines, false);
      }
      render();
    }
  })().catch((e: unknown) => {
    if (!ctx.signal.aborted) ctx.fail(e);
  });
};
