/**
 * @module
 * A task the object holds before its evaluation starts (src/evaluations/task-holds.ts): a batch's
 * items are handed their tasks at creation, before their D1 rows are written, so D1 never stores those tasks
 * (no insert, overwrite and delete of a waiting copy per verdict). The start takes the held task instead of
 * D1's, and drops the copy once the `evaluation` row holds it; `content()` reads it until then; an erase drops
 * it with the object's files (./erase.ts).
 *
 * The hold comes before the row, so a row never lacks its task. A hold whose row never came (the batch's
 * insert failed, or lost to an earlier request with the same key) is an orphan: the hold arms an alarm
 * {@link HELD_CHECK_MS} later, and that alarm, finding the object still unstarted and D1 without the row,
 * drops the object's files. Kept in the object's synchronous KV (`storage.kv`), so no schema step is needed.
 */
import { readStatus } from '../../src/evaluations/job-rows.js';
import { recordDb } from '../../src/config/d1-shards.js';
import { log } from '../../src/log/log.js';
import type { EvaluationInstance } from './instance.js';
import { migrate } from './migrations.js';

/** The KV key of the held task. */
const HELD_KEY = 'held_task';

/**
 * When a hold's check for its D1 row runs, ms after the hold (15 min: far past the longest batch insert,
 * so a row that is coming has come; a start before then replaces the alarm).
 */
export const HELD_CHECK_MS = 15 * 60_000;

/** What is held: the evaluation id (an unstarted object knows no other way) and its task, JSON text. */
interface Held {
  id: string;
  task: string;
}

/** The held task, or null. */
function held(storage: DurableObjectStorage): Held | null {
  return storage.kv.get<Held>(HELD_KEY) ?? null;
}

/** The task held for evaluation `id`, JSON text, or null when none is held. */
export function heldTask(storage: DurableObjectStorage, id?: string): string | null {
  const h = held(storage);
  return h !== null && (id === undefined || h.id === id) ? h.task : null;
}

/** Drops the held copy once the `evaluation` row holds the task (the start, in the same synchronous block). */
export function dropHeldCopy(storage: DurableObjectStorage): void {
  storage.kv.delete(HELD_KEY);
}

/**
 * Holds `task` for evaluation `id` (idempotent: a repeat writes the same). Nothing once the object has started
 * or ended the evaluation: it holds its task already, or needs none.
 */
export async function holdTask(instance: EvaluationInstance, id: string, task: string): Promise<void> {
  if (instance.load() || instance.store.ended()) return;
  const storage = instance.ctx.storage;
  if (held(storage)?.task !== task) storage.kv.put<Held>(HELD_KEY, { id, task });
  // Storage calls keep the input gate closed: no start can come between the read and the write.
  if ((await storage.getAlarm()) === null) await storage.setAlarm(Date.now() + HELD_CHECK_MS);
}

/**
 * The alarm of an object that has not started: a held task whose D1 row never came is dropped with the
 * object's files (made anew, so its text stays in no free page). A row that exists will start or erase it.
 */
export async function checkHeld(instance: EvaluationInstance): Promise<void> {
  const h = held(instance.ctx.storage);
  if (h === null || instance.store.ended()) return;
  const row = await readStatus(await recordDb(instance.env, h.id), h.id);
  // The input gate was open while D1 answered: a start or an end may have landed meanwhile.
  if (row !== null || instance.load() || instance.store.ended()) return;
  log('warn', 'held_task.orphan_dropped', { evaluationId: h.id });
  await instance.ctx.storage.deleteAll();
  migrate(instance.ctx.storage);
}
