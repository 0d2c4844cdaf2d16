/**
 * The archive (src/retention/archive.ts, src/archive/store.ts): an ended evaluation older than
 * `ARCHIVE_AFTER_DAYS` moves from D1 into the R2 bucket `ARCHIVE` (Miniflare's R2 here); `GET` of it, its task
 * and its transcript answer as before the move; `DELETE` erases it there; its retention's end erases it from
 * the archive. Time is the `now` the sweep is given and the rows' own timestamps, never a sleep.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { archiveKey, putArchived } from '../../src/archive/store.js';
import { eraseEvaluations } from '../../src/evaluations/list.js';
import {
  ARCHIVE_ERASE_PAGE,
  ARCHIVE_ERASE_PAGES,
  ARCHIVE_PAGE,
  moveQueries,
  moveToArchive,
  sweepArchive,
} from '../../src/retention/archive.js';
import { erasuresPerRun, retentionQueries } from '../../src/retention/sweep.js';
import { COMPARISONS_LIMIT, SWEEP_LIMIT as KICKS, TOP_UP_LIMIT } from '../../queues/sweeper.js';
import { SWEEP_LIMIT } from '../../src/webhooks/dispatch.js';
import { configOf } from '../../src/config/vars.js';
import { CRON } from '../../bench/scale-layouts.js';
import { api } from './api-fetch.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv, waitForEnd } from './helpers.js';

afterEach(drainAlarms);

const DAY = 86_400_000;
/** The tenant of requests without a key. */
const TENANT = 'default';

/** An evaluation of {@link TENANT} run to its verdict, then made to have ended `days` days before `now`. */
async function endedDaysAgo(days: number, now: number): Promise<string> {
  const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant: TENANT });
  await testEnv.JOBS.send({ id });
  expect((await waitForEnd(id)).status).toBe('succeeded');
  await testEnv.DB.prepare('UPDATE evaluations SET finished_at = ? WHERE id = ?')
    .bind(now - days * DAY, id)
    .run();
  return id;
}

async function inD1(id: string): Promise<boolean> {
  return (await testEnv.DB.prepare('SELECT 1 AS one FROM evaluations WHERE id = ?').bind(id).first()) !== null;
}

/** The three reads a move must not change. */
async function reads(id: string): Promise<{ status: number; body: unknown }[]> {
  return Promise.all(
    [`/v1/evaluations/${id}`, `/v1/evaluations/${id}/task`, `/v1/evaluations/${id}/transcript`].map(async (p) => {
      const r = await api(p);
      return { status: r.status, body: await r.json() };
    }),
  );
}

