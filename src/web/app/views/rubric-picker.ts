/**
 * @module
 * The submit form's rubric field (./submit.ts): the tenant's rubrics as suggestions (each one's latest
 * version and each tag), and a link that opens the page of what the field names.
 */
import { h } from '../dom.js';
import type { Rubric } from '../types.js';
import { rubricHref } from './rubrics.js';

/** A rubric reference: `rb_…`, `rb_…@3` or `rb_…#prod` (the API's RUBRIC_REF). */
const RUBRIC_REF = /^(rb_[0-9a-f]{32})(?:@([1-9][0-9]{0,8})|#([a-z0-9-]{1,32}))?$/;

/**
 * The viewer's page for what the rubric field holds: the version `@n` names, the version a known tag points
 * at, else the rubric's latest version; null for an inline rubric or anything that is not a reference.
 */
export function rubricPageOf(value: string, rubrics: readonly Rubric[]): string | null {
  const m = RUBRIC_REF.exec(value.trim());
  if (!m?.[1]) return null;
  const id = m[1];
  const tagged = m[3] ? rubrics.find((r) => r.id === id)?.tags.find((t) => t.tag === m[3])?.version : undefined;
  const version = m[2] ? Number(m[2]) : tagged;
  return rubricHref(id, version);
}

/** The field's suggestions (`<datalist id="rubric-options">`, the input's `list`) and its "open" link. */
export interface RubricPicker {
  datalist: HTMLDataListElement;
  /** A paragraph with the link, hidden while the field names no stored rubric. */
  open: HTMLElement;
}

/**
 * Wires the rubric field `input`: suggestions from `rubrics` (archived ones left out: they judge only when
 * named with a version), and the link kept on what the field names; `initial` fills the field in.
 */
export function rubricPicker(
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  rubrics: readonly Rubric[],
  initial: string | null,
): RubricPicker {
  const datalist = h(
    'datalist',
    { id: 'rubric-options' },
    rubrics
      .filter((r) => r.archivedAt === null)
      .flatMap((r) => [
        h('option', { value: r.id }, `${r.name} (latest, v${String(r.latestVersion)})`),
        ...r.tags.map((t) => h('option', { value: `${r.id}#${t.tag}` }, `${r.name} #${t.tag} (v${String(t.version)})`)),
      ]),
  );
  // In a new tab, so the form keeps what was typed.
  const link = h(
    'a',
    { class: 'small', target: '_blank', rel: 'noopener', hidden: true },
    'Open this rubric',
    h('span', { class: 'visually-hidden' }, ' (opens in a new tab)'),
  );
  const update = () => {
    const href = rubricPageOf(input.value, rubrics);
    link.hidden = href === null;
    if (href !== null) link.href = href;
  };
  input.addEventListener('input', update);
  if (initial) input.value = initial;
  update();
  return { datalist, open: h('p', { class: 'rubric-open' }, link) };
}
