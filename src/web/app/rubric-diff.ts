/**
 * @module
 * What changed from one rubric version to the next, for the version page: its name, criteria, scale and
 * evaluation steps as text diffs; its aspects matched by name (added, removed, or changed in criteria,
 * weight, scale or steps); its golden examples as a sequence (added, removed, or an example replaced by
 * an edited one, diffed line by line). Each part is written out as text lines first (the same lines the
 * page shows), so one text diff (./text-diff.ts) serves them all. Pure: tests/web/text-diff.test.ts.
 */
import type { DiffLine } from './text-diff.js';
import { diffSeq, diffText, unchanged } from './text-diff.js';
import type { RubricAspect, RubricExample, RubricScale, RubricVersion } from './types.js';

/** The parts of a version a diff compares (a version as the API shows it has them all). */
export type RubricContent = Pick<
  RubricVersion,
  'name' | 'kind' | 'criteria' | 'scale' | 'aspects' | 'evaluationSteps' | 'autoSteps' | 'examples'
>;

/** A changed text field: its label and its diff. */
export interface FieldDiff {
  label: string;
  lines: DiffLine[];
}

/** How an aspect or example changed. */
export type Change = 'added' | 'removed' | 'changed';

/** A changed aspect (matched by name). */
export interface AspectDiff {
  name: string;
  change: Change;
  lines: DiffLine[];
}

/** A changed golden example: its 1-based place in the older and the newer version (null where absent). */
export interface ExampleDiff {
  change: Change;
  before: number | null;
  after: number | null;
  lines: DiffLine[];
}

/** Everything that changed between two versions; empty lists where nothing did. */
export interface RubricDiff {
  fields: FieldDiff[];
  aspects: AspectDiff[];
  /** Aspects present in both with nothing changed. */
  aspectsUnchanged: number;
  examples: ExampleDiff[];
  /** Examples kept as they were. */
  examplesUnchanged: number;
}

/** A scale as lines: `1-5`, then `5: text` per level, highest first (as a judge reads a rubric). */
export function scaleLines(scale: RubricScale | undefined): string[] {
  if (!scale) return [];
  const levels = [...(scale.levels ?? [])].sort((x, y) => y.score - x.score);
  return [`${scale.min}-${scale.max}`, ...levels.map((l) => `${l.score}: ${l.text}`)];
}

/** An aspect as lines: criteria, weight, scale (its own or the rubric's), steps. */
export function aspectLines(a: RubricAspect): string[] {
  return [
    `Criteria: ${a.criteria}`,
    `Weight: ${a.weight ?? 1}`,
    a.scale ? `Scale: ${scaleLines(a.scale).join('\n  ')}` : "Scale: the rubric's",
    a.evaluationSteps !== undefined ? `Steps: ${a.evaluationSteps}` : null,
  ].filter((l): l is string => l !== null);
}

/** A golden example as labelled lines: the task's texts, the expected answer, the per-aspect scores, the note. */
export function exampleLines(ex: RubricExample): string[] {
  const t = ex.task;
  const out: string[] = [];
  const add = (label: string, value: string | undefined) => {
    if (value !== undefined) out.push(`${label}: ${value}`);
  };
  for (const m of t.messages ?? []) {
    if (m.role === 'user') add('User', m.content);
    else if ('answerA' in m || 'answerB' in m) {
      // A pairwise conversation's earlier turn: each answer's own reply.
      add('Assistant (A)', m.answerA);
      add('Assistant (B)', m.answerB);
    } else add('Assistant', m.content);
  }
  if (t.kind === 'pairwise') {
    add('Question', t.question);
    add('Answer A', t.answerA);
    add('Answer B', t.answerB);
    add('Reference', t.reference);
  } else if (t.kind === 'pointwise') {
    add('Source', t.source);
    add('Context', t.context);
    add('Output', t.output);
    if (t.aspect) add('Aspect', `${t.aspect.name} (${t.aspect.scale.min}-${t.aspect.scale.max})`);
  } else {
    add('Request', t.request);
    add('Steps', t.steps.map((s, i) => `${i + 1}. ${s.type}${s.name !== undefined ? ` ${s.name}` : ''}`).join('; '));
    add('Final answer', t.finalAnswer);
  }
  add('Expected', String(ex.expected));
  const perAspect = Object.entries(ex.expectedAspects ?? {});
  if (perAspect.length > 0) add('Expected per aspect', perAspect.map(([k, v]) => `${k} ${v}`).join(', '));
  add('Note', ex.note);
  return out;
}

