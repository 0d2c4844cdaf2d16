/**
 * @module
 * Tables wider than the screen scroll sideways inside their `.table-wrap`, and on a phone nothing showed
 * that columns were out of sight. A wrap whose table is wider than it gets `data-more-left` /
 * `data-more-right` while columns are hidden on that side (app.css fades that edge), and a line above it
 * says so; both follow scrolling, resizing and re-rendering. While it scrolls, the wrap takes focus (Tab), so a
 * keyboard can scroll it too.
 */
import { h } from './dom.js';

/** The line shown above a table that scrolls sideways. */
export const SCROLL_HINT = 'Scroll sideways for more columns →';

function flag(el: HTMLElement, name: string, on: boolean): void {
  if (on) el.setAttribute(name, '');
  else el.removeAttribute(name);
}

function update(wrap: HTMLElement): void {
  const overflow = wrap.scrollWidth > wrap.clientWidth + 1;
  flag(wrap, 'data-more-left', overflow && wrap.scrollLeft > 1);
  flag(wrap, 'data-more-right', overflow && wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 1);
  // A keyboard scrolls only what it can focus: a table without links or buttons needs its wrap focusable.
  if (overflow && !wrap.hasAttribute('tabindex')) wrap.tabIndex = 0;
  else if (!overflow && wrap.tabIndex === 0) wrap.removeAttribute('tabindex');
  if (overflow && wrap.dataset.scrollWatched === undefined) {
    wrap.dataset.scrollWatched = '';
    wrap.addEventListener(
      'scroll',
      () => {
        update(wrap);
      },
      { passive: true },
    );
  }
  const before = wrap.previousElementSibling;
  let hint = before instanceof HTMLElement && before.classList.contains('scroll-hint') ? before : null;
  if (overflow && !hint) {
    hint = h('p', { class: 'scroll-hint muted small' }, SCROLL_HINT);
    wrap.before(hint);
  }
  if (hint) hint.hidden = !overflow;
}

/** Marks every `.table-wrap` under `root` as it is now (see the module note). */
export function markScrollingTables(root: ParentNode): void {
  for (const wrap of root.querySelectorAll<HTMLElement>('.table-wrap')) update(wrap);
}

/** Keeps the tables under `root` marked as pages render, re-render and the window resizes (once per frame). */
export function watchScrollingTables(root: HTMLElement): void {
  let frame = 0;
  const schedule = () => {
    if (frame !== 0) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      markScrollingTables(root);
    });
  };
  new MutationObserver(schedule).observe(root, { childList: true, subtree: true });
  window.addEventListener('resize', schedule);
  schedule();
}
