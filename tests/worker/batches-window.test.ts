/**
 * The batch window's handover rides on the ending item's final write: the same D1 transaction that ends an
 * item claims the batch's next item and gives it a running slot under its tenant's cap, so the next object
 * starts with no D1 round trip of its own (src/batches/pump.ts `handOverClaim`).
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import worker from '../../src/index.js';
import type { MockInstance } from 'vitest';
import { claimWindow, claimWindowStatements } from '../../src/batches/window-claims.js';
import { pump, StartMessageSchema } from '../../src/batches/pump.js';
import { chunkDelays, QUEUED_STARTS_PER_SECOND } from '../../src/batches/start-pace.js';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { createBatchId, items, ONE_CALL_VERDICT, singleCallJudge, storedBatch } from './batches-support.js';
import { engineVersionIn, newTestId, pollUntil, runInTestObject, statusRow, testEnv, waitForEnd } from './helpers.js';
import { ENDING } from '../../src/ending-plan.js';
import { writeFinal } from '../../src/evaluations/final-write.js';
import { admitNextStatement, admittedBy, slotCounts } from '../../src/evaluations/admission.js';
import { findStalled } from '../../src/evaluations/job-rows.js';

const db = testEnv.DB;

/** Ends item `id` as the object's final write does, with the window's claim (and admission) in the same batch. */
async function endWithClaim(id: string, tenant: string, defaultMaxRunning: number) {
  const now = Date.now();
  const writeToken = crypto.randomUUID();
  const claim = claimWindowStatements(db, { evaluationId: id }, { defaultMaxRunning, now }, writeToken);
  // The plan without its own steps after the status update: this test's claim is the only one.
  const { extra } = await writeFinal(
    db,
    { ...ENDING, afterStatus: [] },
    {
      id,
      tenant,
      status: 'succeeded',
      verdict: ONE_CALL_VERDICT,
      calls: [],
      callsDone: 0,
      engineVersion: '1/single@1',
      now,
      defaultMaxRunning,
      writeToken,
    },
    claim.statements,
  );
  // The claim's own UPDATE comes first: it writes only when the ending's count did not claim.
  return { ...claim.read(extra), claimUpdated: extra[0]?.meta.changes ?? 0 };
}

const slotOf = async (id: string) =>
  (await db.prepare('SELECT slot_at FROM evaluations WHERE id = ?').bind(id).first<{ slot_at: number | null }>())
    ?.slot_at ?? null;

