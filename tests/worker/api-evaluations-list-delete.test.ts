/**
 * `DELETE /v1/evaluations/{id}` (data retention): task, metadata, transcript and verdict are erased in D1
 * and in the Durable Object's storage, the usage rows billing needs are kept, a running evaluation is
 * cancelled first (the usage of its call in flight still lands, its transcript does not), a deleted
 * evaluation reads as 404, and deleting again is harmless.
 */
import { WAIT_MS } from '../support/patience.js';
import { runInDurableObject } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import type { BatchResultLine } from '../../src/batches/schemas.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import {
  countRows,
  drainAlarms,
  mockRequests,
  pendingAlarm,
  pollUntil,
  statusRow,
  testEnv,
  waitForEnd,
  waitForSnapshot,
} from './helpers.js';
import { configureSink, deliveriesOf, endpointOf, sinkUrl } from './webhooks-helpers.js';
import {
  createBatchId,
  getBatch,
  items,
  pairItem,
  resultsPage,
  singleCallJudge,
  waitForBatch,
} from './batches-support.js';

afterEach(drainAlarms);

const del = (id: string) => api(`/v1/evaluations/${id}`, { method: 'DELETE' });

/** What the object's storage still holds. */
function objectStorage(id: string): Promise<{
  evaluation: number;
  results: number;
  ended: { status: string; error: string | null } | null;
  text: string;
}> {
  return runInDurableObject(evaluationStub(testEnv, id), (_o, state) => {
    const sql = state.storage.sql;
    // A table the object has not made yet (`ended` is made when first written) holds no row.
    const has = (table: string) =>
      sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table).toArray().length > 0;
    const rows = (table: string) => (has(table) ? sql.exec(`SELECT * FROM ${table}`).toArray() : []);
    return {
      evaluation: rows('evaluation').length,
      results: rows('results').length,
      ended: (rows('ended')[0] as { status: string; error: string | null } | undefined) ?? null,
      // Everything left in the object's tables, to search for the task's words.
      text: JSON.stringify(['evaluation', 'results', 'ended'].map(rows)),
    };
  });
}

