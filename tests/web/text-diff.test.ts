/** The rubric version page's diff (src/web/app/text-diff.ts, src/web/app/rubric-diff.ts): pure logic, in Node. */
import { describe, expect, it } from 'vitest';
import type { RubricContent } from '../../src/web/app/rubric-diff.js';
import { diffVersions, exampleLines, isEmptyDiff } from '../../src/web/app/rubric-diff.js';
import type { DiffLine } from '../../src/web/app/text-diff.js';
import { collapseSame, diffSeq, diffText, MAX_DIFF_CELLS } from '../../src/web/app/text-diff.js';

/** A diff line as `-`/`+`/` ` and its text, changed words in brackets: `-the [red] cat`. */
function show(lines: readonly DiffLine[]): string[] {
  return lines.map(
    (l) =>
      ({ same: ' ', del: '-', add: '+' })[l.op] +
      l.parts.map((p) => (p.op === 'same' || p.op !== l.op || l.parts.length === 1 ? p.text : `[${p.text}]`)).join(''),
  );
}

describe('diffSeq', () => {
  it('gives the shortest edit, removals before additions in each change, and rebuilds both sides', () => {
    const a = 'ABCABBA'.split('');
    const b = 'CBABAC'.split('');
    const ops = diffSeq(a, b);
    expect(ops.filter((o) => o.op !== 'add').map((o) => o.value)).toEqual(a);
    expect(ops.filter((o) => o.op !== 'del').map((o) => o.value)).toEqual(b);
    // LCS of the two is 4 long: 7 - 4 removals and 6 - 4 additions.
    expect(ops.filter((o) => o.op === 'same')).toHaveLength(4);
    expect(ops.filter((o) => o.op === 'del')).toHaveLength(3);
    expect(diffSeq(['x', 'y'], ['z'])).toEqual([
      { op: 'del', value: 'x' },
      { op: 'del', value: 'y' },
      { op: 'add', value: 'z' },
    ]);
  });

  it('past the table limit shows the differing middle as removed then added, keeping the common ends', () => {
    const n = Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1;
    const a = ['head', ...Array.from({ length: n }, (_, i) => `a${i}`), 'tail'];
    const b = ['head', ...Array.from({ length: n }, (_, i) => `b${i}`), 'tail'];
    const ops = diffSeq(a, b);
    expect(ops[0]).toEqual({ op: 'same', value: 'head' });
    expect(ops.at(-1)).toEqual({ op: 'same', value: 'tail' });
    expect(ops.slice(1, n + 1).every((o) => o.op === 'del')).toBe(true);
    expect(ops.slice(n + 1, -1).every((o) => o.op === 'add')).toBe(true);
  });
});

describe('diffText', () => {
  it('marks the changed words of a replaced line, and whole lines added or removed', () => {
    const before = 'Judge the reply.\nIt must state the refund policy.\nBe brief.';
    const after = 'Judge the reply.\nIt must state the returns policy exactly.\nBe brief.\nCite the order number.';
    expect(show(diffText(before, after))).toEqual([
      ' Judge the reply.',
      '-It must state the [refund] policy.',
      '+It must state the [returns] policy[ exactly].',
      ' Be brief.',
      '+Cite the order number.',
    ]);
    expect(diffText('same', 'same').every((l) => l.op === 'same')).toBe(true);
    expect(show(diffText('', 'new'))).toEqual(['+new']);
  });

  it('marks no words of a replaced line that has little in common with the old one: the whole line goes', () => {
    expect(show(diffText('Where is my parcel?', 'Refunds take 30 days.'))).toEqual([
      '-Where is my parcel?',
      '+Refunds take 30 days.',
    ]);
  });

  it('folds long unchanged runs to two lines of context around each change', () => {
    const before = Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 6', 'line six');
    const folded = collapseSame(diffText(before, after));
    expect(folded.map((l) => (l.op === 'skip' ? `… ${l.count}` : l.op))).toEqual([
      '… 4',
      'same',
      'same',
      'del',
      'add',
      'same',
      'same',
      '… 3',
    ]);
  });
});

