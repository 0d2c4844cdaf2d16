/**
 * The viewer's labelling page and its OpenAI Evals pages in headless Chromium: tests that viewer-lists.test.ts
 * runs on its own local stack, after its own (a stack of their own cost a second stack's start and stop, and a
 * file's mock LLM and browser context, for three tests). Labelling: an annotation queue labelled with the
 * keyboard shortcuts the page lists, as the annotator named on the page (`x-annotator`), the judge's verdict
 * beside the task unless the queue is blind, the next item after each label, and "Done" when none is left; a
 * pointwise queue scored on its aspects on a 375 px phone. Evals: the list, an eval with its runs, and a run's
 * page opened from its `report_url`, with its counts, each criterion's results, the usage per model and every
 * output item's grader results. Each test makes its own queue or eval and reads only those.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { PAIRWISE_RUBRIC_EXAMPLE } from '../../../src/rubrics/examples.js';
import type { ViewerRig, ViewerStack } from '../../web/viewer-harness.js';
import { DESKTOP, expectAccessible, PHONE, shoot } from '../../web/viewer-harness.js';

/** A quick mock (the stack's default answers in 300-700 ms). */
const QUICK = { defaults: { model: 'mock-judge?latency=20' } };

interface StoredLabel {
  annotator: string;
  provenance: string;
  label: { winner?: string; score?: number; aspects?: Record<string, number> };
  comment: string | null;
}

/**
 * Declares the labelling and Evals tests, on `viewer`'s stack (the rig's mock answering in 300-700 ms unless a
 * request asks for less) and `rig`'s browser. Call inside a describe whose hooks start both.
 */
