/**
 * A real headless Chromium for the viewer's browser tests: `playwright-core` driving Debian's `chromium`
 * (Playwright's own browser download is not reachable here; `.ci/run` installs the package when
 * missing), on a new empty profile per launch.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

/** Where Debian's chromium package puts the browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** True when Chromium is installed where {@link CHROMIUM} says. */
export const CHROMIUM_INSTALLED = existsSync(CHROMIUM);

/**
 * True when a missing Chromium must fail the browser tests rather than skip them: in CI (`CI` set, as
 * CI services do) or with `TRIBUNAL_REQUIRE_BROWSER=1` (`.ci/run` sets it). Elsewhere a machine without
 * Chromium skips them, and says so.
 */
export const BROWSER_REQUIRED =
  ((process.env.CI ?? '') !== '' && process.env.CI !== 'false') || process.env.TRIBUNAL_REQUIRE_BROWSER === '1';

/** The flags of every launch: headless, no sandbox (CI containers run as root), nothing phoning home. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser on a fresh profile; `close()` ends it and removes the profile. */
export interface TestBrowser {
  context: BrowserContext;
  /** A new tab with the given viewport; its console errors and uncaught exceptions are collected. */
  page(viewport?: { width: number; height: number }): Promise<Page>;
  /** Console errors and uncaught exceptions of a page from {@link page}, so far. */
  errorsOf(page: Page): string[];
  close(): Promise<void>;
}

/** Launches Chromium on a new empty `--user-data-dir` (Playwright's persistent context owns that flag). */
export async function launchBrowser(): Promise<TestBrowser> {
  if (!CHROMIUM_INSTALLED)
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does it), or set CHROMIUM_PATH`);
  const profile = mkdtempSync(join(tmpdir(), 'tribunal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
  });
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
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Where screenshots go: `docs/screenshots/` (the committed ones the README shows) when
 * `UPDATE_SCREENSHOTS=1`, else a temporary folder, so a test run does not rewrite committed files
 * (ids and times differ on every run).
 */
export function screenshotDir(repoRoot: string): string {
  const dir =
    process.env.UPDATE_SCREENSHOTS === '1'
      ? join(repoRoot, 'docs', 'screenshots')
      : join(tmpdir(), 'tribunal-screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
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
  await page.evaluate(AXE_SOURCE);
  return page.evaluate<
    AxeViolation[]
  >(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) })))`);
}
