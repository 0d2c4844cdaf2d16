/**
 * @module
 * Small pieces every page uses: status pills, winner chips, badges, key-value lists, agent avatars,
 * relative times that keep themselves current.
 */
import { h } from './dom.js';
import type { Child } from './dom.js';
import { formatAgo, formatInt, formatPct, formatScore, formatTime, hueOf, initialsOf } from './format.js';

/** Number of agent colours in app.css (`.agent-c0` … `.agent-c7`, each checked for contrast). */
const AGENT_COLOURS = 8;

/** A status pill: `running`, `succeeded`… (colour and text, never colour alone; `in_progress` reads "in progress"). */
export function statusPill(status: string): HTMLElement {
  return h(
    'span',
    { class: `pill pill-${status}` },
    h('span', { class: 'pill-dot', 'aria-hidden': 'true' }),
    status.replace(/_/g, ' '),
  );
}

/** A pairwise outcome chip: `A`, `B` or `tie`. */
export function winnerChip(winner: string): HTMLElement {
  const w = winner === 'A' || winner === 'B' ? winner : 'tie';
  return h('span', { class: `chip chip-${w.toLowerCase()}` }, w === 'tie' ? 'Tie' : w);
}

/** A small label, e.g. `unparsed` (kind: `warn`, `error`, `info`, `neutral`). */
export function badge(
  text: string,
  kind: 'warn' | 'error' | 'info' | 'neutral' = 'neutral',
  title?: string,
): HTMLElement {
  return h('span', { class: `badge badge-${kind}`, ...(title ? { title } : {}) }, text);
}

/** A definition list of label → value rows. */
export function facts(rows: readonly (readonly [string, Child] | null)[], className = 'facts'): HTMLElement {
  return h(
    'dl',
    { class: className },
    rows
      .filter((r): r is readonly [string, Child] => r !== null)
      .map(([k, v]) => h('div', null, h('dt', null, k), h('dd', null, v))),
  );
}

/** An agent's avatar: initials on a colour derived from its label. */
export function avatar(label: string): HTMLElement {
  return h(
    'span',
    { class: `avatar agent-c${hueOf(label) % AGENT_COLOURS}`, 'aria-hidden': 'true' },
    initialsOf(label),
  );
}

/** A page (`.page`): its head (see {@link pageHead}), then its body. */
export function page(head: HTMLElement, ...body: Child[]): HTMLElement {
  return h('div', { class: 'page' }, head, ...body);
}

/**
 * A page's head (`.page-head`): `stack` puts a breadcrumb or title over its lines; `title-row` lays the title, a
 * spacer and the actions on one line.
 */
export function pageHead(layout: 'stack' | 'title-row', ...children: Child[]): HTMLElement {
  return h('div', { class: layout === 'title-row' ? 'page-head title-row' : 'page-head' }, ...children);
}

/** A card section with a heading. */
export function card(title: string, ...children: Child[]): HTMLElement {
  const id = `card-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': id },
    h('h2', { id, class: 'card-title' }, title),
    ...children,
  );
}

/** A progress bar with an accessible value (`role="progressbar"`). */
export function progressBar(done: number, total: number, label: string): HTMLElement {
  const pct = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 0;
  const fill = h('span', { class: 'progress-fill' });
  fill.style.width = `${pct}%`;
  return h(
    'div',
    {
      class: 'progress',
      role: 'progressbar',
      'aria-label': label,
      'aria-valuemin': 0,
      'aria-valuemax': total,
      'aria-valuenow': Math.min(done, total),
    },
    fill,
  );
}

/** A monospace id that selects whole on click. */
export function idCode(id: string): HTMLElement {
  return h('code', { class: 'id' }, id);
}

/** A past time as `12 s ago` (the exact time as its tooltip), kept current by {@link tickRelativeTimes}. */
export function ago(iso: string): HTMLTimeElement {
  return h('time', { datetime: iso, title: formatTime(iso), 'data-ago': '' }, formatAgo(iso));
}

/** Re-reads every {@link ago} time under `root` against `now` (only changed texts are written). */
export function refreshRelativeTimes(root: ParentNode, now = Date.now()): void {
  for (const el of root.querySelectorAll<HTMLTimeElement>('time[data-ago]')) {
    const text = formatAgo(el.dateTime, now);
    if (el.textContent !== text) el.textContent = text;
  }
}

/** Keeps every {@link ago} time of the document current: once a second (`12 s ago` moves by the second). */
export function tickRelativeTimes(): void {
  window.setInterval(() => {
    refreshRelativeTimes(document);
  }, 1000);
}

/**
 * A verdict's confidence as lists show it, labelled (`conf. 83%`, "confidence" in full for screen
 * readers and as the tooltip): a bare percentage beside the winner read like a win probability.
 */
export function confidenceLabel(confidence: number): HTMLElement {
  const pct = formatPct(confidence);
  return h(
    'span',
    { class: 'muted small confidence-label', title: `confidence ${pct}` },
    h('span', { 'aria-hidden': 'true' }, `conf. ${pct}`),
    h('span', { class: 'visually-hidden' }, `confidence ${pct}`),
  );
}

/** A page's breadcrumb: links (`[label, href]`) then the current page's own label, joined by ` / `. */
export function breadcrumb(links: readonly (readonly [string, string])[], current: string): HTMLElement {
  return h(
    'nav',
    { class: 'breadcrumb', 'aria-label': 'Breadcrumb' },
    links.map(([label, href]) => [h('a', { href }, label), ' / ']),
    current,
  );
}

/** A list row's progress (`id`'s items or evaluations): a bar of those ended, then `3/10 · 1 failed`. */
export function listProgress(id: string, c: { ended: number; total: number; failed: number }): HTMLElement {
  return h(
    'div',
    { class: 'progress-cell' },
    progressBar(c.ended, c.total, `${id}: items ended`),
    h(
      'span',
      { class: 'muted small' },
      `${formatInt(c.ended)}/${formatInt(c.total)}${c.failed > 0 ? ` · ${formatInt(c.failed)} failed` : ''}`,
    ),
  );
}

/**
 * A pointwise headline: the score big against the top of its scale (`4 / 5`), then what it is (`name on a scale
 * of 1 to 5`); the score and `name` alone when the scale is not known.
 */
export function scoreHeadline(
  score: number | null | undefined,
  scale: { min: number; max: number } | null,
  name: string,
): HTMLElement {
  return h(
    'p',
    { class: 'verdict-headline' },
    h(
      'span',
      { class: 'score-big' },
      score === null || score === undefined ? '—' : formatScore(score),
      scale ? h('span', { class: 'score-of' }, ` / ${scale.max}`) : null,
    ),
    h('span', null, scale ? `${name} on a scale of ${scale.min} to ${scale.max}` : name),
  );
}
