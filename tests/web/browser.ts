/**
 * A real headless Chromium for the viewer's browser tests: `playwright-core` driving Debian's
 * `chromium-headless-shell` (else its `chromium`; Playwright's own browser download is not reachable here; `.ci/run` installs the package when
 * missing), on a new empty profile per launch, or a new context of the e2e run's one browser
 * (tests/support/browser-broker.ts).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

/** Every page's viewport unless a test asks for another, px. */
const DEFAULT_VIEWPORT = { width: 1280, height: 900 };

/** A context of `broker`'s browser (tests/support/browser-broker.ts), or Chromium on a new empty profile. */
async function openContext(broker: string | undefined): Promise<{ context: BrowserContext; end: () => Promise<void> }> {
  const viewport = DEFAULT_VIEWPORT;
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
 * What a test may change on a page that outlives a navigation and that {@link launchBrowser}'s reuse does not
 * undo: a page on which any of these was called is closed for real when the test closes it, never reused.
 */
const LASTING_PAGE_STATE = [
  'addInitScript',
  'emulateMedia',
  'exposeBinding',
  'exposeFunction',
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'setDefaultNavigationTimeout',
  'setDefaultTimeout',
  'setExtraHTTPHeaders',
] as const;

/**
 * A fresh browser context: of the run's one Chromium when `broker` (the e2e project's
 * `inject('browserBroker')`) is given, else of a Chromium launched on a new empty profile.
 *
 * A page a test closes is kept for the file's next `page()` when nothing of it outlives a new document: the
 * test's listeners are removed, its origin's sessionStorage cleared and it is sent to `about:blank`, so the next
 * test starts on a new document in the same tab, as in a new one. A new tab cost Chromium a renderer process
 * and Playwright its setup: about 0.3 CPU-s each (a blank tab opened and closed, at load 12-17; 26 a run). A page
 * that was given lasting state ({@link LASTING_PAGE_STATE}, a debugging-protocol session) or showed more than one
 * origin is closed for real.
 */
export async function launchBrowser(broker?: string): Promise<TestBrowser> {
  if (!CHROMIUM_INSTALLED)
    throw new Error(
      `${CHROMIUM} is missing: apt-get install -y chromium-headless-shell (.ci/run does it), or set CHROMIUM_PATH`,
    );
  const { context, end } = await openContext(broker);
  const errors = new Map<Page, string[]>();
  /** Per page: whether it may be reused, the origins it showed, the listeners its test added. */
  const kept = new Map<Page, { lasting: boolean; origins: Set<string>; added: [string, Listener][] }>();
  let idle: Page | undefined;
  const newCDPSession = context.newCDPSession.bind(context);
  context.newCDPSession = (page) => {
    const k = kept.get(page as Page);
    if (k) k.lasting = true;
    return newCDPSession(page);
  };

  /** Makes `page` a tab of its own again for the next test, or closes it; `close` is Playwright's own close. */
  async function release(page: Page, close: () => Promise<void>): Promise<void> {
    const k = kept.get(page);
    errors.set(page, []);
    if (!k || k.lasting || k.origins.size > 1 || idle !== undefined || page.isClosed()) {
      kept.delete(page);
      errors.delete(page);
      await close();
      return;
    }
    const off = page.off.bind(page) as (event: string, listener: Listener) => Page;
    for (const [event, listener] of k.added.splice(0)) off(event, listener);
    try {
      if (k.origins.has(new URL(page.url()).origin)) await page.evaluate('sessionStorage.clear()');
      else if (k.origins.size > 0) throw new Error('the page left the origin it showed');
      await page.goto('about:blank');
    } catch {
      kept.delete(page);
      errors.delete(page);
      await close();
      return;
    }
    k.origins.clear();
    idle = page;
  }

  /** A new tab with the harness's listeners and `close()` returning it to the file for reuse. */
  async function newPage(): Promise<Page> {
    const page = await context.newPage();
    const k = { lasting: false, origins: new Set<string>(), added: [] as [string, Listener][] };
    kept.set(page, k);
    page.on('console', (m) => {
      if (m.type() === 'error') errors.get(page)?.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => {
      errors.get(page)?.push(`page: ${e.message}`);
    });
    page.on('framenavigated', (frame) => {
      const origin = new URL(frame.url()).origin;
      if (frame === page.mainFrame() && origin !== 'null') k.origins.add(origin);
    });
    const patch = page as unknown as Record<string, unknown>;
    for (const name of LASTING_PAGE_STATE) {
      const own = page[name].bind(page) as (...args: unknown[]) => unknown;
      patch[name] = (...args: unknown[]) => {
        k.lasting = true;
        return own(...args);
      };
    }
    for (const name of ['on', 'once', 'addListener'] as const) {
      const own = page[name].bind(page) as (event: string, listener: Listener) => Page;
      patch[name] = (event: string, listener: Listener) => {
        k.added.push([event, listener]);
        return own(event, listener);
      };
    }
    const close = page.close.bind(page);
    patch.close = () => release(page, close);
    return page;
  }

  return {
    context,
    errorsOf: (page) => errors.get(page) ?? [],
    page: async (viewport) => {
      const reused = idle;
      idle = undefined;
      const page = reused ?? (await newPage());
      errors.set(page, []);
      // A reused tab has the size its last test left: every page starts at the asked size or the context's.
      if (viewport || reused) await page.setViewportSize(viewport ?? DEFAULT_VIEWPORT);
      return page;
    },
    close: end,
  };
}

/** A page event's listener, as the harness keeps it to remove it. */
type Listener = (...args: never[]) => void;

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

// Re-exported for the viewer harness: they live apart so that the node project's test of them loads no Playwright.
export { auditKeyOf, claimAudit } from './audit-keys.js';
