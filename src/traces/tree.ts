/**
 * @module
 * Spans in tree order: each root (a span without a parent, or whose parent never arrived) followed by its
 * descendants depth first, siblings by start time (then span id, so the order is stable).
 */
import type { NormalizedSpan } from './span-schema.js';

/** Compares two decimal nanosecond strings as numbers. */
export function compareNanos(a: string, b: string): number {
  return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
}

/** A decimal nanosecond time in ms (precision past a ms is dropped). */
export function nanosToMs(ns: string): number {
  return ns.length <= 6 ? 0 : Number(ns.slice(0, -6));
}

/** The spans depth first from their roots, each with its depth (roots 0). */
export function treeOrder<S extends NormalizedSpan>(spans: readonly S[]): (S & { depth: number })[] {
  const byStart = [...spans].sort(
    (a, b) => compareNanos(a.startTimeUnixNano, b.startTimeUnixNano) || (a.spanId < b.spanId ? -1 : 1),
  );
  const ids = new Set(byStart.map((s) => s.spanId));
  const children = new Map<string, S[]>();
  const roots: S[] = [];
  for (const s of byStart) {
    if (s.parentSpanId === null || !ids.has(s.parentSpanId) || s.parentSpanId === s.spanId) roots.push(s);
    else children.set(s.parentSpanId, [...(children.get(s.parentSpanId) ?? []), s]);
  }
  const out: (S & { depth: number })[] = [];
  const seen = new Set<string>();
  const visit = (s: S, depth: number): void => {
    if (seen.has(s.spanId)) return;
    seen.add(s.spanId);
    out.push({ ...s, depth });
    for (const c of children.get(s.spanId) ?? []) visit(c, depth + 1);
  };
  for (const r of roots) visit(r, 0);
  // A cycle of parents (a malformed export) has no root: its spans follow as roots of their own.
  for (const s of byStart) visit(s, 0);
  return out;
}
