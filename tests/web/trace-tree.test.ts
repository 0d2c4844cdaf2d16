/** The trace page's span tree (src/web/app/trace-tree.ts): built from parent ids, whatever order spans arrive in. */
import { describe, expect, it } from 'vitest';
import type { SpanNode, TreeSpan } from '../../src/web/app/trace-tree.js';
import {
  buildSpanTree,
  compareNanos,
  nanosToIso,
  spanDurationMs,
  traceWindowMs,
} from '../../src/web/app/trace-tree.js';

/** A span starting `startMs` after 2026-01-01 and lasting `ms` (null: no end). */
function span(spanId: string, parentSpanId: string | null, startMs: number, ms: number | null = 10): TreeSpan {
  const start = 1_767_225_600_000n * 1_000_000n + BigInt(startMs) * 1_000_000n;
  return {
    spanId,
    parentSpanId,
    startTimeUnixNano: start.toString(),
    endTimeUnixNano: ms === null ? null : (start + BigInt(ms) * 1_000_000n).toString(),
  };
}

/** The tree as `id(children…)`, with `!` after an id whose parent is missing. */
function shape(nodes: readonly SpanNode<TreeSpan>[]): string {
  return nodes
    .map((n) => `${n.span.spanId}${n.parentMissing ? '!' : ''}${n.children.length > 0 ? `(${shape(n.children)})` : ''}`)
    .join(' ');
}

describe('the span tree', () => {
  it('puts each span under its parent, whatever order the spans come in', () => {
    const spans = [span('tool', 'llm', 30), span('llm', 'root', 20), span('root', null, 0), span('answer', 'root', 50)];
    expect(shape(buildSpanTree(spans))).toBe('root(llm(tool) answer)');
    expect(shape(buildSpanTree([...spans].reverse()))).toBe('root(llm(tool) answer)');
  });

  it('orders siblings and roots by start time, then by span id when they start together', () => {
    const spans = [
      span('c', 'root', 300),
      span('b2', 'root', 100),
      span('a', 'root', 200),
      span('b1', 'root', 100),
      span('root', null, 0),
      span('late-root', null, -5),
    ];
    expect(shape(buildSpanTree(spans))).toBe('late-root root(b1 b2 a c)');
  });

  it('compares start times as numbers, not as text (a longer time is later)', () => {
    expect(compareNanos('999', '1000')).toBeLessThan(0);
    expect(compareNanos('0999', '999')).toBe(0);
    const spans = [
      { spanId: 'late', parentSpanId: null, startTimeUnixNano: '10000000000', endTimeUnixNano: null },
      { spanId: 'early', parentSpanId: null, startTimeUnixNano: '9000000000', endTimeUnixNano: null },
    ];
    expect(shape(buildSpanTree(spans))).toBe('early late');
  });

  it('shows a span whose parent has not arrived as a root marked so, with its own children under it', () => {
    const spans = [span('root', null, 0), span('orphan', 'not-received', 5), span('child', 'orphan', 6)];
    expect(shape(buildSpanTree(spans))).toBe('root orphan!(child)');
  });

  it('shows every span once: a repeated span id, a span its own parent, and a cycle of parents', () => {
    const spans = [
      span('root', null, 0),
      span('root', null, 1),
      span('self', 'self', 2),
      span('x', 'y', 3),
      span('y', 'x', 4),
    ];
    const tree = buildSpanTree(spans);
    expect(shape(tree)).toBe('root self x(y)');
    expect(tree[0]?.span.startTimeUnixNano).toBe(spans[0]?.startTimeUnixNano);
  });

  it('reads durations to the microsecond, a span without an end as null, and the trace from first start to last end', () => {
    expect(spanDurationMs(span('a', null, 0, 1250))).toBe(1250);
    expect(spanDurationMs({ ...span('a', null, 0), endTimeUnixNano: '1767225600000001500' })).toBe(0.001);
    expect(spanDurationMs(span('a', null, 0, null))).toBeNull();
    expect(traceWindowMs([span('a', null, 100, 50), span('b', 'a', 120, 200), span('c', 'a', 130, null)])).toBe(220);
    expect(traceWindowMs([span('a', null, 0, null)])).toBeNull();
    expect(nanosToIso(span('a', null, 1500).startTimeUnixNano)).toBe('2026-01-01T00:00:01.500Z');
  });
});
