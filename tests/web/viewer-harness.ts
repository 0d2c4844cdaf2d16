/**
 * What the viewer's browser test files share (tests/cli/e2e/viewer*.test.ts): one mock LLM answering
 * after 300-700 ms so a debate takes seconds (20 ms in a file that only reads results), a context of the run's one headless Chromium, local stacks on
 * the e2e project's Worker bundle, the viewports, the form helper, the accessibility audit and the
 * screenshot folder. The pages are tested in three files, each on its own stack and browser context, so
 * the e2e project runs them side by side (one file took ~52 s alone, the longest of the project).
 */
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, PageScreenshotOptions } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import type { LocalStack } from '../../src/cli/local-stack.js';
import { startLocalStack } from '../../src/cli/local-stack.js';
import { REPO_ROOT } from '../../src/cli/worker-bundle.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { seededState } from '../support/seed-state.js';
import type { TestBrowser } from './browser.js';
import {
  auditKeyOf,
  axeViolations,
  BROWSER_REQUIRED,
  CHROMIUM,
  CHROMIUM_INSTALLED,
  claimAudit,
  launchBrowser,
} from './browser.js';
import { preparedWorker } from '../support/worker-ready.js';

/** A phone's viewport, px. */
export const PHONE = { width: 375, height: 812 };
/** A desktop's viewport, px. */
export const DESKTOP = { width: 1280, height: 900 };
/** Where UPDATE_SCREENSHOTS=1 writes the README's screenshots; a run without it writes none. */
const shots = join(REPO_ROOT, 'docs', 'screenshots');

/** True when the run rewrites the README's screenshots (UPDATE_SCREENSHOTS=1). */
const UPDATING_SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1';

/**
 * Saves a screenshot of `page` as `name` in {@link shots} with UPDATE_SCREENSHOTS=1 (`options` as Playwright's,
 * without `path`); otherwise takes none. No test reads a picture: they are for the README, and one taken on every
 * run (into a temporary folder nobody opens) cost Chromium a render and a PNG, and sent it base64 through
 * vitest's process (the run's browser server) to the test's: about 0.25 CPU-s each, 13 a run.
 */
export async function shoot(
  page: Page,
  name: string,
  options: Omit<PageScreenshotOptions, 'path'> = {},
): Promise<void> {
  if (UPDATING_SCREENSHOTS) await page.screenshot({ ...options, path: join(shots, name) });
}

/** Largest screenshot committed for the README, bytes. */
const MAX_SCREENSHOT_BYTES = 200 * 1024;

/**
 * True when the browser tests are skipped: Chromium is missing on a developer's machine. In CI (or with
 * TRIBUNAL_REQUIRE_BROWSER=1) they run and launchBrowser() fails naming the missing binary.
 */
export const SKIP_VIEWER = !CHROMIUM_INSTALLED && !BROWSER_REQUIRED;
if (SKIP_VIEWER)
  console.warn(
    `viewer browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium-headless-shell; CI and TRIBUNAL_REQUIRE_BROWSER=1 fail instead)`,
  );

/** The mock LLM and the browser of one test file, set by {@link useViewerBrowser}'s beforeAll. */
export interface ViewerRig {
  mock: MockServer;
  browser: TestBrowser;
  /** A fresh folder of this file for stacks' state. */
  dir: string;
  /**
   * Lets the mock's next `n` chat completions through and holds every one after them until `release()`: a test
   * sees a debate mid-way whatever the machine's load, not only while its replies happen to be slower than the
   * page. A held reply is answered at once when released if its latency has passed meanwhile.
   */
  holdAfter(n: number): { release: () => void };
}

/** The mock's default reply latency, ms: slow enough that a debate takes seconds, to be watched live. */
export const LIVE_LATENCY_MS: [number, number] = [300, 700];

/**
 * A quick mock's reply latency, ms, for files that read results rather than watch them arrive: each wait for a
 * result then lasts less, and so do the polls that wait (the test's, the page's, the runtime answering them).
 */
export const QUICK_LATENCY_MS: [number, number] = [20, 20];

/**
 * Starts the file's mock LLM (replies after `latencyMs`, default {@link LIVE_LATENCY_MS}; a request's model
 * name may say otherwise, `mock-judge?latency=20`) and a browser context (of the run's one Chromium,
 * tests/support/browser-broker.ts) before its tests and ends them after;
 * with UPDATE_SCREENSHOTS=1 it then checks every committed screenshot stays small (the README loads them
 * all). Call at the top of the file's outer describe; read the fields inside hooks and tests.
 */
