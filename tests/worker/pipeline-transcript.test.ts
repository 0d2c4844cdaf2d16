/**
 * Failed and cancelled evaluations keep what was said: the final write stores a transcript
 * row for every successful call, whoever ended the evaluation, and `GET /v1/evaluations/:id/transcript`
 * shows each message with its usage, matching the billed `usage` rows.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { api } from './api-fetch.js';
import {
  countRows,
  drainAlarms,
  heldReplies,
  insertJob,
  LONG_DEBATE,
  mockRequests,
  PAIRWISE,
  expectNoAlarmLeft,
  pollUntil,
  POINTWISE,
  releaseReplies,
  replyInGroups,
  statusRow,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
} from './helpers.js';

afterEach(drainAlarms);

/** The transcript as the API serves it (the fields asserted here). */
interface TranscriptJson {
  status: string;
  complete: boolean;
  messages: {
    seq: number;
    callId: string;
    content: string;
    parseError: string | null;
    usage: { promptTokens: number; completionTokens: number };
  }[];
}

async function transcriptOf(id: string): Promise<TranscriptJson> {
  const r = await api(`/v1/evaluations/${id}/transcript`);
  expect(r.status).toBe(200);
  return r.json<TranscriptJson>();
}

/** Prompt + completion tokens the evaluation's final write booked in D1 (src/tenants/usage-rollup.ts). */
async function bookedTokens(id: string): Promise<number> {
  const r = await testEnv.DB.prepare('SELECT prompt_tokens + completion_tokens AS n FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{ n: number }>();
  return r?.n ?? 0;
}

describe('transcript of evaluations that did not succeed', () => {
  it('failed: the messages said before the failure, each with the usage that was billed', async () => {
    const id = `ev_tfail_${Date.now()}`;
    const critic = { model: mockModel({ seed: id, permanent: 401 }) };
    await insertJob({
      id,
      tenant: 'default',
      ...LONG_DEBATE,
      config: { ...LONG_DEBATE.config, critic },
      task: POINTWISE,
    });
    await testEnv.JOBS.send({ id });
    const row = await waitForEnd(id);
    expect(row.error_code).toBe('auth');
    const t = await transcriptOf(id);
    expect(t).toMatchObject({ status: 'failed', complete: true });
    // The scorer's first reply; the failed critic call said nothing and is not billed.
    expect(t.messages.map((m) => [m.seq, m.callId])).toEqual([[0, 'score0']]);
    expect(t.messages[0]?.content.length).toBeGreaterThan(0);
    expect(await countRows('usage', id)).toBe(1);
    const booked = await bookedTokens(id);
    expect(t.messages[0]!.usage.promptTokens + t.messages[0]!.usage.completionTokens).toBe(booked);
    expect(booked).toBeGreaterThan(0);
  });

  it('cancelled mid-debate: every stored reply, the one in flight at the cancel included', async () => {
    const ns = `tcancel-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({
      tenant: 'default',
      ...LONG_DEBATE,
      task: POINTWISE,
      mock: { mode: 'scripted', ns, latency: 80 },
    });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    // The third call reached the mock (a call still waiting for its provider slot at the cancel is not sent).
    await pollUntil(
      () => mockRequests(id),
      (n) => n >= 3,
      WAIT_MS,
    );
    expect((await stub.cancel(id)).status).toBe('cancelled');
    // The final write follows once the call in flight is stored.
    const snap = await waitForSnapshot(id, (s) => s?.status === 'cancelled' && s.callsDone >= 3);
    const done = snap?.callsDone ?? 0;
    await pollUntil(
      () => countRows('transcripts', id),
      (n) => n === done,
      WAIT_MS,
    );
    await expectNoAlarmLeft(id);
    const t = await transcriptOf(id);
    expect(t).toMatchObject({ status: 'cancelled', complete: true });
    expect(t.messages.map((m) => m.callId)).toEqual(
      ['score0', 'critic1', 'score1', 'critic2', 'score2', 'critic3', 'score3'].slice(0, done),
    );
    expect(t.messages.map((m) => m.seq)).toEqual([...Array(done).keys()]);
    const said = t.messages.reduce((n, m) => n + m.usage.promptTokens + m.usage.completionTokens, 0);
    expect(said).toBeGreaterThan(0);
    expect(said).toBe(await bookedTokens(id));
    expect(await countRows('usage', id)).toBe(done);
    // Every view counts the calls it bills, though the cancel ended the row before the final write: GET and
    // D1's `calls_done` (the terminal's ended line reads it), as the stream's final status does.
    await waitForSnapshot(id, (s) => s?.finalized === true);
    type Seen = { progress: { callsDone: number }; usage: { calls: number } | null };
    const got = await (await api(`/v1/evaluations/${id}`)).json<Seen>();
    expect({ progress: got.progress.callsDone, usage: got.usage?.calls }).toEqual({ progress: done, usage: done });
    expect((await statusRow(id))?.calls_done).toBe(done);
  });

  it('is not complete while a call of a cancelled evaluation is still in flight, then is', async () => {
    // The mock holds the first call's reply until the test sends it: the cancel lands while the call is out,
    // with nothing stored yet.
    const { id } = await insertJob({ tenant: 'default', ...LONG_DEBATE, task: POINTWISE });
    await replyInGroups(id, Infinity);
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    await pollUntil(
      () => heldReplies(id),
      (n) => n === 1,
      WAIT_MS,
    );
    expect((await stub.cancel(id)).status).toBe('cancelled');
    expect(await transcriptOf(id)).toMatchObject({ status: 'cancelled', complete: false, messages: [] });
    expect(await releaseReplies(id)).toBe(1);
    // Once the call in flight is stored, the final write lands: its reply is kept, and billed.
    await waitForSnapshot(id, (s) => s?.finalized === true);
    const t = await transcriptOf(id);
    expect(t).toMatchObject({ status: 'cancelled', complete: true });
    expect(t.messages.map((m) => m.callId)).toEqual(['score0']);
    expect(await countRows('usage', id)).toBe(1);
  });

  it('replies that did not parse keep their parse errors, each followed by its repair', async () => {
    // Every distinct prompt (a repair's too) gets one reply in no known format: all repairs fail as well.
    const { id } = await insertJob({
      tenant: 'default',
      preset: 'fastchat-pair',
      task: PAIRWISE,
      mock: { fail: [['wrong-format', 1]] },
    });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const t = await transcriptOf(id);
    const first = t.messages.filter((m) => !m.callId.includes('#'));
    expect(first.length).toBeGreaterThan(0);
    for (const m of t.messages) expect(m.parseError, m.callId).toMatch(/no final verdict/);
    for (const m of first) {
      const repair = t.messages.find((r) => r.callId === `${m.callId}#1`);
      expect(repair!.seq, `${m.callId}#1`).toBeGreaterThan(m.seq);
    }
    // parseRetries 3 (the default): a first attempt and three repairs per call, all billed.
    expect(t.messages).toHaveLength(4 * first.length);
    expect(await countRows('usage', id)).toBe(t.messages.length);
  });
});