describe('the archive', () => {
  it('moves an evaluation past ARCHIVE_AFTER_DAYS from D1 to R2; GET, its task and transcript read the same', async () => {
    const now = Date.now();
    const old = await endedDaysAgo(8, now);
    const recent = await endedDaysAgo(6, now);
    const before = await reads(old);
    expect(before.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((before[2]?.body as { messages: unknown[] }).messages.length).toBeGreaterThan(0);

    const report = await sweepArchive(testEnv, now);
    expect(report).toMatchObject({ moved: 1, errors: 0 });
    expect(await inD1(old)).toBe(false);
    expect(await inD1(recent)).toBe(true);
    expect(await testEnv.ARCHIVE.head(archiveKey(TENANT, old))).not.toBeNull();
    expect(await reads(old)).toEqual(before);
    // The listing shows what D1 holds.
    const listed = await (await api('/v1/evaluations?limit=100')).json<{ data: { id: string }[] }>();
    expect(listed.data.map((e) => e.id)).toContain(recent);
    expect(listed.data.map((e) => e.id)).not.toContain(old);
    // A second run has nothing left to move.
    expect((await sweepArchive(testEnv, now)).moved).toBe(0);
    expect(ARCHIVE_PAGE).toBeGreaterThan(1);
  });

  it('DELETE erases an archived evaluation (a repeat answers 204 too); its retention erases it from R2', async () => {
    const now = Date.now();
    const deleted = await endedDaysAgo(10, now);
    const kept = await endedDaysAgo(10, now);
    expect((await sweepArchive(testEnv, now)).moved).toBe(2);

    for (let i = 0; i < 2; i++)
      expect((await api(`/v1/evaluations/${deleted}`, { method: 'DELETE' })).status).toBe(204);
    expect((await reads(deleted)).map((r) => r.status)).toEqual([404, 404, 404]);
    const stored = await (await testEnv.ARCHIVE.get(archiveKey(TENANT, deleted)))?.json<Record<string, unknown>>();
    expect(stored).toMatchObject({ evaluation: null, task: null, transcript: null });
    expect(JSON.stringify(stored)).not.toContain('capital of France');

    // RETENTION_DAYS (30) after its end: read as erased at once, and the run of that day erases both objects.
    expect((await api(`/v1/evaluations/${kept}`)).status).toBe(200);
    const later = now + 21 * DAY;
    const report = await sweepArchive(testEnv, later);
    expect(report.erased).toBe(2);
    expect(await testEnv.ARCHIVE.head(archiveKey(TENANT, kept))).toBeNull();
    expect(await testEnv.ARCHIVE.head(archiveKey(TENANT, deleted))).toBeNull();
    const markers = (await testEnv.ARCHIVE.list({ prefix: 'erase/' })).objects.map((o) => o.key);
    expect(markers.filter((k) => k.endsWith(`/${kept}`) || k.endsWith(`/${deleted}`))).toEqual([]);
    expect((await api(`/v1/evaluations/${kept}`)).status).toBe(404);
  });

  it('a move under way: once its D1 copy is gone it reads as the archived copy; a DELETE meanwhile erases that copy too', async () => {
    const now = Date.now();
    const moving = await endedDaysAgo(1, now);
    const deleted = await endedDaysAgo(1, now);
    const before = await reads(moving);
    // A move's steps: the copy put, then the D1 copy erased with its row (the other one's not yet).
    for (const id of [moving, deleted]) {
      const [evaluation, task, transcript] = (await reads(id)).map((r) => r.body);
      await putArchived(testEnv, {
        v: 1,
        id,
        tenant: TENANT,
        finishedAt: now - DAY,
        archivedAt: now,
        eraseAt: now + 29 * DAY,
        evaluation,
        task,
        transcript,
      });
    }
    expect((await eraseEvaluations(testEnv, testEnv.DB, [{ tenant: TENANT, id: moving }], 'move')).erased).toHaveLength(
      1,
    );
    expect(await reads(moving)).toEqual(before);
    // A user's DELETE of the other before its move ends: no copy keeps its content.
    expect((await api(`/v1/evaluations/${deleted}`, { method: 'DELETE' })).status).toBe(204);
    expect((await reads(deleted)).map((r) => r.status)).toEqual([404, 404, 404]);
    const stored = await (await testEnv.ARCHIVE.get(archiveKey(TENANT, deleted)))?.json<Record<string, unknown>>();
    expect(stored).toMatchObject({ evaluation: null, task: null, transcript: null });
  });

  it('a chunk whose re-check fails after one of its puts failed counts each evaluation once; the next run moves both', async () => {
    const now = Date.now();
    const failing = await endedDaysAgo(8, now);
    const other = await endedDaysAgo(8, now);
    const bucket = testEnv.ARCHIVE;
    const archive = new Proxy(bucket, {
      get(target, key) {
        if (key === 'put')
          return (name: string, ...rest: Parameters<R2Bucket['put']> extends [string, ...infer R] ? R : never) =>
            name.includes(failing) ? Promise.reject(new Error('R2 is down')) : bucket.put(name, ...rest);
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const db = new Proxy(testEnv.DB, {
      get(target, key) {
        if (key === 'prepare')
          return (sql: string) => {
            if (sql.startsWith('SELECT id FROM evaluations WHERE deleted_at IS NULL AND id IN'))
              throw new Error('D1 is down');
            return target.prepare(sql);
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    // Two evaluations, one chunk: one put fails, then the re-check throws.
    expect(await moveToArchive({ ...testEnv, ARCHIVE: archive }, db, now)).toEqual({ moved: 0, errors: 2, erased: 0 });
    expect([await inD1(failing), await inD1(other)]).toEqual([true, true]);
    expect(await moveToArchive(testEnv, testEnv.DB, now)).toEqual({ moved: 2, errors: 0, erased: 0 });
  });

  it('ARCHIVE_AFTER_DAYS 0 moves nothing', async () => {
    const now = Date.now();
    const id = await endedDaysAgo(400, now);
    expect((await sweepArchive({ ...testEnv, ARCHIVE_AFTER_DAYS: '0' }, now)).moved).toBe(0);
    expect(await inD1(id)).toBe(true);
  });

  it("the scale model (bench/scale-limits.ts, Node-typed, so it keeps copies) counts a shard run's own pages", () => {
    expect(CRON.archiveMoves).toBe(ARCHIVE_PAGE);
    expect(CRON.moveQueries).toBe(moveQueries());
    expect(CRON.archiveErasures).toBe(ARCHIVE_ERASE_PAGE * ARCHIVE_ERASE_PAGES);
    const page = configOf(testEnv).RETENTION_PAGE;
    // The run's budget as the sweep computes it (the cap included), not the tenants' pages' product alone.
    expect(CRON.retentionErasures).toBe(erasuresPerRun(page));
    expect(CRON.retentionQueries).toBe(retentionQueries(page));
    expect(CRON.deliveries).toBe(SWEEP_LIMIT);
    expect([CRON.kicks, CRON.topUps, CRON.comparisons]).toEqual([KICKS, TOP_UP_LIMIT, COMPARISONS_LIMIT]);
  });
});
