/**
 * @module
 * `#/labelling/{id}`: labelling one annotation queue. The page asks `GET /v1/annotation-queues/{id}/next` for
 * the caller's next item (as the annotator named on the page, sent as `x-annotator`), shows its task, the
 * judge's verdict unless the queue is blind, and the label form (./label-form.ts) with its keyboard shortcuts
 * (../label-keys.ts, listed on the page); a label goes to `POST …/items/{itemId}/labels`, then the next item
 * comes. A 204 means nothing is left for this annotator: the page says "Done".
 *
 * The annotator's name is kept in `localStorage`: it is no secret (unlike the key), and a person labelling
 * every day should not type it each time. Empty: the API counts the labels as the key's.
 */
import { ApiFailure, describeError, getJson, postJson, request } from '../api.js';
import { breadcrumb, card, facts, page, pageHead, progressBar, winnerChip } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import { formatInt, scoreOf } from '../format.js';
import { labelKeyAction, shortcutList } from '../label-keys.js';
import type { AnnotationItem, AnnotationNextItem, AnnotationQueue, Label } from '../types.js';
import type { View, ViewContext } from '../view.js';
import { setTitle } from '../view.js';
import { labelForm } from './label-form.js';
import { taskCard } from './verdict-view.js';

const ANNOTATOR_KEY = 'tribunal.annotator';

/** What the API takes as an annotator: 1-128 printable ASCII characters, no space at either end. */
const ANNOTATOR = /^[\x21-\x7e][\x20-\x7e]{0,126}[\x21-\x7e]?$/;

/** A queue's labelling page. */
export function labellingHref(id: string): string {
  return `#/labelling/${encodeURIComponent(id)}`;
}

function storedAnnotator(): string {
  try {
    return window.localStorage.getItem(ANNOTATOR_KEY) ?? '';
  } catch {
    return '';
  }
}

function storeAnnotator(name: string): void {
  try {
    if (name === '') window.localStorage.removeItem(ANNOTATOR_KEY);
    else window.localStorage.setItem(ANNOTATOR_KEY, name);
  } catch {
    // Storage blocked: the name lasts as long as the page.
  }
}

/** A queue's progress: labelled (agreed or adjudicated) of all, and what waits for an adjudicator. */
export function queueProgress(q: AnnotationQueue): HTMLElement {
  const p = q.progress;
  const done = p.labelled + p.adjudicated;
  return h(
    'div',
    { class: 'progress-cell' },
    progressBar(done, p.total, `${q.name}: items labelled`),
    h(
      'span',
      { class: 'muted small' },
      `${formatInt(done)}/${formatInt(p.total)} labelled`,
      p.needsAdjudication > 0 ? ` · ${formatInt(p.needsAdjudication)} to adjudicate` : '',
    ),
  );
}

/** The judge's verdict on the item, or why there is none to see. */
function judgeCard(q: AnnotationQueue, item: AnnotationNextItem): HTMLElement {
  if (q.blind)
    return card(
      "Judge's verdict",
      h('p', { class: 'muted' }, 'Hidden: this queue is blind, so the judge cannot sway your label.'),
    );
  const j: Label | null = item.judge;
  if (!j) return card("Judge's verdict", h('p', { class: 'muted' }, 'No judge verdict on this item.'));
  const aspects = item.rubric.aspects ?? [];
  return card(
    "Judge's verdict",
    facts([
      j.winner !== undefined ? ['Winner', winnerChip(j.winner)] : null,
      j.score !== undefined ? ['Score', scoreOf(j.score, item.rubric.scale)] : null,
      ...Object.entries(j.aspects ?? {}).map(
        ([name, s]) => [name, scoreOf(s, aspects.find((a) => a.name === name)?.scale)] as const,
      ),
    ]),
  );
}

function shortcutsCard(kind: 'pairwise' | 'pointwise'): HTMLElement {
  return card(
    'Keyboard shortcuts',
    h(
      'dl',
      { class: 'facts shortcuts' },
      shortcutList(kind).map(([keys, what]) =>
        h('div', null, h('dt', null, h('kbd', { class: 'kbd' }, keys)), h('dd', null, what)),
      ),
    ),
  );
}