describe('transcripts stored before the object kept them', () => {
  it("an evaluation ended with D1 `transcripts` rows (the old layout) is served from them, each with its call's usage", async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'default' });
    const now = Date.now();
    await testEnv.DB.batch([
      testEnv.DB.prepare(
        // Its usage as migrations/0019_usage_rollup.sql carried it over (tests/worker/store-carry-over.test.ts).
        `UPDATE evaluations SET status = 'succeeded', calls_done = 2, started_at = ?, finished_at = ?, updated_at = ?,
           billed_calls = 2, prompt_tokens = 201, completion_tokens = 14 WHERE id = ?`,
      ).bind(now, now, now, id),
      ...['ab', 'ba'].map((callId, seq) =>
        testEnv.DB.prepare(
          `INSERT INTO transcripts (evaluation_id, seq, call_id, agent, label, stage, model, content, parse_error)
           VALUES (?, ?, ?, 'judge', 'Judge', 'judge', 'gpt-4o-mini', ?, NULL)`,
        ).bind(id, seq, callId, `old reply ${callId} [[A]]`),
      ),
      ...['ab', 'ba'].map((callId, i) =>
        testEnv.DB.prepare(
          `INSERT INTO usage (evaluation_id, call_id, tenant, model, prompt_tokens, completion_tokens, cost_usd, created_at)
           VALUES (?, ?, 'default', 'gpt-4o-mini', ?, 7, 0.001, ?)`,
        ).bind(id, callId, 100 + i, now),
      ),
    ]);
    // The object never ran it: the transcript and its usage come from D1 alone.
    expect(await evaluationStub(testEnv, id).transcript()).toBeNull();
    const t = await transcriptOf(id);
    expect(t.complete).toBe(true);
    expect(t.messages.map((m) => [m.seq, m.callId, m.content, m.usage.promptTokens])).toEqual([
      [0, 'ab', 'old reply ab [[A]]', 100],
      [1, 'ba', 'old reply ba [[A]]', 101],
    ]);
    const e = await (await api(`/v1/evaluations/${id}`)).json<{ usage: { calls: number; promptTokens: number } }>();
    expect(e.usage).toMatchObject({ calls: 2, promptTokens: 201 });
  });
});