async function d1Row(id: string) {
  return testEnv.DB.prepare('SELECT status, task, metadata, deleted_at FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{ status: string; task: string; metadata: string | null; deleted_at: number | null }>();
}

describe('DELETE /v1/evaluations/{id}', () => {
  it('erases task, metadata, transcript and verdict in D1 and the object; keeps usage; then reads as 404; idempotent', async () => {
    const task = { ...pairItem(1), question: 'A secret question about zebras?' };
    const r = await postJson('/v1/evaluations', {
      ...singleCallJudge('delete-done'),
      task,
      metadata: { customer: 'acme' },
    });
    const { id } = await r.json<{ id: string }>();
    await waitForEnd(id);
    expect(await countRows('transcripts', id)).toBe(1);
    expect((await objectStorage(id)).text).toContain('zebras');

    const res = await del(id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await d1Row(id)).toMatchObject({ status: 'succeeded', task: 'null', metadata: null });
    expect((await d1Row(id))?.deleted_at).not.toBeNull();
    expect(await countRows('transcripts', id)).toBe(0);
    expect(await countRows('verdicts', id)).toBe(0);
    expect(await countRows('usage', id)).toBe(1);
    const stored = await objectStorage(id);
    expect(stored).toMatchObject({ evaluation: 0, results: 0, ended: { status: 'succeeded', error: null } });
    expect(stored.text).not.toContain('zebras');

    for (const path of ['', '/transcript', '/task', '/events']) {
      const read = await api(`/v1/evaluations/${id}${path}`);
      expect(read.status, path).toBe(404);
      expect((await read.json<ErrorJson>()).error.message).toContain('deleted');
    }
    expect((await api(`/v1/evaluations/${id}/cancel`, { method: 'POST' })).status).toBe(404);
    const listed = await (await api('/v1/evaluations?metadata=customer:acme')).json<{ data: unknown[] }>();
    expect(listed.data).toEqual([]);
    // The object answers as for an evaluation that ended without running there; nothing is armed.
    expect(await evaluationStub(testEnv, id).snapshot()).toMatchObject({ status: 'succeeded', callsDone: 0 });
    expect(await pendingAlarm(id)).toBeNull();

    expect((await del(id)).status).toBe(204);
    expect(await countRows('usage', id)).toBe(1);
  });

  it('a running evaluation is cancelled first: the usage of its call in flight lands, its transcript and verdict do not', async () => {
    const r = await postJson('/v1/evaluations', {
      ...singleCallJudge('delete-running', { latency: 1500 }),
      task: pairItem(2),
    });
    const { id } = await r.json<{ id: string }>();
    await waitForSnapshot(id, (s) => s?.status === 'running');
    await pollUntil(
      () => mockRequests('delete-running'),
      (n) => n === 1,
    );

    expect((await del(id)).status).toBe(204);
    expect((await statusRow(id))?.status).toBe('cancelled');
    // The call returns: billed, not kept as transcript; then the object erases itself.
    await pollUntil(
      () => countRows('usage', id),
      (n) => n === 1,
    );
    await pollUntil(
      () => objectStorage(id),
      (s) => s.evaluation === 0 && s.results === 0,
    );
    expect(await countRows('transcripts', id)).toBe(0);
    expect(await countRows('verdicts', id)).toBe(0);
    expect((await objectStorage(id)).ended?.status).toBe('cancelled');
    expect(await pendingAlarm(id)).toBeNull();
    expect(await mockRequests('delete-running')).toBe(1);
  });

  it('a queued evaluation never starts after its deletion', async () => {
    const r = await apiWith({ FAST_START: 'false' }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...singleCallJudge('delete-queued'), task: pairItem(3) }),
    });
    const { id } = await r.json<{ id: string }>();
    expect((await del(id)).status).toBe(204);
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('cancelled');
    expect(await mockRequests('delete-queued')).toBe(0);
    expect(await pendingAlarm(id)).toBeNull();
  });

  it('an item deleted from a batch shows in its results as deleted; the batch still counts it', async () => {
    const batch = await createBatchId({ ...singleCallJudge('delete-batch'), items: items(2) });
    await waitForBatch(batch);
    const before = await getBatch(batch);
    const { lines } = await resultsPage(batch);
    expect((await del(lines[0]!.evaluationId)).status).toBe(204);
    const after = await resultsPage(batch);
    expect(after.lines[0]).toMatchObject({
      index: 0,
      itemId: 'i0',
      deleted: true,
      metadata: null,
      verdict: null,
      error: null,
    } satisfies Partial<BatchResultLine>);
    expect(after.lines[1]?.deleted).toBe(false);
    const view = await getBatch(batch);
    expect(view.counts).toEqual(before.counts);
    expect(view.usage.calls).toBe(before.usage.calls);
    expect(view.verdicts.verdicts).toBe(1);
  });

  it("erases the evaluation's webhook events, their deliveries and attempts (the payload carries the verdict)", async () => {
    const ep = await endpointOf('default', sinkUrl('delete-events'), ['evaluation.succeeded']);
    await configureSink('delete-events', [ep.secret]);
    const r = await postJson('/v1/evaluations', { ...singleCallJudge('delete-events'), task: pairItem(7) });
    const { id } = await r.json<{ id: string }>();
    await waitForEnd(id);
    // Delivered once (so an attempt row exists too).
    await expect
      .poll(async () => (await deliveriesOf(id)).map((d) => d.status), { timeout: WAIT_MS })
      .toEqual(['delivered']);
    const rowsAbout = async () => {
      const q = (sql: string) => testEnv.DB.prepare(sql).bind(id).first<{ n: number }>();
      return {
        events: (await q('SELECT count(*) AS n FROM webhook_events WHERE subject_id = ?'))?.n,
        deliveries: (
          await q(
            'SELECT count(*) AS n FROM webhook_deliveries WHERE event_id IN (SELECT id FROM webhook_events WHERE subject_id = ?)',
          )
        )?.n,
        attempts: (
          await q(`SELECT count(*) AS n FROM webhook_attempts WHERE delivery_id IN
          (SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.subject_id = ?)`)
        )?.n,
      };
    };
    expect(await rowsAbout()).toEqual({ events: 1, deliveries: 1, attempts: 1 });
    const orphansBefore = await testEnv.DB.prepare('SELECT count(*) AS n FROM webhook_attempts').first<{ n: number }>();
    expect((await del(id)).status).toBe(204);
    expect(await rowsAbout()).toEqual({ events: 0, deliveries: 0, attempts: 0 });
    const orphansAfter = await testEnv.DB.prepare('SELECT count(*) AS n FROM webhook_attempts').first<{ n: number }>();
    expect(orphansAfter!.n).toBe(orphansBefore!.n - 1);
    expect(await countRows('usage', id)).toBe(1);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });

  it("404 for an unknown id and for another tenant's evaluation, which stays untouched", async () => {
    expect((await del('ev_nope')).status).toBe(404);
    const r = await postJson('/v1/evaluations', { ...singleCallJudge('delete-tenant'), task: pairItem(4) });
    const { id } = await r.json<{ id: string }>();
    await waitForEnd(id);
    const token = 'delete-tenant-b';
    const other = await apiWith({ API_KEYS: await sha256Hex(token) }, `/v1/evaluations/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(other.status).toBe(404);
    expect((await d1Row(id))?.deleted_at).toBeNull();
    expect(await countRows('transcripts', id)).toBe(1);
  });
});
