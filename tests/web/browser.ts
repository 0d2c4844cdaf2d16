/**
 * A real headless Chromium for the viewer's browser tests: `playwright-core` driving Debian's
 * `chromium-headless-shell` (else its `chromium`; Playwright's own browser download is not reachable here; `.ci/run` installs the package when
 * missing), on a new empty profile per launch, or a new context of the e2e run's one browser
 * (tests/support/browser-broker.ts).
 */
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

/**
 * Debian's `chromium-headless-shell`: the same Chromium's headless-only build, without the full browser's
 * UI layer (and not through /usr/bin/chromium's wrapper, which adds desktop flags such as GPU
 * rasterization). Playwright's own headless default is this shell too. viewer-lists.test.ts alone, at
 * load 20-27: the browser's processes 19.3 CPU-s on `chromium`, 7.8 on the shell.
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

/**
 * The browser the tests drive: `CHROMIUM_PATH` when set, else Debian's headless shell when installed
 * (`.ci/run` installs it), else Debian's full `chromium`.
 */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** True when Chromium is installed where {@link CHROMIUM} says. */
export const CHROMIUM_INSTALLED = existsSync(CHROMIUM);

/**
 * True when a missing Chromium must fail the browser tests rather than skip them: in CI (`CI` set, as
 * CI services do) or with `TRIBUNAL_REQUIRE_BROWSER=1` (`.ci/run` sets it). Elsewhere a machine without
 * Chromium skips them, and says so.
 */
export const BROWSER_REQUIRED =
  ((process.env.CI ?? '') !== '' && process.env.CI !== 'false') || process.env.TRIBUNAL_REQUIRE_BROWSER === '1';

/**
 * The flags of every launch: headless, no sandbox (CI containers run as root), nothing phoning home, and
 * the GPU process's work (software compositing with `--disable-gpu`) done inside the browser process: the
 * same frames without a third process and its IPC (a page animating for 20 s, at load 23-34: 5.1-5.6 CPU-s
 * with a GPU process, 4.9-5.1 without; BENCHMARKS.md, 2026-12-07 vwr18).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--in-process-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser on a fresh profile (or a fresh context of a shared browser); `close()` ends it. */
export interface TestBrowser {
  context: BrowserContext;
  /** A new tab with the given viewport; its console errors and uncaught exceptions are collected. */
  page(viewport?: { width: number; height: number }): Promise<Page>;
  /** Console errors and uncaught exceptions of a page from {@link page}, so far. */
  errorsOf(page: Page): string[];
  close(): Promise<void>;
}

/** What a GET of `url` answers (node:http: the e2e project's fetch would ask the broker for a contract first). */
function getText(url: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, text });
      });
    }).on('error', reject);
  });
}

/**
 * Every context prefers reduced motion, as a reader may: the viewer's CSS then drops its animations
 * (src/web/app/app.css), among them the pulsing dot of a running pill and the typing dots, which made
 * Chromium draw a frame every 16 ms for as long as a test waited on a running evaluation: ~0.1 CPU-s a
 * second (a page with them for 20 s, at load 23-34: 4.9-5.6 CPU-s; without, 2.8-3.5). No test asserts an
 * animation; the live debate's page keeps them (viewer.test.ts), so an audit still sees a fade that never lands.
 */
const CONTEXT_OPTIONS = { reducedMotion: 'reduce' } as const;

/** A context of `broker`'s browser (tests/support/browser-broker.ts), or Chromium on a new empty profile. */
async function openContext(broker: string | undefined): Promise<{ context: BrowserContext; end: () => Promise<void> }> {
  const viewport = { width: 1280, height: 900 };
  if (broker) {
    const endpoint = await getText(broker);
    if (endpoint.status !== 200) throw new Error(`the e2e run's browser did not start: ${endpoint.text}`);
    const browser = await chromium.connect(endpoint.text);
    const context = await browser.newContext({ ...CONTEXT_OPTIONS, viewport });
    return {
      context,
      end: async () => {
        await context.close();
        // Disconnects; the browser serves the other files until the run ends.
        await browser.close();
      },
    };
  }
  // Playwright's persistent context owns `--user-data-dir`.
  const profile = mkdtempSync(join(tmpdir(), 'tribunal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    ...CONTEXT_OPTIONS,
    viewport,
  });
  return {
    context,
    end: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh browser context: of the run's one Chromium when `broker` (the e2e project's
 * `inject('browserBroker')`) is given, else of a Chromium launched on a new empty profile.
 */
export async function launchBrowser(broker?: string): Promise<TestBrowser> {
  if (!CHROMIUM_INSTALLED)
    throw new Error(
      `${CHROMIUM} is missing: apt-get install -y chromium-headless-shell (.ci/run does it), or set CHROMIUM_PATH`,
    );
  const { context, end } = await openContext(broker);
  const errors = new Map<Page, string[]>();
  return {
    context,
    errorsOf: (page) => errors.get(page) ?? [],
    page: async (viewport) => {
      const page = await context.newPage();
      const list: string[] = [];
      errors.set(page, list);
      if (viewport) await page.setViewportSize(viewport);
      page.on('console', (m) => {
        if (m.type() === 'error') list.push(`console: ${m.text()}`);
      });
      page.on('pageerror', (e) => {
        list.push(`page: ${e.message}`);
      });
      return page;
    },
    close: end,
  };
}

/** One accessibility rule broken on a page, as axe-core reports it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.1 A and AA rules: labels, names, contrast, landmarks, ARIA) on the page as it is
 * now. Injected through the debugging protocol, so the page's Content-Security-Policy stays enforced.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Once per document: the viewer changes pages by their hash, and axe's 0.5 MB need not be parsed again.
  if (!(await page.evaluate<boolean>("typeof axe !== 'undefined'"))) await page.evaluate(AXE_SOURCE);
  return page.evaluate<
    AxeViolation[]
  >(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`);
}

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
