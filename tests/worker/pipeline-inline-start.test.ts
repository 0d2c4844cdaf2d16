/**
 * `startAndAwait` (the API's fast start under `Prefer: wait`): the object runs the first step itself
 * instead of one alarm hop later, and should the instance die mid-step, the caller's waiting RPC (which then
 * fails, and the API queues the job) or, once no one waits, a watchdog alarm stands in for the alarm.
 * Nothing is lost or repeated either way.
 */
import { abortAllDurableObjects, runDurableObjectAlarm } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INLINE_WATCHDOG_MS } from '../../durable-objects/evaluation/index.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { loadJob } from '../../src/evaluations/job-rows.js';
import type { Task } from '../../src/engine/task.js';
import type { EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { postJson } from './api-fetch.js';
import { TestEvaluationDO } from './test-evaluation-do.js';
import {
  countRows,
  drainAlarms,
  engineVersionIn,
  heldReplies,
  insertJob,
  mockRequests,
  pendingAlarm,
  PAIRWISE,
  POINTWISE,
  replyInGroups,
  statusRow,
  testEnv,
  waitForEnd,
} from './helpers.js';

afterEach(drainAlarms);

/**
 * After an eviction: the replies the mock held for evaluation `id` go (to the evicted instance, whose code runs
 * on but can store nothing), and later ones are not held: the next instance's calls end at once, where a mock
 * latency long enough to outlast the eviction made each test wait it out.
 */
const replyFreely = (id: string): Promise<void> => replyInGroups(id, 1);

async function jobOf(id: string) {
  const job = await loadJob(testEnv.DB, id);
  if (!job) throw new Error(`no row ${id}`);
  return job;
}

/**
 * Records what every D1 binding of this isolate prepares and sends in batches while `run` runs (the object's own
 * bindings share the API's prototype, so its final write is seen too): each batch as the statements prepared since
 * the one before (each write prepares its own, then sends them), and every statement prepared. Restores the
 * prototype after `run`, whatever it does.
 */
async function recordingD1(run: () => Promise<void>): Promise<{ batches: string[][]; prepared: string[] }> {
  const proto = Object.getPrototypeOf(testEnv.DB) as {
    prepare: (sql: string) => D1PreparedStatement;
    batch: (list: D1PreparedStatement[]) => Promise<D1Result[]>;
  };
  const { prepare, batch } = proto;
  const prepared: string[] = [];
  const pending: string[] = [];
  const batches: string[][] = [];
  proto.prepare = function (this: D1Database, sql: string) {
    prepared.push(sql);
    pending.push(sql);
    return prepare.call(this, sql);
  };
  proto.batch = function (this: D1Database, list: D1PreparedStatement[]) {
    batches.push(pending.splice(0));
    return batch.call(this, list);
  };
  try {
    await run();
  } finally {
    proto.prepare = prepare;
    proto.batch = batch;
  }
  return { batches, prepared };
}

/** The insert's statements among `batches`: those of the batch that inserts the evaluation. */
const insertBatch = (batches: string[][]): string[] | undefined =>
  batches.find((b) => b.some((sql) => /^\s*INSERT INTO evaluations\b/.test(sql)));

/** The final write's statements among `batches`: those of the batch that carries the status update. */
const finalBatch = (batches: string[][]): string[] | undefined =>
  batches.find((b) => b.some((sql) => /^\s*UPDATE evaluations SET status = /.test(sql)));

describe('startAndAwait', () => {
  it("the API's fast start marks its row running in the insert batch; the object writes no mark of its own", async () => {
    const res = await postJson('/v1/evaluations', {
      preset: 'chateval-single',
      config: { defaults: { model: mockModel({ latency: 400 }) } },
      task: PAIRWISE,
    });
    expect(res.status).toBe(202);
    const { id } = await res.json<EvaluationAccepted>();
    // Running as the POST answers, from the insert's own instant, while its one call is out.
    const row = await testEnv.DB.prepare('SELECT status, started_at, created_at FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ status: string; started_at: number | null; created_at: number }>();
    expect(row).toMatchObject({ status: 'running', started_at: row?.created_at });
    // The object's own mark (markRunning) would have written the engine version; the ending writes it.
    expect(await engineVersionIn(id)).toBeNull();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    expect(await engineVersionIn(id)).not.toBeNull();
  });

  it("the fast start's insert takes the slot, marks the row running and marks the cache's hit in the row it writes", async () => {
    const first = { preset: 'chateval-single', task: { ...PAIRWISE, question: 'One statement for the slot?' } };
    const post = () => postJson('/v1/evaluations', first, { Prefer: 'wait=30' });
    let missed = { id: '' };
    // Every batch of this isolate (the object runs the insert with its own bindings): each one's statements.
    const first1 = await recordingD1(async () => {
      const miss = await post();
      expect(miss.status).toBe(200);
      missed = await miss.json<{ id: string }>();
      expect(missed).toMatchObject({ status: 'succeeded', cache: { hit: false } });
    });
    const insert = insertBatch(first1.batches);
    // The config, the row (with its hit, its slot and its running mark), then the admitted row's read: the object
    // holds the task, so D1 gets no waiting copy.
    expect(insert).toHaveLength(3);
    expect(insert?.filter((sql) => sql.includes('evaluation_tasks'))).toEqual([]);
    expect(insert?.filter((sql) => /^\s*UPDATE\b/.test(sql))).toEqual([]);
    expect(insert?.filter((sql) => /^\s*(INSERT INTO evaluations|SELECT)[^;]*\bcache_from\b/.test(sql))).toHaveLength(
      2,
    );
    // The same request again is a hit, read back by that same statement: served with 0 calls.
    const again = await recordingD1(async () => {
      const hit = await post();
      expect(hit.status).toBe(200);
      expect(await hit.json()).toMatchObject({ status: 'succeeded', cache: { hit: true, from: missed.id } });
    });
    expect(insertBatch(again.batches)).toHaveLength(3);
  });

  it("a pairwise verdict outside a batch is its object's alone: the final write has no statement for D1's copy", async () => {
    const verdictCopies = async (id: string) =>
      (
        await testEnv.DB.prepare('SELECT count(*) AS n FROM verdict_texts WHERE evaluation_id = ?')
          .bind(id)
          .first<{ n: number }>()
      )?.n;
    const post = (task: Task) =>
      postJson(
        '/v1/evaluations',
        { preset: task.kind === 'pairwise' ? 'chateval-single' : 'geval-summeval', cache: 'off', task },
        { Prefer: 'wait=30' },
      );
    let id = '';
    // Every statement prepared in this isolate while the request runs (the object's final write included).
    const { prepared } = await recordingD1(async () => {
      const pairwise = await post({
        kind: 'pairwise',
        question: 'Kept by its object alone?',
        answerA: PAIRWISE.kind === 'pairwise' ? PAIRWISE.answerA : '',
        answerB: PAIRWISE.kind === 'pairwise' ? PAIRWISE.answerB : '',
      });
      expect(pairwise.status).toBe(200);
      ({ id } = await pairwise.json<{ id: string }>());
    });
    expect(prepared.filter((sql) => sql.includes('INSERT INTO verdict_texts'))).toEqual([]);
    expect(await verdictCopies(id)).toBe(0);
    expect(await countRows('verdicts', id)).toBe(1);
    // A pointwise verdict, which D1's own queries read, keeps its copy.
    const pointwise = await post(POINTWISE);
    expect(pointwise.status).toBe(200);
    expect(await verdictCopies((await pointwise.json<{ id: string }>()).id)).toBe(1);
  });

  it("a single-call verdict's final write is one batch of 9 statements: no alignment wake, the tenant's mode and the answer read by the status update", async () => {
    // Every batch sent from this isolate while the request runs (the object's final write included), as prepared.
    const { batches } = await recordingD1(async () => {
      const res = await postJson(
        '/v1/evaluations',
        { preset: 'fastchat-pair', task: { ...PAIRWISE, question: 'How many statements end me?' } },
        { Prefer: 'wait=30' },
      );
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'succeeded' });
    });
    const final = finalBatch(batches);
    // Usage roll-up (one model), the webhook event and its deliveries, the key's older cache entry, the status
    // update (returning the tenant's mode and the answer's read), the booking of a row ended elsewhere, and the next
    // waiting evaluation's slot. D1 never kept a waiting copy of the task: no scrub or delete of one.
    expect(final).toHaveLength(7);
    expect(final?.filter((sql) => sql.includes('evaluation_tasks'))).toEqual([]);
    expect(final?.filter((sql) => sql.includes('UPDATE alignments'))).toEqual([]);
    expect(final?.filter((sql) => sql.includes('store_content = 0'))).toEqual([]);
    expect(insertBatch(batches)).toHaveLength(3);
  });

  it("a verdict that can become no cache entry (cache off, or a hit) ends without the entry's statements", async () => {
    const finalOf = async (body: object): Promise<string[] | undefined> => {
      const { batches } = await recordingD1(async () => {
        const res = await postJson('/v1/evaluations', body, { Prefer: 'wait=30' });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ status: 'succeeded' });
      });
      return finalBatch(batches);
    };
    const entryStatements = (final: string[] | undefined) =>
      (final ?? []).filter((sql) => sql.includes('cache_entry_at'));
    const task = { ...PAIRWISE, question: 'Am I ever a cache entry?' };
    const off = await finalOf({ preset: 'fastchat-pair', cache: 'off', task });
    expect(off).toHaveLength(6);
    expect(entryStatements(off)).toEqual([]);
    // A miss under `use` may become the key's entry: its older entry goes, its status update sets the entry.
    const miss = await finalOf({ preset: 'fastchat-pair', task });
    expect(miss).toHaveLength(7);
    expect(entryStatements(miss)).toHaveLength(2);
    const hit = await finalOf({ preset: 'fastchat-pair', task });
    expect(hit).toBeDefined();
    expect(entryStatements(hit)).toEqual([]);
  });

  it('runs the first step at once and answers with the ended status; no alarm is left behind', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE });
    const stub = evaluationStub(testEnv, id);
    const r = await stub.startAndAwait(id, await jobOf(id), 30_000);
    expect(r.status).toBe('succeeded');
    // The final write read the evaluation back in its own transaction for the waiting caller.
    expect(r.ended?.row).toMatchObject({ id, status: 'succeeded', deletedAt: null });
    expect(r.ended?.usage.calls).toBe(callsPlanned);
    expect(JSON.parse(r.ended?.verdictText ?? 'null')).toMatchObject({ method: expect.any(String) as unknown });
    // Ended with its final write in D1 when the call returned.
    expect((await statusRow(id))?.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    // The watchdog was cleared: nothing is pending, and running the (absent) alarm does nothing.
    expect(await pendingAlarm(id)).toBeNull();
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await mockRequests(id)).toBe(callsPlanned);
  });

  it('answers with the running status when the wait ends first; the step goes on to the verdict', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, mock: { latency: 400 } });
    const stub = evaluationStub(testEnv, id);
    const t0 = Date.now();
    const r = await stub.startAndAwait(id, await jobOf(id), 50);
    expect(r.status).toBe('running');
    expect(r.ended).toBeUndefined();
    // The watchdog, not an immediate alarm, is armed while the step runs.
    const alarm = await pendingAlarm(id);
    expect(alarm).not.toBeNull();
    expect(alarm ?? 0).toBeGreaterThanOrEqual(t0 + INLINE_WATCHDOG_MS - 1_000);
    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await mockRequests(id)).toBe(callsPlanned);
  });

  it("while the caller waits, its RPC stands watch: no alarm is armed, and an instance that dies fails the RPC; a start (the API's queue fallback) resumes the work once", async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE });
    // The mock holds every reply until the eviction below: the first call is still out when it comes.
    await replyInGroups(id, Infinity);
    const outcome = evaluationStub(testEnv, id)
      // A wait longer than any load makes the first call late: an ended wait arms the watchdog.
      .startAndAwait(id, await jobOf(id), 30_000)
      .then(
        () => 'answered',
        () => 'failed',
      );
    // The first call is out: the step runs in this instance while the caller waits.
    await vi.waitFor(
      async () => {
        expect(await heldReplies(id)).toBeGreaterThanOrEqual(1);
      },
      { timeout: 10_000 },
    );
    expect(await pendingAlarm(id)).toBeNull();
    await abortAllDurableObjects();
    await replyFreely(id);
    // What the API does with a failed fast start: the queue's consumer starts it, which resumes at once.
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('running');
    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await countRows('transcripts', id)).toBe(callsPlanned);
    // The dead instance never answered the wait (a live one would have, with the verdict, before now). Its
    // code goes on in this runtime until the wait's timer fires, 30 s out: the wait ends here instead, and
    // the call fails as it does then (a live instance would answer). On a machine loaded enough to take 30 s
    // to get here, the timer has already failed it: either way it is not answered.
    expect(['waiting', 'failed']).toContain(await Promise.race([outcome, Promise.resolve('waiting')]));
    TestEvaluationDO.endWaits();
    expect(await outcome).toBe('failed');
  });

  it('when the instance dies mid-step, the watchdog alarm makes the call again and the evaluation ends once', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE });
    // The mock holds every reply until the eviction below.
    await replyInGroups(id, Infinity);
    const r = await evaluationStub(testEnv, id).startAndAwait(id, await jobOf(id), 50);
    expect(r.status).toBe('running');
    // The call is in flight in this instance; evicting it loses that call (it was never stored).
    await abortAllDurableObjects();
    await replyFreely(id);
    expect(await pendingAlarm(id)).not.toBeNull();
    // The watchdog fires (here: now) in a fresh instance, which finds no stored result and makes the call.
    expect(await runDurableObjectAlarm(evaluationStub(testEnv, id))).toBe(true);
    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await countRows('transcripts', id)).toBe(callsPlanned);
  });

  it("a start while the live instance's first step runs leaves the watchdog as it is", async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, mock: { latency: 400 } });
    const stub = evaluationStub(testEnv, id);
    const t0 = Date.now();
    expect((await stub.startAndAwait(id, await jobOf(id), 0)).status).toBe('running');
    // The sweeper's or a queue delivery's start: the step in this instance carries the work.
    expect((await stub.start(id)).status).toBe('running');
    expect((await pendingAlarm(id)) ?? 0).toBeGreaterThanOrEqual(t0 + INLINE_WATCHDOG_MS - 1_000);
    expect((await waitForEnd(id)).status).toBe('succeeded');
    expect(await mockRequests(id)).toBe(callsPlanned);
  });

  it('after the instance died mid-step, a start (the sweeper after a restart) resumes the work at once, not when the watchdog fires', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE });
    // The mock holds every reply until the eviction below.
    await replyInGroups(id, Infinity);
    expect((await evaluationStub(testEnv, id).startAndAwait(id, await jobOf(id), 50)).status).toBe('running');
    await abortAllDurableObjects();
    await replyFreely(id);
    // A fresh instance: no step of its own is under way, so the watchdog (90 s out) is brought forward
    // and the evaluation ends well inside this wait.
    expect(await pendingAlarm(id)).toBeGreaterThan(Date.now() + 60_000);
    expect((await evaluationStub(testEnv, id).start(id)).status).toBe('running');
    const row = await waitForEnd(id);
    expect(row.status).toBe('succeeded');
    expect(await countRows('verdicts', id)).toBe(1);
    expect(await countRows('transcripts', id)).toBe(callsPlanned);
  });

  it('on an evaluation this object already runs, it only waits (no second first step)', async () => {
    const { id, callsPlanned } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, mock: { latency: 200 } });
    const stub = evaluationStub(testEnv, id);
    await stub.start(id);
    const r = await stub.startAndAwait(id, await jobOf(id), 50);
    expect(r.status).toBe('running');
    // The ordinary alarm (armed by start, it fires by itself) runs the step; no second first step ran.
    expect((await waitForEnd(id)).status).toBe('succeeded');
    expect(await mockRequests(id)).toBe(callsPlanned);
  });
});
