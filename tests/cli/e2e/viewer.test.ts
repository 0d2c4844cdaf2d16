/**
 * The live viewer in a real headless Chromium (playwright-core driving Debian's chromium) against the
 * local stack, the mock LLM answering after 300-700 ms so a debate takes seconds: submit a task from the
 * form, see the agents' messages arrive one by one and then the verdict, the transcript, an unparsed
 * reply marked, a meta-evaluation's report with its charts; and with API_KEYS set, the key entered once
 * per tab and never put in a URL. Screenshots at 1280 and 375 px (docs/screenshots/ with
 * UPDATE_SCREENSHOTS=1, see tests/web/browser.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { REPO_ROOT, startLocalStack } from '../../../src/cli/local-stack.js';
import type { MockServer } from '../../../src/mock-llm/node.js';
import { startMockServer } from '../../../src/mock-llm/node.js';
import { loadFairEval, loadSummEval } from '../../../src/datasets/loaders.js';
import type { TestBrowser } from '../../web/browser.js';
import {
  axeViolations,
  BROWSER_REQUIRED,
  CHROMIUM,
  CHROMIUM_INSTALLED,
  launchBrowser,
  screenshotDir,
} from '../../web/browser.js';

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };
const shots = screenshotDir(REPO_ROOT);

/**
 * Records, in the page, every change of (messages shown done, verdict shown): the proof that messages
 * arrive one after another and the verdict after them. A string: it runs in the browser, not in Node.
 */
const TIMELINE_SCRIPT = `
window.__timeline = [];
new MutationObserver(() => {
  const done = document.querySelectorAll('.msg[data-state="done"]').length;
  const verdict = document.querySelector('.verdict-headline') !== null;
  const last = window.__timeline[window.__timeline.length - 1];
  if (!last || last.done !== done || last.verdict !== verdict) window.__timeline.push({ done, verdict, t: performance.now() });
}).observe(document, { subtree: true, childList: true, attributes: true });
`;

interface TimelineEntry {
  done: number;
  verdict: boolean;
  t: number;
}

let mock: MockServer;
let browser: TestBrowser;
const dir = mkdtempSync(join(tmpdir(), 'tribunal-viewer-test-'));

/** Largest screenshot committed for the README, bytes. */
const MAX_SCREENSHOT_BYTES = 200 * 1024;

// Without Chromium: skipped, loudly, on a developer's machine; in CI (or TRIBUNAL_REQUIRE_BROWSER=1)
// the suite runs and launchBrowser() fails naming the missing binary.
const SKIP = !CHROMIUM_INSTALLED && !BROWSER_REQUIRED;
if (SKIP)
  console.warn(
    `viewer browser tests SKIPPED: ${CHROMIUM} is missing (apt-get install -y chromium; CI and TRIBUNAL_REQUIRE_BROWSER=1 fail instead)`,
  );

