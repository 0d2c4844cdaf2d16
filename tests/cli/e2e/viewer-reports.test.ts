/**
 * The viewer's result pages in a real headless Chromium against the local stack (the mock LLM answering
 * after 20 ms: these pages are read once their results are in, none is watched live): a meta-evaluation's report with its charts, a comparison's gate, leaderboard and heat
 * map, a pointwise meta-evaluation's scatter plot, a pointwise evaluation's score on its scale, a
 * rubric's aspects, the rubric pages (the list, a version with its golden check and its changes). The
 * live debate, the lists and the key prompt are in viewer.test.ts; each file has its own stack and
 * browser, so the e2e project runs both at once.
 */
import { describe, expect, it } from 'vitest';
import { loadFairEval, loadSummEval } from '../../../src/datasets/loaders.js';
import {
  DESKTOP,
  expectAccessible,
  PHONE,
  QUICK_LATENCY_MS,
  shoot,
  SKIP_VIEWER,
  useViewerBrowser,
  useViewerStack,
} from '../../web/viewer-harness.js';

describe.skipIf(SKIP_VIEWER)("the viewer's result pages in headless Chromium", () => {
  const rig = useViewerBrowser(QUICK_LATENCY_MS);

  describe('the viewer without auth', () => {
    const viewer = useViewerStack(rig, 'open');

    it("shows a meta-evaluation's report: agreement with intervals and the confusion matrix", async () => {
      const items = loadFairEval()
        .slice(0, 8)
        .map((i) => ({ id: i.id, task: i.task, human: i.human }));
      const id = await viewer.created('/v1/meta-evaluations', { preset: 'fastchat-pair', items });
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/meta/${id}`);
      await page.locator('svg.cm').waitFor({ timeout: 90_000 });
      const report = (
        (await (await fetch(`${viewer.stack.url}/v1/meta-evaluations/${id}`)).json()) as {
          report: { confusion: number[][] };
        }
      ).report;
      const counts = await page.locator('svg.cm .cm-count').allTextContents();
      expect(counts.map(Number)).toEqual(report.confusion.flat());
      expect(await page.locator('.ci-table tbody tr').count()).toBe(2);
      expect(await page.locator('.ci-table .ci-point').count()).toBeGreaterThan(0);
      expect(await page.locator('.table tbody tr', { hasText: items[0]!.id }).count()).toBe(1);
      await expectAccessible(page);
      await shoot(page, 'meta-desktop.png', { fullPage: true });
      await page.close();
    });

    it("shows a comparison: the gate in words, the leaderboard with interval bars, the win-matrix heat map, the items that disagree most linked to their debates; and a meta-evaluation's reliability", async () => {
      const tag = (q: number) => `[quality=${q}]`;
      const items = Array.from({ length: 6 }, (_, i) => ({
        id: `c${i}`,
        question: `(${i}) Explain recursion.`,
        outputs: { low: `Low ${tag(i === 0 ? 3 : 0)}`, mid: `Mid ${tag(1)}`, high: `High ${tag(2)}` },
      }));
      const id = await viewer.created('/v1/comparisons', {
        preset: 'fastchat-pair',
        candidates: ['low', 'mid', 'high'],
        design: 'all-pairs',
        gate: { candidate: 'high', baseline: 'low' },
        items,
      });
      const meta = await viewer.created('/v1/meta-evaluations', {
        preset: 'fastchat-pair',
        config: { defaults: { model: 'mock-judge?vary=1' } },
        repeats: 2,
        items: loadFairEval()
          .slice(0, 3)
          .map((i) => ({ id: i.id, task: i.task, human: i.human })),
      });
      // The disagreements are ranked over every item: the page is read once the comparison has ended, since a
      // live page under load may show c0 before its pairs' verdicts are in.
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${viewer.stack.url}/v1/comparisons/${id}`)).json()) as { status: string }).status,
          { timeout: 90_000, interval: 200 },
        )
        .toBe('completed');
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/comparisons/${id}`);
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
      await expectAccessible(page);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      await page.setViewportSize(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/meta/${meta}`);
      await page.locator('.card', { hasText: 'Reliability over 2 repeats' }).waitFor({ timeout: 90_000 });
      await expectAccessible(page);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows a pointwise meta-evaluation's judge scores against the human ones in a scatter plot", async () => {
      const items = loadSummEval('coherence')
        .slice(0, 6)
        .map((i) => ({ id: i.id, task: i.task, human: i.human, group: i.group }));
      const id = await viewer.created('/v1/meta-evaluations', { preset: 'geval-summeval', items });
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/meta/${id}`);
      await page.locator('svg.scatter').waitFor({ timeout: 90_000 });
      const meta = (await (await fetch(`${viewer.stack.url}/v1/meta-evaluations/${id}`)).json()) as {
        items: { itemId: string; human: number; score: number | null }[];
      };
      const scored = meta.items.filter((i) => i.score !== null);
      expect(scored.length).toBeGreaterThan(0);
      const tips = await page.locator('svg.scatter circle title').allTextContents();
      expect(tips.sort()).toEqual(scored.map((i) => `${i.itemId}: human ${i.human}, judge ${i.score}`).sort());
      await expectAccessible(page);
      await shoot(page, 'meta-pointwise-desktop.png', { fullPage: true });
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows a multi-aspect pointwise meta-evaluation's agreement per aspect and each item's aspect scores", async () => {
      // Inline two-aspect rubric, every aspect scored in one call by a quick mock; humans label each aspect.
      const rubric = {
        kind: 'pointwise',
        criteria: 'A summary of a news article.',
        scale: { min: 1, max: 5 },
        aspects: [
          { name: 'coherence', criteria: "The summary's coherence." },
          { name: 'fluency', criteria: "The summary's fluency." },
        ],
      };
      const items = [0, 1, 2, 3, 4].map((i) => ({
        id: `sa-${i}`,
        group: `article-${i % 2}`,
        task: {
          kind: 'pointwise',
          source: `Article ${i}: the council met on Tuesday and voted on the park budget.`,
          output: `Summary ${i}: the council ${i % 2 === 0 ? 'raised' : 'cut'} the park budget.`,
        },
        human: 1 + (i % 5),
        humanAspects: { coherence: 1 + (i % 5), fluency: 1 + ((i + 2) % 5) },
      }));
      const id = await viewer.created('/v1/meta-evaluations', {
        preset: 'rubric-judge',
        config: { defaults: { model: 'mock-judge?latency=20' } },
        rubric,
        items,
      });
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/meta/${id}`);
      const table = page.locator('table.aspect-agreement');
      await table.waitFor({ timeout: 90_000 });
      const meta = (await (await fetch(`${viewer.stack.url}/v1/meta-evaluations/${id}`)).json()) as {
        report: {
          aspects: {
            aspect: string;
            nScored: number;
            item: Record<'pearson' | 'spearman' | 'kendall', { value: number | null }>;
          }[];
        };
        items: {
          itemId: string;
          humanAspects: Record<string, number> | null;
          aspects: Record<string, number | null> | null;
        }[];
      };
      // A real minus sign, none on a value that rounds to zero.
      const stat = (x: number | null) =>
        x === null
          ? '—'
          : x
              .toFixed(2)
              .replace(/^-([0.]+)$/, '$1')
              .replace(/^-/, '\u2212');
      const rows = table.locator('tbody tr');
      expect(await rows.locator('th').allInnerTexts()).toEqual(meta.report.aspects.map((a) => a.aspect));
      for (const [k, a] of meta.report.aspects.entries()) {
        const row = rows.nth(k);
        expect(await row.locator('td.num').innerText()).toMatch(new RegExp(`^${a.nScored}\\b`));
        for (const m of ['pearson', 'spearman', 'kendall'] as const)
          expect(await row.locator(`[data-measure="${m}"] .aspect-value`).innerText()).toBe(stat(a.item[m].value));
      }
      // Each item: its human and judge scores per aspect, under the overall ones.
      expect(meta.items.every((i) => i.humanAspects !== null && i.aspects !== null)).toBe(true);
      expect(await page.locator('.aspect-scores').count()).toBe(2 * items.length);
      const score = (x: number | null | undefined) =>
        x === null || x === undefined ? '—' : Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, '');
      const line = (s: Record<string, number | null> | null) =>
        `coherence ${score(s?.coherence)} · fluency ${score(s?.fluency)}`;
      for (const it of meta.items) {
        const row = page.locator('.table tbody tr', { has: page.locator('th', { hasText: it.itemId }) });
        expect(await row.locator('.aspect-scores').allInnerTexts()).toEqual([line(it.humanAspects), line(it.aspects)]);
      }
      await expectAccessible(page);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
      // The aspect table itself fits the phone's width too (no scrolling inside its card).
      expect(
        await page.evaluate<boolean>(
          "(([t]) => t.scrollWidth <= t.parentElement.clientWidth)([document.querySelector('table.aspect-agreement')])",
        ),
      ).toBe(true);
      await shoot(page, 'meta-aspects-phone.png', { fullPage: true });
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it('shows a pointwise evaluation this tab did not submit with its task, aspect and scale, and the score out of the scale', async () => {
      const task = {
        kind: 'pointwise',
        source: 'The council approved a new bike lane on Main Street on Tuesday; building starts in May.',
        output: 'A bike lane on Main Street was approved and starts in May.',
        aspect: { name: 'coherence', scale: { min: 1, max: 5 } },
      };
      const id = await viewer.created('/v1/evaluations', { preset: 'debate-summeval', task });
      await viewer.endedInApi(id);
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/evaluations/${id}`);
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
      await expectAccessible(page);
      expect(rig.browser.errorsOf(page)).toEqual([]);
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
      const id = await viewer.created('/v1/evaluations', { preset: 'rubric-judge', rubric, task });
      await viewer.endedInApi(id);
      const page = await rig.browser.page(DESKTOP);
      await page.goto(`${viewer.stack.url}/#/evaluations/${id}`);
      const card = page.locator('section[aria-labelledby="card-aspects"]');
      await card.waitFor({ timeout: 60_000 });
      const rows = await card.locator('tbody th').allInnerTexts();
      expect(rows).toEqual(['policy', 'tone']);
      const text = (await card.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain('Overall (weighted, 0-1)');
      expect(text).toMatch(/\(1-5\)/);
      await expectAccessible(page);
      // The submit form offers the tenant's rubrics (latest and each tag) in its rubric field.
      const stored = await fetch(`${viewer.stack.url}/v1/rubrics`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Support replies', ...rubric }),
      });
      expect(stored.status).toBe(201);
      const { id: rubricId } = (await stored.json()) as { id: string };
      await page.goto(`${viewer.stack.url}/#/new`);
      await page.getByText('Advanced: config overrides, rubric and metadata').click();
      await page.getByLabel('Rubric (optional)').waitFor();
      expect(await page.locator(`#rubric-options option[value="${rubricId}"]`).count()).toBe(1);
      await expectAccessible(page);
      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });

    it("shows the tenant's rubrics and a version: criteria, aspects, golden check, its diff from the previous version; evaluations and batches link to it and show every aspect", async () => {
      const api = <T>(path: string, body: unknown, status: number, method?: string) =>
        viewer.send<T>(path, body, status, method);
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
      // Judged by version 2 while the pages are looked at: its golden check and a batch of two.
      const config = { defaults: { model: 'mock-judge?latency=20' } };
      const task = (n: number) => ({
        kind: 'pointwise',
        source: `Order ${n} arrived broken.`,
        output: 'We replace it.',
      });
      const [, , batch] = await Promise.all([
        api(`/v1/rubrics/${id}/tags/prod`, { version: 1 }, 200, 'PUT'),
        api(`/v1/rubrics/${id}/versions/2/check`, { preset: 'rubric-judge', config }, 202),
        viewer.created('/v1/batches', {
          preset: 'rubric-judge',
          config,
          rubric: `${id}@2`,
          items: [1, 2].map((n) => ({ id: `r${n}`, task: task(n) })),
        }),
      ]);
      const page = await rig.browser.page(DESKTOP);
      /** The card whose heading contains `title`. */
      const section = (title: string) => page.locator('section.card', { has: page.locator('h2', { hasText: title }) });

      // The list, from the nav: name, kind, latest version, tags.
      await page.goto(`${viewer.stack.url}/#/`);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rubrics' }).click();
      const row = page.locator('.list-table tbody tr', { hasText: 'Refund replies' });
      await row.waitFor();
      expect((await row.innerText()).replace(/\s+/g, ' ')).toMatch(/Refund replies rb_\w+ pointwise v2 #prod → v1 no/);
      await expectAccessible(page);

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
      await expectAccessible(page);
      // The diff's colours are new: checked in the dark scheme too.
      await page.emulateMedia({ colorScheme: 'dark' });
      await expectAccessible(page);
      await page.emulateMedia({ colorScheme: 'light' });
      // The changes card cut from the whole page (an element shot would have the sticky top bar over it).
      const [top, height] = await page.evaluate<[number, number]>(
        '(([r]) => [r.top + window.scrollY, r.height])([document.querySelector(\'[aria-labelledby="card-changes"]\').getBoundingClientRect()])',
      );
      await shoot(page, 'rubric-changes-desktop.png', {
        fullPage: true,
        clip: { x: 0, y: top - 12, width: DESKTOP.width, height: height + 24 },
      });

      // Version 1 from the version links: the first, with the prod tag.
      await page.getByRole('link', { name: '← Version 1' }).click();
      await page.getByRole('heading', { name: /Refund replies · version 1/ }).waitFor();
      expect(await page.locator('.facts', { hasText: 'Tags here' }).innerText()).toContain('#prod');
      expect(await section('Changes').innerText()).toContain('The first version');
      expect(await section('Golden check').innerText()).toContain('Not run for this version.');

      // "Judge with this version": the submit form with it picked, a link back to it, the task's aspect left
      // to the rubric; a tag in the field opens the version it points at.
      await page.getByRole('link', { name: 'Judge with this version' }).click();
      await page.waitForURL(/#\/new\?/);
      const rubricField = page.getByLabel('Rubric (optional)');
      expect(await rubricField.inputValue()).toBe(`${id}@1`);
      expect(await page.getByLabel('Preset').inputValue()).toBe('rubric-judge');
      const open = page.getByRole('link', { name: 'Open this rubric (opens in a new tab)' });
      expect(await open.getAttribute('href')).toBe(`#/rubrics/${id}/versions/1`);
      await rubricField.fill(`${id}#prod`);
      expect(await open.getAttribute('href')).toBe(`#/rubrics/${id}/versions/1`);
      await rubricField.fill(id);
      expect(await open.getAttribute('href')).toBe(`#/rubrics/${id}`);
      expect(await page.getByLabel('Aspect', { exact: true }).isDisabled()).toBe(true);
      await rubricField.fill(`${id}@2`);
      await page.getByLabel('Config overrides (JSON, optional)').fill(JSON.stringify(config));
      await page.getByRole('button', { name: 'Fill in an example' }).click();
      await page.getByRole('button', { name: 'Start evaluation' }).click();
      await page.waitForURL(/#\/evaluations\/ev_/);

      // The evaluation shows every aspect, and names its rubric version, linked.
      await expect
        .poll(() => section('Aspects').locator('tbody th').allInnerTexts(), { timeout: 60_000 })
        .toEqual(['policy', 'tone', 'next step']);
      await page
        .locator('.facts')
        .getByRole('link', { name: /^rb_.*@2$/ })
        .click();
      await page.waitForURL(new RegExp(`#/rubrics/${id}/versions/2$`));

      // The batch: its rubric, each aspect's mean over the items, and each item's aspect scores.
      await page.goto(`${viewer.stack.url}/#/batches/${batch}`);
      // Waited for by Playwright (it polls at up to 500 ms), not by a 50 ms expect.poll through vitest's process.
      await page.locator('.title-row .pill', { hasText: /completed/i }).waitFor({ timeout: 60_000 });
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
      await expectAccessible(page);

      expect(rig.browser.errorsOf(page)).toEqual([]);
      await page.close();
    });
  });
});
