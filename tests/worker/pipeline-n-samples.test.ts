/**
 * Samples in one request (OpenAI's `n`) through the Durable Object. At a provider not declared `supportsN`
 * (the default) G-Eval's 20 samples are 20 calls all ready in the first launch round, as before `n`. At one
 * declared `supportsN` they are one stored result, one mock request, one usage row and 20 transcript rows
 * (one per choice, further choices with zero usage); a repeated alarm or start sends nothing; a provider
 * that ignores `n` despite the declaration is completed by separate calls, one round later.
 */
import { runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PARALLEL_CALLS } from '../../src/config/platform-limits.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import {
  countRows,
  drainAlarms,
  insertJob,
  mockRequests,
  pendingAlarm,
  POINTWISE,
  runInTestObject,
  storedVerdict,
  testEnv,
  waitForEnd,
  storedTranscript,
} from './helpers.js';

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

/**
 * Runs the evaluation with `LLM_SUPPORTS_N` set, one launch round per alarm invocation (`STEP_BUDGET_MS` 0:
 * the calls ready when the alarm starts, at most {@link MAX_PARALLEL_CALLS}, and none a result makes ready),
 * until no alarm is left. Returns the mock requests each round sent.
 */
async function requestsPerRound(id: string, supportsN: 'true' | 'false'): Promise<number[]> {
  const rounds: number[] = [];
  await runInTestObject(id, async (o, state) => {
    o.useBindings({ LLM_SUPPORTS_N: supportsN, STEP_BUDGET_MS: '0' });
    await o.start(id);
    await state.storage.deleteAlarm();
    for (let sent = 0; rounds.length < 10;) {
      await o.alarm();
      // Taken back before any outside fetch, so the platform cannot fire it behind the test's back.
      const next = await state.storage.getAlarm();
      await state.storage.deleteAlarm();
      const now = await mockRequests(id);
      rounds.push(now - sent);
      sent = now;
      if (next === null) break;
    }
  });
  const row = await waitForEnd(id);
  expect(row.status, row.error_message ?? '').toBe('succeeded');
  return rounds;
}

/** Requests per round when `calls` calls are all ready at once: full rounds of MAX_PARALLEL_CALLS, then the rest. */
const roundsOf = (calls: number): number[] =>
  Array.from({ length: Math.ceil(calls / MAX_PARALLEL_CALLS) }, (_, i) =>
    Math.min(MAX_PARALLEL_CALLS, calls - i * MAX_PARALLEL_CALLS),
  );

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
  it('G-Eval at a provider not declared supportsN (the default): 20 separate calls, all ready in the first round', async () => {
    const { id } = await insertJob({ preset: 'geval-summeval', task: POINTWISE });
    // 6, 6, 6, 2: every sample was ready at once. Grouping them for a provider without n sent one request
    // first and the other 19 only after its one choice came back: 1, 6, 6, 6, 1.
    expect(await requestsPerRound(id, 'false')).toEqual(roundsOf(20));
    const stored = await storedResults(id);
    expect(stored.map(([callId]) => callId).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `sample${i}`).sort());
    expect(stored.every(([, choices]) => choices === 1)).toBe(true);
    expect((await storedVerdict(id))!.calls).toBe(20);
    expect(await countRows('usage', id)).toBe(20);
    expect(await mockRequests(id)).toBe(20);
  });

  it('G-Eval at a provider declared supportsN: one round of one request', async () => {
    const { id } = await insertJob({ preset: 'geval-summeval', task: POINTWISE });
    expect(await requestsPerRound(id, 'true')).toEqual([1]);
    expect(await storedResults(id)).toEqual([['sample0', 20]]);
  });

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
    const rows = await storedTranscript(id);
    expect(rows.map((r) => r.callId)).toEqual(Array.from({ length: 20 }, (_, i) => `sample${i}`));
    expect(rows[0]?.usage.promptTokens).toBeGreaterThan(0);
    expect(rows[0]?.usage).toMatchObject({
      promptTokens: verdict.usage.promptTokens,
      completionTokens: verdict.usage.completionTokens,
    });
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

  it('a provider declared supportsN that ignores n: the one choice is completed by 19 separate calls, each stored, billed and counted', async () => {
    const { id } = await insertJob({ preset: 'geval-summeval', task: POINTWISE, mock: { n: 'ignore' } });
    // The 19 missing samples become ready only once the short result is in: one round more than without n.
    expect(await requestsPerRound(id, 'true')).toEqual([1, ...roundsOf(19)]);
    expect(await mockRequests(id)).toBe(20);
    const stored = await storedResults(id);
    expect(stored).toHaveLength(20);
    expect(stored.every(([, choices]) => choices === 1)).toBe(true);
    expect((await storedVerdict(id))!.calls).toBe(20);
    expect(await countRows('usage', id)).toBe(20);
    expect(await countRows('transcripts', id)).toBe(20);
  });

  it('FairEval MEC + BPC at a provider with n: one request per order', async () => {
    const { id } = await insertJob({
      preset: 'faireval-mec-bpc',
      task: { kind: 'pairwise', question: 'Q?', answerA: 'A.', answerB: 'B.' },
    });
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
  const row = await testEnv.DB.prepare('SELECT calls_done FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{ calls_done: number }>();
  return row?.calls_done;
}
