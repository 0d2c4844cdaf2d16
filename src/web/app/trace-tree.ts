/**
 * @module
 * A trace's spans as a tree for the trace page: built from the spans' parent ids, not from the order the API
 * sends them in, so a page shows the same tree whatever arrived first. Pure functions (tested in Node).
 */

/** What the tree needs of a span (the API's `TraceTreeSpan` has these and more). */
export interface TreeSpan {
  spanId: string;
  parentSpanId: string | null;
  /** Nanoseconds since the Unix epoch as a decimal string (64 bits do not fit a JSON number). */
  startTimeUnixNano: string;
  /** Null when the span reported no end. */
  endTimeUnixNano: string | null;
}

/** A span in the tree with its children, earliest start first. */
export interface SpanNode<S extends TreeSpan> {
  span: S;
  children: SpanNode<S>[];
  /** True when the span names a parent that is not in the trace (not received yet, or never exported). */
  parentMissing: boolean;
}

/** Orders two decimal nanosecond strings as numbers (a longer string, leading zeros aside, is larger). */
export function compareNanos(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length - y.length;
  return x < y ? -1 : x > y ? 1 : 0;
}

function byStart<S extends TreeSpan>(a: SpanNode<S>, b: SpanNode<S>): number {
  const c = compareNanos(a.span.startTimeUnixNano, b.span.startTimeUnixNano);
  if (c !== 0) return c;
  return a.span.spanId < b.span.spanId ? -1 : a.span.spanId > b.span.spanId ? 1 : 0;
}

/**
 * The spans as a forest: each span under its parent, siblings and roots by start time (then span id, so equal
 * starts keep one order). A span whose parent is not in the trace is a root with `parentMissing`. A span repeated
 * by id is kept once (the first). Spans whose parents form a cycle (a malformed export) have no root: the
 * earliest of them becomes one, so every span is shown exactly once.
 */
export function buildSpanTree<S extends TreeSpan>(spans: readonly S[]): SpanNode<S>[] {
  const nodes = new Map<string, SpanNode<S>>();
  for (const span of spans)
    if (!nodes.has(span.spanId)) nodes.set(span.spanId, { span, children: [], parentMissing: false });
  const roots: SpanNode<S>[] = [];
  for (const node of nodes.values()) {
    const parentId = node.span.parentSpanId;
    const parent = parentId === null || parentId === node.span.spanId ? undefined : nodes.get(parentId);
    if (parent) parent.children.push(node);
    else {
      node.parentMissing = parentId !== null && parentId !== node.span.spanId;
      roots.push(node);
    }
  }
  const placed = new Set<SpanNode<S>>();
  const place = (node: SpanNode<S>): void => {
    placed.add(node);
    node.children.sort(byStart);
    for (const c of node.children) place(c);
  };
  roots.sort(byStart);
  for (const r of roots) place(r);
  // What no root reached sits on a cycle of parents: cut each cycle at its earliest span.
  const rest = [...nodes.values()].filter((n) => !placed.has(n)).sort(byStart);
  for (const node of rest) {
    if (placed.has(node)) continue;
    const parent = node.span.parentSpanId === null ? undefined : nodes.get(node.span.parentSpanId);
    if (parent) parent.children = parent.children.filter((c) => c !== node);
    roots.push(node);
    place(node);
  }
  return roots;
}

/** A span's duration in ms (to the microsecond), or null when it reported no end. */
export function spanDurationMs(span: TreeSpan): number | null {
  if (span.endTimeUnixNano === null) return null;
  const ns = BigInt(span.endTimeUnixNano) - BigInt(span.startTimeUnixNano);
  return ns < 0n ? 0 : Number(ns / 1000n) / 1000;
}

/** The trace's wall time in ms: its earliest start to its latest end; null without any ended span. */
export function traceWindowMs(spans: readonly TreeSpan[]): number | null {
  let start: string | null = null;
  let end: string | null = null;
  for (const s of spans) {
    if (start === null || compareNanos(s.startTimeUnixNano, start) < 0) start = s.startTimeUnixNano;
    if (s.endTimeUnixNano !== null && (end === null || compareNanos(s.endTimeUnixNano, end) > 0))
      end = s.endTimeUnixNano;
  }
  return start === null || end === null
    ? null
    : spanDurationMs({ spanId: '', parentSpanId: null, startTimeUnixNano: start, endTimeUnixNano: end });
}

/** A nanosecond Unix time as an ISO time (ms precision). */
export function nanosToIso(ns: string): string {
  return new Date(Number(BigInt(ns) / 1_000_000n)).toISOString();
}
