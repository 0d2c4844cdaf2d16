/**
 * The per-tenant cap on evaluations running at once: beyond it work waits in the queue (the consumer puts
 * the message back with a delay instead of retrying it into the dead-letter queue), the API's fast start
 * and the sweeper respect it, every end path frees the slot in the ending's own status update, and
 * admission is idempotent per evaluation.
 */
import { WAIT_MS } from '../support/patience.js';
import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { admit, runningCount } from '../../src/evaluations/admission.js';
import { handleJobs } from '../../queues/jobs.js';
import { sweep } from '../../queues/sweeper.js';
import {
  drainAlarms,
  insertJob,
  newTestId,
  PAIRWISE,
  replyInGroups,
  statusRow,
  testEnv,
  waitForEnd,
} from './helpers.js';
import { asAdmin, newTenant, submitOk, tenantWithKey } from './tenants-helpers.js';
import { markEnded } from '../../src/ending-plan.js';

afterEach(drainAlarms);

/** The tenant's rows: how many hold a slot, and how many D1 shows running. */
async function counts(tenant: string): Promise<{ slots: number; running: number }> {
  const row = await testEnv.DB.prepare(
    `SELECT SUM(slot_at IS NOT NULL AND status IN ('queued', 'running')) AS slots, SUM(status = 'running') AS running FROM evaluations WHERE tenant = ?`,
  )
    .bind(tenant)
    .first<{ slots: number | null; running: number | null }>();
  return { slots: row?.slots ?? 0, running: row?.running ?? 0 };
}

