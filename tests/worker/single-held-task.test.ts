/**
 * A single evaluation's object holds its task before D1 knows the evaluation (src/evaluations/held-start.ts), so
 * D1 keeps no waiting copy: at the tenant's cap it waits with its task in the object and later starts from it;
 * cancelled or deleted while queued, the object shows or erases it. The crash windows: a job held with no row in
 * D1 is erased by its watchdog alarm; a row committed while the RPC failed goes on to exactly one verdict.
 */
import { listDurableObjectIds, runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import type { HeldAdmission } from '../../src/evaluations/held-types.js';
import { slotOnInsertSql } from '../../src/evaluations/admission.js';
import { heldAdmissionOf } from '../../src/evaluations/held-start.js';
import { configHashOf, configJsonOf } from '../../src/evaluations/config-rows.js';
import { resolveMethodConfig } from '../../src/engine/registry.js';
import type { EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { sweep } from '../../queues/sweeper.js';
import { apiWith } from './api-fetch.js';
import {
  countRows,
  drainAlarms,
  mockRequests,
  newTestId,
  PAIRWISE,
  pendingAlarm,
  replyInGroups,
  runInTestObject,
  statusRow,
  testEnv,
  waitForEnd,
} from './helpers.js';
import { as, keyed, submitOk, tenantWithKey } from './tenants-helpers.js';

afterEach(drainAlarms);

/** D1's waiting copies of evaluation `id`'s task (`evaluation_tasks`). */
async function d1Copies(id: string): Promise<number> {
  const row = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluation_tasks WHERE evaluation_id = ?')
    .bind(id)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** The task evaluation `id`'s object holds, parsed, or null. */
async function objectTask(id: string): Promise<unknown> {
  const { task } = await evaluationStub(testEnv, id).content();
  return task === null ? null : (JSON.parse(task) as unknown);
}

/** The task as `GET /v1/evaluations/:id/task` answers it with `key`. */
async function taskOf(key: string, id: string): Promise<unknown> {
  const r = await keyed(`/v1/evaluations/${id}/task`, as(key));
  expect(r.status).toBe(200);
  return (await r.json<{ task: unknown }>()).task;
}

/** A tenant at its cap of 1: its first evaluation runs (its replies held), so the next one waits. */
async function atCap(): Promise<{ key: string; seed: string; next: string }> {
  const { key } = await tenantWithKey({ maxRunning: 1 });
  const seed = newTestId('held_cap');
  await replyInGroups(seed, Infinity);
  await submitOk(key, mockModel({ seed }));
  const next = await submitOk(key, mockModel({ seed: `${seed}_next` }));
  return { key, seed, next };
}

/** What the API hands the object of a new `chateval-single` evaluation `id` of tenant `test` (./held-start.ts). */
function admission(id: string, slot: boolean): HeldAdmission {
  const config = resolveMethodConfig('chateval-single', { defaults: { model: mockModel({ seed: id }) } });
  const task = JSON.stringify(PAIRWISE);
  return heldAdmissionOf(
    { id, tenant: 'test', method: config.method, config: configJsonOf(config), task, batchId: null },
    {
      ...{ id, tenant: 'test', method: config.method, preset: 'chateval-single', config, task: PAIRWISE },
      ...{ metadata: null, idempotencyKey: null, requestHash: null, metaId: null, callsPlanned: 1, now: Date.now() },
    },
    { slot: slot ? slotOnInsertSql(100) : null, hit: null },
    undefined,
  );
}

/**
 * Calls the object's `admitHeld` for evaluation `id` (directly, as its RPC would) with its next D1 batch broken:
 * `commit` runs the batch first (its answer is lost), else it never runs. Expects the call to fail.
 */
async function admitWithBrokenD1(id: string, commit: boolean): Promise<void> {
  await runInTestObject(id, async (o) => {
    const db = o.bindings.DB;
    const batch = db.batch.bind(db);
    const spy = vi.spyOn(db, 'batch').mockImplementationOnce(async (list) => {
      spy.mockRestore();
      if (commit) await batch(list);
      throw new Error('D1 connection lost');
    });
    await expect(o.admitHeld(id, admission(id, true), 0)).rejects.toThrow('D1 connection lost');
  });
}

describe("a single evaluation's task is held by its object, not copied into D1", () => {
  it('at the cap it waits with its task in the object (none in D1), readable, then starts from it', async () => {
    const { key, seed, next } = await atCap();
    expect((await statusRow(next))?.status).toBe('queued');
    expect(await d1Copies(next)).toBe(0);
    expect(await objectTask(next)).toEqual(PAIRWISE);
    expect(await taskOf(key, next)).toEqual(PAIRWISE);
    await replyInGroups(seed, 1);
    expect((await waitForEnd(next)).status).toBe('succeeded');
    expect(await countRows('verdicts', next)).toBe(1);
    expect(await objectTask(next)).toEqual(PAIRWISE);
    expect(await d1Copies(next)).toBe(0);
  });

  it('cancelled while queued, its task still reads; deleted while queued, the object erases it', async () => {
    const { key, seed, next } = await atCap();
    const cancelled = await keyed(`/v1/evaluations/${next}/cancel`, as(key, { method: 'POST' }));
    expect(cancelled.status).toBe(200);
    expect((await statusRow(next))?.status).toBe('cancelled');
    expect(await taskOf(key, next)).toEqual(PAIRWISE);
    const deleted = await keyed(`/v1/evaluations/${next}`, as(key, { method: 'DELETE' }));
    expect(deleted.status).toBe(204);
    expect(await objectTask(next)).toBeNull();
    expect(await d1Copies(next)).toBe(0);
    await replyInGroups(seed, 1);
  });

  it('an idempotency replay answers the existing row and leaves the new object empty', async () => {
    const { key } = await tenantWithKey({});
    const idempotency = { 'Idempotency-Key': newTestId('held_replay') };
    const post = () =>
      keyed('/v1/evaluations', as(key, { body: { preset: 'chateval-single', task: PAIRWISE }, headers: idempotency }));
    const first = await post();
    expect(first.status).toBe(202);
    const { id } = await first.json<EvaluationAccepted>();
    const before = new Set((await listDurableObjectIds(testEnv.EVALUATION)).map((o) => o.toString()));
    const again = await post();
    expect(again.status).toBe(202);
    expect((await again.json<EvaluationAccepted>()).id).toBe(id);
    for (const o of await listDurableObjectIds(testEnv.EVALUATION)) {
      if (before.has(o.toString())) continue;
      const stub = testEnv.EVALUATION.get(o);
      expect(await stub.content()).toEqual({ task: null, verdict: null });
      expect(await stub.snapshot()).toBeNull();
    }
    await waitForEnd(id);
  });
});

describe("the held fast start's RPC", () => {
  it("carries the task and the config once, as the job's JSON text; the row gets the same config hash, stored config and task kind", async () => {
    const id = newTestId('ev_held_once');
    const a = admission(id, true);
    expect(Object.keys(a.row)).not.toContain('task');
    expect(Object.keys(a.row)).not.toContain('config');
    expect(a.taskKind).toBe('pairwise');
    await runInTestObject(id, async (o) => {
      expect((await o.admitHeld(id, a, 0)).inserted).toBe(true);
    });
    const config = resolveMethodConfig('chateval-single', { defaults: { model: mockModel({ seed: id }) } });
    const row = await testEnv.DB.prepare(
      'SELECT e.config_hash AS hash, e.task_kind AS kind, c.config FROM evaluations e JOIN method_configs c ON c.hash = e.config_hash WHERE e.id = ?',
    )
      .bind(id)
      .first<{ hash: string; kind: string; config: string }>();
    expect(row).toEqual({ hash: configHashOf(config), kind: 'pairwise', config: configJsonOf(config) });
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });
});

describe("the held fast start's RPC across a deploy", () => {
  it("an API from before the kind was sent (the row whole, no taskKind): the row's task kind comes from the job's task", async () => {
    const id = newTestId('ev_held_older_api');
    const { taskKind: _kind, row, ...rest } = admission(id, true);
    const config = resolveMethodConfig('chateval-single', { defaults: { model: mockModel({ seed: id }) } });
    // What the API sent before: the row with its task and config, and no taskKind.
    const older = { ...rest, row: { ...row, task: PAIRWISE, config } } as HeldAdmission;
    await runInTestObject(id, async (o) => {
      expect((await o.admitHeld(id, older, 0)).inserted).toBe(true);
    });
    const kind = await testEnv.DB.prepare('SELECT task_kind AS kind FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ kind: string | null }>();
    expect(kind).toEqual({ kind: 'pairwise' });
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });
});

describe('the crash windows of a held job', () => {
  it('held but D1 never got the row (the insert failed): the watchdog alarm erases the object', async () => {
    const id = newTestId('ev_held_lost');
    await admitWithBrokenD1(id, false);
    expect(await statusRow(id)).toBeNull();
    expect(await objectTask(id)).toEqual(PAIRWISE);
    expect(await pendingAlarm(id)).not.toBeNull();
    expect(await runDurableObjectAlarm(evaluationStub(testEnv, id))).toBe(true);
    expect(await objectTask(id)).toBeNull();
    expect(await evaluationStub(testEnv, id).snapshot()).toBeNull();
    expect(await pendingAlarm(id)).toBeNull();
  });

  it("a repeat's insert begins while the watchdog reads D1: the watchdog re-arms, the task and its row stay", async () => {
    const id = newTestId('ev_held_repeat');
    await admitWithBrokenD1(id, false);
    await runInTestObject(id, async (o) => {
      const db = o.bindings.DB;
      const prepare = db.prepare.bind(db);
      const batch = db.batch.bind(db);
      let release = (): void => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const repeats: Promise<unknown>[] = [];
      // The repeat's insert waits for the gate, so the watchdog's read answers (no row) while it is in flight.
      const holdInsert = vi.spyOn(db, 'batch').mockImplementationOnce(async (list) => {
        holdInsert.mockRestore();
        await gate;
        return batch(list);
      });
      const spy = vi.spyOn(db, 'prepare').mockImplementation((sql) => {
        const statement = prepare(sql);
        if (!sql.startsWith('SELECT status, slot_at IS NOT NULL AS slot')) return statement;
        spy.mockRestore();
        const bind = statement.bind.bind(statement);
        vi.spyOn(statement, 'bind').mockImplementationOnce((...values) => {
          const bound = bind(...values);
          vi.spyOn(bound, 'first').mockImplementationOnce(async () => {
            repeats.push(o.admitHeld(id, admission(id, false), 0));
            return bound.first();
          });
          return bound;
        });
        return statement;
      });
      await o.alarm();
      release();
      expect(await Promise.all(repeats)).toEqual([{ inserted: true, admitted: null }]);
    });
    expect((await statusRow(id))?.status).toBe('queued');
    expect(await objectTask(id)).toEqual(PAIRWISE);
    expect(await pendingAlarm(id)).not.toBeNull();
    await evaluationStub(testEnv, id).start(id);
    expect((await waitForEnd(id)).status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
  });

  it('D1 committed the row but the RPC failed before the start: the watchdog alarm starts it, one verdict', async () => {
    const id = newTestId('ev_held_alarm');
    await admitWithBrokenD1(id, true);
    expect((await statusRow(id))?.status).toBe('running');
    expect(await d1Copies(id)).toBe(0);
    expect(await runDurableObjectAlarm(evaluationStub(testEnv, id))).toBe(true);
    const ended = await waitForEnd(id);
    expect(ended.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    // No call was made twice.
    expect(await mockRequests(id)).toBe(ended.calls_done);
    expect(await objectTask(id)).toEqual(PAIRWISE);
  });

  it('a held row left queued (the API gone before its queue message): the sweeper starts it, one verdict', async () => {
    const id = newTestId('ev_held_sweep');
    const out = await evaluationStub(testEnv, id).admitHeld(id, admission(id, false), 0);
    expect(out).toEqual({ inserted: true, admitted: null });
    const report = await sweep(testEnv, Date.now() + 1);
    expect(report.kicked).toContain(id);
    const ended = await waitForEnd(id);
    expect(ended.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    // No call was made twice.
    expect(await mockRequests(id)).toBe(ended.calls_done);
    expect(await d1Copies(id)).toBe(0);
  });

  it("the API's RPC fails after the object's insert and start: 202, the queue's start is a no-op, one verdict", async () => {
    const real = testEnv.EVALUATION;
    const lostAnswer = {
      idFromName: (name: string) => real.idFromName(name),
      get: (oid: DurableObjectId) =>
        new Proxy(real.get(oid), {
          get: (target, prop, receiver) =>
            prop === 'admitHeld'
              ? async (...args: Parameters<typeof target.admitHeld>) => {
                  await target.admitHeld(...args);
                  throw new Error('the connection was lost');
                }
              : (Reflect.get(target, prop, receiver) as unknown),
        }),
    } as unknown as typeof real;
    const sent: unknown[] = [];
    const jobs = { send: (m: unknown) => Promise.resolve(void sent.push(m)) } as unknown as Queue;
    const seed = newTestId('held_lost_answer');
    const r = await apiWith({ EVALUATION: lostAnswer, JOBS: jobs }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        preset: 'chateval-single',
        config: { defaults: { model: mockModel({ seed }) } },
        task: PAIRWISE,
      }),
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<EvaluationAccepted>();
    expect(sent).toEqual([{ id }]);
    await evaluationStub(testEnv, id).start(id);
    const ended = await waitForEnd(id);
    expect(ended.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await mockRequests(seed)).toBe(ended.calls_done);
    expect(await d1Copies(id)).toBe(0);
  });
});
