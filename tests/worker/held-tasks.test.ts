/**
 * A batch's tasks are held by their evaluations' objects from creation (src/evaluations/task-holds.ts,
 * durable-objects/evaluation/held-task.ts): D1 never stores them, the items start and are read as before, a
 * DELETE of a queued item erases its held task, and a hold whose row never came is dropped by its alarm.
 */
import { runDurableObjectAlarm } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { HELD_CHECK_MS } from '../../durable-objects/evaluation/held-task.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { api, apiWith } from './api-fetch.js';
import { items, singleCallJudge } from './batches-support.js';
import { insertJob, newTestId, pendingAlarm, PAIRWISE, testEnv, waitForEnd } from './helpers.js';

/** The jobs queue held: the batch's window is sent nowhere, so its items stay queued until a test starts one. */
const HELD_QUEUE = {
  JOBS: { send: () => Promise.resolve(), sendBatch: () => Promise.resolve() } as unknown as Queue,
} satisfies Partial<Bindings>;

/** Creates a batch of `n` items whose items nobody starts; returns their evaluation ids in item order. */
async function queuedBatch(seed: string, n: number): Promise<string[]> {
  const r = await apiWith(HELD_QUEUE, '/v1/batches', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ...singleCallJudge(seed), items: items(n) }),
  });
  const { id } = await r.json<{ id: string }>();
  expect(r.status).toBe(202);
  const { results } = await testEnv.DB.prepare('SELECT id FROM evaluations WHERE batch_id = ? ORDER BY batch_seq')
    .bind(id)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** How many waiting copies of the tasks of `ids` D1 keeps. */
async function d1Copies(ids: readonly string[]): Promise<number> {
  const row = await testEnv.DB.prepare(
    `SELECT count(*) AS n FROM evaluation_tasks WHERE evaluation_id IN (${ids.map(() => '?').join(', ')})`,
  )
    .bind(...ids)
    .first<{ n: number }>();
  return row?.n ?? -1;
}

describe('tasks held by their objects from the batch’s creation', () => {
  it('D1 never stores them; GET …/task reads the object; the item starts with it and ends as before', async () => {
    const ids = await queuedBatch('held-start', 3);
    expect(ids).toHaveLength(3);
    expect(await d1Copies(ids)).toBe(0);
    const tasks = items(3).map((i) => i.task);
    for (const [i, id] of ids.entries()) {
      expect((await evaluationStub(testEnv, id).content()).task).toBe(JSON.stringify(tasks[i]));
      const r = await api(`/v1/evaluations/${id}/task`);
      expect(r.status).toBe(200);
      expect((await r.json<{ task: unknown }>()).task).toEqual(tasks[i]);
    }
    const first = ids[0] ?? '';
    await evaluationStub(testEnv, first).start(first);
    const row = await waitForEnd(first);
    expect(row.status, row.error_message ?? '').toBe('succeeded');
    expect((await evaluationStub(testEnv, first).content()).task).toBe(JSON.stringify(tasks[0]));
    expect((await (await api(`/v1/evaluations/${first}`)).json<{ taskKind: string }>()).taskKind).toBe('pairwise');
  });

  it('a DELETE of a queued item erases the task its object held', async () => {
    const [id = ''] = await queuedBatch('held-delete', 1);
    expect((await evaluationStub(testEnv, id).content()).task).not.toBeNull();
    expect((await api(`/v1/evaluations/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await evaluationStub(testEnv, id).content()).task).toBeNull();
    expect((await api(`/v1/evaluations/${id}/task`)).status).toBe(404);
  });

  it('a hold whose row never came is dropped by its alarm; one whose row exists is kept', async () => {
    const orphan = newTestId('ev_orphan');
    const stub = evaluationStub(testEnv, orphan);
    await stub.hold(orphan, JSON.stringify(PAIRWISE));
    expect((await stub.content()).task).toBe(JSON.stringify(PAIRWISE));
    const armed = await pendingAlarm(orphan);
    expect(armed).not.toBeNull();
    expect(armed! - Date.now()).toBeGreaterThan(HELD_CHECK_MS - 60_000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await stub.content()).task).toBeNull();

    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant: 'default' });
    const task = JSON.stringify({ ...PAIRWISE, question: 'Held beside its row?' });
    const kept = evaluationStub(testEnv, id);
    await kept.hold(id, task);
    expect(await runDurableObjectAlarm(kept)).toBe(true);
    expect((await kept.content()).task).toBe(task);
  });
});
