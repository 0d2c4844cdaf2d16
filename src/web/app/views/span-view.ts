/**
 * @module
 * One span of the trace page (./trace.ts): its name, what it is (model call, tool, agent), its model, duration
 * and status, its input and output folded away, and the evaluations made of it, each linking to its page.
 */
import { badge, confidenceLabel, statusPill, winnerChip } from '../components.js';
import { h } from '../dom.js';
import type { Child } from '../dom.js';
import { formatDuration, formatInt, formatScore, shortId } from '../format.js';
import type { SpanNode } from '../trace-tree.js';
import { spanDurationMs } from '../trace-tree.js';
import type { TraceEvaluation, TraceSpan } from '../types.js';

/** What a span's row needs besides the span: the trace's first failing steps and which spans are unfolded. */
export interface SpanContext {
  /** Span id → the evaluations whose verdict names it as the first failing step of a trajectory. */
  failingSteps: ReadonlyMap<string, readonly { evaluationId: string; step: number }[]>;
  /** Span ids whose input and output are unfolded (kept across a refresh of the page). */
  open: Set<string>;
}

/** A verdict's headline as a trace lists it: the winner or the score, and the confidence. */
function verdictSummary(v: NonNullable<TraceEvaluation['verdict']>): HTMLElement {
  const main =
    v.winner !== null ? winnerChip(v.winner) : h('strong', null, v.score === null ? '—' : formatScore(v.score));
  return h(
    'span',
    { class: 'vote' },
    main,
    confidenceLabel(v.confidence),
    v.firstFailingStep ? h('span', { class: 'small' }, `first failing step ${v.firstFailingStep.step}`) : null,
  );
}

/** The evaluations made of a span or of the whole trace, each linking to its page. */
export function evaluationItems(evaluations: readonly TraceEvaluation[]): HTMLElement {
  return h(
    'ul',
    { class: 'span-evaluations' },
    evaluations.map((e) =>
      h(
        'li',
        null,
        h('a', { href: `#/evaluations/${encodeURIComponent(e.id)}`, title: e.id }, shortId(e.id)),
        statusPill(e.status),
        e.verdict ? verdictSummary(e.verdict) : null,
        h(
          'span',
          { class: 'muted small' },
          e.monitorId ? ['monitor ', h('code', null, shortId(e.monitorId, 12))] : 'by hand',
        ),
      ),
    ),
  );
}

/** An exception event's message, as OpenTelemetry records errors on a span. */
function exceptionsOf(span: TraceSpan): string[] {
  return span.events
    .filter((e) => e.name === 'exception')
    .map((e) => {
      const type = e.attributes['exception.type'];
      const message = e.attributes['exception.message'];
      return [type, message].filter((x) => typeof x === 'string' && x !== '').join(': ') || 'exception';
    });
}

function textBlock(label: string, text: string | null): Child {
  if (text === null || text === '') return null;
  return h(
    'div',
    { class: 'span-io' },
    h('p', { class: 'span-io-label' }, label),
    h('pre', { class: 'span-text' }, text),
  );
}

/** The folded part: input, output, a tool's call, token usage. Null when the span carries none. */
function ioDetails(span: TraceSpan, open: Set<string>): HTMLElement | null {
  const g = span.genAi;
  const usage = g.usage;
  const parts: Child[] = [
    textBlock('Input', g.input),
    textBlock('Output', g.output),
    g.tool ? textBlock(`Tool call ${g.tool.name}`, g.tool.arguments) : null,
    g.tool ? textBlock('Tool result', g.tool.result) : null,
    usage && (usage.inputTokens !== null || usage.outputTokens !== null)
      ? h(
          'p',
          { class: 'muted small' },
          `Tokens: ${usage.inputTokens === null ? '—' : formatInt(usage.inputTokens)} in, ${usage.outputTokens === null ? '—' : formatInt(usage.outputTokens)} out`,
        )
      : null,
  ].filter((p) => p !== null);
  if (parts.length === 0) return null;
  const details = h(
    'details',
    { class: 'span-details', open: open.has(span.spanId) },
    h('summary', null, 'Input and output'),
    ...parts,
  );
  details.addEventListener('toggle', () => {
    if (details.open) open.add(span.spanId);
    else open.delete(span.spanId);
  });
  return details;
}

/** The span's head line: name, type, kind, model, duration, status. */
function spanHead(node: SpanNode<TraceSpan>, ctx: SpanContext): HTMLElement {
  const { span } = node;
  const g = span.genAi;
  const model = g.responseModel ?? g.requestModel;
  const duration = spanDurationMs(span);
  const failing = ctx.failingSteps.get(span.spanId) ?? [];
  return h(
    'div',
    { class: 'span-head' },
    h('span', { class: 'span-name' }, span.name),
    badge(g.type === 'other' ? span.kind : g.type, 'neutral', `kind ${span.kind}`),
    model ? h('code', { class: 'span-model' }, model) : null,
    span.status.code === 'error' ? statusPill('error') : null,
    node.parentMissing ? badge('parent not received', 'warn', `parent ${span.parentSpanId ?? ''}`) : null,
    failing.map((f) => badge(`first failing step ${f.step}`, 'error', `of ${f.evaluationId}`)),
    h('span', { class: 'span-duration muted small' }, duration === null ? 'no end' : formatDuration(duration)),
  );
}

/** The span's row and its children, as a list item of the tree. */
export function spanItem(node: SpanNode<TraceSpan>, ctx: SpanContext): HTMLElement {
  const { span } = node;
  const errors = [...(span.status.message ? [span.status.message] : []), ...exceptionsOf(span)];
  return h(
    'li',
    { class: 'span-node', 'data-span-id': span.spanId },
    h(
      'div',
      { class: span.status.code === 'error' ? 'span-row span-row-error' : 'span-row' },
      spanHead(node, ctx),
      errors.length > 0 ? h('p', { class: 'error-text small' }, errors.join(' · ')) : null,
      ioDetails(span, ctx.open),
      span.evaluations.length > 0 ? evaluationItems(span.evaluations) : null,
    ),
    node.children.length > 0
      ? h(
          'ol',
          { class: 'span-tree' },
          node.children.map((c) => spanItem(c, ctx)),
        )
      : null,
  );
}
