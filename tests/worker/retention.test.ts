/**
 * Retention (src/retention/sweep.ts): an ended evaluation's content is erased `retentionDays` after it
 * ended (the tenant's, set through the admin API, else RETENTION_DAYS) as DELETE erases it, usage kept;
 * in bounded pages; old webhook events go with their deliveries and attempts, pending ones stay. Time is
 * the `now` the sweep is given and the rows' own timestamps, never a sleep.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { sweepRetention, TENANTS_PER_RUN } from '../../src/retention/sweep.js';
import { countRows, drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';
import { asAdmin, newTenant } from './tenants-helpers.js';
import { endedEvaluation } from './webhooks-helpers.js';

afterEach(drainAlarms);

const DAY = 86_400_000;

/** Moves evaluation `id`'s end `days` days into the past. */
async function endedDaysAgo(id: string, days: number, now: number): Promise<void> {
  await testEnv.DB.prepare('UPDATE evaluations SET finished_at = ? WHERE id = ?')
    .bind(now - days * DAY, id)
    .run();
}

async function rowOf(id: string): Promise<{ task: string; deleted_at: number | null; metadata: string | null }> {
  const row = await testEnv.DB.prepare('SELECT task, deleted_at, metadata FROM evaluations WHERE id = ?')
    .bind(id)
    .first<{ task: string; deleted_at: number | null; metadata: string | null }>();
  if (!row) throw new Error(`no row ${id}`);
  return row;
}

const erased = async (id: string) => (await rowOf(id)).deleted_at !== null;

describe('evaluations past their retention', () => {
  it('a run evaluation 31 days after its end: task, transcript and verdict erased as DELETE does, usage kept', async () => {
    const now = Date.now();
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: 'ret-default' });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const usage = await countRows('usage', id);
    expect(usage).toBeGreaterThan(0);
    expect(await countRows('transcripts', id)).toBeGreaterThan(0);
    const recent = await endedEvaluation('ret-default');
    await endedDaysAgo(id, 31, now);
    await endedDaysAgo(recent, 29, now);

    const report = await sweepRetention(testEnv, now);
    expect(report).toMatchObject({ erased: 1, errors: 0 });
    expect(await rowOf(id)).toMatchObject({ task: 'null', metadata: null });
    expect(await erased(id)).toBe(true);
    expect(await countRows('transcripts', id)).toBe(0);
    expect(await countRows('verdicts', id)).toBe(0);
    expect(await countRows('usage', id)).toBe(usage);
    // Read back, it is gone, as after DELETE.
    expect((await asAdmin(`/v1/evaluations/${id}`)).status).toBeGreaterThanOrEqual(400);
    // 29 days: kept. A second run has nothing left to do.
    expect(await erased(recent)).toBe(false);
    expect((await sweepRetention(testEnv, now)).erased).toBe(0);
  });

  it("a tenant's retentionDays (admin API) replaces the default; 0 keeps until deleted", async () => {
    const now = Date.now();
    const short = await newTenant({ retentionDays: 1 });
    const forever = await newTenant({ retentionDays: 0 });
    const shown = await (
      await asAdmin(`/v1/admin/tenants/${short}`)
    ).json<{
      limits: { retentionDays: number | null; storeContent: boolean | null };
      effectiveLimits: { retentionDays: number; storeContent: boolean };
    }>();
    expect(shown.limits).toMatchObject({ retentionDays: 1, storeContent: null });
    expect(shown.effectiveLimits).toMatchObject({ retentionDays: 1, storeContent: true });
    const a = await endedEvaluation(short);
    const b = await endedEvaluation(forever);
    const c = await endedEvaluation('ret-other');
    for (const id of [a, b, c]) await endedDaysAgo(id, 2, now);
    await sweepRetention(testEnv, now);
    expect([await erased(a), await erased(b), await erased(c)]).toEqual([true, false, false]);
    // Changed back to the default (null) through PATCH: 2 days is within 30.
    const patched = await asAdmin(`/v1/admin/tenants/${forever}`, {
      method: 'PATCH',
      body: { limits: { retentionDays: null } },
    });
    expect(patched.status).toBe(200);
    expect((await patched.json<{ effectiveLimits: { retentionDays: number } }>()).effectiveLimits.retentionDays).toBe(
      30,
    );
    await endedDaysAgo(b, 31, now);
    await sweepRetention(testEnv, now);
    expect(await erased(b)).toBe(true);
  });

  it('bounded: RETENTION_PAGE evaluations per tenant per run, TENANTS_PER_RUN tenants, the most overdue first', async () => {
    const now = Date.now();
    const env = { ...testEnv, RETENTION_PAGE: '2' } as Bindings;
    const tenants = Array.from({ length: TENANTS_PER_RUN + 1 }, (_, i) => `ret-page-${i}`);
    const ids: Record<string, string[]> = {};
    for (const [i, t] of tenants.entries()) {
      ids[t] = [await endedEvaluation(t), await endedEvaluation(t), await endedEvaluation(t)];
      // The last tenant is the least overdue.
      for (const id of ids[t]) await endedDaysAgo(id, 100 - i, now);
    }
    const first = await sweepRetention(env, now);
    expect(first.erased).toBe(TENANTS_PER_RUN * 2);
    const erasedOf = async (t: string) => (await Promise.all(ids[t]!.map(erased))).filter(Boolean).length;
    expect(await Promise.all(tenants.map(erasedOf))).toEqual([...tenants.slice(0, -1).map(() => 2), 0]);
    // The next runs finish the older tenants' pages, then the last tenant gets its turn.
    await sweepRetention(env, now);
    expect(await Promise.all(tenants.map(erasedOf))).toEqual([...tenants.slice(0, -1).map(() => 3), 0]);
    await sweepRetention(env, now);
    await sweepRetention(env, now);
    expect(await Promise.all(tenants.map(erasedOf))).toEqual(tenants.map(() => 3));
  });
});

