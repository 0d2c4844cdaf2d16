/**
 * @module
 * Which page an accessibility audit is about, and the first claim of it in a run (tests/web/viewer-harness.ts
 * `expectAccessible`). Apart from ./browser.ts, which re-exports them: importing that loads Playwright
 * (about 1 CPU-s in the node project's process, where tests/web/audit-key.test.ts needs none of it).
 */
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The page an audit is about: the path, the viewer's hash route with its ids as `:id` (every second
 * segment: `#/rubrics/rb_1/versions/2` → `#/rubrics/:id/versions/:id`), no query, `phone` or `desktop` by
 * the viewport's width (the layouts differ below 600 px), and the colour scheme (the dark one has colours
 * of its own, whose contrast is audited apart). States of one page share it.
 */
export function auditKeyOf(url: string, width: number, scheme: 'light' | 'dark' = 'light'): string {
  const u = new URL(url);
  const route = (u.hash.replace(/^#/, '').split('?')[0] ?? '')
    .split('/')
    .filter((s) => s !== '')
    .map((s, i) => (i % 2 === 1 ? ':id' : s))
    .join('/');
  return `${u.pathname}#/${route} ${width < 600 ? 'phone' : 'desktop'}${scheme === 'dark' ? ' dark' : ''}`;
}

/**
 * True the first time `key` is claimed in `dir` (across the processes of one run: a file created
 * exclusively), or in this process when there is no `dir`.
 */
export function claimAudit(dir: string | undefined, key: string): boolean {
  if (!dir) {
    if (claimed.has(key)) return false;
    claimed.add(key);
    return true;
  }
  try {
    closeSync(openSync(join(dir, encodeURIComponent(key)), 'wx'));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}
const claimed = new Set<string>();
