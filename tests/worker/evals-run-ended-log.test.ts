/**
 * An Evals run's end is logged once (`evals.run_ended`, src/evals/run-events.ts), which `npm start`'s terminal
 * shows as a line: by whoever ends it (its worker, a cancel), with its ids, status and item counts and never
 * an item's text; a repeated step (the run's queue message delivered again, a second cancel, a cancel of an
 * ended run) logs nothing more.
 */
import { describe, expect, it } from 'vitest';
import { processRun } from '../../src/evals/run-process.js';
import { endRun } from '../../src/evals/run-rows.js';
import { pollUntil, testEnv } from './helpers.js';
import { capturingLogLines } from './log-capture.js';
import type { LoggedLine } from './log-capture.js';
import { EXACT_CHECK, sdk } from './openai-support.js';

const client = sdk();

/** Text that appears only in the items and samples: a log line must not carry it. */
const SECRET_WORD = 'Zanzibarque';
const ITEMS = [
  { item: { answer: SECRET_WORD }, sample: { output_text: SECRET_WORD } },
  { item: { answer: `${SECRET_WORD} two` }, sample: { output_text: 'something else' } },
  { item: { answer: `${SECRET_WORD} three` }, sample: { output_text: `${SECRET_WORD} three` } },
];

/** An eval whose one grader calls no model (its runs end without the mock). */
async function createEval(): Promise<string> {
  const ev = await client.evals.create({
    name: 'run end log',
    data_source_config: {
      type: 'custom',
      item_schema: { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] },
      include_sample_schema: true,
    },
    testing_criteria: [EXACT_CHECK],
  });
  return ev.id;
}

/** A run of `evalId` on {@link ITEMS}. */
function createRun(evalId: string) {
  return client.evals.runs.create(evalId, {
    data_source: { type: 'jsonl', source: { type: 'file_content', content: ITEMS } },
  });
}

const endedLines = (lines: readonly LoggedLine[], runId: string) =>
  lines.filter((l) => l.event === 'evals.run_ended' && l.runId === runId);

describe('evals.run_ended', () => {
  it("is logged once when a run's worker completes it, with its counts and no item text; a repeated step logs nothing", async () => {
    const evalId = await createEval();
    let runId = '';
    const { lines } = await capturingLogLines(async (lines) => {
      const run = await createRun(evalId);
      runId = run.id;
      await pollUntil(
        () => Promise.resolve(endedLines(lines, run.id).length),
        (n) => n > 0,
      );
      const row = await testEnv.DB.prepare('SELECT tenant FROM eval_runs WHERE id = ?').bind(run.id).first<{
        tenant: string;
      }>();
      // The run's message delivered again, after the run ended: nothing to do, nothing logged.
      expect(await processRun(testEnv, row?.tenant ?? '', run.id)).toEqual({ kind: 'ended' });
      // A cancel of the ended run changes nothing either.
      expect((await client.evals.runs.cancel(run.id, { eval_id: evalId })).status).toBe('completed');
    });
    const ended = endedLines(lines, runId);
    expect(ended).toEqual([
      expect.objectContaining({
        level: 'info',
        runId,
        evalId,
        status: 'completed',
        total: 3,
        passed: 2,
        failed: 1,
        errored: 0,
        durationMs: expect.any(Number) as number,
      }),
    ]);
    expect(JSON.stringify(ended)).not.toContain(SECRET_WORD);
  });

  it('is logged once by a cancel, however often it is repeated', async () => {
    const evalId = await createEval();
    let runId = '';
    const { lines } = await capturingLogLines(async (lines) => {
      const run = await createRun(evalId);
      runId = run.id;
      // The first cancel may come after its worker completed it: either way the run ended once.
      const [first, second] = await Promise.all([
        client.evals.runs.cancel(run.id, { eval_id: evalId }),
        client.evals.runs.cancel(run.id, { eval_id: evalId }),
      ]);
      expect(first.status).toBe(second.status);
      await client.evals.runs.cancel(run.id, { eval_id: evalId });
      await pollUntil(
        () => Promise.resolve(endedLines(lines, run.id).length),
        (n) => n > 0,
      );
      // Its message, delivered after the cancel, finds it ended.
      const row = await testEnv.DB.prepare('SELECT tenant, status FROM eval_runs WHERE id = ?')
        .bind(run.id)
        .first<{ tenant: string; status: string }>();
      expect(await processRun(testEnv, row?.tenant ?? '', run.id)).toEqual({ kind: 'ended' });
      expect(endedLines(lines, run.id)).toEqual([expect.objectContaining({ status: row?.status })]);
    });
    expect(endedLines(lines, runId)).toHaveLength(1);
  });
  it('is not ended by its worker once deleted while in progress: the end is refused, so the worker logs nothing', async () => {
    const evalId = await createEval();
    const run = await createRun(evalId);
    await pollUntil(
      () => testEnv.DB.prepare('SELECT status FROM eval_runs WHERE id = ?').bind(run.id).first<{ status: string }>(),
      (r) => r?.status === 'completed',
    );
    // As a delete leaves a run its worker is still grading: in progress, marked deleted.
    await testEnv.DB.prepare(`UPDATE eval_runs SET status = 'in_progress', deleted_at = ? WHERE id = ?`)
      .bind(Date.now(), run.id)
      .run();
    // The worker's end: false, so `processRun` does not log `evals.run_ended` for it.
    expect(await endRun(testEnv.DB, run.id, 'completed', null, Date.now())).toBe(false);
    const row = await testEnv.DB.prepare('SELECT status FROM eval_runs WHERE id = ?').bind(run.id).first<{
      status: string;
    }>();
    expect(row?.status).toBe('in_progress');
  });
});
