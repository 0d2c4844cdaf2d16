/**
 * Samples in one request (OpenAI's `n`) through the Durable Object: G-Eval's 20 samples are one stored result,
 * one mock request, one usage row and 20 transcript rows (one per choice, further choices with zero usage);
 * a repeated alarm or start sends nothing; a provider that ignores `n` is completed by separate calls.
 */
import { runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluationStub } from '../../src/pipeline/stub.js';
import { listTranscript } from '../../src/store/evaluations.js';
import { countRows, drainAlarms, insertJob, mockRequests, pendingAlarm, POINTWISE, runInTestObject, storedVerdict, testEnv, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

/** G-Eval's read (`gpt4_eval.py` parse_output): the leading number, else 0. */
const gevalScore = (text: string): number => {
  const m = /^ ?([\d.]+)/.exec(text);
  const n = m?.[1] === undefined ? NaN : Number(m[1]);
  return Number.isFinite(n) ? n : 0;
};

/** Runs the evaluation in its object with `LLM_SUPPORTS_N` set, one alarm by hand, to its end. */
async function runWithN(id: string, supportsN: 'true' | 'false'): Promise<void> {
  await runInTestObject(id, async (o, state) => {
    o.useBindings({ LLM_SUPPORTS_N: supportsN });
    await o.start(id);
    await state.storage.deleteAlarm();
    await o.alarm();
  });
  const row = await waitForEnd(id);
  expect(row.status, row.error_message ?? '').toBe('succeeded');
}

/** Stored results in the object's own SQLite: (call id, number of choices). */
async function storedResults(id: string): Promise<[string, number][]> {
  return runInTestObject(id, (_o, state) =>
    state.storage.sql
      .exec<{ call_id: string; result: string }>('SELECT call_id, result FROM results ORDER BY seq')
      .toArray()
      .map((r) => [r.call_id, (JSON.parse(r.result) as { choices?: string[] }).choices?.length ?? 1]),
  );
}

describe('samples in one request with n, through the Durable Object', () => {
  it('G-Eval at a provider with n: one request stored once, one usage row, a transcript row per choice; nothing repeats', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'geval-summeval', task: POINTWISE });
    expect(callsPlanned).toBe(20);
    await runWithN(id, 'true');

    expect(await mockRequests(id)).toBe(1);
    expect(await storedResults(id)).toEqual([['sample0', 20]]);
    const verdict = (await storedVerdict(id))!;
    expect(verdict.calls).toBe(1);
    expect(await countRows('usage', id)).toBe(1);
    expect(await statusCallsDone(id)).toBe(1);

    // One transcript row per choice, each under its sample's id; only the request's own row carries usage.
    const rows = await listTranscript(testEnv.DB, id);
    expect(rows.map((r) => r.callId)).toEqual(Array.from({ length: 20 }, (_, i) => `sample${i}`));
    expect(rows[0]?.usage.promptTokens).toBeGreaterThan(0);
    expect(rows[0]?.usage).toMatchObject({ promptTokens: verdict.usage.promptTokens, completionTokens: verdict.usage.completionTokens });
    expect(rows.slice(1).every((r) => r.usage.promptTokens === 0 && r.usage.completionTokens === 0)).toBe(true);
    // The score is the mean of the 20 choices as G-Eval reads them.
    expect(verdict.score).toBeCloseTo(rows.reduce((s, r) => s + gevalScore(r.content), 0) / 20);

    // Nothing more happens: no alarm; a fired alarm and a second start send no request.
    expect(await pendingAlarm(id)).toBeNull();
    expect(await runDurableObjectAlarm(evaluationStub(testEnv, id))).toBe(false);
    await runInTestObject(id, (o) => o.alarm());
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('succeeded');
    expect(await mockRequests(id)).toBe(1);
    expect(await countRows('usage', id)).toBe(1);
    expect(await countRows('transcripts', id)).toBe(20);
  });

  it('a provider that ignores n: the one choice is completed by 19 separate calls, each stored, billed and counted', async () => {
    const { id } = await insertJob({ preset: 'geval-summeval', task: POINTWISE, mock: { n: 'ignore' } });
    await runWithN(id, 'true');
    expect(await mockRequests(id)).toBe(20);
    const stored = await storedResults(id);
    expect(stored).toHaveLength(20);
    expect(stored.every(([, choices]) => choices === 1)).toBe(true);
    expect((await storedVerdict(id))!.calls).toBe(20);
    expect(await countRows('usage', id)).toBe(20);
    expect(await countRows('transcripts', id)).toBe(20);
  });

  it('FairEval MEC + BPC at a provider with n: one request per order', async () => {
    const { id } = await insertJob({ preset: 'faireval-mec-bpc', task: { kind: 'pairwise', question: 'Q?', answerA: 'A.', answerB: 'B.' } });
    await runWithN(id, 'true');
    expect(await mockRequests(id)).toBe(2);
    expect(await storedResults(id)).toEqual(
      expect.arrayContaining([
        ['ab/sample0', 3],
        ['ba/sample0', 3],
      ]),
    );
    expect(await countRows('transcripts', id)).toBe(6);
    expect((await storedVerdict(id))!.votes).toHaveLength(6);
  });
});

/** `calls_done` in D1. */
async function statusCallsDone(id: string): Promise<number | undefined> {
  const row = await testEnv.DB.prepare('SELECT calls_done FROM evaluations WHERE id = ?').bind(id).first<{ calls_done: number }>();
  return row?.calls_done;
}