describe('diffVersions', () => {
  const v1: RubricContent = {
    name: 'Support replies',
    kind: 'pointwise',
    criteria: 'A reply from our support team.',
    scale: { min: 1, max: 5 },
    aspects: [
      { name: 'policy', criteria: 'States the refund policy.', weight: 2 },
      { name: 'tone', criteria: 'Is polite.', weight: 1 },
      { name: 'length', criteria: 'Is short.', weight: 1 },
    ],
    examples: [
      { task: { kind: 'pointwise', source: 'Broken order.', output: 'Sorry, replaced.' }, expected: 4 },
      { task: { kind: 'pointwise', source: 'Late order.', output: 'Tough luck.' }, expected: 1, note: 'rude' },
    ],
  };
  const v2: RubricContent = {
    ...v1,
    criteria: 'A reply from our support team to a customer.',
    scale: { min: 1, max: 5, levels: [{ score: 5, text: 'Perfect.' }] },
    aspects: [
      { name: 'policy', criteria: 'States the returns policy.', weight: 3 },
      { name: 'tone', criteria: 'Is polite.', weight: 1 },
      { name: 'accuracy', criteria: 'Is correct.', weight: 1 },
    ],
    examples: [
      { task: { kind: 'pointwise', source: 'Broken order.', output: 'Sorry, replaced.' }, expected: 4 },
      { task: { kind: 'pointwise', source: 'Late order.', output: 'Tough luck.' }, expected: 2, note: 'rude' },
      { task: { kind: 'pointwise', source: 'Where is it?', output: 'On its way.' }, expected: 5 },
    ],
  };

  it('names the changed fields, the aspects added, removed and changed, and the examples changed and added', () => {
    const d = diffVersions(v1, v2);
    expect(d.fields.map((f) => f.label)).toEqual(['Criteria', 'Scale']);
    expect(show(d.fields[0]!.lines)).toEqual([
      '-A reply from our support team.',
      '+A reply from our support team[ to a customer].',
    ]);
    expect(show(d.fields[1]!.lines)).toEqual([' 1-5', '+5: Perfect.']);
    expect(d.aspects.map((a) => [a.name, a.change])).toEqual([
      ['policy', 'changed'],
      ['accuracy', 'added'],
      ['length', 'removed'],
    ]);
    expect(d.aspectsUnchanged).toBe(1);
    expect(show(d.aspects[0]!.lines)).toEqual([
      '-Criteria: States the [refund] policy.',
      '-Weight: [2]',
      '+Criteria: States the [returns] policy.',
      '+Weight: [3]',
      " Scale: the rubric's",
    ]);
    expect(d.examples.map((e) => [e.change, e.before, e.after])).toEqual([
      ['changed', 2, 2],
      ['added', null, 3],
    ]);
    expect(show(d.examples[0]!.lines)).toContain('+Expected: [2]');
    expect(d.examplesUnchanged).toBe(1);
    expect(isEmptyDiff(d)).toBe(false);
    expect(isEmptyDiff(diffVersions(v2, v2))).toBe(true);
  });

  it('names turning the auto-CoT steps off', () => {
    const d = diffVersions(v1, { ...v1, autoSteps: false });
    expect(d.fields.map((f) => [f.label, show(f.lines)])).toEqual([
      ['Auto-CoT steps', ['-on: missing steps written once', '+off: generic steps where none are given']],
    ]);
  });

  it('shows an example replaced by an unrelated one as removed and added, not as an edit', () => {
    const d = diffVersions(v1, {
      ...v1,
      examples: [
        v1.examples[0]!,
        { task: { kind: 'pointwise', source: 'Refund?', output: 'Within 30 days.' }, expected: 5 },
      ],
    });
    expect(d.examples.map((e) => [e.change, e.before, e.after])).toEqual([
      ['removed', 2, null],
      ['added', null, 2],
    ]);
    expect(d.examples[0]!.lines.every((l) => l.op === 'del')).toBe(true);
  });

  it("writes out a pairwise conversation's earlier turns and the expected answer", () => {
    const lines = exampleLines({
      task: {
        kind: 'pairwise',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', answerA: 'Hello', answerB: 'Hey' },
        ],
        question: 'And now?',
        answerA: 'A',
        answerB: 'B',
      },
      expected: 'tie',
    });
    expect(lines).toEqual([
      'User: Hi',
      'Assistant (A): Hello',
      'Assistant (B): Hey',
      'Question: And now?',
      'Answer A: A',
      'Answer B: B',
      'Expected: tie',
    ]);
  });
});