export function labellingAndEvalsTests(rig: ViewerRig, viewer: ViewerStack): void {
  const url = () => viewer.stack.url;

  /** The people's labels of item `item` of queue `queue`, as the API has them (the judge's left out). */
  async function labelsOf(queue: string, item: string): Promise<StoredLabel[]> {
    const r = await fetch(`${url()}/v1/annotation-queues/${queue}/items/${encodeURIComponent(item)}`);
    return ((await r.json()) as { labels: StoredLabel[] }).labels.filter((l) => l.provenance !== 'judge');
  }

  /** Resolves once the page shows an item other than `previous`; its id. */
  async function nextItem(page: Page, previous: string | null): Promise<string> {
    const title = page.locator('h2.item-title');
    await expect.poll(async () => ((await title.count()) > 0 ? await title.innerText() : null)).toMatch(/^Item /);
    if (previous !== null) await expect.poll(() => title.innerText()).not.toBe(`Item ${previous}`);
    return (await title.innerText()).replace(/^Item /, '');
  }

  it("labels a queue's items with the keyboard as the named annotator, the judge's verdict beside each, until Done; another name starts over", async () => {
    const metadata = { source: 'labelling-test' };
    const { id: rubric } = await viewer.send<{ id: string }>('/v1/rubrics', PAIRWISE_RUBRIC_EXAMPLE, 201);
    // Judged by the queue's rubric: only then is the verdict the judge's label of the queue's question.
    const judged = await Promise.all(
      [1, 2].map((n) =>
        viewer.created('/v1/evaluations', {
          preset: 'fastchat-pair',
          config: { ...QUICK, calibration: { enabled: false } },
          metadata,
          rubric,
          task: { kind: 'pairwise', question: `(${n}) 2 + 2?`, answerA: '4', answerB: '5' },
        }),
      ),
    );
    for (const id of judged) await viewer.endedInApi(id);
    const { id: queue } = await viewer.send<{ id: string }>(
      '/v1/annotation-queues',
      { name: 'Refund replies', rubric, fromEvaluations: { filter: { metadata } }, labelsPerItem: 2 },
      201,
    );

    const page = await rig.browser.page(DESKTOP);
    await page.goto(`${url()}/#/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Labelling' }).click();
    await page.waitForURL(/#\/labelling$/);
    const row = page.locator('.list-table tbody tr', { hasText: 'Refund replies' });
    await row.waitFor();
    expect(await row.innerText()).toContain('0/2 labelled');
    await expectAccessible(page);
    await row.getByRole('link', { name: 'Refund replies' }).click();

    await page.getByLabel('Your name').fill('ana');
    await page.getByRole('button', { name: 'Use' }).click();
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Labelling as' }).innerText())
      .toBe('Labelling as ana.');
    const first = await nextItem(page, null);
    expect(judged).toContain(first);
    // The judge's verdict is the evaluation's, and the page lists the shortcuts it answers to.
    const verdict = (await (await fetch(`${url()}/v1/evaluations/${first}`)).json()) as {
      verdict: { winner: string };
    };
    const judge = page.locator('section.card', { has: page.locator('h2', { hasText: "Judge's verdict" }) });
    expect((await judge.locator('.chip').innerText()).toLowerCase()).toBe(verdict.verdict.winner.toLowerCase());
    const shortcuts = page.locator('section.card', { has: page.locator('h2', { hasText: 'Keyboard shortcuts' }) });
    expect(await shortcuts.locator('dt').allInnerTexts()).toEqual(['A', 'B', 'T', 'C', 'Esc', 'Enter', 'Ctrl+Enter']);
    await expectAccessible(page);
    await shoot(page, 'labelling-desktop.png', { fullPage: true });

    // B, a comment (its letters type, not pick), Esc, Enter: the label goes, the next item comes.
    await page.keyboard.press('b');
    await page.keyboard.press('c');
    await page.keyboard.type('A is right: tie breaks at 4');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    const second = await nextItem(page, first);
    expect(await labelsOf(queue, first)).toMatchObject([
      { annotator: 'ana', provenance: 'human', label: { winner: 'B' }, comment: 'A is right: tie breaks at 4' },
    ]);
    // Enter without a pick says what is missing and sends nothing; then T and Ctrl+Enter from the comment.
    await page.keyboard.press('Enter');
    await page.getByText('Pick the better answer (A, B or T).').waitFor();
    await page.keyboard.press('t');
    await page.getByLabel('Comment (optional)').focus();
    await page.keyboard.press('Control+Enter');
    await page.locator('#done-title', { hasText: 'Done' }).waitFor();
    expect(await page.locator('.done-card').innerText()).toContain('No item is left for ana in this queue.');
    expect((await labelsOf(queue, second)).map((l) => [l.annotator, l.label.winner, l.comment])).toEqual([
      ['ana', 'tie', null],
    ]);
    await expect.poll(() => page.locator('.progress-cell').first().innerText()).toContain('0/2 labelled');

    // Another annotator under the same key gets the queue's items again, the first one first.
    await page.getByLabel('Your name').fill('bo');
    await page.getByRole('button', { name: 'Use' }).click();
    expect(await nextItem(page, null)).toBe(first);
    await page.keyboard.press('b');
    await page.keyboard.press('Enter');
    await nextItem(page, first);
    expect((await labelsOf(queue, first)).map((l) => l.annotator).sort()).toEqual(['ana', 'bo']);
    await expect.poll(() => page.locator('.progress-cell').first().innerText()).toContain('1/2 labelled');
    // The name is kept in this browser: a reload labels as bo still.
    await page.reload();
    await nextItem(page, null);
    expect(await page.getByLabel('Your name').inputValue()).toBe('bo');
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });

  it("scores a blind pointwise queue's aspects with digit keys on a 375 px phone, the judge hidden", async () => {
    const { id: rubric } = await viewer.send<{ id: string }>(
      '/v1/rubrics',
      {
        name: 'Support reply',
        kind: 'pointwise',
        criteria: 'A reply from our support team to a customer.',
        scale: { min: 1, max: 5 },
        // Steps given, so no G-Eval style steps are written first (an evaluation of its own).
        evaluationSteps: 'Read the reply, then score it.',
        aspects: [
          { name: 'policy', criteria: 'States the refund policy correctly.' },
          { name: 'tone', criteria: 'Is polite and calm.' },
        ],
      },
      201,
    );
    const items = [1, 2].map((n) => ({
      id: `reply-${n}`,
      task: { kind: 'pointwise', source: `(${n}) My order arrived broken.`, output: 'Sorry! We replace it today.' },
    }));
    const { id: queue } = await viewer.send<{ id: string }>(
      '/v1/annotation-queues',
      { name: 'Blind replies', rubric, items, blind: true },
      201,
    );

    const page = await rig.browser.page(PHONE);
    // The page asks for an item as it opens (for the name the test above stored) and again when the name is
    // cleared. The first answer is held until the second has been answered, as a slow network may order them:
    // the page must keep showing the second (it showed the stored name's item, seen at a busy moment).
    let answeredSecond = (): void => undefined;
    const secondAnswered = new Promise<void>((resolve) => (answeredSecond = resolve));
    let asks = 0;
    await page.route(/\/next$/, async (route) => {
      asks += 1;
      if (asks === 1) {
        await secondAnswered;
        await route.continue();
        return;
      }
      await route.fulfill({ response: await route.fetch() });
      answeredSecond();
    });
    await page.goto(`${url()}/#/labelling/${queue}`);
    // No name: the API counts the labels as the key's (here a deployment without keys: `anonymous`).
    await page.getByLabel('Your name').fill('');
    await page.getByRole('button', { name: 'Use' }).click();
    await page.getByRole('status').filter({ hasText: 'Labelling as anonymous.' }).waitFor();
    expect(await nextItem(page, null)).toBe('reply-1');
    await page.getByText('Hidden: this queue is blind').waitFor();
    expect(await page.locator('.task-text', { hasText: 'Source' }).innerText()).toContain(
      '(1) My order arrived broken.',
    );
    // 4 scores the overall row, 5 policy; K goes back to policy, 3 rescores it; 9 is off the scale and does nothing.
    for (const key of ['4', '5', 'k', '3', '9']) await page.keyboard.press(key);
    expect(await page.getByRole('radio', { name: '4' }).first().isChecked()).toBe(true);
    expect(await page.locator('fieldset', { hasText: 'policy' }).getByRole('radio', { name: '3' }).isChecked()).toBe(
      true,
    );
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    // The held first answer has come by now: it changed neither the name shown nor the form.
    expect(asks).toBe(2);
    expect(await page.getByRole('status').filter({ hasText: 'Labelling as' }).innerText()).toBe(
      'Labelling as anonymous.',
    );
    await page.keyboard.press('Enter');
    expect(await nextItem(page, 'reply-1')).toBe('reply-2');
    const [label] = await labelsOf(queue, 'reply-1');
    expect(label?.label).toEqual({ score: 4, aspects: { policy: 3 } });
    expect(label?.annotator).toBe('anonymous');
    await page.keyboard.press('2');
    await page.keyboard.press('Enter');
    await page.locator('#done-title', { hasText: 'Done' }).waitFor();
    await expect.poll(() => page.locator('.progress-cell').first().innerText()).toContain('2/2 labelled');
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });
  it("opens a run's report_url on its page: status, counts, each criterion's results, usage per model and every output item's grader results; the eval lists its runs", async () => {
    const grader = { input: '{{sample.output_text}}', reference: '{{item.answer}}' };
    const ev = await viewer.send<{ id: string }>(
      '/v1/evals',
      {
        name: 'Capitals',
        data_source_config: {
          type: 'custom',
          item_schema: { type: 'object', properties: { question: { type: 'string' }, answer: { type: 'string' } } },
          include_sample_schema: true,
        },
        testing_criteria: [
          { type: 'string_check', name: 'exact', operation: 'eq', ...grader },
          {
            type: 'label_model',
            name: 'verdict',
            model: 'mock-judge?latency=20',
            input: [{ role: 'user', content: 'Is {{sample.output_text}} the answer {{item.answer}}?' }],
            labels: ['correct', 'incorrect'],
            passing_labels: ['correct'],
          },
        ],
      },
      200,
    );
    const items = [
      { question: 'Capital of France?', answer: 'Paris' },
      { question: 'Capital of Australia?', answer: 'Canberra' },
      { question: 'Capital of Canada?', answer: 'Ottawa' },
    ];
    const outputs = ['Paris', 'Sydney', 'Ottawa'];
    const created = await viewer.send<{ id: string; report_url: string }>(
      `/v1/evals/${ev.id}/runs`,
      {
        name: 'nightly',
        data_source: {
          type: 'jsonl',
          source: {
            type: 'file_content',
            content: items.map((item, n) => ({ item, sample: { output_text: outputs[n] } })),
          },
        },
      },
      200,
    );
    interface Run {
      status: string;
      report_url: string;
      result_counts: { total: number; passed: number; failed: number; errored: number };
      per_testing_criteria_results: { testing_criteria: string; passed: number; failed: number }[];
      per_model_usage: { model_name: string; invocation_count: number }[];
    }
    let run: Run | undefined;
    await expect
      .poll(
        async () => {
          run = (await (await fetch(`${url()}/v1/evals/${ev.id}/runs/${created.id}`)).json()) as Run;
          return run.status;
        },
        { timeout: 90_000, interval: 300 },
      )
      .toBe('completed');
    const done = run as Run;
    expect(new URL(done.report_url).origin).toBe(url());

    const page = await rig.browser.page(DESKTOP);
    await page.goto(done.report_url);
    await page.locator('h1', { hasText: 'nightly' }).waitFor();
    expect((await page.locator('.page-head .pill').textContent())?.trim()).toBe('completed');
    expect(await page.locator('[data-nav="evals"]').getAttribute('aria-current')).toBe('page');
    const kpi = async (label: string) =>
      page
        .locator('.kpi', { has: page.locator('.kpi-label', { hasText: label }) })
        .locator('.kpi-value')
        .innerText();
    const c = done.result_counts;
    expect([await kpi('Passed'), await kpi('Failed'), await kpi('Errored'), await kpi('Items')]).toEqual(
      [c.passed, c.failed, c.errored, c.total].map(String),
    );
    const criteria = page.locator('section.card', { has: page.locator('h2', { hasText: 'Per testing criterion' }) });
    const criterionRows = await criteria.locator('tbody tr').allInnerTexts();
    expect(
      criterionRows.map((r) =>
        r
          .split('\t')
          .slice(0, 3)
          .map((x) => x.trim()),
      ),
    ).toEqual(done.per_testing_criteria_results.map((r) => [r.testing_criteria, String(r.passed), String(r.failed)]));
    // exact: Paris and Ottawa pass, Sydney fails (computed here, not read back).
    expect(
      criterionRows
        .find((r) => r.startsWith('exact'))
        ?.split('\t')
        .slice(1, 3)
        .map((x) => x.trim()),
    ).toEqual(['2', '1']);
    const usage = page.locator('section.card', { has: page.locator('h2', { hasText: 'Usage by model' }) });
    const usageRows = await usage.locator('tbody tr').allInnerTexts();
    expect(
      usageRows.map((r) =>
        r
          .split('\t')
          .slice(0, 2)
          .map((x) => x.trim()),
      ),
    ).toEqual(done.per_model_usage.map((m) => [m.model_name, String(m.invocation_count)]));
    const rows = page.locator('table.output-items tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const australia = rows.filter({ hasText: 'Australia' });
    expect(await australia.locator('.grader-results li', { hasText: 'exact' }).innerText()).toBe('exact failed · 0');
    expect(
      await rows.filter({ hasText: 'Canada' }).locator('.grader-results li', { hasText: 'exact' }).innerText(),
    ).toBe('exact passed · 1');
    expect(await australia.locator('.grader-results li', { hasText: 'verdict' }).count()).toBe(1);
    await expectAccessible(page);
    await shoot(page, 'eval-run-desktop.png', { fullPage: true });

    // The eval's page lists the run; the evals list (from the nav) lists the eval.
    await page.getByRole('link', { name: 'Capitals' }).click();
    const runRow = page.locator('.list-table tbody tr', { hasText: 'nightly' });
    await runRow.waitFor();
    expect(await runRow.innerText()).toContain(`${c.passed} passed · ${c.failed} failed`);
    expect(await page.locator('section.card', { hasText: 'Testing criteria' }).innerText()).toContain(
      'verdict · label_model',
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Evals' }).click();
    await page.locator('.list-table tbody tr', { hasText: 'Capitals' }).waitFor();
    await expectAccessible(page);
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });
}