/** True when focus is where letters type (a text field), so they are not shortcuts. */
function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement)
    return true;
  return target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(target.type);
}

/** The page of queue `id`. */
export const labellingView: View = async (ctx) => {
  const id = ctx.params.id ?? '';
  const path = `/v1/annotation-queues/${encodeURIComponent(id)}`;
  let queue = await getJson<AnnotationQueue>(path, ctx.signal);
  setTitle(`Label · ${queue.name}`);
  let annotator = storedAnnotator();
  let act: ((e: KeyboardEvent) => void) | null = null;

  const progressSlot = h('div', null, queueProgress(queue));
  const itemSlot = h('div', { class: 'stack' });
  const sideSlot = h('div', { class: 'stack' });
  const who = h('p', { class: 'muted small', role: 'status' });

  const nameInput = h('input', {
    id: 'annotator',
    name: 'annotator',
    type: 'text',
    autocomplete: 'username',
    spellcheck: 'false',
    maxlength: 128,
    value: annotator,
    'aria-describedby': 'annotator-hint annotator-error',
  });
  const nameError = h('p', { id: 'annotator-error', class: 'field-error', role: 'alert' });
  const nameForm = h(
    'form',
    { class: 'stack', novalidate: true },
    h(
      'div',
      { class: 'field' },
      h('label', { for: 'annotator' }, 'Your name'),
      h('div', { class: 'row' }, nameInput, h('button', { type: 'submit', class: 'btn' }, 'Use')),
      h(
        'p',
        { id: 'annotator-hint', class: 'hint' },
        'Sent as x-annotator, so people sharing one key are told apart; empty: the key labels. Kept in this browser.',
      ),
    ),
    nameError,
    who,
  );
  nameForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    if (name !== '' && !ANNOTATOR.test(name)) {
      nameError.textContent = 'A name is 1-128 printable ASCII characters (letters, digits, punctuation, spaces).';
      nameInput.setAttribute('aria-invalid', 'true');
      return;
    }
    nameError.textContent = '';
    nameInput.removeAttribute('aria-invalid');
    annotator = name;
    storeAnnotator(name);
    void next().catch(ctx.fail);
  });

  const headers = (): Record<string, string> => (annotator === '' ? {} : { 'x-annotator': annotator });

  const refreshQueue = async () => {
    queue = await getJson<AnnotationQueue>(path, ctx.signal);
    progressSlot.replaceChildren(queueProgress(queue));
  };

  const done = () => {
    act = null;
    who.textContent = annotator === '' ? 'Labelling as the key.' : `Labelling as ${annotator}.`;
    replaceChildren(
      itemSlot,
      h(
        'section',
        { class: 'card done-card', 'aria-labelledby': 'done-title', tabindex: '-1' },
        h('h2', { id: 'done-title', class: 'card-title' }, 'Done'),
        h(
          'p',
          null,
          `No item is left for ${annotator === '' ? 'this key' : annotator} in this queue. `,
          h('a', { href: '#/labelling' }, 'All queues'),
        ),
      ),
    );
    replaceChildren(sideSlot);
    ctx.announce('Done: no item is left to label in this queue');
  };

  const show = (item: AnnotationNextItem) => {
    who.textContent = `Labelling as ${item.annotator}.`;
    const form = labelForm(item, () => {
      send(item, form).catch(ctx.fail);
    });
    const heading = h('h2', { class: 'item-title', tabindex: '-1' }, `Item ${item.itemId}`);
    replaceChildren(
      itemSlot,
      h(
        'div',
        { class: 'stack' },
        heading,
        h(
          'p',
          { class: 'muted small' },
          `${formatInt(item.remaining)} ${item.remaining === 1 ? 'item' : 'items'} left for you, this one included.`,
        ),
        taskCard(item.task),
        card(
          'Your label',
          h(
            'details',
            { class: 'criteria' },
            h('summary', null, 'Rubric criteria'),
            h('p', { class: 'prewrap' }, item.rubric.criteria),
          ),
          form.element,
        ),
      ),
    );
    replaceChildren(sideSlot, judgeCard(queue, item), shortcutsCard(item.rubric.kind));
    act = (e) => {
      const target = e.target;
      // Enter on a link or a button is the browser's (opening it), not "send".
      if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey && target instanceof HTMLElement && target.closest('a, button'))
        return;
      const action = labelKeyAction(item.rubric.kind, {
        key: e.key,
        ctrlKey: e.ctrlKey,
        metaKey: e.metaKey,
        altKey: e.altKey,
        typing: typingIn(target),
      });
      if (e.key === 'Escape' && typingIn(target) && form.element.contains(target as Node)) {
        heading.focus();
        return;
      }
      if (!action) return;
      e.preventDefault();
      form.act(action);
    };
    heading.focus({ preventScroll: true });
  };

  // Only the latest ask is shown: the page asks as it opens and again when a name is set, and the first
  // answer (for the stored name) can arrive after the second, which would show the old name's item.
  let asked = 0;
  const next = async () => {
    const ask = ++asked;
    const r = await request(`${path}/next`, {
      headers: { Accept: 'application/json', ...headers() },
      signal: ctx.signal,
    });
    const item = r.status === 204 ? null : ((await r.json()) as AnnotationNextItem);
    if (ask !== asked) return;
    if (item === null) done();
    else show(item);
  };

  const send = async (item: AnnotationNextItem, form: ReturnType<typeof labelForm>) => {
    const picked = form.read();
    if ('missing' in picked) {
      form.showIssues([picked.missing]);
      return;
    }
    form.showIssues([]);
    form.busy(true);
    try {
      await postJson<AnnotationItem>(
        `${path}/items/${encodeURIComponent(item.itemId)}/labels`,
        { label: picked.label, ...(picked.comment !== undefined ? { comment: picked.comment } : {}) },
        headers(),
      );
    } catch (e) {
      form.busy(false);
      if (e instanceof ApiFailure && e.unauthorized) throw e;
      form.showIssues(
        e instanceof ApiFailure && e.issues.length > 0
          ? e.issues.map((i) => `${i.path}: ${i.message}`)
          : [describeError(e)],
      );
      return;
    }
    ctx.announce(`Labelled item ${item.itemId}`);
    await Promise.all([refreshQueue(), next()]);
  };

  document.addEventListener(
    'keydown',
    (e) => {
      act?.(e);
    },
    { signal: ctx.signal },
  );

  renderPage(ctx, queue, progressSlot, nameForm, itemSlot, sideSlot);
  await next();
};

function renderPage(
  ctx: ViewContext,
  q: AnnotationQueue,
  progress: HTMLElement,
  nameForm: HTMLElement,
  itemSlot: HTMLElement,
  sideSlot: HTMLElement,
): void {
  const rubricHref = `#/rubrics/${encodeURIComponent(q.rubric.id)}/versions/${q.rubric.version}`;
  replaceChildren(
    ctx.root,
    page(
      pageHead('stack', breadcrumb([['Labelling', '#/labelling']], q.name), h('h1', null, `Label: ${q.name}`)),
      h(
        'div',
        { class: 'summary-grid' },
        h('div', { class: 'summary-main' }, itemSlot),
        h(
          'div',
          { class: 'summary-side' },
          card(
            'Queue',
            progress,
            facts([
              ['Rubric', h('a', { href: rubricHref }, `${q.rubric.id.slice(0, 14)}… v${q.rubric.version}`)],
              ['Kind', q.kind],
              ['Labels per item', formatInt(q.labelsPerItem)],
              ['Judge shown', q.blind ? 'no (blind)' : 'yes'],
            ]),
            nameForm,
          ),
          sideSlot,
        ),
      ),
    ),
  );
}