const join = (lines: readonly string[]) => lines.join('\n');

/**
 * Least share of an example's lines a replacement must keep to be shown as that example edited (a third:
 * the same task with a new expected answer is an edit; a new task in the old one's place is not).
 */
export const MIN_SHARED_LINES = 1 / 3;

function sharesEnough(lines: readonly DiffLine[]): boolean {
  const kept = lines.filter((l) => l.op === 'same').length;
  const longer = Math.max(lines.filter((l) => l.op !== 'add').length, lines.filter((l) => l.op !== 'del').length);
  return longer > 0 && kept / longer >= MIN_SHARED_LINES;
}

/** Whether missing steps are written by G-Eval's auto-CoT (`autoSteps`, default on), in words. */
function autoStepsText(c: RubricContent): string {
  return c.autoSteps === false ? 'off: generic steps where none are given' : 'on: missing steps written once';
}

/** The diff from `before` (the previous version) to `after`. */
export function diffVersions(before: RubricContent, after: RubricContent): RubricDiff {
  const fields: FieldDiff[] = [
    { label: 'Name', lines: diffText(before.name, after.name) },
    { label: 'Criteria', lines: diffText(before.criteria, after.criteria) },
    { label: 'Scale', lines: diffText(join(scaleLines(before.scale)), join(scaleLines(after.scale))) },
    {
      label: 'Evaluation steps',
      lines: diffText(before.evaluationSteps ?? '', after.evaluationSteps ?? ''),
    },
    { label: 'Auto-CoT steps', lines: diffText(autoStepsText(before), autoStepsText(after)) },
  ].filter((f) => !unchanged(f.lines));

  // Aspects by name, in the newer version's order; removed ones after them, in the older order.
  const old = new Map((before.aspects ?? []).map((a) => [a.name, a]));
  const kept = new Set<string>();
  const aspects: AspectDiff[] = [];
  let aspectsUnchanged = 0;
  for (const a of after.aspects ?? []) {
    const was = old.get(a.name);
    if (was) kept.add(a.name);
    const lines = diffText(was ? join(aspectLines(was)) : '', join(aspectLines(a)));
    if (was && unchanged(lines)) aspectsUnchanged++;
    else aspects.push({ name: a.name, change: was ? 'changed' : 'added', lines });
  }
  for (const a of before.aspects ?? [])
    if (!kept.has(a.name)) aspects.push({ name: a.name, change: 'removed', lines: diffText(join(aspectLines(a)), '') });

  // Examples as a sequence of whole examples; within a change, the k-th removed and the k-th added pair up.
  const key = (ex: RubricExample) => JSON.stringify(ex);
  const ops = diffSeq(before.examples.map(key), after.examples.map(key));
  const examples: ExampleDiff[] = [];
  let examplesUnchanged = 0;
  let i = 0; // index into before.examples
  let j = 0; // index into after.examples
  let k = 0;
  while (k < ops.length) {
    if (ops[k]?.op === 'same') {
      examplesUnchanged++;
      i++;
      j++;
      k++;
      continue;
    }
    const dels: number[] = [];
    const adds: number[] = [];
    while (ops[k]?.op === 'del') {
      dels.push(i++);
      k++;
    }
    while (ops[k]?.op === 'add') {
      adds.push(j++);
      k++;
    }
    const text = (list: readonly RubricExample[], at: number | undefined) =>
      at === undefined ? '' : join(exampleLines(list[at] as RubricExample));
    for (let p = 0; p < Math.max(dels.length, adds.length); p++) {
      const d = dels[p];
      const a = adds[p];
      if (d !== undefined && a !== undefined) {
        const edited = diffText(text(before.examples, d), text(after.examples, a));
        if (sharesEnough(edited)) {
          examples.push({ change: 'changed', before: d + 1, after: a + 1, lines: edited });
          continue;
        }
      }
      // Unrelated examples in the same place: one removed, one added.
      if (d !== undefined)
        examples.push({ change: 'removed', before: d + 1, after: null, lines: diffText(text(before.examples, d), '') });
      if (a !== undefined)
        examples.push({ change: 'added', before: null, after: a + 1, lines: diffText('', text(after.examples, a)) });
    }
  }
  return { fields, aspects, aspectsUnchanged, examples, examplesUnchanged };
}

/** True when two versions differ in nothing the diff compares. */
export function isEmptyDiff(d: RubricDiff): boolean {
  return d.fields.length === 0 && d.aspects.length === 0 && d.examples.length === 0;
}
