/**
 * @module
 * The "not available" state of the list pages: a deployment without `GET /v1/evaluations` or
 * `/v1/batches` (an older Worker, or one built before listing landed) answers those paths with the API's
 * JSON 404 / 405. The list pages then say so, and still offer what works without a list: opening an
 * evaluation or a meta-evaluation by its id, and submitting a task.
 */
import { page, pageHead } from '../components.js';
import { ApiFailure } from '../api.js';
import { h, replaceChildren } from '../dom.js';
import type { ViewContext } from '../view.js';

/** True when the API does not serve the path (404 `not_found` or 405 `method_not_allowed`). */
export function isUnavailable(e: unknown): boolean {
  return (
    e instanceof ApiFailure &&
    (e.status === 404 || e.status === 405) &&
    (e.code === 'not_found' || e.code === 'method_not_allowed')
  );
}

/** What a "not available" page shows and where its "open by id" form goes. */
export interface UnavailableOptions {
  title: string;
  /** The API path that is missing, e.g. `GET /v1/evaluations`. */
  endpoint: string;
  /** The "open by id" form: its label, the id prefixes it accepts, and the page for an id. */
  open: { label: string; placeholder: string; href: (id: string) => string };
}

/** Renders the "not available" state of a list page. */
export function renderUnavailable(ctx: ViewContext, o: UnavailableOptions): void {
  const input = h('input', {
    id: 'open-id',
    name: 'id',
    type: 'text',
    required: true,
    spellcheck: 'false',
    autocomplete: 'off',
    placeholder: o.open.placeholder,
  });
  const form = h(
    'form',
    { class: 'row open-by-id' },
    h('div', { class: 'field' }, h('label', { for: 'open-id' }, o.open.label), input),
    h('button', { type: 'submit', class: 'btn' }, 'Open'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const id = input.value.trim();
    if (id) ctx.navigate(o.open.href(id));
  });
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'title-row',
        h('h1', null, o.title),
        h('span', { class: 'spacer' }),
        h('a', { class: 'btn btn-primary', href: '#/new' }, 'New evaluation'),
      ),
      h(
        'section',
        { class: 'card unavailable', 'aria-labelledby': 'unavailable-title' },
        h('h2', { id: 'unavailable-title', class: 'card-title' }, 'Not available on this deployment'),
        h(
          'p',
          null,
          'This list needs ',
          h('code', null, o.endpoint),
          ", which this deployment's API does not serve. Everything else works: open a page by its id, or submit a task.",
        ),
        form,
      ),
    ),
  );
}