export function useViewerBrowser(latencyMs: [number, number] = LIVE_LATENCY_MS): ViewerRig {
  let hold: { left: number; waiting: (() => void)[] } | null = null;
  const rig = { dir: mkdtempSync(join(tmpdir(), 'tribunal-viewer-test-')) } as ViewerRig;
  rig.holdAfter = (n) => {
    const h = { left: n, waiting: [] as (() => void)[] };
    hold = h;
    return {
      release: () => {
        if (hold === h) hold = null;
        for (const go of h.waiting.splice(0)) go();
      },
    };
  };
  beforeAll(async () => {
    rig.mock = await startMockServer({
      latencyMs,
      around: async (request, next) => {
        const h = hold;
        if (h && request.method === 'POST' && new URL(request.url).pathname.endsWith('/chat/completions')) {
          if (h.left > 0) h.left -= 1;
          else await new Promise<void>((go) => h.waiting.push(go));
        }
        return next(request);
      },
    });
    rig.browser = await launchBrowser(inject('browserBroker'));
  }, 60_000);
  afterAll(async () => {
    await rig.browser.close();
    await rig.mock.close();
    if (UPDATING_SCREENSHOTS) {
      for (const f of readdirSync(shots))
        expect([f, statSync(join(shots, f)).size <= MAX_SCREENSHOT_BYTES]).toEqual([f, true]);
    }
  });
  return rig;
}

/** A local stack's handle and the API helpers bound to it, set by {@link useViewerStack}'s beforeAll. */
export interface ViewerStack {
  stack: LocalStack;
  /** POSTs `body` to `path` (202 expected); the id it answers. */
  created(path: string, body: unknown): Promise<string>;
  /** Sends `body` to `path` with `method` (POST) and expects `status`; the JSON answer. */
  send<T>(path: string, body: unknown, status: number, method?: string): Promise<T>;
  /** Resolves once the API shows evaluation `id` ended. */
  endedInApi(id: string): Promise<void>;
}

/**
 * Starts a local stack (no crons, the e2e bundle, the rig's mock LLM) in state folder `name` before the
 * enclosing describe's tests and stops it after. `secrets` are the stack's secrets (e.g. API_KEYS), `vars`
 * its `[vars]` overrides (e.g. LLM_SUPPORTS_FLEX).
 */
export function useViewerStack(
  rig: ViewerRig,
  name: string,
  secrets?: Record<string, string>,
  vars?: Record<string, string>,
): ViewerStack {
  const handle = {
    async created(path: string, body: unknown): Promise<string> {
      const r = await fetch(`${handle.stack.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status, await r.clone().text()).toBe(202);
      return ((await r.json()) as { id: string }).id;
    },
    async send<T>(path: string, body: unknown, status: number, method = 'POST'): Promise<T> {
      const r = await fetch(`${handle.stack.url}${path}`, {
        method,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status, await r.clone().text()).toBe(status);
      return (await r.json()) as T;
    },
    async endedInApi(id: string): Promise<void> {
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${handle.stack.url}/v1/evaluations/${id}`)).json()) as { status: string }).status,
          { timeout: 60_000, interval: 200 },
        )
        .toMatch(/^(succeeded|failed|cancelled)$/);
    },
  } as ViewerStack;
  beforeAll(async () => {
    handle.stack = await startLocalStack({
      port: 0,
      persistTo: seededState(join(rig.dir, name)),
      llmBaseUrl: rig.mock.baseUrl,
      llmModel: 'mock-judge',
      crons: false,
      ...(secrets ? { secrets } : {}),
      ...(vars ? { vars } : {}),
      worker: preparedWorker(),
      reuseRuntime: true,
    });
  }, 120_000);
  afterAll(async () => {
    await handle.stack.stop();
  });
  return handle;
}

/** Fills the form with the example task of `preset` and submits it; resolves on the evaluation page. */
export async function submit(page: Page, preset: string, config?: string, screenshot?: string): Promise<string> {
  await page.getByLabel('Preset').selectOption(preset);
  await page.getByRole('button', { name: 'Fill in an example' }).click();
  if (config !== undefined) {
    await page.getByText('Advanced: config overrides, rubric and metadata').click();
    await page.getByLabel('Config overrides (JSON, optional)').fill(config);
  }
  if (screenshot !== undefined) await shoot(page, screenshot, { fullPage: true });
  await page.getByRole('button', { name: 'Start evaluation' }).click();
  await page.waitForURL(/#\/evaluations\/ev_/);
  return /#\/evaluations\/(ev_[^/?#]+)/.exec(page.url())?.[1] ?? '';
}

/**
 * Expects no axe-core violation on the page as it is now, once per distinct page of the run
 * (tests/web/browser.ts `auditKeyOf`: its route, phone or desktop layout and colour scheme, whatever state
 * it shows):
 * an audit costs ~130-180 ms of the renderer's CPU (axe on `#/new`, once injected; its first injection parses
 * 0.5 MB more), and the states of one page share their markup's rules. A page another
 * file audited first in this run is not audited again (`inject('auditDir')`); a file run alone audits
 * every page it shows.
 */
export async function expectAccessible(page: Page): Promise<void> {
  const dark = await page.evaluate<boolean>("matchMedia('(prefers-color-scheme: dark)').matches");
  const key = auditKeyOf(page.url(), page.viewportSize()?.width ?? DESKTOP.width, dark ? 'dark' : 'light');
  if (!claimAudit(inject('auditDir'), key)) return;
  // A message fading in (opacity from 0) reads as low contrast: audit what the reader sees once it has landed (a page
  // that prefers reduced motion, as the tests' contexts do, has none of the viewer's animations to wait for).
  await page.evaluate(
    `Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => null)))`,
  );
  expect(await axeViolations(page), page.url()).toEqual([]);
}
