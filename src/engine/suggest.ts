/**
 * @module
 * "Did you mean": the closest known name to a mistyped one (a preset, a config key), and the names a
 * config schema knows at a path, so an error can offer the right spelling.
 */
import type { z } from 'zod';

/** Edit distance (insertions, deletions, substitutions, adjacent swaps) between two strings. */
function distance(a: string, b: string): number {
  const width = b.length + 1;
  const d = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number): number => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i++) d[i * width] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * width + j] = v;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `word` (case-insensitive), or undefined when none is close: at most a third of
 * the word's length in edits (at least 1, at most 3), or one that starts with it or it starts with.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const n = name.toLowerCase();
    const d = n.startsWith(w) || w.startsWith(n) ? Math.abs(n.length - w.length) * 0.1 : distance(w, n);
    if (!best || d < best.d) best = { name, d };
  }
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  return best && best.d <= limit ? best.name : undefined;
}

/**
 * ` (did you mean "x"?)` for the closest candidate, or '' when none is close, or when `word` is a candidate
 * itself (offering a name back to whoever sent it would be no help).
 */
export function didYouMean(word: string, candidates: Iterable<string>): string {
  const list = [...candidates];
  if (list.includes(word)) return '';
  const c = closest(word, list);
  return c === undefined ? '' : ` (did you mean "${c}"?)`;
}

/** The zod 4 definition fields this walk reads. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  getter?: () => z.ZodType;
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The object schemas `schema` may be at `path` (wrappers, arrays and unions looked through). */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[], depth = 0): Def[] {
  if (depth > 40) return [];
  const def = defOf(schema);
  const inner = def.innerType ?? def.in ?? (def.type === 'lazy' ? def.getter?.() : undefined);
  if (inner) return objectsAt(inner, path, depth + 1);
  if (def.type === 'union') return (def.options ?? []).flatMap((o) => objectsAt(o, path, depth + 1));
  if (path.length === 0) return def.type === 'object' ? [def] : [];
  const [head, ...rest] = path;
  if (def.type === 'array' && def.element) return objectsAt(def.element, rest, depth + 1);
  const next = def.type === 'object' ? def.shape?.[String(head)] : undefined;
  return next ? objectsAt(next, rest, depth + 1) : [];
}

/** The keys an object at `path` of `schema` accepts (empty when the path is not an object). */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  return [...new Set(objectsAt(schema, path).flatMap((d) => Object.keys(d.shape ?? {})))];
}
