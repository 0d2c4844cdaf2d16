/**
 * @module
 * `#/batches` and `#/batches/{id}` (filled in once the batches API exists).
 */
import { h, replaceChildren } from '../dom.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';

/** The batches list. */
export const batchesView: View = (ctx) => {
  setTitle('Batches');
  replaceChildren(ctx.root, h('div', { class: 'page' }, h('div', { class: 'page-head' }, h('h1', null, 'Batches'))));
  return Promise.resolve();
};

/** One batch. */
export const batchView: View = batchesView;
