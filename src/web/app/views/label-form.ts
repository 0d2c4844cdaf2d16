/**
 * @module
 * The labelling page's form for one item (./labelling.ts): the winner of a pairwise item, or a pointwise item's
 * overall score and each aspect's score on its scale (a button per point, a number field for a scale wider
 * than {@link MAX_SCALE_BUTTONS}), and a comment. The keyboard shortcuts (../label-keys.ts) act on it through
 * {@link LabelForm.act}.
 */
import { h } from '../dom.js';
import { formatScore } from '../format.js';
import type { LabelKeyAction, KeyScale } from '../label-keys.js';
import { digitScore, scaleAsButtons } from '../label-keys.js';
import type { AnnotationNextItem, Label } from '../types.js';

/** Most characters of a comment (the API's limit). */
const MAX_COMMENT = 2000;

/** One scored row of a pointwise form: the overall score or an aspect. */
interface ScoreRow {
  /** `score`, or `aspects.<name>` (the path an API issue names). */
  path: string;
  scale: KeyScale;
  element: HTMLFieldSetElement;
  get(): number | undefined;
  set(value: number): void;
}

/** The form of one item. */
export interface LabelForm {
  element: HTMLFormElement;
  /** Applies a keyboard shortcut's action (see ../label-keys.ts). */
  act(action: LabelKeyAction): void;
  /** The label as picked, or what is still missing. */
  read(): { label: Label; comment: string | undefined } | { missing: string };
  /** Shows the API's or the form's problems (`label.score`…), or clears them with none. */
  showIssues(messages: readonly string[]): void;
  /** Turns the send button off while the label is on its way. */
  busy(on: boolean): void;
}

const keyHint = (k: string) => h('kbd', { class: 'kbd', 'aria-hidden': 'true' }, k);

/** A group of radio buttons, one per `[value, text, key]`, named `name`, under `legend`. */
function radios(
  name: string,
  legend: string,
  options: readonly (readonly [string, string, string | null])[],
): HTMLFieldSetElement {
  return h(
    'fieldset',
    { class: 'label-choices' },
    h('legend', null, legend),
    h(
      'div',
      { class: 'choice-row' },
      options.map(([value, text, key]) =>
        h(
          'label',
          { class: 'choice' },
          h('input', { type: 'radio', name, value }),
          h('span', null, text),
          key === null ? null : keyHint(key),
        ),
      ),
    ),
  );
}

function checkedValue(group: HTMLElement): string | undefined {
  return group.querySelector<HTMLInputElement>('input[type="radio"]:checked')?.value;
}

function check(group: HTMLElement, value: string): void {
  const input = [...group.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find((i) => i.value === value);
  if (input) input.checked = true;
}

/** A pointwise row: its scale's points as buttons (digit keys shown), or a number field for a wide scale. */
function scoreRow(path: string, title: string, scale: KeyScale, id: string): ScoreRow {
  const legend = `${title} (${formatScore(scale.min)} to ${formatScore(scale.max)})`;
  if (scaleAsButtons(scale)) {
    const points = Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i);
    const element = radios(
      id,
      legend,
      points.map((p) => [String(p), String(p), p === 10 && scale.min > 0 ? '0' : p <= 9 ? String(p) : null] as const),
    );
    return {
      path,
      scale,
      element,
      get: () => {
        const v = checkedValue(element);
        return v === undefined ? undefined : Number(v);
      },
      set: (value) => {
        check(element, String(value));
      },
    };
  }
  const input = h('input', { id, type: 'number', min: scale.min, max: scale.max, step: 'any', inputmode: 'decimal' });
  const element = h(
    'fieldset',
    { class: 'label-choices' },
    h('legend', null, legend),
    h('label', { class: 'visually-hidden', for: id }, title),
    input,
  );
  return {
    path,
    scale,
    element,
    get: () => (input.value.trim() === '' || !Number.isFinite(input.valueAsNumber) ? undefined : input.valueAsNumber),
    set: (value) => {
      input.value = String(value);
    },
  };
}

/** The form for `item`; `onSend` runs when the label is sent (button, Enter, Ctrl+Enter). */
export function labelForm(item: AnnotationNextItem, onSend: () => void): LabelForm {
  const r = item.rubric;
  const error = h('div', { class: 'field-error', role: 'alert', id: 'label-error' });
  const comment = h('textarea', {
    id: 'label-comment',
    name: 'comment',
    rows: 3,
    maxlength: MAX_COMMENT,
    'aria-describedby': 'label-comment-hint',
  });
  const send = h(
    'button',
    { type: 'submit', class: 'btn btn-primary', 'aria-keyshortcuts': 'Enter' },
    'Send label',
    keyHint('Enter'),
  );
  let winner: HTMLFieldSetElement | null = null;
  const rows: ScoreRow[] = [];
  if (r.kind === 'pairwise') {
    winner = radios('winner', 'Which answer is better?', [
      ['A', 'Answer A', 'A'],
      ['B', 'Answer B', 'B'],
      ['tie', 'Tie', 'T'],
    ]);
  } else {
    if (r.scale) rows.push(scoreRow('score', 'Overall score', r.scale, 'label-score'));
    (r.aspects ?? []).forEach((a, i) => {
      rows.push(scoreRow(`aspects.${a.name}`, a.name, a.scale, `label-aspect-${i}`));
    });
  }
  let active = 0;
  const highlight = (i: number) => {
    active = Math.max(0, Math.min(rows.length - 1, i));
    rows.forEach((row, j) => row.element.classList.toggle('row-active', j === active));
  };
  highlight(0);
  rows.forEach((row, i) => {
    row.element.addEventListener('focusin', () => {
      highlight(i);
    });
  });

  const element = h(
    'form',
    { class: 'stack label-form', novalidate: true, 'aria-describedby': 'label-error' },
    winner,
    rows.map((row) => row.element),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'label-comment' }, 'Comment (optional)'),
      comment,
      h(
        'p',
        { id: 'label-comment-hint', class: 'hint' },
        'Why, in a sentence. Ctrl+Enter sends, Esc leaves the field.',
      ),
    ),
    error,
    h('div', { class: 'row' }, send),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    onSend();
  });

  return {
    element,
    act: (action) => {
      if (action.type === 'winner' && winner) check(winner, action.winner);
      else if (action.type === 'digit') {
        const row = rows[active];
        const value = row ? digitScore(action.digit, row.scale) : null;
        if (row && value !== null) {
          row.set(value);
          highlight(active + 1);
        }
      } else if (action.type === 'row') highlight(active + action.delta);
      else if (action.type === 'comment') comment.focus();
      else if (action.type === 'submit') element.requestSubmit();
    },
    read: () => {
      const text = comment.value.trim();
      const note = text === '' ? undefined : text;
      if (winner) {
        const w = checkedValue(winner);
        return w === 'A' || w === 'B' || w === 'tie'
          ? { label: { winner: w }, comment: note }
          : { missing: 'Pick the better answer (A, B or T).' };
      }
      const label: Label = {};
      const aspects: Record<string, number> = {};
      for (const row of rows) {
        const v = row.get();
        if (v === undefined) continue;
        if (row.path === 'score') label.score = v;
        else aspects[row.path.slice('aspects.'.length)] = v;
      }
      if (Object.keys(aspects).length > 0) label.aspects = aspects;
      return label.score === undefined && label.aspects === undefined
        ? { missing: 'Give a score (a digit key scores the highlighted row).' }
        : { label, comment: note };
    },
    showIssues: (messages) => {
      error.replaceChildren(...messages.map((m) => h('p', null, m)));
    },
    busy: (on) => {
      send.disabled = on;
    },
  };
}
