/**
 * `GET /v1/evaluations/{id}` reads the row, its verdict and its usage sums in ONE D1 statement
 * (src/evaluations/archived.ts `findEvaluationWithResults`): a client polling its running evaluations pays
 * it on every poll, and each statement costs the runtime a round of its own. The old read took two (the row,
 * then its usage sums) and three once the evaluation succeeded (its verdict too). A later poll of an evaluation
 * its object still runs reads no D1 at all (src/evaluations/poll.ts); the end shows on the next poll.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { api, apiWith } from './api-fetch.js';
import {
  drainAlarms,
  heldReplies,
  insertJob,
  PAIRWISE,
  pollUntil,
  recordingDb,
  releaseReplies,
  replyInGroups,
  testEnv,
  waitForEnd,
} from './helpers.js';

afterEach(drainAlarms);

/** The tenant of requests without a key. */
const TENANT = 'default';

/** The GET's body and the D1 statements it prepared. */
async function get(id: string): Promise<{ body: Record<string, unknown>; statements: string[] }> {
  const { db, statements } = recordingDb();
  const r = await apiWith({ DB: db }, `/v1/evaluations/${id}`);
  expect(r.status).toBe(200);
  return { body: await r.json(), statements };
}

/**
 * An evaluation its object runs, every call's reply held by the mock until the test releases it
 * (`releaseReplies`), so it stays running for as long as the test needs.
 */
async function runningHeld(): Promise<{ id: string; callsPlanned: number }> {
  const { id, callsPlanned } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: TENANT });
  await replyInGroups(id, Infinity);
  await testEnv.JOBS.send({ id });
  await pollUntil(
    () => heldReplies(id),
    (n) => n >= callsPlanned,
  );
  return { id, callsPlanned };
}

describe('GET /v1/evaluations/{id}', () => {
  it('reads a running evaluation in one D1 statement', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: TENANT });
    await testEnv.DB.prepare("UPDATE evaluations SET status = 'running', started_at = ? WHERE id = ?")
      .bind(Date.now(), id)
      .run();
    const { body, statements } = await get(id);
    expect(body).toMatchObject({ id, status: 'running', progress: { callsDone: 0, callsPlanned }, verdict: null });
    expect(statements).toHaveLength(1);
  });

  it('reads a succeeded evaluation, its verdict and usage included, in one D1 statement', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: TENANT });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const { body, statements } = await get(id);
    expect(body).toMatchObject({ id, status: 'succeeded' });
    expect((body.verdict as { winner: unknown } | null)?.winner).toBeTypeOf('string');
    expect((body.usage as { calls: number }).calls).toBeGreaterThan(0);
    expect(statements).toHaveLength(1);
  });

  it('answers a later poll of an evaluation its object runs from the object alone, and shows its end at once', async () => {
    const { id, callsPlanned } = await runningHeld();
    const first = await get(id);
    expect(first.body).toMatchObject({
      id,
      status: 'running',
      progress: { callsDone: 0, callsPlanned },
      verdict: null,
    });
    expect(first.statements).toHaveLength(1);
    const later = await get(id);
    expect(later.body).toEqual(first.body);
    expect(later.statements).toHaveLength(0);
    // Before the calls' timeout, so no attempt is repeated: the held replies go (every planned call is out), and
    // later ones are not held.
    expect(await releaseReplies(id)).toBe(callsPlanned);
    await replyInGroups(id, 1);
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const ended = await get(id);
    expect(ended.body).toMatchObject({ id, status: 'succeeded', progress: { callsDone: callsPlanned } });
    expect((ended.body.verdict as { winner: unknown } | null)?.winner).toBeTypeOf('string');
    expect(ended.statements).toHaveLength(1);
  });

  it.each(['cancel', 'delete'] as const)(
    'shows a %s made after a poll kept the running row: the next poll reads D1 and answers as it does',
    async (end) => {
      const { id } = await runningHeld();
      expect((await get(id)).body).toMatchObject({ status: 'running' });
      // The second poll is answered from the kept row: it is what the end must get past.
      expect((await get(id)).statements).toHaveLength(0);
      if (end === 'cancel') {
        expect((await api(`/v1/evaluations/${id}/cancel`, { method: 'POST' })).status).toBe(200);
        const after = await get(id);
        expect(after.body).toMatchObject({ id, status: 'cancelled', verdict: null });
        expect(after.statements.length).toBeGreaterThan(0);
      } else {
        expect((await api(`/v1/evaluations/${id}`, { method: 'DELETE' })).status).toBe(204);
        expect((await api(`/v1/evaluations/${id}`)).status).toBe(404);
      }
      await releaseReplies(id);
    },
  );
});
