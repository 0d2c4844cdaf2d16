/**
 * @module
 * The fields of `#/new` (./submit.ts): the example tasks, the tiers and cache modes offered, each field with
 * its label, hint and error line, which field an API issue's path names, and the preset picker's groups.
 */
import { h } from '../dom.js';
import type { PresetInfo } from '../types.js';

/** Example tasks for "Fill in an example". */
export const EXAMPLES = {
  pairwise: {
    question: 'What is the capital of Australia? Answer in one sentence.',
    answerA: 'The capital of Australia is Canberra, chosen in 1908 as a compromise between Sydney and Melbourne.',
    answerB: 'Sydney is the capital of Australia.',
  },
  pointwise: {
    source:
      'The city council approved a new bike lane on Main Street on Tuesday. Construction starts in May and is expected to take six weeks.',
    output: 'The council approved a Main Street bike lane; building starts in May and takes about six weeks.',
    aspect: 'coherence',
  },
};

/** The tier field's options: `[value, label]`, the empty value sending none (the tenant's default). */
export const TIERS = [
  ['', "Default (the tenant's, else standard)"],
  ['standard', 'standard: full price, seconds'],
  ['flex', 'flex: cheaper, slower'],
  ['batch', "batch: half price, the provider's Batch API"],
] as const;

/** The verdict cache field's options: `[value, label]`, the empty value sending none (`use`). */
export const CACHE_MODES = [
  ['', 'use (default): serve a cached verdict, else cache this one'],
  ['refresh', 'refresh: judge anew and replace the cached verdict'],
  ['off', 'off: neither read nor write the cache'],
] as const;

/** The form's fields, by the name each input carries. */
export type FieldName =
  | 'preset'
  | 'question'
  | 'answerA'
  | 'answerB'
  | 'reference'
  | 'source'
  | 'context'
  | 'output'
  | 'aspect'
  | 'aspectDescription'
  | 'scaleMin'
  | 'scaleMax'
  | 'config'
  | 'metadata'
  | 'rubric'
  | 'tier'
  | 'cache';

/** The field a judge error (400 without field issues) is about, by its code. */
export const JUDGE_ERROR_FIELDS: Partial<Record<string, FieldName>> = {
  invalid_config: 'config',
  unknown_method: 'config',
  unknown_preset: 'preset',
  task_kind_unsupported: 'preset',
  invalid_rubric: 'rubric',
  rubric_task_mismatch: 'rubric',
  rubric_unsupported: 'rubric',
  rubric_archived: 'rubric',
  tier_unsupported: 'tier',
};

/** The request's top-level fields that have a field of their own in the form, named as the API names them. */
export const TOP_LEVEL_FIELDS: readonly FieldName[] = ['preset', 'config', 'metadata', 'rubric', 'tier', 'cache'];

/** Which field an API issue path names (`task.answerA` → answerA). */
export function fieldOfIssue(path: string): FieldName | null {
  const [head, second, third] = path.split('.');
  const top = TOP_LEVEL_FIELDS.find((f) => f === head);
  if (top) return top;
  if (head !== 'task') return null;
  if (second === 'aspect')
    return third === 'scale' ? 'scaleMin' : third === 'description' ? 'aspectDescription' : 'aspect';
  const known: readonly string[] = ['question', 'answerA', 'answerB', 'reference', 'source', 'context', 'output'];
  return second !== undefined && known.includes(second) ? (second as FieldName) : null;
}

/** A field: its wrapper (label, control, hint, error line), its control and its error line. */
export interface Field {
  wrap: HTMLElement;
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  error: HTMLElement;
}

/** A labelled field around `control`, with its hint and its error line tied to it for screen readers. */
export function field(name: FieldName, label: string, control: Field['input'], hint?: string): Field {
  const id = `f-${name}`;
  control.id = id;
  control.name = name;
  const error = h('p', { id: `${id}-error`, class: 'field-error' });
  const describedBy = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' ');
  control.setAttribute('aria-describedby', describedBy);
  const wrap = h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { id: `${id}-hint`, class: 'hint' }, hint) : null,
    error,
  );
  return { wrap, input: control, error };
}

/** A text area of `rows` rows, spell-checked. */
export const area = (rows: number, required = false) => h('textarea', { rows, required, spellcheck: 'true' });

/** Parses an optional JSON object field; throws a message naming the field. */
export function jsonObject(text: string, what: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new Error(`${what} is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** The preset picker's group for one task kind (`pairwise` or `pointwise`): each preset's id and method. */
export function presetOptions(presets: readonly PresetInfo[], kind: 'pairwise' | 'pointwise'): HTMLOptGroupElement {
  const label =
    kind === 'pairwise' ? 'Pairwise: which of two answers is better' : 'Pointwise: score one output on an aspect';
  return h(
    'optgroup',
    { label },
    presets.filter((p) => p.taskKind === kind).map((p) => h('option', { value: p.id }, `${p.id} (${p.method})`)),
  );
}
