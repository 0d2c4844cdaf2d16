/**
 * @module
 * `#/traces`: open a trace by its id (the API lists no traces). `#/traces/{traceId}`: the trace sent to
 * `POST /v1/traces` as a tree of spans (`GET /v1/traces/{traceId}`), each with the evaluations made of it;
 * read again every few seconds while one of them has not ended, with the unfolded spans kept unfolded.
 */
import { getJson } from '../api.js';
import { ago, breadcrumb, card, facts, idCode, page, pageHead } from '../components.js';
import { isTerminal } from '../debate.js';
import { h, replaceChildren } from '../dom.js';
import { formatDuration, formatInt, shortId } from '../format.js';
import { buildSpanTree, compareNanos, nanosToIso, traceWindowMs } from '../trace-tree.js';
import type { EvaluationSource, Trace, TraceEvaluation } from '../types.js';
import type { View } from '../view.js';
import { setTitle, sleep } from '../view.js';
import type { SpanContext } from './span-view.js';
import { evaluationItems, spanItem } from './span-view.js';

/** How often a trace with unfinished evaluations is read again, ms. */
const REFRESH_MS = 3000;

/** A trace id as OTLP/JSON writes it: 32 hex characters (the form accepts capitals and lowers them). */
const TRACE_ID = /^[0-9a-f]{32}$/;

/** The page of trace `traceId`. */
export function traceHref(traceId: string): string {
  return `#/traces/${encodeURIComponent(traceId)}`;
}

/** Where an evaluation made of a trace came from: a link to the trace, then its span and monitor. */
export function sourceLink(source: EvaluationSource): HTMLElement {
  return h(
    'span',
    null,
    h('a', { href: traceHref(source.traceId), title: source.traceId }, shortId(source.traceId)),
    source.spanId ? [', span ', h('code', null, source.spanId)] : null,
    source.monitorId ? [', monitor ', h('code', null, source.monitorId)] : null,
  );
}

/** The entry page: a box for a trace id. */
export const tracesView: View = (ctx) => {
  setTitle('Traces');
  const input = h('input', {
    id: 'trace-id',
    name: 'traceId',
    type: 'text',
    required: true,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: '32 hex characters',
    'aria-describedby': 'trace-id-hint trace-id-error',
  });
  const error = h('p', { id: 'trace-id-error', class: 'field-error', role: 'alert' });
  const form = h(
    'form',
    { class: 'row open-by-id', novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'trace-id' }, 'Trace id'),
      input,
      h(
        'p',
        { id: 'trace-id-hint', class: 'hint' },
        'The trace id your OpenTelemetry exporter sent, as in its OTLP/JSON export or your tracing tool.',
      ),
      error,
    ),
    h('button', { type: 'submit', class: 'btn btn-primary' }, 'Open'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = input.value.trim().toLowerCase();
    if (!TRACE_ID.test(id)) {
      error.textContent = 'A trace id is 32 hexadecimal characters (0-9, a-f).';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    ctx.navigate(traceHref(id));
  });
  replaceChildren(
    ctx.root,
    page(
      pageHead('title-row', h('h1', null, 'Traces')),
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'open-trace-title' },
        h('h2', { id: 'open-trace-title', class: 'card-title' }, 'Open a trace'),
        h(
          'p',
          null,
          'Spans exported to ',
          h('code', null, 'POST /v1/traces'),
          ' (OTLP/HTTP) are kept per trace. A trace shows its spans as a tree with the evaluations made of them; ',
          'an evaluation made of a trace links to it.',
        ),
        form,
      ),
    ),
  );
  return Promise.resolve();
};

/** Every evaluation of the trace: of the whole trace, then of each span. */
function allEvaluations(trace: Trace): TraceEvaluation[] {
  return [...trace.evaluations, ...trace.spans.flatMap((s) => s.evaluations)];
}

/** Span id → the evaluations naming it as a trajectory's first failing step. */
function failingStepsOf(trace: Trace): SpanContext['failingSteps'] {
  const out = new Map<string, { evaluationId: string; step: number }[]>();
  for (const e of allEvaluations(trace)) {
    const f = e.verdict?.firstFailingStep;
    if (f?.spanId) out.set(f.spanId, [...(out.get(f.spanId) ?? []), { evaluationId: e.id, step: f.step }]);
  }
  return out;
}

function render(trace: Trace, open: Set<string>): HTMLElement {
  const root = trace.spans.find((s) => s.spanId === trace.rootSpanId) ?? null;
  const wall = traceWindowMs(trace.spans);
  const first = trace.spans.reduce<string | null>(
    (min, s) => (min === null || compareNanos(s.startTimeUnixNano, min) < 0 ? s.startTimeUnixNano : min),
    null,
  );
  const errors = trace.spans.filter((s) => s.status.code === 'error').length;
  const evaluations = allEvaluations(trace);
  const ctx: SpanContext = { failingSteps: failingStepsOf(trace), open };
  return page(
    pageHead(
      'stack',
      breadcrumb([['Traces', '#/traces']], shortId(trace.traceId)),
      h('h1', null, root?.name ?? 'Trace'),
      facts(
        [
          ['Trace', idCode(trace.traceId)],
          ['Spans', formatInt(trace.spanCount)],
          root?.service ? ['Service', root.service] : null,
          first ? ['Started', ago(nanosToIso(first))] : null,
          ['Duration', wall === null ? '—' : formatDuration(wall)],
          ['Errors', formatInt(errors)],
          ['Evaluations', formatInt(evaluations.length)],
        ],
        'facts facts-inline',
      ),
    ),
    trace.evaluations.length > 0 ? card('Evaluations of the trace', evaluationItems(trace.evaluations)) : null,
    card(
      'Spans',
      root === null ? h('p', { class: 'muted small' }, 'The root span has not arrived yet.') : null,
      h(
        'ol',
        { class: 'span-tree span-tree-top', 'aria-label': 'Spans, each under its parent, by start time' },
        buildSpanTree(trace.spans).map((n) => spanItem(n, ctx)),
      ),
    ),
  );
}

/** The trace page. */
export const traceView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/traces/${encodeURIComponent(id)}`;
  let trace = await getJson<Trace>(path, ctx.signal);
  setTitle(`Trace ${shortId(id)}`);
  const open = new Set<string>();
  replaceChildren(ctx.root, render(trace, open));
  // Follow the evaluations still running (in the background: the page is shown).
  void (async () => {
    while (allEvaluations(trace).some((e) => !isTerminal(e.status))) {
      await sleep(REFRESH_MS, ctx.signal);
      trace = await getJson<Trace>(path, ctx.signal);
      replaceChildren(ctx.root, render(trace, open));
    }
  })().catch((e: unknown) => {
    if (!ctx.signal.aborted) ctx.fail(e);
  });
};
