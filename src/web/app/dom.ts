/**
 * @module
 * Building DOM nodes without HTML strings: every text from the API (agents' messages, task texts, error
 * messages) becomes a text node, so nothing a model or a user wrote can inject markup or script. The page's
 * Content-Security-Policy (src/web/app/_headers) forbids inline script besides.
 */

/** A child: a node, a text, or nothing (skipped); arrays are flattened. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** Attribute values: `true` sets an empty attribute, `false`/null/undefined skip it; `on<event>` keys take listeners. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

function append(parent: Node, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (typeof c === 'string' || typeof c === 'number') parent.appendChild(document.createTextNode(String(c)));
    else if (c instanceof Node) parent.appendChild(c);
    else append(parent, c);
  }
}

function applyAttrs(el: Element, attrs: Attrs | null | undefined): void {
  if (!attrs) return;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

/** An HTML element with attributes and children, e.g. `h('a', { href: '#/new', class: 'btn' }, 'New')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, e.g. `svg('circle', { cx: 4, cy: 4, r: 2 })`. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs?: Attrs | null,
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/** Replaces a node's children. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The element with this id and type; throws when the page lacks it (a bug in index.html, not a user state). */
export function byId<T extends HTMLElement>(id: string, type: abstract new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`#${id} is missing from the page`);
  return el;
}

/**
 * Makes `parent`'s children exactly `nodes`, in order, moving only nodes that are out of place: nodes
 * already where they belong are not detached (their CSS animations, selection and focus are kept).
 */
export function syncChildren(parent: Element, nodes: readonly Node[]): void {
  nodes.forEach((node, i) => {
    const at = parent.childNodes[i] ?? null;
    if (at !== node) parent.insertBefore(node, at);
  });
  while (parent.childNodes.length > nodes.length) parent.lastChild?.remove();
}