describe('the batch window', () => {
  it("an ending's own transaction claims the next item with its job and admits it to a running slot", async () => {
    const tenant = newTestId('tn_window');
    const b = await storedBatch(3, { concurrency: 1, tenant });
    const [first, second, third] = b.items as [string, string, string];
    // The API's first claim: one item (window 1).
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual([first]);
    const { claim, admitted, claimUpdated } = await endWithClaim(first, tenant, 100);
    expect(claim).toMatchObject({ batchId: b.id, ids: [second], budgeted: null });
    // The ending's count in its batch row claimed it, in the same write (one row where there were two).
    expect(claimUpdated).toBe(0);
    expect(claim.jobs[0]).toMatchObject({ id: second, method: 'single', batchId: b.id });
    expect(admitted).toBe(second);
    expect(await slotOf(second)).not.toBeNull();
    // The same write marks it running from its slot's instant; its job tells the object not to mark it again.
    expect(claim.jobs[0]?.markedRunning).toBe(true);
    const row = await db
      .prepare('SELECT status, started_at, slot_at FROM evaluations WHERE id = ?')
      .bind(second)
      .first<{ status: string; started_at: number | null; slot_at: number | null }>();
    expect(row).toMatchObject({ status: 'running', started_at: row?.slot_at });
    // The window is full again: repeating the ending claims nothing more.
    expect((await endWithClaim(first, tenant, 100)).claim.ids).toEqual([]);
    expect(await slotOf(third)).toBeNull();
  });

  it("claims in two statements (three with the admission), a budgeted batch's id read with the claimed items", async () => {
    const b = await storedBatch(2, { concurrency: 2, tenant: newTestId('tn_window_reads') });
    // The claim and its read: the batch's budget is read by the same statement as the claimed items.
    expect(claimWindowStatements(db, { batchId: b.id }).statements).toHaveLength(2);
    const admitting = claimWindowStatements(db, { batchId: b.id }, { defaultMaxRunning: 100, now: Date.now() });
    expect(admitting.statements).toHaveLength(3);
    // The ending's count in its batch row books a budget's spend in the same update: one statement of its own
    // fewer (the pending usage's flush, then the count).
    const counts = ENDING.beforeStatus.find((e) => e.name.startsWith('the batch counts the ending'));
    expect(counts?.statements(db, { id: b.items[0] ?? '', status: 'succeeded', error: null, now: 0 })).toHaveLength(2);
    const budgeted = await storedBatch(2, { concurrency: 2, tenant: newTestId('tn_window_budget') });
    await db.prepare(`UPDATE batches SET budget = '{"maxCalls":10}' WHERE id = ?`).bind(budgeted.id).run();
    expect(await claimWindow(db, { batchId: budgeted.id })).toMatchObject({ ids: [], budgeted: budgeted.id });
    expect(await claimWindow(db, { batchId: b.id })).toMatchObject({ ids: b.items, budgeted: null, batchId: b.id });
    // Claimed already: nothing more, and no row read as an item.
    expect(await claimWindow(db, { batchId: b.id })).toMatchObject({
      ids: [],
      jobs: [],
      budgeted: null,
      batchId: null,
    });
  });

  it("at the tenant's running cap the next item is claimed but not admitted: it waits for a slot like any other", async () => {
    const tenant = newTestId('tn_window_cap');
    const b = await storedBatch(2, { concurrency: 1, tenant });
    const [first, second] = b.items as [string, string];
    await claimWindow(db, { batchId: b.id });
    // A cap of 0 running: nothing fits.
    const { claim, admitted } = await endWithClaim(first, tenant, 0);
    expect(claim.ids).toEqual([second]);
    expect(admitted).toBeNull();
    expect(await slotOf(second)).toBeNull();
    expect(claim.jobs[0]?.markedRunning).toBeUndefined();
    expect((await statusRow(second))?.status).toBe('queued');
  });

  it("an ending's admission reads the waiting rows, never the items a large batch has not handed over", async () => {
    const tenant = newTestId('tn_window_large');
    const b = await storedBatch(500, { concurrency: 1, tenant });
    // Handed over without a slot (a claim without admission): the one item waiting for a slot.
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual([b.items[0]]);
    expect(await slotCounts(db, tenant)).toEqual({ running: 0, waiting: 1 });
    expect(admittedBy(await admitNextStatement(db, tenant, 100, Date.now()).run())).toBe(b.items[0]);
    expect(await slotCounts(db, tenant)).toEqual({ running: 1, waiting: 0 });
    // Nothing waits now, as at most endings of a batch (its claim admitted the next item already). Every
    // ending asks all the same: its cost must not grow with the 499 items behind the window, which it
    // read one by one to skip them before they had an index of their own.
    const none = await admitNextStatement(db, tenant, 100, Date.now()).run();
    expect(admittedBy(none)).toBeNull();
    expect(none.meta.rows_read).toBeLessThan(20);
  });

  it('the sweeper finds a handed-over item waiting for a slot, and never reads the items a large batch has not handed over', async () => {
    const tenant = newTestId('tn_window_sweep');
    const b = await storedBatch(500, { concurrency: 1, tenant });
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual([b.items[0]]);
    // Every item is older than the cutoff: the first is stalled (handed over, never started), the rest wait.
    const batches = vi.spyOn(db, 'batch');
    const stalled = await findStalled(db, Date.now() + 60_000, 100);
    const results = (await Promise.all(batches.mock.results.map((r) => r.value as Promise<D1Result[]>))).flat();
    batches.mockRestore();
    expect(stalled.filter((id) => b.items.includes(id))).toEqual([b.items[0]]);
    // Each minute's sweep of each shard once read all 499 to skip them.
    expect(results.reduce((n, r) => n + r.meta.rows_read, 0)).toBeLessThan(50);
  });

  it('through the objects: an ending object starts the next item with no admission round trip of its own', async () => {
    const config = resolveMethodConfig('fastchat-pair', { calibration: { enabled: false } });
    const b = await storedBatch(2, { concurrency: 1, config });
    const [first, second] = b.items as [string, string];
    expect((await claimWindow(db, { batchId: b.id })).ids).toEqual([first]);
    // The tests and the objects share this isolate: the spy set inside the first object outlives the call.
    let prepares: MockInstance<D1Database['prepare']> | undefined;
    await runInTestObject(first, (o) => {
      prepares = vi.spyOn(o.bindings.DB, 'prepare');
    });
    await evaluationStub(testEnv, first).start(first);
    expect((await waitForEnd(first)).status).toBe('succeeded');
    // The first item's final write claimed and admitted the second, whose object it then started.
    expect((await waitForEnd(second)).status).toBe('succeeded');
    const sql = prepares?.mock.calls.map(([text]) => text) ?? [];
    prepares?.mockRestore();
    expect(sql.some((text) => /UPDATE batches SET sent_from = sent/.test(text))).toBe(true);
    // `admit()`'s read (src/evaluations/admission.ts): the old handover's extra round trip after the write.
    expect(sql.filter((text) => /^SELECT slot_at, /.test(text))).toEqual([]);
    // The claim marked the second running, so its object wrote no running mark (its statement never ran).
    expect(sql.filter((text) => /^UPDATE evaluations SET status = 'running', calls_planned/.test(text))).toHaveLength(
      1,
    );
    expect(
      await db
        .prepare('SELECT completed_at IS NOT NULL AS done FROM batches WHERE id = ?')
        .bind(b.id)
        .first<{ done: number }>(),
    ).toEqual({ done: 1 });
  });

  it('through the jobs queue: the consumer marks the item running with its slot, and its object writes no mark', async () => {
    const id = await createBatchId({
      ...singleCallJudge(newTestId('window-queue'), { latency: 400 }),
      items: items(1),
    });
    const running = await pollUntil(
      () =>
        db
          .prepare('SELECT id, status, started_at, slot_at, engine_version FROM evaluations WHERE batch_id = ?')
          .bind(id)
          .first<{ id: string; status: string; started_at: number; slot_at: number; engine_version: string | null }>(),
      (row) => row?.status === 'running',
    );
    // Running from its slot's instant while its call is out; the object's own mark would have written the
    // engine version, which the ending writes instead.
    expect(running).toMatchObject({ started_at: running?.slot_at, engine_version: null });
    expect((await waitForEnd(running?.id ?? '')).status).toBe('succeeded');
    expect(await engineVersionIn(running?.id ?? '')).not.toBeNull();
  });

  it("hands a wide window to the jobs queue at most 400 items a second, so a batch-tier batch's coordinator is not flooded", async () => {
    // A batch-tier batch's window is every item (src/batches/submit.ts): each item's first step registers its
    // calls with the batch's one wave coordinator as it starts.
    const b = await storedBatch(1_000, { concurrency: 1_000, tenant: newTestId('tn_paced') });
    // Each id handed over, with the second it becomes visible to the jobs consumer: at once through the jobs
    // queue, or when the batches-queue message carrying it is delivered (its consumer sends it on then).
    const visibleAt = new Map<string, number>();
    const jobs = {
      sendBatch: (messages: readonly { body: { id: string }; delaySeconds?: number }[]) => {
        for (const m of messages) visibleAt.set(m.body.id, m.delaySeconds ?? 0);
        return Promise.resolve();
      },
    } as unknown as Queue;
    const batches = {
      send: (body: unknown, options?: { delaySeconds?: number }) => {
        const m = StartMessageSchema.parse(body);
        expect(m.batchId).toBe(b.id);
        for (const id of m.ids) visibleAt.set(id, options?.delaySeconds ?? 0);
        return Promise.resolve();
      },
    } as unknown as Queue;
    expect(await pump({ ...testEnv, JOBS: jobs, BATCHES: batches }, { batchId: b.id })).toBe(1_000);
    expect([...visibleAt.keys()].sort()).toEqual([...b.items].sort());
    // Items made visible in each second of the hand-over: never more than the bound, and no second left empty.
    const perSecond = new Map<number, number>();
    for (const at of visibleAt.values()) perSecond.set(at, (perSecond.get(at) ?? 0) + 1);
    expect(Math.max(...perSecond.values())).toBeLessThanOrEqual(QUEUED_STARTS_PER_SECOND);
    expect([...perSecond.keys()].sort()).toEqual([0, 1, 2]);
    // A window within the bound goes at once, as every standard batch's does.
    expect(chunkDelays(4)).toEqual([0, 0, 0, 0]);
    // A delayed chunk, once delivered, goes on to the jobs queue.
    const forwarded: string[] = [];
    const consumerEnv = {
      ...testEnv,
      JOBS: {
        sendBatch: (messages: readonly { body: { id: string } }[]) => {
          forwarded.push(...messages.map((m) => m.body.id));
          return Promise.resolve();
        },
      } as unknown as Queue,
    };
    const chunk = b.items.slice(900);
    const message = createMessageBatch('tribunal-batches', [
      { id: 'p1', timestamp: Date.now(), attempts: 1, body: { op: 'start', batchId: b.id, ids: chunk } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(message, consumerEnv, ctx);
    expect((await getQueueResult(message, ctx)).explicitAcks).toEqual(['p1']);
    expect(forwarded).toEqual(chunk);
  });
});
