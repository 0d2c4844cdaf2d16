/**
 * The live viewer in a real headless Chromium (playwright-core driving Debian's chromium) against the
 * local stack, the mock LLM answering after 300-700 ms so a debate takes seconds: submit a task from the
 * form, see the agents' messages arrive one by one and then the verdict, the transcript, an unparsed
 * reply marked, the lists, the keyboard and the phone's width; and with API_KEYS set, the key entered once
 * per tab and never put in a URL. The result pages (reports, comparisons, scores, rubrics) are in
 * viewer-reports.test.ts, on a stack of their own so both files run at once. Screenshots at 1280 and
 * 375 px (docs/screenshots/ with UPDATE_SCREENSHOTS=1, see tests/web/browser.ts).
 */
import { createHash } from 'node:crypto';
import type { Route } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { loadFairEval } from '../../../src/datasets/loaders.js';
import { axeViolations } from '../../web/browser.js';
import {
  DESKTOP,
  expectAccessible,
  PHONE,
  shoot,
  SKIP_VIEWER,
  submit,
  useViewerBrowser,
  useViewerStack,
} from '../../web/viewer-harness.js';
import { WAIT_MS } from '../../support/patience.js';

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

describe.skipIf(SKIP_VIEWER)('the viewer in headless Chromium', () => {
  const rig = useViewerBrowser();

  describe('the viewer without auth', () => {
    const viewer = useViewerStack(rig, 'open');

    it("serves the page at / and its files under /app/ from the static assets; other paths keep the API's JSON errors", async () => {
      const page = await fetch(`${viewer.stack.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await page.text()).toContain('<script type="module" src="/app/app.js">');
      for (const [path, type] of [
        ['/app/app.js', 'text/javascript'],
        ['/app/app.css', 'text/css'],
      ] as const) {
        const r = await fetch(`${viewer.stack.url}${path}`);
        expect([r.status, r.headers.get('content-type')?.split(';')[0]], path).toEqual([200, type]);
      }
      for (const path of ['/v1/nothing-here', '/index.html', '/vendor/scalar.js']) {
        const r = await fetch(`${viewer.stack.url}${path}`);
        expect([r.status, ((await r.json()) as { error: { code: string } }).error.code], path).toEqual([
          404,
          'not_found',
        ]);
      }
      const wrongMethod = await fetch(`${viewer.stack.url}/v1/methods`, { method: 'DELETE' });
      expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    });

    it('streams a debate live: messages one by one, then the verdict and the transcript', async () => {
      const page = await rig.browser.page(DESKTOP);
      // The one page shown with the viewer's animations (every context prefers reduced motion, tests/web/browser.ts):
      // messages fade in as they arrive, and the audits below see them once they have landed.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await page.addInitScript(TIMELINE_SCRIPT);
      await page.goto(`${viewer.stack.url}/#/new`);
      await expect.poll(() => page.getByLabel('Preset').locator('option').count()).toBeGreaterThan(20);
      await expectAccessible(page);
      // Mid-debate for as long as the test looks: the replies after the third wait until it has.
      const held = rig.holdAfter(3);
      onTestFinished(held.release);
      const id = await submit(page, 'chateval-faireval', undefined, 'submit-desktop.png');
      expect(id).toMatch(/^ev_/);

      // Mid-debate: some messages shown, no verdict yet, the stream marked live.
      await page.locator('.msg[data-state="done"]').nth(2).waitFor();
      expect(await page.locator('.verdict-headline').count()).toBe(0);
      await expect.poll(() => page.locator('.badge', { hasText: 'live' }).count()).toBe(1);
      // Tokens and cost while it runs: the stored replies' own figures, not "…".
      // One reading of the card: a second one came after the debate ended on a loaded machine ("so far" gone).
      const cost = await page.locator('section[aria-labelledby="card-cost"]').innerText();
      expect(cost).toMatch(/Tokens\s+[1-9][\d,]* in · [1-9][\d,]* out so far/);
      expect(cost).toMatch(/Cost\s+\$[\d.]+ so far/);
      // "Created 0 s ago" moves on by itself.
      const created = page.locator('.facts time[data-ago]');
      const createdText = await created.innerText();
      expect(createdText).toMatch(/^\d+ s ago$/);
      await expect.poll(() => created.innerText(), { timeout: WAIT_MS, interval: 100 }).not.toBe(createdText);
      await shoot(page, 'evaluation-live-desktop.png');

      held.release();
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
      const api = (await (await fetch(`${viewer.stack.url}/v1/evaluations/${id}`)).json()) as {
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
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'light' });
      // The verdict, the votes and the debate's first turn: the whole page would be ~400 KB.
      await shoot(page, 'evaluation-desktop.png', {
        fullPage: true,
        clip: { x: 0, y: 0, width: DESKTOP.width, height: 1100 },
      });

      await page.setViewportSize(PHONE);
      await page.evaluate('window.scrollTo(0, 0)');
      // Nothing wider than the phone: no sideways scrolling.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await shoot(page, 'evaluation-phone.png');
      // A phone screen's worth of the debate, cut from the whole page (a scrolled viewport can be
      // captured before it repaints).
      const debateTop = await page.evaluate<number>(
        "document.querySelector('.debate').getBoundingClientRect().top + window.scrollY",
      );
      await shoot(page, 'debate-phone.png', {
        fullPage: true,
        clip: { x: 0, y: debateTop, width: PHONE.width, height: PHONE.height },
      });
      await page.close();
    });

    it('on a deployment without the listing API, the list pages say so and still open a page by its id', async () => {
      const id = await viewer.created('/v1/evaluations', {
        preset: 'fastchat-pair',
        task: { kind: 'pairwise', question: 'Capital of France?', answerA: 'Paris.', answerB: 'Lyon.' },
      });
      const page = await rig.browser.page(DESKTOP);
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
        await page.goto(`${viewer.stack.url}/${hash}`);
        await page.getByRole('heading', { name: 'Not available on this deployment' }).waitFor();
        expect(await page.locator('.unavailable code').innerText()).toBe(endpoint);
        await expectAccessible(page);
      }
      await page.getByLabel('Open an evaluation by id').fill(id);
      await page.getByRole('button', { name: 'Open' }).click();
      await page.waitForURL(new RegExp(`#/evaluations/${id}$`));
      await page.locator('.pill').first().waitFor();
      expect(rig.browser.errorsOf(page).filter((e) => !/status of 40[45]/.test(e))).toEqual([]);
      await page.close();
    });

    it('lists evaluations and batches with filters, and shows a batch with its verdicts and results', async () => {
      const items = ['q1', 'q2', 'q3', 'q4'].map((id, i) => ({
        id,
        task: { kind: 'pairwise', question: `(${i}) Capital of France?`, answerA: 'Paris.', answerB: `Lyon ${i}.` },
        metadata: { run: 'viewer-e2e' },
      }));
      const id = await viewer.created('/v1/batches', { preset: 'fastchat-pair', items });
      const page = await rig.browser.page(DESKTOP);

      // Batches list → the batch's page, which follows it to completion.
      await page.goto(`${viewer.stack.url}/#/batches`);
      await page
        .getByRole('link', { name: id.slice(0, 12) })
        .first()
        .click();
      await page.waitForURL(new RegExp(`#/batches/${id}$`));
      // Waited for by Playwright (it polls at up to 500 ms), not by a 50 ms expect.poll through vitest's process.
      await page.locator('.title-row .pill', { hasText: /completed/i }).waitFor({ timeout: 90_000 });
      await expect.poll(() => page.locator('.table tbody tr').count()).toBe(4);
      const batch = (await (await fetch(`${viewer.stack.url}/v1/batches/${id}`)).json()) as {
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
      await expectAccessible(page);
      await shoot(page, 'batch-desktop.png', { fullPage: true });

      // Evaluations list filtered by the batch, from the filter form; the filters stay in the URL.
      await page.goto(`${viewer.stack.url}/#/`);
      await page.locator('.list-table').waitFor();
      await page.getByLabel('Batch').fill(id);
      await page.getByLabel('Status').selectOption('succeeded');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/#\/\?status=succeeded&batch=/);
      await expect.poll(() => page.locator('.list-table tbody tr').count()).toBe(4);
      expect(await page.locator('.list-table tbody tr', { hasText: 'succeeded' }).count()).toBe(4);
      await expectAccessible(page);
      await shoot(page, 'evaluations-desktop.png');
      // A metadata filter that matches nothing says so.
      await page.goto(`${viewer.stack.url}/#/?metadata=run:nothing-like-this`);
      await page.getByText('No evaluation matches these filters.').waitFor();
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('marks replies that never parsed, in the debate and in the verdict', async () => {
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/new`);
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
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/new`);
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
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/new`);
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

    it('lets no page scroll sideways at 375 px; tables wider than the screen say so and fade at the hidden side', async () => {
      const pair = { kind: 'pairwise', question: 'Capital of France?', answerA: 'Paris.', answerB: 'Lyon.' };
      // A quick mock: the pages are measured, not watched live.
      const config = { defaults: { model: 'mock-judge?latency=20' } };
      const evaluation = await viewer.created('/v1/evaluations', { preset: 'fastchat-pair', config, task: pair });
      const batch = await viewer.created('/v1/batches', {
        preset: 'fastchat-pair',
        config,
        items: [{ id: 'q1', task: pair }],
      });
      const meta = await viewer.created('/v1/meta-evaluations', {
        preset: 'fastchat-pair',
        config,
        items: loadFairEval()
          .slice(0, 2)
          .map((i) => ({ id: i.id, task: i.task, human: i.human })),
      });
      await viewer.endedInApi(evaluation);
      const page = await rig.browser.page(PHONE);
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
        await page.goto(`${viewer.stack.url}/${hash}`);
        await page.locator('main .page').first().waitFor();
        await page.locator('main .loading').waitFor({ state: 'detached' });
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        if (width > PHONE.width) wide.push(`${hash}: ${width} px`);
      }
      expect(wide).toEqual([]);

      // The evaluations list at 375 px: its table is wider than the screen, and says so.
      await page.goto(`${viewer.stack.url}/#/`);
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
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('the API reference says it is loading until its bundle has run, asks for no missing file, and logs no warning', async () => {
      const page = await rig.browser.page(DESKTOP);
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
      // Scalar's spinners and loading skeletons are animated for as long as it works on the document; each frame
      // was Chromium's compositor and raster work (0.3-0.6 CPU-s in some runs, 3-4 in others, at load 22-30).
      // Frozen, no frame is drawn for them; what is asserted (the loading text, no 4xx, no warning, the rendered
      // operations) does not move.
      const devtools = await page.context().newCDPSession(page);
      await devtools.send('Animation.enable');
      await devtools.send('Animation.setPlaybackRate', { playbackRate: 0 });
      await page.goto(`${viewer.stack.url}/docs`, { waitUntil: 'commit' });
      await page.locator('.docs-loading').waitFor();
      expect(await page.locator('.docs-loading').innerText()).toContain('Loading the API reference');
      release();
      // Scalar mounts over it.
      // Scalar works 5-8 CPU-s on the 1.5 MB document before its first operation shows (over 60 s of wall time at load 20).
      await page.locator('.docs-loading').waitFor({ state: 'detached', timeout: WAIT_MS });
      await page.getByText('Create an evaluation').first().waitFor({ timeout: WAIT_MS });
      // Every operation of the document is on the page, by method and path in its tag's list: the tags after the
      // first open on a click (src/http/docs-page.ts), and none hides an operation meanwhile.
      const doc = (await (await fetch(`${viewer.stack.url}/openapi.json`)).json()) as {
        tags: unknown[];
        paths: Record<string, Record<string, unknown>>;
      };
      const methods = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);
      const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item)
          .filter((m) => methods.has(m))
          .map((m) => `${m.toUpperCase()} ${path}`),
      );
      expect(operations.length).toBeGreaterThan(50);
      const lists = page.locator('[aria-label$=" endpoints"]');
      await lists.nth(doc.tags.length - 1).waitFor({ timeout: WAIT_MS });
      const listed = await lists
        .locator('a')
        .evaluateAll((links) => links.map((a) => (a as { innerText: string }).innerText.replace(/\s+/g, ' ').trim()));
      expect(operations.filter((o) => !listed.includes(o))).toEqual([]);
      // Scalar checks the document once it is loaded, before it lists the operations.
      expect(missing).toEqual([]);
      expect(warnings).toEqual([]);
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });
  });

  describe('the viewer with API_KEYS set', () => {
    const TOKEN = 'viewer-e2e-key-7f3a';
    const viewer = useViewerStack(rig, 'auth', { API_KEYS: createHash('sha256').update(TOKEN).digest('hex') });

    it('asks for the key once per tab, sends it only as a header (streams included), never in a URL', async () => {
      const page = await rig.browser.page(DESKTOP);
      const requests: { url: string; authorization: string | undefined }[] = [];
      page.on('request', (r) => {
        requests.push({ url: r.url(), authorization: r.headers().authorization });
      });
      await page.goto(`${viewer.stack.url}/#/new`);
      await page.getByLabel('API key', { exact: true }).waitFor();
      await expectAccessible(page);
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
      const other = await rig.browser.page(DESKTOP);
      await other.goto(page.url());
      await other.getByLabel('API key', { exact: true }).waitFor();
      await other.close();
      // "Forget key" drops it.
      await page.getByRole('button', { name: 'Forget key' }).click();
      await page.getByLabel('API key', { exact: true }).waitFor();
      // The browser logs each refused request: the wrong key's alone. None found the key required (the tab read
      // it from /health), and none came from a page sent without a key once the tab knew (again after "Forget key").
      expect(rig.browser.errorsOf(page).filter((e) => e.includes('status of 401'))).toHaveLength(1);
      expect(rig.browser.errorsOf(page).filter((e) => !e.includes('status of 401'))).toEqual([]);
      await page.close();
    });
  });
});
