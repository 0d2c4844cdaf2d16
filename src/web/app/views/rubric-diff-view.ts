/**
 * @module
 * A rubric version's changes from the previous one on the page (the diff itself: ../rubric-diff.ts).
 * Added and removed are told by more than colour: each line carries a `+` / `−` sign and, for screen
 * readers, the words "added" / "removed"; within a replaced line the changed words are `<ins>`
 * (underlined) and `<del>` (struck through); aspects and examples name their change in a badge.
 */
import { badge, card } from '../components.js';
import { h } from '../dom.js';
import type { Child } from '../dom.js';
import type { Change, RubricContent } from '../rubric-diff.js';
import { diffVersions, isEmptyDiff } from '../rubric-diff.js';
import type { DiffLine } from '../text-diff.js';
import { collapseSame } from '../text-diff.js';

const SIGN = { same: ' ', add: '+', del: '−' } as const;
const SPOKEN = { same: '', add: 'added: ', del: 'removed: ' } as const;

function line(l: DiffLine): HTMLElement {
  // Word marks only inside a replaced line: a whole added or removed line is marked by its sign.
  const words = l.parts.length > 1;
  return h(
    'div',
    { class: `diff-line diff-${l.op}` },
    h('span', { class: 'diff-sign', 'aria-hidden': 'true' }, SIGN[l.op]),
    h(
      'span',
      { class: 'diff-text' },
      SPOKEN[l.op] ? h('span', { class: 'visually-hidden' }, SPOKEN[l.op]) : null,
      l.parts.map((p) =>
        !words || p.op === 'same' ? p.text : p.op === 'add' ? h('ins', null, p.text) : h('del', null, p.text),
      ),
    ),
  );
}

/** A text diff as a block of lines, long unchanged runs folded; `label` names it for assistive technology. */
export function diffBlock(lines: readonly DiffLine[], label: string): HTMLElement {
  return h(
    'div',
    { class: 'diff', role: 'group', 'aria-label': label },
    collapseSame(lines).map((l) =>
      l.op === 'skip'
        ? h('div', { class: 'diff-skip muted' }, `… ${l.count} unchanged line${l.count === 1 ? '' : 's'}`)
        : line(l),
    ),
  );
}

const CHANGE_BADGE: Record<Change, 'info' | 'warn' | 'neutral'> = {
  added: 'info',
  removed: 'warn',
  changed: 'neutral',
};

function changeBadge(c: Change): HTMLElement {
  return badge(c, CHANGE_BADGE[c]);
}

function section(title: string, ...children: Child[]): HTMLElement {
  return h('div', { class: 'diff-section' }, h('h3', null, title), ...children);
}

/**
 * The "Changes from version n−1" card: `previous` is that version's content (null for version 1), and
 * `previousHref` its page.
 */
export function changesCard(
  version: number,
  current: RubricContent,
  previous: RubricContent | null,
  previousHref: string,
): HTMLElement {
  if (previous === null) return card('Changes', h('p', { class: 'muted' }, 'The first version: nothing before it.'));
  const d = diffVersions(previous, current);
  const from = h('a', { href: previousHref }, `version ${version - 1}`);
  if (isEmptyDiff(d))
    return card(
      'Changes',
      h('p', null, 'Nothing changed from ', from, ' in criteria, scale, steps, aspects or examples.'),
    );
  const counted = (n: number, what: string) =>
    n > 0 ? h('p', { class: 'muted small' }, `${n} ${what} unchanged.`) : null;
  return card(
    'Changes',
    h('p', null, 'From ', from, ' to this version. Lines marked + were added, − removed.'),
    d.fields.map((f) => section(f.label, diffBlock(f.lines, `${f.label}: changes`))),
    d.aspects.length > 0 || d.aspectsUnchanged > 0
      ? section(
          'Aspects',
          d.aspects.map((a) =>
            h(
              'div',
              { class: 'diff-item' },
              h('h4', null, a.name, ' ', changeBadge(a.change)),
              diffBlock(a.lines, `Aspect ${a.name}: ${a.change}`),
            ),
          ),
          counted(d.aspectsUnchanged, d.aspectsUnchanged === 1 ? 'aspect' : 'aspects'),
        )
      : null,
    d.examples.length > 0
      ? section(
          'Golden examples',
          d.examples.map((e) => {
            const title =
              e.after !== null
                ? `Example ${e.after}${e.before !== null && e.before !== e.after ? ` (was ${e.before})` : ''}`
                : `Example ${String(e.before)} of version ${version - 1}`;
            return h(
              'div',
              { class: 'diff-item' },
              h('h4', null, title, ' ', changeBadge(e.change)),
              diffBlock(e.lines, `${title}: ${e.change}`),
            );
          }),
          counted(d.examplesUnchanged, d.examplesUnchanged === 1 ? 'example' : 'examples'),
        )
      : null,
  );
}
