/**
 * @module
 * A new single evaluation held here before D1 knows it (src/evaluations/held-start.ts): the object stores the job
 * with a watchdog alarm, runs the insert itself, then starts at once when the insert admitted it (a running slot
 * or a verdict cache hit); at the tenant's cap the job stays held until the queue, the sweeper or an ending's
 * `admitNext` starts it (the start reads its task here: ./lifecycle.ts). The watchdog ({@link heldAlarm}) closes
 * the crash windows: D1 has no row (the API's request died before the insert, or the insert failed): the object
 * erases itself; D1 has it: it goes on as a queued or started evaluation would.
 */
import type { HeldAdmission, HeldInsert } from '../../src/evaluations/held-types.js';
import { heldRowOf, insertHeld } from '../../src/evaluations/held-start.js';
import type { HeldAdmitted, StatusResult } from '../../src/evaluations/rpc.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import { hitOf } from '../../src/verdict-cache/hit.js';
import { recordDb, recordDbOf } from '../../src/config/d1-shards.js';
import { log } from '../../src/log/log.js';
import type { EvaluationInstance } from './instance.js';

/** When the watchdog of a held job fires, ms after the job was stored (90 s: far past an insert's round trip). */
export const HELD_WATCHDOG_MS = 90_000;

/** Instances whose insert of their held job is in flight: the watchdog waits for it instead of reading D1. */
const inserting = new WeakSet<EvaluationInstance>();

/** Erases everything held here (no row of this id exists, or another evaluation's holds the key): nothing stays. */
async function eraseHeld(instance: EvaluationInstance): Promise<void> {
  await instance.ctx.storage.deleteAlarm();
  await instance.store.dropFiles(null);
}

/** True, the watchdog re-armed for {@link HELD_WATCHDOG_MS}, when an insert of the held job is in flight here. */
async function insertPending(instance: EvaluationInstance): Promise<boolean> {
  if (!inserting.has(instance)) return false;
  await instance.armBy(Date.now() + HELD_WATCHDOG_MS);
  return true;
}

/**
 * The object's part of the fast start ({@link HeldAdmission}): holds the job (unless this object has it or
 * started already: a repeat), inserts the row, then starts it with `start` when the insert admitted it.
 * @param start runs the held job's first step now and waits as `startAndAwait` does (its watchdog already armed).
 */
export async function admitHeld(
  instance: EvaluationInstance,
  id: string,
  a: HeldAdmission,
  start: (job: StartJob) => Promise<StatusResult>,
): Promise<HeldAdmitted> {
  const fresh = !instance.load() && !instance.store.ended() && instance.store.held() === null;
  if (fresh) {
    // Stored before D1 hears of it: the output gate holds the insert back until this write is durable.
    instance.store.putHeld(a.job);
    await instance.ctx.storage.setAlarm(Date.now() + HELD_WATCHDOG_MS);
  }
  let insert: HeldInsert;
  inserting.add(instance);
  try {
    insert = await insertHeld(recordDbOf(instance.env, a.row.tenant, id), a);
  } finally {
    inserting.delete(instance);
  }
  if (!insert.inserted) {
    // A replay of another evaluation's idempotency key: nothing of this new id stays here.
    if (fresh && insert.existing?.id !== id) await eraseHeld(instance);
    return insert;
  }
  if (insert.admitted === null) return insert;
  const running = insert.admitted.status === 'running';
  const job: StartJob = { ...a.job, cached: hitOf(insert.admitted), ...(running ? { markedRunning: true } : {}) };
  return { ...insert, started: await start(job) };
}

/**
 * The held job's watchdog, run by the alarm before any step (false: nothing is held, the alarm steps as ever). An
 * insert of the job in flight (before or while D1 is read): re-armed for {@link HELD_WATCHDOG_MS}. D1 has no row:
 * erased here. A row waiting for a running slot: left to the queue, the sweeper or `admitNext`. Any
 * other (admitted, a hit, ended): started with `start` (`Lifecycle.start`, which reads the task here).
 */
export async function heldAlarm(
  instance: EvaluationInstance,
  start: (id: string) => Promise<StatusResult>,
): Promise<boolean> {
  if (instance.load()) return false;
  const held = instance.store.held();
  if (held === null) return false;
  if (await insertPending(instance)) return true;
  const row = await heldRowOf(await recordDb(instance.env, held.id), held.id);
  // The input gate was open while D1 answered: a start or an erase may have come.
  if (instance.load() || instance.store.held() === null) return true;
  // A repeat's insert began while D1 answered: the read may predate its row.
  if (await insertPending(instance)) return true;
  if (row === null) {
    if (instance.store.ended() === null) {
      log('warn', 'held.no_row', { evaluationId: held.id });
      await eraseHeld(instance);
    }
    return true;
  }
  if (row.status === 'queued' && !row.slot) return true;
  await start(held.id);
  return true;
}
