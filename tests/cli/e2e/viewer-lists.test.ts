/**
 * The viewer's lists and what a new user missed on them, in headless Chromium against a local stack of its
 * own (so the e2e project runs it beside the other viewer files): the comparisons list and its nav entry, the
 * gate on the batches list, a batch served from the verdict cache saying so, the tier and cache on the submit
 * form and the prompts it would send, the rubric filter of the evaluations list, scores out of their scale, a
 * golden check's examples (the judge against the expected answer, accuracy on a pass/fail scale), the
 * meta-evaluation's labelled accuracies and one status word, and the comparison chart and a rubric verdict's
 * aspects on a 375 px phone, and a trace's span tree with its evaluations there too; then, on the same stack,
 * the labelling and Evals pages (./viewer-queues-evals.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadFairEval } from '../../../src/datasets/loaders.js';
import {
  DESKTOP,
  expectAccessible,
  PHONE,
  SKIP_VIEWER,
  useViewerBrowser,
  useViewerStack,
} from '../../web/viewer-harness.js';
import { labellingAndEvalsTests } from './viewer-queues-evals.js';

/**
 * How far the first `selector`'s scrolling wrapper overflows sideways, px (0 or less: it fits). A string: it
 * runs in the browser, not in Node.
 */
const OVERFLOW = (selector: string) =>
  `(() => { const w = document.querySelector(${JSON.stringify(selector)}).parentElement; return w.scrollWidth - w.clientWidth; })()`;

/** A quick mock (the stack's default answers in 300-700 ms, for the live debate tests). */
const QUICK = { defaults: { model: 'mock-judge?latency=20' } };

