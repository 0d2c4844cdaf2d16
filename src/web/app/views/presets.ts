/**
 * @module
 * `#/presets`: every preset of `GET /v1/methods` with the paper it reproduces and the full config it
 * runs, and a link that opens the submit form with it.
 */
import { getJson } from '../api.js';
import { badge, page, pageHead } from '../components.js';
import { h, replaceChildren } from '../dom.js';
import type { MethodsResponse } from '../types.js';
import type { View } from '../view.js';
import { setTitle } from '../view.js';

/** The presets page. */
export const presetsView: View = async (ctx) => {
  setTitle('Presets');
  const { presets, methods } = await getJson<MethodsResponse>('/v1/methods', ctx.signal);
  replaceChildren(
    ctx.root,
    page(
      pageHead(
        'stack',
        h('h1', null, 'Presets'),
        h(
          'p',
          { class: 'muted' },
          `${presets.length} presets over ${methods.length} methods. A preset is a method with the settings of one paper's experiment; its config is the base your overrides merge into.`,
        ),
      ),
      h(
        'ul',
        { class: 'preset-grid' },
        presets.map((p) =>
          h(
            'li',
            { class: 'card preset-card', id: p.id },
            h(
              'div',
              { class: 'preset-head' },
              h('h2', { class: 'card-title' }, p.id),
              badge(p.taskKind, p.taskKind === 'pairwise' ? 'info' : 'neutral'),
            ),
            h('p', null, p.description),
            h('p', { class: 'muted small' }, `${p.paper} · method ${p.method}`),
            h(
              'details',
              null,
              h('summary', null, 'Config'),
              h('pre', { class: 'code' }, JSON.stringify(p.config, null, 2)),
            ),
            h(
              'div',
              null,
              h('a', { class: 'btn btn-small', href: `#/new?preset=${encodeURIComponent(p.id)}` }, 'Use this preset'),
            ),
          ),
        ),
      ),
    ),
  );
  // `#/presets?preset=<id>` (the submit form's link): that preset, its config open.
  const wanted = ctx.query.get('preset');
  const target = wanted ? document.getElementById(wanted) : null;
  if (target) {
    target.querySelector('details')?.setAttribute('open', '');
    target.scrollIntoView();
  }
};