/** Fills the form with the example task of `preset` and submits it; resolves on the evaluation page. */
async function submit(page: Page, preset: string, config?: string, screenshot?: string): Promise<string> {
  await page.getByLabel('Preset').selectOption(preset);
  await page.getByRole('button', { name: 'Fill in an example' }).click();
  if (config !== undefined) {
    await page.getByText('Advanced: config overrides, rubric and metadata').click();
    await page.getByLabel('Config overrides (JSON, optional)').fill(config);
  }
  if (screenshot !== undefined) await page.screenshot({ path: join(shots, screenshot), fullPage: true });
  await page.getByRole('button', { name: 'Start evaluation' }).click();
  await page.waitForURL(/#\/evaluations\/ev_/);
  return /#\/evaluations\/(ev_[^/?#]+)/.exec(page.url())?.[1] ?? '';
}

describe.skipIf(SKIP)('the viewer in headless Chromium', () => {
  beforeAll(async () => {
    mock = await startMockServer({ latencyMs: [300, 700] });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser.close();
    await mock.close();
    // The committed screenshots stay small (the README loads them all).
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      for (const f of readdirSync(shots))
        expect([f, statSync(join(shots, f)).size <= MAX_SCREENSHOT_BYTES]).toEqual([f, true]);
    }
  });

  describe('the viewer without auth', () => {
    let stack: LocalStack;
    beforeAll(async () => {
      stack = await startLocalStack({
        port: 0,
        persistTo: join(dir, 'open'),
        llmBaseUrl: mock.baseUrl,
        llmModel: 'mock-judge',
        crons: false,
        bundle: inject('workerBundle'),
      });
    }, 120_000);
    afterAll(async () => {
      await stack.stop();
    });

    /** POSTs `body` to `path` (202 expected); the id it answers. */
    async function created(path: string, body: unknown): Promise<string> {
      const r = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(r.status, await r.clone().text()).toBe(202);
      return ((await r.json()) as { id: string }).id;
    }

    /** Resolves once the API shows evaluation `id` ended. */
    async function endedInApi(id: string): Promise<void> {
      await expect
        .poll(
          async () => ((await (await fetch(`${stack.url}/v1/evaluations/${id}`)).json()) as { status: string }).status,
          { timeout: 60_000, interval: 200 },
        )
        .toMatch(/^(succeeded|failed|cancelled)$/);
    }

    it("serves the page at / and its files under /app/ from the static assets; other paths keep the API's JSON errors", async () => {
      const page = await fetch(`${stack.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('<script type="module" src="/app/app.js">');
      for (const [path, type] of [
        ['/app/app.js', 'text/javascript'],
        ['/app/app.css', 'text/css'],
      ] as const) {
        const r = await fetch(`${stack.url}${path}`);
        expect([r.status, r.headers.get('content-type')?.split(';')[0]], path).toEqual([200, type]);
      }
      for (const path of ['/v1/nothing-here', '/index.html', '/vendor/scalar.js']) {
        const r = await fetch(`${stack.url}${path}`);
        expect([r.status, ((await r.json()) as { error: { code: string } }).error.code], path).toEqual([
          404,
          'not_found',
        ]);
      }
      const wrongMethod = await fetch(`${stack.url}/v1/methods`, { method: 'DELETE' });
      expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    });

    it('streams a debate live: messages one by one, then the verdict and the transcript', async () => {
      const page = await browser.page(DESKTOP);
      await page.addInitScript(TIMELINE_SCRIPT);
      await page.goto(`${stack.url}/#/new`);
      await expect.poll(() => page.getByLabel('Preset').locator('option').count()).toBeGreaterThan(20);
      expect(await axeViolations(page)).toEqual([]);
      const id = await submit(page, 'chateval-faireval', undefined, 'submit-desktop.png');
      expect(id).toMatch(/^ev_/);

      // Mid-debate: some messages shown, no verdict yet, the stream marked live.
      await page.locator('.msg[data-state="done"]').nth(2).waitFor();
      expect(await page.locator('.verdict-headline').count()).toBe(0);
      await expect.poll(() => page.locator('.badge', { hasText: 'live' }).count()).toBe(1);
      // Tokens and cost while it runs: the stored replies' own figures, not "…".
      const cost = page.locator('section[aria-labelledby="card-cost"]');
      expect(await cost.innerText()).toMatch(/Tokens\s+[1-9][\d,]* in · [1-9][\d,]* out so far/);
      expect(await cost.innerText()).toMatch(/Cost\s+\$[\d.]+ so far/);
      // "Created 0 s ago" moves on by itself.
      const created = page.locator('.facts time[data-ago]');
      const createdText = await created.innerText();
      expect(createdText).toMatch(/^\d+ s ago$/);
      await expect.poll(() => created.innerText(), { timeout: 5_000, interval: 100 }).not.toBe(createdText);
      await page.screenshot({ path: join(shots, 'evaluation-live-desktop.png') });

      await page.locator('.verdict-headline').waitFor({ timeout: 60_000 });
      await page.locator('.transcript').waitFor();
      const timeline = await page.evaluate<TimelineEntry[]>('window.__timeline');
      const before = timeline.filter((e) => !e.verdict).map((e) => e.done);
      // 2 agents × 2 turns × 2 orders = 8 replies, shown as they came: at least 4 distinct steps (the
      // rounds) before the verdict, never fewer than before.
      expect(new Set(before).size).toBeGreaterThanOrEqual(4);
      expect(before).toEqual([...before].sort((a, b) => a - b));
      // The verdict never shows while a reply is missing. The last reply and the verdict may reach the
      // page in one render (the final write is quick on an idle machine), so the verdict's first entry
      // may be the one that completes the replies: what is pinned is that it has all 8.
      expect(timeline.filter((e) => e.verdict).map((e) => e.done)).toEqual(
        timeline.filter((e) => e.verdict).map(() => 8),
      );
      expect(timeline.at(-1)).toMatchObject({ done: 8, verdict: true });

      // The page says what the API says.
      const api = (await (await fetch(`${stack.url}/v1/evaluations/${id}`)).json()) as {
        status: string;
        verdict: { winner: string; positionFlip: boolean };
        usage: { calls: number };
      };
      expect(api.status).toBe('succeeded');
      const headline = await page.locator('.verdict-headline').innerText();
      expect(headline).toContain(
        api.verdict.winner === 'tie' ? 'Neither answer is better' : `Answer ${api.verdict.winner} is better`,
      );
      expect(
        await page
          .getByText(api.verdict.positionFlip ? 'swapping the answers changed the outcome' : 'both orders agree')
          .count(),
      ).toBe(1);
      expect(await page.locator('.lane').count()).toBe(2);
      expect(await page.locator('.transcript-item').count()).toBe(8);
      expect(await page.locator('.pill', { hasText: 'succeeded' }).count()).toBeGreaterThan(0);
      expect(browser.errorsOf(page)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'dark' });
      expect(await axeViolations(page)).toEqual([]);
      await page.emulateMedia({ colorScheme: 'light' });
      // The verdict, the votes and the debate's first turn: the whole page would be ~400 KB.
      await page.screenshot({
        path: join(shots, 'evaluation-desktop.png'),
        fullPage: true,
        clip: { x: 0, y: 0, width: DESKTOP.width, height: 1100 },
      });

      await page.setViewportSize(PHONE);
      await page.evaluate('window.scrollTo(0, 0)');
      // Nothing wider than the phone: no sideways scrolling.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.screenshot({ path: join(shots, 'evaluation-phone.png') });
      // A phone screen's worth of the debate, cut from the whole page (a scrolled viewport can be
      // captured before it repaints).
      const debateTop = await page.evaluate<number>(
        "document.querySelector('.debate').getBoundingClientRect().top + window.scrollY",
      );
      await page.screenshot({
        path: join(shots, 'debate-phone.png'),
        fullPage: true,
        clip: { x: 0, y: debateTop, width: PHONE.width, height: PHONE.height },
      });
      await page.close();
    });

    it('on a deployment without the listing API, the list pages say so and still open a page by its id', async () => {
      const created = await fetch(`${stack.url}/v1/evaluations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          preset: 'fastchat-pair',
          task: { kind: 'pairwise', question: 'Capital of France?', answerA: 'Paris.', answerB: 'Lyon.' },
        }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const page = await browser.page(DESKTOP);
      // An older Worker's answers to the list routes: its JSON 405 (POST only) and 404.
      const refuse = (status: number, code: string) => (route: Route) =>
        route.fulfill({
          status,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code, message: 'refused by the test' } }),
        });
      await page.route(/\/v1\/evaluations\?/, refuse(405, 'method_not_allowed'));
      await page.route(/\/v1\/batches\?/, refuse(404, 'not_found'));
      for (const [hash, endpoint] of [
        ['#/batches', 'GET /v1/batches'],
        ['#/', 'GET /v1/evaluations'],
      ] as const) {
        await page.goto(`${stack.url}/${hash}`);
        await page.getByRole('heading', { name: 'Not available on this deployment' }).waitFor();
        expect(await page.locator('.unavailable code').innerText()).toBe(endpoint);
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.getByLabel('Open an evaluation by id').fill(id);
      await page.getByRole('button', { name: 'Open' }).click();
      await page.waitForURL(new RegExp(`#/evaluations/${id}$`));
      await page.locator('.pill').first().waitFor();
      expect(browser.errorsOf(page).filter((e) => !/status of 40[45]/.test(e))).toEqual([]);
      await page.close();
    });

    it('lists evaluations and batches with filters, and shows a batch with its verdicts and results', async () => {
      const items = ['q1', 'q2', 'q3', 'q4'].map((id, i) => ({
        id,
        task: { kind: 'pairwise', question: `(${i}) Capital of France?`, answerA: 'Paris.', answerB: `Lyon ${i}.` },
        metadata: { run: 'viewer-e2e' },
      }));
      const created = await fetch(`${stack.url}/v1/batches`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ preset: 'fastchat-pair', items }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const page = await browser.page(DESKTOP);

      // Batches list → the batch's page, which follows it to completion.
      await page.goto(`${stack.url}/#/batches`);
      await page
        .getByRole('link', { name: id.slice(0, 12) })
        .first()
        .click();
      await page.waitForURL(new RegExp(`#/batches/${id}$`));
      await expect.poll(() => page.locator('.title-row .pill').innerText(), { timeout: 90_000 }).toMatch(/completed/i);
      await expect.poll(() => page.locator('.table tbody tr').count()).toBe(4);
      const batch = (await (await fetch(`${stack.url}/v1/batches/${id}`)).json()) as {
        verdicts: { winsA: number; winsB: number; ties: number };
        counts: { succeeded: number };
      };
      expect(batch.counts.succeeded).toBe(4);
      const bars = await page.locator('.dist-value').allTextContents();
      expect(bars.map((t) => Number(t.split(' ')[0]))).toEqual([
        batch.verdicts.winsA,
        batch.verdicts.winsB,
        batch.verdicts.ties,
      ]);
      for (const item of items) expect(await page.locator('.table tbody tr', { hasText: item.id }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, 'batch-desktop.png'), fullPage: true });

      // Evaluations list filtered by the batch, from the filter form; the filters stay in the URL.
      await page.goto(`${stack.url}/#/`);
      await page.locator('.list-table').waitFor();
      await page.getByLabel('Batch').fill(id);
      await page.getByLabel('Status').selectOption('succeeded');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/#\/\?status=succeeded&batch=/);
      await expect.poll(() => page.locator('.list-table tbody tr').count()).toBe(4);
      expect(await page.locator('.list-table tbody tr', { hasText: 'succeeded' }).count()).toBe(4);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, 'evaluations-desktop.png') });
      // A metadata filter that matches nothing says so.
      await page.goto(`${stack.url}/#/?metadata=run:nothing-like-this`);
      await page.getByText('No evaluation matches these filters.').waitFor();
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('marks replies that never parsed, in the debate and in the verdict', async () => {
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/new`);
      // Every first answer to a prompt is in no known format, the re-ask's too: the reply never parses.
      await submit(page, 'fastchat-pair', '{"defaults": {"model": "mock-judge?fail=wrong-format:1&latency=50"}}');
      await page.locator('.transcript').waitFor({ timeout: 60_000 });
      expect(await page.locator('.msg .badge', { hasText: 'unparsed' }).count()).toBeGreaterThan(0);
      expect(await page.locator('.msg .badge', { hasText: 're-ask 1' }).count()).toBeGreaterThan(0);
      expect(await page.locator('.facts', { hasText: 'Unparsed replies' }).innerText()).toMatch(
        /Unparsed replies\s+\d/,
      );
      await page.close();
    });

    it('can be used from the keyboard, and the accessibility audit does catch a broken page', async () => {
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/new`);
      await page.getByLabel('Preset').waitFor();
      // The first Tab reaches the skip link, which moves focus to the page's content.
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate('document.activeElement.id')).toBe('main');
      // Keyboard only: pick a preset, fill the example, submit.
      await page.getByLabel('Preset').focus();
      await page.keyboard.press('End');
      expect(await page.getByLabel('Preset').inputValue()).not.toBe('chateval-faireval');
      await page.getByRole('button', { name: 'Fill in an example' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Start evaluation' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/#\/evaluations\/ev_/);
      await page.locator('.debate').waitFor();
      // The audit is not vacuous: an unlabelled field is reported.
      await page.evaluate(
        "document.querySelector('main').append(Object.assign(document.createElement('input'), { type: 'text' }))",
      );
      expect((await axeViolations(page)).map((v) => v.id)).toContain('label');
      await page.close();
    });

    it("shows the API's field errors next to the fields", async () => {
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/new`);
      await page.getByLabel('Preset').selectOption('chateval-faireval');
      await page.getByRole('button', { name: 'Fill in an example' }).click();
      await page.getByText('Advanced: config overrides, rubric and metadata').click();
      await page.getByLabel('Config overrides (JSON, optional)').fill('{"turns": "many"}');
      await page.getByRole('button', { name: 'Start evaluation' }).click();
      await page.locator('#f-config-error:not(:empty)').waitFor();
      expect(await page.getByLabel('Config overrides (JSON, optional)').getAttribute('aria-invalid')).toBe('true');
      expect(page.url()).toContain('#/new');
      await page.close();
    });

    it("shows a meta-evaluation's report: agreement with intervals and the confusion matrix", async () => {
      const items = loadFairEval()
        .slice(0, 8)
        .map((i) => ({ id: i.id, task: i.task, human: i.human }));
      const created = await fetch(`${stack.url}/v1/meta-evaluations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ preset: 'fastchat-pair', items }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/meta/${id}`);
      await page.locator('svg.cm').waitFor({ timeout: 90_000 });
      const report = (
        (await (await fetch(`${stack.url}/v1/meta-evaluations/${id}`)).json()) as { report: { confusion: number[][] } }
      ).report;
      const counts = await page.locator('svg.cm .cm-count').allTextContents();
      expect(counts.map(Number)).toEqual(report.confusion.flat());
      expect(await page.locator('.ci-table tbody tr').count()).toBe(2);
      expect(await page.locator('.ci-table .ci-point').count()).toBeGreaterThan(0);
      expect(await page.locator('.table tbody tr', { hasText: items[0]!.id }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, 'meta-desktop.png'), fullPage: true });
      await page.close();
    });

    it("shows a comparison: the gate in words, the leaderboard with interval bars, the win-matrix heat map, the items that disagree most linked to their debates; and a meta-evaluation's reliability", async () => {
      const tag = (q: number) => `[quality=${q}]`;
      const items = Array.from({ length: 6 }, (_, i) => ({
        id: `c${i}`,
        question: `(${i}) Explain recursion.`,
        outputs: { low: `Low ${tag(i === 0 ? 3 : 0)}`, mid: `Mid ${tag(1)}`, high: `High ${tag(2)}` },
      }));
      const id = await created('/v1/comparisons', {
        preset: 'fastchat-pair',
        candidates: ['low', 'mid', 'high'],
        design: 'all-pairs',
        gate: { candidate: 'high', baseline: 'low' },
        items,
      });
      const meta = await created('/v1/meta-evaluations', {
        preset: 'fastchat-pair',
        config: { defaults: { model: 'mock-judge?vary=1' } },
        repeats: 2,
        items: loadFairEval()
          .slice(0, 3)
          .map((i) => ({ id: i.id, task: i.task, human: i.human })),
      });
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/comparisons/${id}`);
      await page.locator('.heatmap').waitFor({ timeout: 90_000 });
      await page.locator('.gate', { hasText: /^(Passed|Failed|Inconclusive)/ }).waitFor({ timeout: 90_000 });
      await expect.poll(() => page.locator('.ci-table tbody tr').count(), { timeout: 90_000 }).toBe(3);
      await expect.poll(() => page.locator('.ci-table .ci-range').count(), { timeout: 90_000 }).toBe(3);
      expect(await page.locator('.heatmap tbody tr').count()).toBe(3);
      expect(await page.locator('.heatmap .heat-cell').count()).toBe(9);
      // Item c0 puts low above both others: the upsets put it first, its pairs linked to their debates.
      const first = page.locator('.disagreements tbody tr').first();
      expect(await first.locator('th').innerText()).toBe('c0');
      expect(await first.locator('a[href^="#/evaluations/ev_"]').count()).toBe(3);
      expect(await axeViolations(page)).toEqual([]);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.setViewportSize(DESKTOP);
      await page.goto(`${stack.url}/#/meta/${meta}`);
      await page.locator('.card', { hasText: 'Reliability over 2 repeats' }).waitFor({ timeout: 90_000 });
      expect(await axeViolations(page)).toEqual([]);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows a pointwise meta-evaluation's judge scores against the human ones in a scatter plot", async () => {
      const items = loadSummEval('coherence')
        .slice(0, 6)
        .map((i) => ({ id: i.id, task: i.task, human: i.human, group: i.group }));
      const created = await fetch(`${stack.url}/v1/meta-evaluations`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ preset: 'geval-summeval', items }),
      });
      expect(created.status).toBe(202);
      const { id } = (await created.json()) as { id: string };
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/meta/${id}`);
      await page.locator('svg.scatter').waitFor({ timeout: 90_000 });
      const meta = (await (await fetch(`${stack.url}/v1/meta-evaluations/${id}`)).json()) as {
        items: { itemId: string; human: number; score: number | null }[];
      };
      const scored = meta.items.filter((i) => i.score !== null);
      expect(scored.length).toBeGreaterThan(0);
      const tips = await page.locator('svg.scatter circle title').allTextContents();
      expect(tips.sort()).toEqual(scored.map((i) => `${i.itemId}: human ${i.human}, judge ${i.score}`).sort());
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: join(shots, 'meta-pointwise-desktop.png'), fullPage: true });
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('shows a pointwise evaluation this tab did not submit with its task, aspect and scale, and the score out of the scale', async () => {
      const task = {
        kind: 'pointwise',
        source: 'The council approved a new bike lane on Main Street on Tuesday; building starts in May.',
        output: 'A bike lane on Main Street was approved and starts in May.',
        aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
      };
      const id = await created('/v1/evaluations', { preset: 'debate-summeval', task });
      await endedInApi(id);
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/evaluations/${id}`);
      await page.locator('.verdict-headline').waitFor({ timeout: 60_000 });
      const headline = await page.locator('.verdict-headline').innerText();
      expect(headline.replace(/\s+/g, ' ')).toMatch(/^\d+(\.\d+)? \/ 5 coherence on a scale of 1 to 5$/);
      const card = page.locator('section[aria-labelledby="card-task"]');
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Aspect coherence');
      expect(text).toContain('Scale 1 to 5');
      for (const [label, value] of [
        ['source', task.source],
        ['output', task.output],
      ] as const) {
        const block = card.locator('.task-text', { hasText: value });
        expect((await block.locator('h3').innerText()).toLowerCase()).toBe(label);
      }
      expect(await axeViolations(page)).toEqual([]);
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows every aspect of a rubric's verdict with the weighted overall", async () => {
      const rubric = {
        kind: 'pointwise',
        criteria: 'A reply from our support team to a customer.',
        scale: { min: 1, max: 5 },
        aspects: [
          { name: 'policy', criteria: 'States the refund policy correctly.', weight: 2 },
          { name: 'tone', criteria: 'Is polite and calm.' },
        ],
      };
      const task = {
        kind: 'pointwise',
        source: 'My order arrived broken.',
        output: 'Sorry! We will replace it today.',
      };
      const id = await created('/v1/evaluations', { preset: 'rubric-judge', rubric, task });
      await endedInApi(id);
      const page = await browser.page(DESKTOP);
      await page.goto(`${stack.url}/#/evaluations/${id}`);
      const card = page.locator('section[aria-labelledby="card-aspects"]');
      await card.waitFor({ timeout: 60_000 });
      const rows = await card.locator('tbody th').allInnerTexts();
      expect(rows).toEqual(['policy', 'tone']);
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Overall (weighted, 0-1)');
      expect(text).toMatch(/\(1-5\)/);
      expect(await axeViolations(page)).toEqual([]);
      // The submit form offers the tenant's rubrics (latest and each tag) in its rubric field.
      const stored = await fetch(`${stack.url}/v1/rubrics`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Support replies', ...rubric }),
      });
      expect(stored.status).toBe(201);
      const { id: rubricId } = (await stored.json()) as { id: string };
      await page.goto(`${stack.url}/#/new`);
      await page.getByText('Advanced: config overrides, rubric and metadata').click();
      await page.getByLabel('Rubric (optional)').waitFor();
      expect(await page.locator(`#rubric-options option[value="${rubricId}"]`).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows the tenant's rubrics and a version: criteria, aspects, golden check, its diff from the previous version; evaluations and batches link to it and show every aspect", async () => {
      /** Sends `body` to `path` and expects `status`; the JSON answer. */
      async function api<T>(path: string, body: unknown, status: number, method = 'POST'): Promise<T> {
        const r = await fetch(`${stack.url}${path}`, {
          method,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(r.status, await r.clone().text()).toBe(status);
        return (await r.json()) as T;
      }
      const example = (source: string, output: string, expected: number, note?: string) => ({
        task: { kind: 'pointwise', source, output },
        expected,
        ...(note ? { note } : {}),
      });
      const { id } = await api<{ id: string }>(
        '/v1/rubrics',
        {
          name: 'Refund replies',
          kind: 'pointwise',
          criteria: 'A reply from our support team.\nIt must state the refund policy.',
          scale: { min: 1, max: 5, levels: [{ score: 5, text: 'Right and kind.' }] },
          aspects: [
            { name: 'policy', criteria: 'States the refund policy.', weight: 2 },
            { name: 'tone', criteria: 'Is polite.', evaluationSteps: 'Read the reply. Is it polite?' },
          ],
          examples: [example('Broken order.', 'We replace it today.', 5), example('Late order.', 'Tough luck.', 1)],
        },
        201,
      );
      await api(
        `/v1/rubrics/${id}/versions`,
        {
          criteria: 'A reply from our support team.\nIt must state the returns policy.',
          scale: { min: 1, max: 5, levels: [{ score: 5, text: 'Right and kind.' }] },
          // Steps given for everything judged, so no G-Eval style steps need writing first.
          evaluationSteps: 'Read the reply, then score it.',
          aspects: [
            {
              name: 'policy',
              criteria: 'States the returns policy.',
              weight: 3,
              evaluationSteps: 'Find the policy. Is it right?',
            },
            { name: 'tone', criteria: 'Is polite.', evaluationSteps: 'Read the reply. Is it polite?' },
            { name: 'next step', criteria: 'Ends with one next step.', evaluationSteps: 'Read the end. One step?' },
          ],
          examples: [
            example('Broken order.', 'We replace it today.', 5),
            example('Late order.', 'Tough luck.', 2, 'rude'),
            example('Refund?', 'Within 30 days.', 4),
          ],
        },
        201,
      );
      // Judged by version 2 while the pages are looked at: its golden check, an evaluation, a batch of two;
      // by a quick mock (the stack's default answers in 300-700 ms, for the live debate tests).
      const config = { defaults: { model: 'mock-judge?latency=20' } };
      const task = (n: number) => ({
        kind: 'pointwise',
        source: `Order ${n} arrived broken.`,
        output: 'We replace it.',
      });
      const [, , evaluation, batch] = await Promise.all([
        api(`/v1/rubrics/${id}/tags/prod`, { version: 1 }, 200, 'PUT'),
        api(`/v1/rubrics/${id}/versions/2/check`, { preset: 'rubric-judge', config }, 202),
        created('/v1/evaluations', { preset: 'rubric-judge', config, rubric: `${id}@2`, task: task(0) }),
        created('/v1/batches', {
          preset: 'rubric-judge',
          config,
          rubric: `${id}@2`,
          items: [1, 2].map((n) => ({ id: `r${n}`, task: task(n) })),
        }),
      ]);
      const page = await browser.page(DESKTOP);
      /** The card whose heading contains `title`. */
      const section = (title: string) => page.locator('section.card', { has: page.locator('h2', { hasText: title }) });

      // The list, from the nav: name, kind, latest version, tags.
      await page.goto(`${stack.url}/#/`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rubrics' }).click();
      const row = page.locator('.list-table tbody tr', { hasText: 'Refund replies' });
      await row.waitFor();
      expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/Refund replies rb_\w+ pointwise v2 #prod → v1 no/);
      expect(await axeViolations(page)).toEqual([]);

      // The name opens the latest version: criteria, scale, aspects, examples, and what changed from version 1.
      await row.getByRole('link', { name: 'Refund replies' }).click();
      await page.waitForURL(new RegExp(`#/rubrics/${id}$`));
      await page.getByRole('heading', { name: /Refund replies · version 2/ }).waitFor();
      expect(await section('Criteria').innerText()).toContain('It must state the returns policy.');
      expect(await section('Scale').innerText()).toMatch(/5\s+Right and kind\./);
      expect(await section('Aspects (3)').locator('tbody th').allInnerTexts()).toEqual(['policy', 'tone', 'next step']);
      expect(await section('Golden examples (3)').locator('tbody tr').count()).toBe(3);
      expect(await section('Evaluation steps').innerText()).toContain('Read the reply, then score it.');
      const changes = section('Changes');
      // The changed words, marked by more than colour: a sign, <del>/<ins>, and the words "removed"/"added".
      const criteria = changes.getByRole('group', { name: 'Criteria: changes' });
      expect(await criteria.locator('.diff-del del').allInnerTexts()).toEqual(['refund']);
      expect(await criteria.locator('.diff-add ins').allInnerTexts()).toEqual(['returns']);
      expect(await criteria.locator('.diff-del .diff-sign').innerText()).toBe('−');
      expect(await criteria.locator('.diff-add .visually-hidden').innerText()).toBe('added:');
      const headings = await changes.locator('h4').allInnerTexts();
      expect(headings.map((t) => t.replace(/\s+/g, ' '))).toEqual([
        'policy changed',
        'next step added',
        'Example 2 changed',
        'Example 3 added',
      ]);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.setViewportSize(DESKTOP);

      // The golden check's agreement with intervals, once its examples are judged.
      await section('Golden check').locator('.ci-table').first().waitFor({ timeout: 60_000 });
      expect(await section('Golden check').locator('.pill').innerText()).toMatch(/completed/i);
      expect(await axeViolations(page)).toEqual([]);
      // The changes card cut from the whole page (an element shot would have the sticky top bar over it).
      const [top, height] = await page.evaluate<[number, number]>(
        '(([r]) => [r.top + window.scrollY, r.height])([document.querySelector(\'[aria-labelledby="card-changes"]\').getBoundingClientRect()])',
      );
      await page.screenshot({
        path: join(shots, 'rubric-changes-desktop.png'),
        fullPage: true,
        clip: { x: 0, y: top - 12, width: DESKTOP.width, height: height + 24 },
      });

      // Version 1 from the version links: the first, with the prod tag.
      await page.getByRole('link', { name: '← Version 1' }).click();
      await page.getByRole('heading', { name: /Refund replies · version 1/ }).waitFor();
      expect(await page.locator('.facts', { hasText: 'Tags here' }).innerText()).toContain('#prod');
      expect(await section('Changes').innerText()).toContain('The first version');
      expect(await section('Golden check').innerText()).toContain('Not run for this version.');

      // The evaluation names its rubric version, linked, and shows every aspect.
      await endedInApi(evaluation);
      await page.goto(`${stack.url}/#/evaluations/${evaluation}`);
      await section('Aspects').locator('tbody th').first().waitFor({ timeout: 60_000 });
      expect(await section('Aspects').locator('tbody th').allInnerTexts()).toEqual(['policy', 'tone', 'next step']);
      await page
        .locator('.facts')
        .getByRole('link', { name: /^rb_.*@2$/ })
        .click();
      await page.waitForURL(new RegExp(`#/rubrics/${id}/versions/2$`));

      // The batch: its rubric, each aspect's mean over the items, and each item's aspect scores.
      await page.goto(`${stack.url}/#/batches/${batch}`);
      await expect.poll(() => page.locator('.title-row .pill').innerText(), { timeout: 60_000 }).toMatch(/completed/i);
      await expect
        .poll(() => section('Aspects').locator('tbody th').allInnerTexts())
        .toEqual(['policy', 'tone', 'next step']);
      expect(await page.locator('.aspect-scores').allInnerTexts()).toEqual([
        expect.stringMatching(/^policy \d.* · tone \d.* · next step \d/),
        expect.stringMatching(/^policy \d.* · tone \d.* · next step \d/),
      ]);
      expect(
        await page
          .locator('.facts')
          .getByRole('link', { name: /^rb_.*@2$/ })
          .count(),
      ).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      // The submit form opens the picked rubric: a tag resolves to the version it points at.
      await page.goto(`${stack.url}/#/new?rubric=${encodeURIComponent(`${id}#prod`)}`);
      const open = page.getByRole('link', { name: 'Open this rubric (opens in a new tab)' });
      expect(await open.getAttribute('href')).toBe(`#/rubrics/${id}/versions/1`);
      await page.getByLabel('Rubric (optional)').fill(id);
      expect(await open.getAttribute('href')).toBe(`#/rubrics/${id}`);
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('lets no page scroll sideways at 375 px; tables wider than the screen say so and fade at the hidden side', async () => {
      const pair = { kind: 'pairwise', question: 'Capital of France?', answerA: 'Paris.', answerB: 'Lyon.' };
      const evaluation = await created('/v1/evaluations', { preset: 'fastchat-pair', task: pair });
      const batch = await created('/v1/batches', { preset: 'fastchat-pair', items: [{ id: 'q1', task: pair }] });
      const meta = await created('/v1/meta-evaluations', {
        preset: 'fastchat-pair',
        items: loadFairEval()
          .slice(0, 2)
          .map((i) => ({ id: i.id, task: i.task, human: i.human })),
      });
      await endedInApi(evaluation);
      const page = await browser.page(PHONE);
      const pages = [
        '#/',
        '#/new',
        '#/new?preset=debate-summeval',
        '#/presets',
        '#/rubrics',
        '#/batches',
        `#/batches/${batch}`,
        `#/meta/${meta}`,
        `#/evaluations/${evaluation}`,
      ];
      const wide: string[] = [];
      for (const hash of pages) {
        await page.goto(`${stack.url}/${hash}`);
        await page.locator('main .page').first().waitFor();
        await page.locator('main .loading').waitFor({ state: 'detached' });
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        if (width > PHONE.width) wide.push(`${hash}: ${width} px`);
      }
      expect(wide).toEqual([]);

      // The evaluations list at 375 px: its table is wider than the screen, and says so.
      await page.goto(`${stack.url}/#/`);
      const wrap = page.locator('.table-wrap').first();
      await wrap.locator('tbody tr').first().waitFor();
      await expect.poll(() => wrap.getAttribute('data-more-right')).toBe('');
      expect(await page.locator('.scroll-hint').first().isVisible()).toBe(true);
      expect(await page.locator('.scroll-hint').first().innerText()).toBe('Scroll sideways for more columns →');
      expect(await wrap.getAttribute('data-more-left')).toBeNull();
      await wrap.evaluate((el: { scrollLeft: number; scrollWidth: number }) => {
        el.scrollLeft = el.scrollWidth;
      });
      await expect.poll(() => wrap.getAttribute('data-more-right')).toBeNull();
      expect(await wrap.getAttribute('data-more-left')).toBe('');
      // The verdict column labels the confidence, which read like a win probability.
      expect(await wrap.locator('tbody tr', { hasText: 'conf.' }).count()).toBeGreaterThan(0);
      expect(await wrap.locator('.confidence-label').first().getAttribute('title')).toMatch(/^confidence \d+\.\d%$/);
      // At desktop width nothing is hidden, and nothing says so.
      await page.setViewportSize(DESKTOP);
      await expect.poll(() => page.locator('.scroll-hint').first().isVisible()).toBe(false);
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('the API reference says it is loading until its bundle has run, asks for no missing file, and logs no warning', async () => {
      const page = await browser.page(DESKTOP);
      const missing: string[] = [];
      const warnings: string[] = [];
      page.on('response', (r) => {
        if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
      });
      page.on('console', (m) => {
        if (m.type() === 'warning') warnings.push(m.text());
      });
      // Hold Scalar's 3.5 MB bundle until the page has been looked at: what a slow link shows meanwhile.
      const releases: (() => void)[] = [];
      const held = new Promise<void>((resolve) => releases.push(resolve));
      const release = () => {
        for (const r of releases) r();
      };
      await page.route('**/docs/assets/scalar.js', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${stack.url}/docs`, { waitUntil: 'commit' });
      await page.locator('.docs-loading').waitFor();
      expect(await page.locator('.docs-loading').innerText()).toContain('Loading the API reference');
      release();
      // Scalar mounts over it.
      await page.locator('.docs-loading').waitFor({ state: 'detached', timeout: 60_000 });
      await page.getByText('Create an evaluation').first().waitFor({ timeout: 60_000 });
      // Scalar checks the document once it is loaded, before it lists the operations.
      expect(missing).toEqual([]);
      expect(warnings).toEqual([]);
      expect(browser.errorsOf(page)).toEqual([]);
      await page.close();
    });
  });

  describe('the viewer with API_KEYS set', () => {
    const TOKEN = 'viewer-e2e-key-7f3a';
    let stack: LocalStack;
    beforeAll(async () => {
      const digest = createHash('sha256').update(TOKEN).digest('hex');
      stack = await startLocalStack({
        port: 0,
        persistTo: join(dir, 'auth'),
        llmBaseUrl: mock.baseUrl,
        llmModel: 'mock-judge',
        crons: false,
        secrets: { API_KEYS: digest },
        bundle: inject('workerBundle'),
      });
    }, 120_000);
    afterAll(async () => {
      await stack.stop();
    });

    it('asks for the key once per tab, sends it only as a header (streams included), never in a URL', async () => {
      const page = await browser.page(DESKTOP);
      const requests: { url: string; authorization: string | undefined }[] = [];
      page.on('request', (r) => {
        requests.push({ url: r.url(), authorization: r.headers().authorization });
      });
      await page.goto(`${stack.url}/#/new`);
      await page.getByLabel('API key', { exact: true }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByLabel('API key', { exact: true }).fill('wrong-key');
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('This key was not accepted.').waitFor();
      await page.getByLabel('API key', { exact: true }).fill(TOKEN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByLabel('Preset').waitFor();
      await submit(page, 'chateval-faireval');
      await page.locator('.msg[data-state="done"]').first().waitFor();
      await page.locator('.verdict-headline').waitFor({ timeout: 60_000 });
      await page.locator('.transcript').waitFor();

      const events = requests.filter((r) => r.url.includes('/events'));
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
      expect(requests.filter((r) => r.url.includes(TOKEN))).toEqual([]);

      // The same tab keeps it across a reload; a new tab asks again (sessionStorage, by choice).
      await page.reload();
      await page.locator('.verdict-headline').waitFor();
      expect(await page.getByLabel('API key', { exact: true }).count()).toBe(0);
      const other = await browser.page(DESKTOP);
      await other.goto(page.url());
      await other.getByLabel('API key', { exact: true }).waitFor();
      await other.close();
      // "Forget key" drops it.
      await page.getByRole('button', { name: 'Forget key' }).click();
      await page.getByLabel('API key', { exact: true }).waitFor();
      // The browser logs each refused request (the wrong key's 401s); nothing else went wrong.
      expect(browser.errorsOf(page).filter((e) => !e.includes('status of 401'))).toEqual([]);
      await page.close();
    });
  });
});