describe('the running cap', () => {
  it('queues rather than refuses: 3 evaluations under a cap of 1 are all accepted, run one at a time, and all succeed', async () => {
    const { tenant, key } = await tenantWithKey({ maxRunning: 1 });
    const model = mockModel({ latency: 300, seed: `cap-${Date.now()}` });
    const ids = [await submitOk(key, model), await submitOk(key, model), await submitOk(key, model)];
    let most = { slots: 0, running: 0 };
    const ended = new Set<string>();
    await vi.waitFor(
      async () => {
        const c = await counts(tenant);
        most = { slots: Math.max(most.slots, c.slots), running: Math.max(most.running, c.running) };
        for (const id of ids) if ((await statusRow(id))?.status === 'succeeded') ended.add(id);
        if (ended.size < ids.length) throw new Error(`${ended.size} of ${ids.length} ended`);
      },
      { timeout: WAIT_MS, interval: 20 },
    );
    expect(most).toEqual({ slots: 1, running: 1 });
    // Waiting is not failing: nothing was dead-lettered, and every evaluation holds the verdict.
    for (const id of ids) expect((await statusRow(id))?.error_code).toBeNull();
  });

  it('the consumer puts a message back with a delay (acked, not retried toward the dead-letter queue) while the tenant is at its cap', async () => {
    const tenant = await newTenant({ maxRunning: 1 });
    const a = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant, mock: { latency: 5_000 } });
    const b = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    expect(await admit(testEnv.DB, a.id, 100, Date.now())).toBe('admitted');
    const sent: { body: unknown; options: unknown }[] = [];
    const jobs = {
      send: (body: unknown, options: unknown) => {
        sent.push({ body, options });
        return Promise.resolve();
      },
    } as unknown as Queue;
    const batch = createMessageBatch('tribunal-jobs', [
      { id: 'msg-b', timestamp: Date.now(), attempts: 7, body: { id: b.id, waits: 3 } },
    ]);
    const ctx = createExecutionContext();
    await handleJobs(batch, { ...testEnv, JOBS: jobs });
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(['msg-b']);
    expect(result.retryMessages).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toEqual({ id: b.id, waits: 4 });
    const delay = (sent[0]?.options as { delaySeconds: number }).delaySeconds;
    expect(delay).toBeGreaterThanOrEqual(12);
    expect(delay).toBeLessThanOrEqual(20);
    expect(await evaluationStub(testEnv, b.id).snapshot()).toBeNull();
    expect((await statusRow(b.id))?.status).toBe('queued');
    await markEnded(testEnv.DB, a.id, 'cancelled', { code: 'cancelled', message: 'test' }, Date.now());
  });

  it("the API's fast start respects the cap: the second evaluation waits for the first one's slot", async () => {
    const { tenant, key } = await tenantWithKey({ maxRunning: 1 });
    // The mock holds the first one's replies until the checks below are done: it is still running then.
    const seed = newTestId('fast');
    await replyInGroups(seed, Infinity);
    const slow = await submitOk(key, mockModel({ seed }));
    const next = await submitOk(key, mockModel({ seed: `fast-next-${Date.now()}` }));
    // The fast start ran (keyed() waits for it): the first runs, the second did not start.
    expect(await evaluationStub(testEnv, slow).snapshot()).not.toBeNull();
    expect(await evaluationStub(testEnv, next).snapshot()).toBeNull();
    expect(await runningCount(testEnv.DB, tenant)).toBe(1);
    await replyInGroups(seed, 1);
    await waitForEnd(slow);
    expect((await waitForEnd(next)).status).toBe('succeeded');
  });

  it('an ending hands its slot to the oldest waiting evaluation in its own final write and starts it (no queue message needed)', async () => {
    const tenant = await newTenant({ maxRunning: 1 });
    const a = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant, mock: { latency: 300 } });
    const b = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    expect(await admit(testEnv.DB, a.id, 100, Date.now())).toBe('admitted');
    expect(await admit(testEnv.DB, b.id, 100, Date.now())).toBe('waiting');
    // b has no queue message and no object: only a's ending can start it.
    await evaluationStub(testEnv, a.id).start(a.id);
    expect((await waitForEnd(a.id)).status).toBe('succeeded');
    expect((await waitForEnd(b.id)).status).toBe('succeeded');
    expect(await runningCount(testEnv.DB, tenant)).toBe(0);
  });

  it('every end path frees the slot in its own status update; admission is idempotent per evaluation', async () => {
    const tenant = await newTenant({ maxRunning: 1 });
    const jobs = await Promise.all(
      [0, 1, 2].map(() => insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant, mock: { latency: 5_000 } })),
    );
    const [a, b, c] = jobs.map((j) => j.id) as [string, string, string];
    const now = Date.now();
    expect(await admit(testEnv.DB, a, 100, now)).toBe('admitted');
    expect(await admit(testEnv.DB, a, 100, now)).toBe('admitted');
    expect(await admit(testEnv.DB, b, 100, now)).toBe('waiting');
    // D1-only end (the dead-letter fallback): the slot goes with the status change.
    await markEnded(testEnv.DB, a, 'failed', { code: 'queue_delivery_failed', message: 'test' }, now);
    expect(await admit(testEnv.DB, a, 100, now)).toBe('ended');
    expect(await admit(testEnv.DB, b, 100, now)).toBe('admitted');
    expect(await admit(testEnv.DB, c, 100, now)).toBe('waiting');
    // A cancel through the object.
    await evaluationStub(testEnv, b).start(b);
    expect((await evaluationStub(testEnv, b).cancel(b)).status).toBe('cancelled');
    expect(await admit(testEnv.DB, c, 100, now)).toBe('admitted');
    expect(await admit(testEnv.DB, 'ev_nope', 100, now)).toBe('not_found');
    await markEnded(testEnv.DB, c, 'cancelled', null, now);
  });

  it('evaluations at tier batch are neither held by the cap nor count against it (they sleep between waves)', async () => {
    const tenant = await newTenant({ maxRunning: 1 });
    const tiers = ['batch', 'batch', 'standard', 'standard'] as const;
    const ids = await Promise.all(
      tiers.map(async (tier) => (await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant, tier })).id),
    );
    const now = Date.now();
    const admitted: string[] = [];
    for (const id of ids) admitted.push(await admit(testEnv.DB, id, 100, now));
    expect(admitted).toEqual(['admitted', 'admitted', 'admitted', 'waiting']);
    for (const id of ids) await markEnded(testEnv.DB, id, 'cancelled', null, now);
  });

  it("an ending starts the tenant's oldest waiting evaluation at once (no queue message needed), one per freed slot", async () => {
    const tenant = await newTenant({ maxRunning: 1 });
    // Rows only: nothing is in the queue for them, so only the wake-up can start b.
    const a = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    const b = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    const c = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant, mock: { latency: 5_000 } });
    expect(await admit(testEnv.DB, a.id, 100, Date.now())).toBe('admitted');
    await evaluationStub(testEnv, a.id).start(a.id);
    expect((await waitForEnd(a.id)).status).toBe('succeeded');
    // b (the oldest waiting) ran to its end, and its end started c.
    expect((await waitForEnd(b.id)).status).toBe('succeeded');
    await expect.poll(async () => (await evaluationStub(testEnv, c.id).snapshot())?.status).toBe('running');
    expect(await runningCount(testEnv.DB, tenant)).toBe(1);
    await evaluationStub(testEnv, c.id).cancel(c.id);
  });

  it("the sweeper does not start a stalled queued evaluation past its tenant's cap, and moves it out of its window", async () => {
    const tenant = await newTenant({ maxRunning: 1 });
    const a = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant, mock: { latency: 5_000 } });
    const b = await insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant });
    expect(await admit(testEnv.DB, a.id, 100, Date.now())).toBe('admitted');
    await testEnv.DB.prepare('UPDATE evaluations SET updated_at = 0 WHERE id = ?').bind(b.id).run();
    const report = await sweep(testEnv);
    expect(report.kicked).not.toContain(b.id);
    expect(await evaluationStub(testEnv, b.id).snapshot()).toBeNull();
    expect((await statusRow(b.id))?.updated_at).toBeGreaterThan(0);
    await markEnded(testEnv.DB, a.id, 'cancelled', null, Date.now());
    await markEnded(testEnv.DB, b.id, 'cancelled', null, Date.now());
  });

  it("the cap is the tenant's own, else TENANT_MAX_RUNNING; a changed cap applies from the next admission", async () => {
    const tenant = await newTenant();
    const jobs = await Promise.all(
      [0, 1, 2].map(() => insertJob({ preset: 'chateval-single', task: PAIRWISE, tenant })),
    );
    const now = Date.now();
    expect(await admit(testEnv.DB, jobs[0]!.id, 2, now)).toBe('admitted');
    expect(await admit(testEnv.DB, jobs[1]!.id, 2, now)).toBe('admitted');
    expect(await admit(testEnv.DB, jobs[2]!.id, 2, now)).toBe('waiting');
    await asAdmin(`/v1/admin/tenants/${tenant}`, { method: 'PATCH', body: { limits: { maxRunning: 3 } } });
    expect(await admit(testEnv.DB, jobs[2]!.id, 2, now)).toBe('admitted');
    for (const j of jobs) await markEnded(testEnv.DB, j.id, 'cancelled', null, now);
  });
});
