/**
 * @module
 * A readable diff of two texts, for the rubric version page: lines compared as a longest common
 * subsequence, and each removed line paired with the added line that replaced it compared word by word,
 * so a one-word edit in a long criteria paragraph shows as that word, not as the whole paragraph twice.
 * Pure (no DOM): tests/web/text-diff.test.ts.
 */

/** What happened to a piece: kept, added in the newer text, or removed from the older one. */
export type DiffOp = 'same' | 'add' | 'del';

/** One element of a sequence diff. */
export interface DiffItem<T> {
  op: DiffOp;
  value: T;
}

/** A run of text inside a line, with what happened to it. */
export interface DiffPart {
  op: DiffOp;
  text: string;
}

/** One line of a text diff: the line's own op and, for a line paired with its replacement, its words. */
export interface DiffLine {
  op: DiffOp;
  /** The line's text in runs; a `same` line or an unpaired line is one run of its own op. */
  parts: DiffPart[];
}

/** Unchanged lines folded away by {@link collapseSame}. */
export interface DiffSkip {
  op: 'skip';
  /** How many unchanged lines are hidden. */
  count: number;
}

/**
 * Most comparisons the LCS table may take (4,000,000 cells, ~16 MB): past it, the differing middle of
 * the two sequences is shown as removed then added, which stays correct, only coarser.
 */
export const MAX_DIFF_CELLS = 4_000_000;

/**
 * The shortest edit from `a` to `b` as kept / removed / added items, in order; within a change, the
 * removals come before the additions. `eq` compares items (default `===`).
 */
export function diffSeq<T>(
  a: readonly T[],
  b: readonly T[],
  eq: (x: T, y: T) => boolean = (x, y) => x === y,
): DiffItem<T>[] {
  // The common head and tail need no table (most edits touch a small middle).
  let start = 0;
  while (start < a.length && start < b.length && eq(a[start] as T, b[start] as T)) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && eq(a[endA - 1] as T, b[endB - 1] as T)) {
    endA--;
    endB--;
  }
  const head = a.slice(0, start).map((value) => ({ op: 'same' as const, value }));
  const tail = a.slice(endA).map((value) => ({ op: 'same' as const, value }));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  const n = midA.length;
  const m = midB.length;
  if (n === 0 || m === 0 || n * m > MAX_DIFF_CELLS) {
    return [
      ...head,
      ...midA.map((value) => ({ op: 'del' as const, value })),
      ...midB.map((value) => ({ op: 'add' as const, value })),
      ...tail,
    ];
  }
  // lcs[i * (m + 1) + j]: length of the longest common subsequence of midA[i..] and midB[j..].
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] = eq(midA[i] as T, midB[j] as T)
        ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1
        : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const middle: DiffItem<T>[] = [];
  const dels: DiffItem<T>[] = [];
  const adds: DiffItem<T>[] = [];
  const flush = () => {
    middle.push(...dels, ...adds);
    dels.length = 0;
    adds.length = 0;
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && eq(midA[i] as T, midB[j] as T)) {
      flush();
      middle.push({ op: 'same', value: midA[i] as T });
      i++;
      j++;
    } else if (j >= m || (i < n && (lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0))) {
      dels.push({ op: 'del', value: midA[i] as T });
      i++;
    } else {
      adds.push({ op: 'add', value: midB[j] as T });
      j++;
    }
  }
  flush();
  return [...head, ...middle, ...tail];
}

/**
 * Words, the whitespace between them and each punctuation mark, as runs (joined, they give the line back):
 * `policy.` → `policy` `.`, so a word that gains a following word keeps its full stop unchanged.
 */
function words(line: string): string[] {
  return line.match(/[\p{L}\p{N}_]+|\s+|[^\p{L}\p{N}_\s]/gu) ?? [];
}

/** Consecutive runs of one op merged: `the` `␠` `cat` kept read as one run `the cat`. */
function merge(parts: readonly DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  for (const p of parts) {
    const last = out[out.length - 1];
    if (last?.op === p.op) last.text += p.text;
    else out.push({ ...p });
  }
  return out;
}

