/**
 * A batch's waiting tasks are kept a group of items to a D1 row (src/evaluations/task-groups.ts, migration 0036):
 * the batch's insert writes one row per group of up to 32 items where it wrote one per item, each item reads its
 * task from its group, the ending that completes the batch erases the groups (an item cancelled while queued keeps
 * its task, as before), and erasing one item erases its group at once, the others' tasks kept.
 */
import { describe, expect, it } from 'vitest';
import { INSERT_JSON_CHUNK_BYTES } from '../../src/evaluations/insert-rows.js';
import { d1TaskText } from '../../src/evaluations/task-rows.js';
import { eraseEvaluation } from '../../src/evaluations/erase-rows.js';
import { TASK_GROUP_ITEMS, taskGroups } from '../../src/evaluations/task-groups.js';
import { markEnded } from '../../src/ending-plan.js';
import { pairItem, storedBatch, succeededWrite } from './batches-support.js';
import { testEnv } from './helpers.js';

const db = testEnv.DB;

const count = async (sql: string, ...binds: unknown[]) =>
  (
    await db
      .prepare(`SELECT count(*) AS n FROM ${sql}`)
      .bind(...binds)
      .first<{ n: number }>()
  )?.n ?? 0;

/** The object's final write of a succeeded item of `batchId` with one call (its object holds its task). */
const succeed = (id: string, batchId: string) => succeededWrite(id, Date.now(), { batchId });

describe('batch task groups', () => {
  it('groups consecutive positions, at most 32 items and a gap starting a new group', () => {
    const items = [...Array.from({ length: 40 }, (_, i) => ({ seq: i, task: 't' })), { seq: 50, task: 't' }];
    expect(taskGroups(items).map((g) => [g.first, g.tasks.length])).toEqual([
      [0, TASK_GROUP_ITEMS],
      [32, 8],
      [50, 1],
    ]);
  });

  it('a batch of 70 items writes 3 task rows, and each item reads its own task from them', async () => {
    const b = await storedBatch(70);
    expect(await count('evaluation_task_groups WHERE batch_id = ?', b.id)).toBe(3);
    // One row per item before (evaluation_tasks): none now.
    expect(await count('evaluation_tasks WHERE evaluation_id LIKE ?', `${b.id}%`)).toBe(0);
    for (const i of [0, 31, 32, 63, 64, 69])
      expect(JSON.parse((await d1TaskText(db, b.items[i] ?? '')) ?? 'null')).toEqual(pairItem(i));
  });

  it('a batch whose tasks add up past one D1 value (40 × 30 KB) binds no value over the limit, every task readable', async () => {
    // Its rows' columns fit one statement's JSON value; its tasks (1.2 MB) do not fit one group parameter. Local D1
    // takes larger values, so the sizes are read off the statements' binds.
    const sizes: number[] = [];
    const encoder = new TextEncoder();
    const recording = new Proxy(db, {
      get(target, key) {
        if (key !== 'prepare') return Reflect.get(target, key, target) as unknown;
        return (sql: string) => {
          const statement = target.prepare(sql);
          return new Proxy(statement, {
            get(st, k) {
              if (k !== 'bind') return Reflect.get(st, k, st) as unknown;
              return (...values: unknown[]) => {
                for (const v of values) if (typeof v === 'string') sizes.push(encoder.encode(v).byteLength);
                return st.bind(...values);
              };
            },
          });
        };
      },
    });
    const b = await storedBatch(40, { pad: 30_000, db: recording });
    expect(Math.max(...sizes)).toBeGreaterThan(100_000);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(INSERT_JSON_CHUNK_BYTES);
    expect(await count('evaluation_task_groups WHERE batch_id = ?', b.id)).toBeGreaterThanOrEqual(2);
    for (const i of [0, 25, 26, 39]) {
      const task = JSON.parse((await d1TaskText(db, b.items[i] ?? '')) ?? 'null') as { answerA: string };
      expect(task.answerA).toHaveLength(pairItem(i).answerA.length + 30_000);
    }
  });

  it("the completing ending erases the groups; an item cancelled while queued keeps its task, a run one's object holds it", async () => {
    const b = await storedBatch(3);
    const [run = '', queued = '', last = ''] = b.items;
    expect((await succeed(run, b.id)).changed).toBe(true);
    // Not complete yet: every task is still read from its group, the ended item's too.
    expect(await count('evaluation_task_groups WHERE batch_id = ?', b.id)).toBe(1);
    expect(await d1TaskText(db, run)).not.toBeNull();
    expect(await markEnded(db, queued, 'cancelled', null, Date.now())).toBe(true);
    expect((await succeed(last, b.id)).changed).toBe(true);
    expect(await count('evaluation_task_groups WHERE batch_id = ?', b.id)).toBe(0);
    expect(await d1TaskText(db, run)).toBeNull();
    expect(await d1TaskText(db, last)).toBeNull();
    expect(JSON.parse((await d1TaskText(db, queued)) ?? 'null')).toEqual(pairItem(1));
    const status = await db.prepare('SELECT status FROM batches WHERE id = ?').bind(b.id).first<{ status: string }>();
    expect(status?.status).toBe('completed');
  });

  it("erasing one item erases its group at once and keeps the others' tasks", async () => {
    const b = await storedBatch(4);
    const [gone = '', ended = '', ...waiting] = b.items;
    expect((await succeed(ended, b.id)).changed).toBe(true);
    await eraseEvaluation(db, gone, Date.now());
    expect(await count('evaluation_task_groups WHERE batch_id = ?', b.id)).toBe(0);
    expect(await d1TaskText(db, gone)).toBe('null');
    // The ended item's object holds its task: no copy is made for it.
    expect(await d1TaskText(db, ended)).toBeNull();
    for (const [k, id] of waiting.entries())
      expect(JSON.parse((await d1TaskText(db, id)) ?? 'null')).toEqual(pairItem(k + 2));
    expect(await count('evaluation_tasks WHERE evaluation_id LIKE ?', `${b.id}%`)).toBe(2);
  });
});