describe('webhook events past WEBHOOK_RETENTION_DAYS', () => {
  it('deleted with their deliveries and attempts; a pending delivery keeps its event', async () => {
    const now = Date.now();
    const insert = async (id: string, createdAt: number, status: 'delivered' | 'pending') => {
      await testEnv.DB.batch([
        testEnv.DB.prepare(
          `INSERT INTO webhook_events (id, tenant, type, subject_id, cause_id, payload, created_at)
           VALUES (?, 'ret-hooks', 'evaluation.succeeded', ?, ?, '{}', ?)`,
        ).bind(id, `ev_${id}`, `ev_${id}`, createdAt),
        testEnv.DB.prepare(
          `INSERT INTO webhook_deliveries (id, event_id, tenant, target, url, status, attempts, window_ends_at, created_at, updated_at)
           VALUES (?, ?, 'ret-hooks', 'once', 'https://hooks.example.com/x', ?, 1, ?, ?, ?)`,
        ).bind(`dlv_${id}`, id, status, createdAt + DAY, createdAt, createdAt),
        testEnv.DB.prepare(
          `INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms, response_excerpt)
           VALUES (?, 1, ?, 200, NULL, 5, '')`,
        ).bind(`dlv_${id}`, createdAt),
      ]);
    };
    await insert('msg_old', now - 31 * DAY, 'delivered');
    await insert('msg_old_pending', now - 31 * DAY, 'pending');
    await insert('msg_new', now - 29 * DAY, 'delivered');
    const report = await sweepRetention(testEnv, now);
    expect(report.webhookEvents).toBe(1);
    const left = await testEnv.DB.prepare(`SELECT id FROM webhook_events WHERE tenant = 'ret-hooks' ORDER BY id`).all<{
      id: string;
    }>();
    expect(left.results.map((r) => r.id)).toEqual(['msg_new', 'msg_old_pending']);
    const orphans = await testEnv.DB.prepare(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE id = 'dlv_msg_old') AS d,
              (SELECT count(*) FROM webhook_attempts WHERE delivery_id = 'dlv_msg_old') AS a`,
    ).first<{ d: number; a: number }>();
    expect(orphans).toEqual({ d: 0, a: 0 });
    // WEBHOOK_RETENTION_DAYS 0 keeps everything.
    expect((await sweepRetention({ ...testEnv, WEBHOOK_RETENTION_DAYS: '0' }, now + 100 * DAY)).webhookEvents).toBe(0);
  });
});
