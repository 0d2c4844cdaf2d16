/**
 * @module
 * `#/`: the evaluations list (filled in once `GET /v1/evaluations` exists).
 */
import { h, replaceChildren } from '../dom.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';

/** The evaluations list. */
export const evaluationsView: View = (ctx) => {
  setTitle('Evaluations');
  replaceChildren(ctx.root, h('div', { class: 'page' }, h('div', { class: 'page-head' }, h('h1', null, 'Evaluations')), h('a', { class: 'btn btn-primary', href: '#/new' }, 'New evaluation')));
  return Promise.resolve();
};