/**
 * Least share of a replaced line's words (whitespace aside) the two lines must keep for its words to be
 * marked: below it the lines have little in common, and marking nearly every word reads worse than a
 * whole line removed and a whole line added.
 */
export const MIN_SHARED_WORDS = 0.4;

/** A removed line and the added line that replaced it, each marked word by word; null when they share too little. */
function pairWords(before: string, after: string): [DiffLine, DiffLine] | null {
  const ops = diffSeq(words(before), words(after));
  const solid = (o: DiffItem<string>) => /\S/.test(o.value);
  const kept = ops.filter((o) => o.op === 'same' && solid(o)).length;
  const longer = Math.max(
    ops.filter((o) => o.op !== 'add' && solid(o)).length,
    ops.filter((o) => o.op !== 'del' && solid(o)).length,
  );
  if (longer === 0 || kept / longer < MIN_SHARED_WORDS) return null;
  return [
    { op: 'del', parts: merge(ops.filter((o) => o.op !== 'add').map((o) => ({ op: o.op, text: o.value }))) },
    { op: 'add', parts: merge(ops.filter((o) => o.op !== 'del').map((o) => ({ op: o.op, text: o.value }))) },
  ];
}

/**
 * The diff of two texts by lines; within each change, the k-th removed line and the k-th added line are
 * compared word by word (their unchanged words marked `same`) when they share enough words
 * ({@link MIN_SHARED_WORDS}). Line ends are `\n` (`\r\n` read as one).
 */
export function diffText(before: string, after: string): DiffLine[] {
  const split = (s: string) => (s === '' ? [] : s.replace(/\r\n/g, '\n').split('\n'));
  const ops = diffSeq(split(before), split(after));
  const out: DiffLine[] = [];
  let k = 0;
  while (k < ops.length) {
    const op = ops[k] as DiffItem<string>;
    if (op.op === 'same') {
      out.push({ op: 'same', parts: [{ op: 'same', text: op.value }] });
      k++;
      continue;
    }
    const dels: string[] = [];
    const adds: string[] = [];
    while (ops[k]?.op === 'del') dels.push((ops[k++] as DiffItem<string>).value);
    while (ops[k]?.op === 'add') adds.push((ops[k++] as DiffItem<string>).value);
    // The k-th removed line pairs with the k-th added one; removals first, then additions, as the sequence
    // diff orders them.
    const whole = (op: 'add' | 'del', text: string): DiffLine => ({ op, parts: [{ op, text }] });
    const removed: DiffLine[] = [];
    const added: DiffLine[] = [];
    for (let p = 0; p < Math.max(dels.length, adds.length); p++) {
      const d = dels[p];
      const a = adds[p];
      const pair = d !== undefined && a !== undefined ? pairWords(d, a) : null;
      if (pair) {
        removed.push(pair[0]);
        added.push(pair[1]);
        continue;
      }
      if (d !== undefined) removed.push(whole('del', d));
      if (a !== undefined) added.push(whole('add', a));
    }
    out.push(...removed, ...added);
  }
  return out;
}

/** True when the diff changes nothing. */
export function unchanged(lines: readonly DiffLine[]): boolean {
  return lines.every((l) => l.op === 'same');
}

/**
 * Long runs of unchanged lines folded to `context` lines either side of each change (default 2); a run
 * shorter than the fold it would need is kept whole.
 */
export function collapseSame(lines: readonly DiffLine[], context = 2): (DiffLine | DiffSkip)[] {
  const out: (DiffLine | DiffSkip)[] = [];
  let k = 0;
  while (k < lines.length) {
    if ((lines[k] as DiffLine).op !== 'same') {
      out.push(lines[k] as DiffLine);
      k++;
      continue;
    }
    let end = k;
    while (end < lines.length && (lines[end] as DiffLine).op === 'same') end++;
    const keepBefore = k === 0 ? 0 : context;
    const keepAfter = end === lines.length ? 0 : context;
    const hidden = end - k - keepBefore - keepAfter;
    if (hidden > 1) {
      out.push(...lines.slice(k, k + keepBefore), { op: 'skip', count: hidden }, ...lines.slice(end - keepAfter, end));
    } else {
      out.push(...lines.slice(k, end));
    }
    k = end;
  }
  return out;
}