describe.skipIf(SKIP_VIEWER)("the viewer's lists in headless Chromium", () => {
  const rig = useViewerBrowser();
  // The rig's mock offers flex, as `npm start` declares for the bundled one: the form's tier is then sent as picked.
  const viewer = useViewerStack(rig, 'lists', undefined, { LLM_SUPPORTS_FLEX: 'true' });

  const api = <T>(path: string, body: unknown, status: number) => viewer.send<T>(path, body, status);

  /** Resolves once `GET path` shows `done(body)`. */
  async function settled<T>(path: string, done: (body: T) => boolean): Promise<T> {
    let last: T | undefined;
    await expect
      .poll(
        async () => {
          last = (await (await fetch(`${viewer.stack.url}${path}`)).json()) as T;
          return done(last);
        },
        { timeout: 90_000, interval: 200 },
      )
      .toBe(true);
    return last as T;
  }

  it('lists comparisons from the nav with their gate, shows the gate on the batches list, and a batch served from the verdict cache says how many and what it saved', async () => {
    const items = Array.from({ length: 3 }, (_, i) => ({
      id: `q${i}`,
      question: `(${i}) Capital of Australia?`,
      outputs: { prod: 'Sydney.', next: 'Canberra.' },
    }));
    const comparison = await viewer.created('/v1/comparisons', {
      preset: 'fastchat-pair',
      config: QUICK,
      candidates: ['prod', 'next'],
      design: { baseline: 'prod' },
      gate: { candidate: 'next', baseline: 'prod' },
      items,
    });
    // A priced model, so what the cache saved is a figure; the same batch twice: the second from the cache.
    const batchBody = {
      preset: 'fastchat-pair',
      config: { calibration: { enabled: false }, defaults: { model: 'gpt-4o-mini?latency=20' } },
      items: [1, 2, 3].map((n) => ({
        id: `b${n}`,
        task: { kind: 'pairwise', question: `(${n}) 2 + 2?`, answerA: '4', answerB: '5' },
      })),
    };
    const ended = (b: { status: string }) => b.status === 'completed';
    const first = await viewer.created('/v1/batches', batchBody);
    const firstRun = await settled<{ status: string; usage: { costUsd: number } }>(`/v1/batches/${first}`, ended);
    const second = await viewer.created('/v1/batches', batchBody);
    await settled(`/v1/batches/${second}`, ended);
    const cmp = await settled<{ status: string; gateOutcome: string }>(`/v1/comparisons/${comparison}`, ended);

    const page = await rig.browser.page(DESKTOP);
    await page.goto(`${viewer.stack.url}/#/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Comparisons' }).click();
    await page.waitForURL(/#\/comparisons$/);
    const row = page.locator('.list-table tbody tr', { hasText: comparison.slice(0, 14) });
    await row.waitFor();
    expect(await row.locator('.gate').innerText()).toBe(cmp.gateOutcome);
    expect(await row.innerText()).toContain('prod, next');
    await expectAccessible(page);
    await row.getByRole('link').first().click();
    await page.locator('.gate', { hasText: /^(Passed|Failed|Inconclusive)/ }).waitFor();
    expect(await page.locator('[data-nav="comparisons"]').getAttribute('aria-current')).toBe('page');

    // The batches list: a Gate column, the comparison's outcome in it, a dash for a batch.
    // A hash change: goto resolves before the list renders, so the row is waited for before the headers are read.
    await page.goto(`${viewer.stack.url}/#/batches`);
    const cmpRow = page.locator('.list-table tbody tr', { hasText: comparison.slice(0, 14) });
    await cmpRow.waitFor();
    const headers = await page.locator('.list-table thead th').allInnerTexts();
    expect(headers.map((t) => t.toLowerCase())).toContain('gate');
    await expect.poll(() => cmpRow.locator('.gate').count()).toBe(1);
    expect(await cmpRow.locator('.gate').innerText()).toBe(cmp.gateOutcome);
    expect(
      await page
        .locator('.list-table tbody tr', { hasText: second.slice(0, 14) })
        .locator('.gate-cell')
        .innerText(),
    ).toBe('—');
    await expectAccessible(page);

    // The batch served from the cache: 0 calls, and the hits with what they saved.
    await page.goto(`${viewer.stack.url}/#/batches/${second}`);
    const cost = page.locator('section.card', { has: page.locator('h2', { hasText: 'Cost' }) });
    await cost.waitFor();
    const text = (await cost.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('LLM calls 0');
    expect(firstRun.usage.costUsd).toBeGreaterThan(0);
    expect(text).toMatch(/Verdict cache 3 from cache, saved \$0\.\d+/);
    // The previous batch's card stays until this one renders: wait for this one's words.
    await page.goto(`${viewer.stack.url}/#/batches/${first}`);
    await expect.poll(async () => (await cost.innerText()).replace(/\s+/g, ' ')).toContain('Verdict cache no hits');
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });

  it('submits at a tier with a cache mode (its rendered prompts shown first), filters evaluations by rubric version, and shows scores out of their scale', async () => {
    const { id: rubric } = await api<{ id: string }>(
      '/v1/rubrics',
      {
        name: 'Ten-point',
        kind: 'pointwise',
        criteria: 'Is the reply right?',
        scale: { min: 0, max: 10 },
        // Steps given, so no G-Eval style steps are written first (an evaluation of its own).
        evaluationSteps: 'Read the reply, then score it.',
      },
      201,
    );
    const task = { kind: 'pointwise', source: 'Order arrived broken.', output: 'We replace it.' };
    const byRubric = await viewer.created('/v1/evaluations', {
      preset: 'rubric-judge',
      config: QUICK,
      rubric: `${rubric}@1`,
      task,
    });
    const other = await viewer.created('/v1/evaluations', {
      preset: 'fastchat-pair',
      config: QUICK,
      task: { kind: 'pairwise', question: '2 + 2?', answerA: '4', answerB: '5' },
    });
    for (const id of [byRubric, other]) await viewer.endedInApi(id);

    const page = await rig.browser.page(DESKTOP);
    // The list filtered by the rubric's version: only its evaluation, its score out of 10.
    await page.goto(`${viewer.stack.url}/#/?rubric=${encodeURIComponent(`${rubric}@1`)}`);
    const rows = page.locator('.list-table tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(/\d+(\.\d+)? \/ 10/);
    expect(await page.getByLabel('Rubric').inputValue()).toBe(`${rubric}@1`);
    await expectAccessible(page);
    // Its page: the score against the rubric's scale.
    await rows.first().getByRole('link').first().click();
    const headline = page.locator('.verdict-headline');
    await headline.waitFor();
    expect((await headline.innerText()).replace(/\s+/g, ' ')).toMatch(
      /^\d+(\.\d+)? \/ 10 score on a scale of 0 to 10$/,
    );

    // The form: a tier and a cache mode, sent with the task.
    await page.goto(`${viewer.stack.url}/#/new`);
    await page.getByLabel('Preset').selectOption('fastchat-pair');
    await page.getByLabel('Service tier').selectOption('flex');
    await page.getByLabel('Verdict cache').selectOption('off');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Fill in an example' }).click();
    // The prompts the judge would get, rendered by the API without an LLM call: the form's question is in them.
    await page.getByRole('button', { name: 'Show the prompts' }).click();
    const prompts = page.locator('section.card', { has: page.locator('h2', { hasText: 'Rendered prompts' }) });
    await prompts.waitFor();
    const question = await page.getByLabel('Question').inputValue();
    expect(await prompts.locator('.rendered-call').count()).toBeGreaterThan(0);
    expect(await prompts.locator('.rendered-call').first().innerText()).toContain(question.trim());
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Start evaluation' }).click();
    await page.waitForURL(/#\/evaluations\/ev_/);
    const id = /#\/evaluations\/(ev_[^/?#]+)/.exec(page.url())?.[1] ?? '';
    const sent = (await (await fetch(`${viewer.stack.url}/v1/evaluations/${id}`)).json()) as {
      tier: string;
      cache: { mode: string };
    };
    expect([sent.tier, sent.cache.mode]).toEqual(['flex', 'off']);
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });

  it("shows a pass/fail golden check's accuracy and each example's expected answer against the judge's; a meta-evaluation's accuracies labelled and one status word", async () => {
    const example = (i: number, expected: number) => ({
      task: { kind: 'pointwise', source: `Question ${i}: is 2 + 2 four?`, output: i % 2 === 0 ? 'Yes.' : 'No.' },
      expected,
    });
    const { id } = await api<{ id: string }>(
      '/v1/rubrics',
      {
        name: 'Correct or not',
        kind: 'pointwise',
        criteria: 'Pass (1) when the answer is correct, fail (0) otherwise.',
        scale: { min: 0, max: 1 },
        evaluationSteps: 'Check the answer.',
        examples: [example(0, 1), example(1, 0), example(2, 1), example(3, 1)],
      },
      201,
    );
    await api(`/v1/rubrics/${id}/versions/1/check`, { preset: 'rubric-judge', config: QUICK }, 202);
    const meta = await viewer.created('/v1/meta-evaluations', {
      preset: 'fastchat-pair',
      config: { defaults: { model: 'mock-judge?vary=1&latency=20' } },
      repeats: 2,
      items: loadFairEval()
        .slice(0, 3)
        .map((i) => ({ id: i.id, task: i.task, human: i.human })),
    });

    const page = await rig.browser.page(DESKTOP);
    await page.goto(`${viewer.stack.url}/#/rubrics/${id}/versions/1`);
    const examples = page.locator('section.card', { has: page.locator('h2', { hasText: 'Judge against expected' }) });
    await examples.waitFor({ timeout: 90_000 });
    const version = (await (await fetch(`${viewer.stack.url}/v1/rubrics/${id}/versions/1`)).json()) as {
      check: { metaEvaluationId: string; report: { accuracy?: { value: number } } };
    };
    const judged = (await (
      await fetch(`${viewer.stack.url}/v1/meta-evaluations/${version.check.metaEvaluationId}`)
    ).json()) as {
      items: { itemId: string; human: number; score: number | null }[];
    };
    const lines = await examples.locator('tbody tr').allInnerTexts();
    expect(lines).toHaveLength(4);
    for (const item of judged.items) {
      const n = Number(item.itemId.replace('example-', ''));
      const cells = (lines[n] ?? '').split('\t').map((c) => c.trim());
      expect(cells.slice(0, 2)).toEqual([`#${n + 1}`, `${item.human} / 1`]);
      if (item.score !== null) {
        expect(cells[2]).toBe(`${item.score} / 1`);
        expect(cells[3]).toBe((item.score >= 0.5 ? 1 : 0) === item.human ? 'agrees' : 'differs');
      }
    }
    const check = page.locator('section.card', { has: page.locator('h2', { hasText: 'Golden check' }) });
    const accuracy = check.locator('.kpi', { hasText: 'Accuracy' });
    const value = version.check.report.accuracy?.value ?? -1;
    expect(await accuracy.locator('.kpi-value').innerText()).toBe(`${(value * 100).toFixed(1)}%`);
    await expectAccessible(page);

    // The meta-evaluation with repeats: every accuracy says over what; the run reads "completed" as on the batches list.
    await page.goto(`${viewer.stack.url}/#/meta/${meta}`);
    await page.locator('.card', { hasText: 'Reliability over 2 repeats' }).waitFor({ timeout: 90_000 });
    const kpis = await page.locator('.kpi-label').allInnerTexts();
    expect(kpis.filter((k) => /accuracy/i.test(k)).every((k) => k.includes('(first of 2 repeats)'))).toBe(true);
    const measures = await page.locator('.ci-table tbody th').allInnerTexts();
    const accuracies = measures.map((m) => m.split('\n')[0] ?? '').filter((m) => /accuracy/i.test(m));
    expect(accuracies).toEqual([
      'Accuracy of each repeat',
      "Accuracy of the repeats' majority",
      'Accuracy (first of 2 repeats)',
    ]);
    expect((await page.locator('.page-head .pill').textContent())?.trim()).toBe('completed');
    await expectAccessible(page);
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });

  it("keeps a comparison's interval chart on a 375 px screen and a rubric verdict's aspects in short rows with their rationale readable", async () => {
    const comparison = await viewer.created('/v1/comparisons', {
      preset: 'fastchat-pair',
      config: QUICK,
      candidates: ['low', 'mid', 'high'],
      design: 'all-pairs',
      items: [0, 1, 2].map((i) => ({
        id: `c${i}`,
        question: `(${i}) Explain recursion.`,
        outputs: { low: 'a', mid: 'b', high: 'c' },
      })),
    });
    const evaluation = await viewer.created('/v1/evaluations', {
      preset: 'rubric-judge',
      config: QUICK,
      rubric: {
        kind: 'pointwise',
        criteria: 'A reply from our support team to a customer.',
        scale: { min: 1, max: 5 },
        evaluationSteps: 'Read the reply, then score it.',
        aspects: [
          { name: 'policy', criteria: 'States the refund policy correctly.', weight: 2 },
          { name: 'tone', criteria: 'Is polite and calm.' },
          { name: 'next step', criteria: 'Ends with one next step.' },
        ],
      },
      task: { kind: 'pointwise', source: 'My order arrived broken.', output: 'Sorry! We will replace it today.' },
    });
    await settled<{ status: string }>(`/v1/comparisons/${comparison}`, (c) => c.status === 'completed');
    await viewer.endedInApi(evaluation);

    const page = await rig.browser.page(PHONE);
    await page.goto(`${viewer.stack.url}/#/comparisons/${comparison}`);
    await expect.poll(() => page.locator('.ci-table .ci-strip').count(), { timeout: 90_000 }).toBe(3);
    // Every strip wholly on the screen, inside a table that needs no sideways scrolling.
    const strips = await page.evaluate<number[][]>(
      `[...document.querySelectorAll('.ci-table .ci-strip')].map((e) => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.width]; })`,
    );
    for (const [left, right, width] of strips) {
      expect(left).toBeGreaterThanOrEqual(0);
      expect(right).toBeLessThanOrEqual(PHONE.width);
      expect(width).toBeGreaterThanOrEqual(48);
    }
    const overflow = await page.evaluate<number>(OVERFLOW('.ci-table'));
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    await page.goto(`${viewer.stack.url}/#/evaluations/${evaluation}`);
    const card = page.locator('section[aria-labelledby="card-aspects"]');
    await card.waitFor({ timeout: 60_000 });
    expect(await page.evaluate<number>(OVERFLOW('table.aspects-verdict'))).toBeLessThanOrEqual(0);
    // Each aspect's figures in a short row; its rationale on the row under it, as wide as the table.
    const heights = await page.evaluate<number[]>(
      `[...document.querySelectorAll('table.aspects-verdict tbody tr:first-child')].map((r) => r.getBoundingClientRect().height)`,
    );
    expect(heights).toHaveLength(3);
    for (const h of heights) expect(h).toBeLessThan(80);
    const rationales = await page.evaluate<number[][]>(
      `[...document.querySelectorAll('table.aspects-verdict tr.aspect-rationale td')].map((c) => [c.getBoundingClientRect().width, (c.textContent || '').length])`,
    );
    expect(rationales).toHaveLength(3);
    for (const [width, length] of rationales) {
      expect(width).toBeGreaterThan(250);
      expect(length).toBeGreaterThan(20);
    }
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });

  it('shows a trace as a tree of spans with their evaluations on a 375 px phone, opened by its id, and an evaluation made of a span links back to it', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const ids = {
      root: '00f067aa0ba902b7',
      chat: '00f067aa0ba902b8',
      tool: '00f067aa0ba902b9',
      orphan: '00f067aa0ba902ba',
    };
    const t0 = BigInt(Date.now()) * 1_000_000n;
    const at = (ms: number) => (t0 + BigInt(ms) * 1_000_000n).toString();
    const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
    // Children before their parent and the later sibling first: the page builds the tree from the parent ids.
    const spans = [
      {
        spanId: ids.tool,
        parentSpanId: ids.root,
        name: 'execute_tool lookup_order',
        startTimeUnixNano: at(600),
        endTimeUnixNano: at(700),
        status: { code: 2, message: 'order service timed out' },
        attributes: [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', 'lookup_order')],
      },
      {
        spanId: ids.chat,
        parentSpanId: ids.root,
        name: 'chat gpt-4o',
        kind: 3,
        startTimeUnixNano: at(10),
        endTimeUnixNano: at(500),
        attributes: [
          attr('gen_ai.operation.name', 'chat'),
          attr('gen_ai.request.model', 'gpt-4o'),
          attr('input.value', 'Where is my order 1234?'),
          attr('output.value', 'Let me look it up.'),
        ],
      },
      {
        spanId: ids.orphan,
        parentSpanId: 'aaaaaaaaaaaaaaaa',
        name: 'retry lookup_order',
        startTimeUnixNano: at(800),
        endTimeUnixNano: at(900),
        attributes: [],
      },
      {
        spanId: ids.root,
        name: 'invoke_agent support',
        startTimeUnixNano: at(0),
        endTimeUnixNano: at(1200),
        attributes: [attr('gen_ai.operation.name', 'invoke_agent')],
      },
    ].map((sp) => ({ traceId, kind: 1, ...sp }));
    await api(
      '/v1/traces',
      {
        resourceSpans: [{ resource: { attributes: [attr('service.name', 'support-agent')] }, scopeSpans: [{ spans }] }],
      },
      200,
    );
    const evaluation = await viewer.created('/v1/evaluations', {
      preset: 'fastchat-pair',
      config: QUICK,
      source: { traceId, spanId: ids.chat },
      task: { kind: 'pairwise', question: 'Where is my order?', answerA: 'Let me look it up.', answerB: 'No idea.' },
    });
    await viewer.endedInApi(evaluation);
    await settled<{ spanCount: number }>(`/v1/traces/${traceId}`, (t) => t.spanCount === 4);

    const page = await rig.browser.page(PHONE);
    await page.goto(`${viewer.stack.url}/#/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Traces' }).click();
    await page.getByLabel('Trace id').fill('not-a-trace');
    await page.getByRole('button', { name: 'Open' }).click();
    expect(await page.getByRole('alert').innerText()).toContain('32 hexadecimal characters');
    await expectAccessible(page);
    await page.getByLabel('Trace id').fill(traceId.toUpperCase());
    await page.getByRole('button', { name: 'Open' }).click();
    await page.waitForURL(new RegExp(`#/traces/${traceId}$`));

    // Roots by start time: the agent, then the span whose parent never arrived; the agent's children by start time.
    const top = page.locator('ol.span-tree-top > li');
    await top.first().waitFor();
    const name = (li: ReturnType<typeof page.locator>) => li.locator(':scope > .span-row .span-name').innerText();
    expect([await name(top.nth(0)), await name(top.nth(1))]).toEqual(['invoke_agent support', 'retry lookup_order']);
    expect(await top.nth(1).locator('.badge', { hasText: 'parent not received' }).count()).toBe(1);
    const children = top.nth(0).locator(':scope > ol > li');
    expect(await children.count()).toBe(2);
    const [chat, tool] = [children.nth(0), children.nth(1)];
    expect([await name(chat), await name(tool)]).toEqual(['chat gpt-4o', 'execute_tool lookup_order']);
    expect(await chat.locator('.span-model').innerText()).toBe('gpt-4o');
    expect(await tool.locator('.pill-error').count()).toBe(1);
    expect(await tool.locator('.error-text').innerText()).toContain('order service timed out');
    // Input and output folded until asked for.
    const input = chat.getByText('Where is my order 1234?');
    expect(await input.isVisible()).toBe(false);
    await chat.getByText('Input and output').click();
    await input.waitFor();
    // The span's evaluation: its status, and a link to its page, which links back to the trace.
    const judged = chat.locator('.span-evaluations li');
    expect(await judged.count()).toBe(1);
    expect((await judged.locator('.pill').textContent())?.trim()).toBe('succeeded');
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await expectAccessible(page);
    await judged.getByRole('link', { name: evaluation.slice(0, 14) }).click();
    await page.waitForURL(/#\/evaluations\/ev_/);
    await page
      .locator('.facts')
      .getByRole('link', { name: traceId.slice(0, 14) })
      .click();
    await page.waitForURL(new RegExp(`#/traces/${traceId}$`));
    await page.locator('ol.span-tree-top').waitFor();
    expect(rig.browser.errorsOf(page)).toEqual([]);
    await page.close();
  });

  // After the lists' tests, so those see the stack as they always did; these read only the queues and evals they make.
  describe('the labelling and Evals pages', () => {
    labellingAndEvalsTests(rig, viewer);
  });
});
