/**
 * `POST /v1/rubrics/{id}/align` and its job: a judge with a known verbosity bias (the mock's `verbose=1`: every
 * verdict goes to the longer answer) aligned to labels that follow correctness. Each method raises held-out κ
 * and the tag moves when the gain's interval lies above 0 (and only then; a user's move is told apart); a
 * redelivered message judges nothing again and makes no second version; bad bodies are 400s naming the field;
 * the key's scopes and tenant apply.
 *
 * The held-out split and its bootstrap are seeded by the job's id, which is random, so the interval differs from
 * run to run: on about 2-3% of the ids its lower end is exactly 0 (held-out humans nearly all of one label, and a
 * resample of one label makes both κ 0; tests/meta/align-core.test.ts). The tests assert what holds on every
 * split: κ rises, and the tag follows the interval.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Queue } from '../../src/annotation-queues/schemas.js';
import { handleAlignMessage } from '../../src/align/queue.js';
import { REWRITE_METHOD } from '../../src/align/process.js';
import { writeFinal } from '../../src/ending-plan.js';
import type { Alignment } from '../../src/align/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { RubricVersion } from '../../src/rubrics/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { expectTagRule } from './align-support.js';
import { drainAlarms, insertJob, newTestId, PAIRWISE, pollUntil, testEnv } from './helpers.js';
import { as, keyed, newKey, newTenant } from './tenants-helpers.js';
import { TEST_MS, WAIT_MS } from '../support/patience.js';

afterEach(drainAlarms);

const PAD =
  ' Let me think about this step by step, considering each part of the problem carefully and checking the intermediate results twice.';

/** Item `i`: one answer right (quality 1), the padded one right in every other item; the label is the right one. */
function item(i: number) {
  const x = 13 + ((i * 7) % 80);
  const y = 17 + ((i * 11) % 70);
  const longIsRight = i % 2 === 0;
  const right = `The answer is ${x * y}.`;
  const wrong = `The answer is ${x * y + 10 * (1 + (i % 9))}.`;
  const rightText = `${longIsRight ? PAD : ''} ${right} [quality=1]`.trim();
  const wrongText = `${longIsRight ? '' : PAD} ${wrong} [quality=0]`.trim();
  const aIsRight = (i * 5) % 3 !== 0;
  return {
    id: `q-${i}`,
    task: {
      kind: 'pairwise' as const,
      question: `(${i}) What is ${x} × ${y}?`,
      answerA: aIsRight ? rightText : wrongText,
      answerB: aIsRight ? wrongText : rightText,
    },
    human: aIsRight ? ('A' as const) : ('B' as const),
  };
}

/** A rubric and a queue of `n` items, each labelled; `fetch` sends every request (a key's, or the open API's). */
async function labelled(n: number, send: (path: string, body: unknown) => Promise<Response> = postJson) {
  const rubric = await (
    await send('/v1/rubrics', {
      name: 'correct answers',
      kind: 'pairwise',
      criteria: 'The correct answer to the question is better; judge correctness only.',
    })
  ).json<RubricVersion>();
  const items = Array.from({ length: n }, (_, i) => item(i));
  const queue = await (
    await send('/v1/annotation-queues', {
      name: 'align',
      rubric: rubric.id,
      items: items.map(({ id, task }) => ({ id, task })),
    })
  ).json<Queue>();
  for (const it of items) {
    const r = await send(`/v1/annotation-queues/${queue.id}/items/${it.id}/labels`, { label: { winner: it.human } });
    expect(r.status).toBe(200);
  }
  return { rubric: rubric.id, queue: queue.id };
}

/** The biased judge: fastchat-pair on the mock, every verdict to the longer answer unless corrected. */
const judge = (seed: string) => ({
  preset: 'fastchat-pair',
  config: { calibration: { enabled: false }, defaults: { model: mockModel({ seed, verbose: 1 }) } },
});

async function ended(path: string, get: (p: string) => Promise<Response> = api): Promise<Alignment> {
  return pollUntil(
    async () => (await get(path)).json<Alignment>(),
    (a) => a.status !== 'running',
    WAIT_MS,
    200,
  );
}

async function evaluationsOf(runs: readonly string[]): Promise<number> {
  let n = 0;
  for (const r of runs) {
    const id = r.split('/').at(-1) ?? '';
    const row = await testEnv.DB.prepare('SELECT COUNT(*) AS n FROM evaluations WHERE batch_id = ?')
      .bind(id)
      .first<{ n: number }>();
    n += row?.n ?? 0;
  }
  return n;
}

// A test labels its items one request at a time, then waits (up to WAIT_MS) for a job that judges dozens of them:
// the runner's usual TEST_MS leaves a loaded machine too little beyond that wait.
describe('aligning a rubric to its labels', { timeout: TEST_MS + WAIT_MS }, () => {
  it('few-shot: 202 with a job that creates a version, raises held-out κ and moves the tag by the interval', async () => {
    const { rubric, queue } = await labelled(40);
    const r = await postJson(`/v1/rubrics/${rubric}/align`, {
      queue,
      method: 'few-shot',
      holdout: 0.5,
      ...judge('align-few-shot'),
    });
    expect(r.status).toBe(202);
    const started = await r.json<Alignment>();
    expect(started).toMatchObject({ status: 'running', method: 'few-shot', rubric: { id: rubric, baseVersion: 1 } });
    expect(started.items).toEqual({ labelled: 40, learn: 20, validation: 0, heldOut: 20 });
    const done = await ended(started.links.self);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'succeeded', version: 2, chosenMethod: 'few-shot', step: 'ended' });
    const h = done.heldOut;
    expect(h?.n).toBe(20);
    // The examples correct the bias on any split (the least gain over 400 random ids: 0.20).
    expect(h?.gain.value).toBeCloseTo((h?.aligned.value ?? 0) - (h?.base.value ?? 0), 9);
    expect(h?.gain.value).toBeGreaterThan(0.1);
    await expectTagRule(done, rubric);
    const v2 = await (await api(`/v1/rubrics/${rubric}/versions/2`)).json<RubricVersion>();
    expect(v2.criteria).toContain('Human verdict:');
    // Both runs judged what they had to, once: 40 items with the base, 20 held out with the new version.
    expect(done.links.runs).toHaveLength(2);
    expect(await evaluationsOf(done.links.runs)).toBe(60);

    // A redelivered message (and two at once) finds every step made: nothing judged again, no second version.
    const msg = { op: 'align' as const, alignmentId: done.id, tenant: 'default' };
    await Promise.all([handleAlignMessage(testEnv, msg), handleAlignMessage(testEnv, msg)]);
    const again = await (await api(done.links.self)).json<Alignment>();
    expect(again).toEqual({ ...done, updatedAt: again.updatedAt });
    expect(await evaluationsOf(done.links.runs)).toBe(60);
    const latest = await (await api(`/v1/rubrics/${rubric}`)).json<{ latestVersion: number }>();
    expect(latest.latestVersion).toBe(2);
  });

  it('instructions: the LLM writes rules from the disagreements; a step repeated mid-way repeats nothing', async () => {
    const { rubric, queue } = await labelled(40);
    const r = await postJson(`/v1/rubrics/${rubric}/align`, {
      queue,
      method: 'instructions',
      holdout: 0.5,
      ...judge('align-instructions'),
    });
    expect(r.status).toBe(202);
    const started = await r.json<Alignment>();
    // Redeliveries while it runs: each finds the step the other made.
    const msg = { op: 'align' as const, alignmentId: started.id, tenant: 'default' };
    await Promise.all([handleAlignMessage(testEnv, msg), handleAlignMessage(testEnv, msg)]);
    const done = await ended(started.links.self);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'succeeded', version: 2, chosenMethod: 'instructions' });
    const v2 = await (await api(`/v1/rubrics/${rubric}/versions/2`)).json<RubricVersion>();
    expect(v2.criteria).toContain('Rules learned from human reviewers');
    expect(v2.criteria).toContain('not better for being longer');
    // The rules correct the bias on any split (the least gain over 4,000 random ids: 0.18).
    expect(done.heldOut?.gain.value).toBeGreaterThan(0.1);
    await expectTagRule(done, rubric);
    expect(await evaluationsOf(done.links.runs)).toBe(60);
    // The rewrite runs as REWRITE_METHOD: the final write wakes a job waiting on one evaluation only for that method.
    const rewrites = await testEnv.DB.prepare(
      'SELECT COUNT(*) AS n FROM evaluations WHERE method = ? AND idempotency_key LIKE ?',
    )
      .bind(REWRITE_METHOD, `align:${done.id}:%`)
      .first<{ n: number }>();
    expect(rewrites?.n).toBe(1);
  });

  it('auto: tries both methods on a validation split and keeps the best', async () => {
    const { rubric, queue } = await labelled(40);
    const r = await postJson(`/v1/rubrics/${rubric}/align`, { queue, holdout: 0.3, ...judge('align-auto') });
    expect(r.status).toBe(202);
    const done = await ended((await r.json<Alignment>()).links.self);
    expect(done.error).toBeNull();
    expect(done).toMatchObject({ status: 'succeeded', method: 'auto', version: 2 });
    expect(done.items).toEqual({ labelled: 40, learn: 28, validation: 8, heldOut: 12 });
    expect(done.candidates.map((c) => c.method)).toEqual(['few-shot', 'instructions']);
    // κ is null where it is not a number: both sides gave one and the same answer on every validation item (a
    // split of all-A labels, drawn from the job's random id now and then). It ranks below any number, as it does
    // in the choice (src/align/core.ts `bestCandidate`).
    const chosen = done.candidates.find((c) => c.method === done.chosenMethod);
    expect(chosen).toBeDefined();
    const score = (k: number | null | undefined) => k ?? -Infinity;
    const best = Math.max(...done.candidates.map((c) => score(c.kappa)));
    expect(score(chosen?.kappa)).toBe(best);
    // Base, one validation run per method, held out.
    expect(done.links.runs).toHaveLength(4);
  });

  it('leaves the tag when the gain’s interval does not lie above 0, and tells a user’s move apart', async () => {
    const { rubric, queue } = await labelled(10);
    // One held-out item: its interval cannot exclude 0.
    const r = await postJson(`/v1/rubrics/${rubric}/align`, {
      queue,
      method: 'few-shot',
      holdout: 0.1,
      tag: 'staging',
      ...judge('align-small'),
    });
    const done = await ended((await r.json<Alignment>()).links.self);
    expect(done).toMatchObject({ status: 'succeeded', version: 2, heldOut: { n: 1 } });
    expect(done.tag).toMatchObject({ name: 'staging', moved: null });
    expect(done.tag?.reason).toContain('does not lie above 0');
    const tags = await (await api(`/v1/rubrics/${rubric}`)).json<{ tags: { tag: string }[] }>();
    expect(tags.tags.map((t) => t.tag)).not.toContain('staging');
    const put = await api(`/v1/rubrics/${rubric}/tags/staging`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ version: 2 }),
    });
    expect(put.status).toBe(200);
    expect((await (await api(done.links.self)).json<Alignment>()).tag).toMatchObject({ moved: 'user' });
  });

  it('refuses a bad body with a 400 naming the field, and too few labels with a 409', async () => {
    const { rubric, queue } = await labelled(10);
    const other = await (
      await postJson('/v1/rubrics', { name: 'other', kind: 'pairwise', criteria: 'Anything.' })
    ).json<RubricVersion>();
    const cases: [unknown, string][] = [
      [{ queue: 'aq_00000000000000000000000000000000' }, 'queue'],
      [{ queue: 'not-a-queue' }, 'queue'],
      [{ queue, holdout: 0.9 }, 'holdout'],
      [{ queue, holdout: 0 }, 'holdout'],
      [{ queue, method: 'magic' }, 'method'],
      [{ queue, method: 'thresholds' }, 'method'],
      [{ queue, tag: 'Bad Tag' }, 'tag'],
      [{ queue, preset: 'no-such-preset' }, ''],
      [{}, 'queue'],
    ];
    for (const [body, field] of cases) {
      const res = await postJson(`/v1/rubrics/${rubric}/align`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const err = await res.json<ErrorJson>();
      if (field) expect(err.error.message, JSON.stringify(body)).toContain(`${field}:`);
    }
    // A queue over another rubric names the queue.
    const wrong = await postJson(`/v1/rubrics/${other.id}/align`, { queue });
    expect(wrong.status).toBe(400);
    expect((await wrong.json<ErrorJson>()).error.message).toContain('queue:');
    expect((await postJson('/v1/rubrics/rb_00000000000000000000000000000000/align', { queue })).status).toBe(404);
    // Too few labels: how many more.
    const few = await (
      await postJson('/v1/annotation-queues', {
        name: 'few',
        rubric,
        items: [item(1)].map(({ id, task }) => ({ id, task })),
      })
    ).json<Queue>();
    const short = await postJson(`/v1/rubrics/${rubric}/align`, { queue: few.id });
    expect(short.status).toBe(409);
    expect((await short.json<ErrorJson>()).error.message).toContain('label 10 more');
  });

  it('applies the key: its scope to start, its tenant to read', async () => {
    const tenant = await newTenant();
    const { key } = await newKey(tenant);
    const { key: reader } = await newKey(tenant, ['read']);
    const send = (path: string, body: unknown) => keyed(path, as(key, { body }));
    const { rubric, queue } = await labelled(10, send);
    const body = { queue, method: 'few-shot', ...judge('align-keys') };
    const refused = await keyed(`/v1/rubrics/${rubric}/align`, as(reader, { body }));
    expect(refused.status).toBe(403);
    const r = await keyed(`/v1/rubrics/${rubric}/align`, as(key, { body }));
    expect(r.status).toBe(202);
    const job = await r.json<Alignment>();
    // The reader reads it; another tenant's key does not find it.
    const read = await ended(job.links.self, (p) => keyed(p, as(reader)));
    expect(read.status).toBe('succeeded');
    const { key: stranger } = await newKey(await newTenant());
    expect((await keyed(job.links.self, as(stranger))).status).toBe(404);
  });

  it('the final write of a criteria rewrite (its method known to the writer) wakes the job waiting on it', async () => {
    // The job waits on evaluation `id` (its rewrite); only the ending's transaction is looked at here.
    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE });
    const job = newTestId('al_test');
    await testEnv.DB.prepare(
      `INSERT INTO alignments (id, tenant, rubric_id, base_version, queue_id, method, holdout, tag, judge, items,
         status, steps, created_at, updated_at, waiting_on)
       VALUES (?, 'test', 'rb_none', 1, 'q_none', 'instructions', 0.5, 'prod', '{}', '[]', 'running', '{}', 0, 0, ?)`,
    )
      .bind(job, id)
      .run();
    const end = { id, tenant: 'test', status: 'failed' as const, calls: [], callsDone: 0, engineVersion: null };
    const wokenBy = async () =>
      (
        await testEnv.DB.prepare('SELECT woken_by FROM alignments WHERE id = ?')
          .bind(job)
          .first<{ woken_by: string | null }>()
      )?.woken_by;
    const ended = await writeFinal(testEnv.DB, {
      ...end,
      error: { code: 'llm_error', message: 'the rewrite failed' },
      now: Date.now(),
      batchId: null,
      method: REWRITE_METHOD,
      defaultMaxRunning: 4,
    });
    expect(ended.changed).toBe(true);
    // The woken row is handed on: the after-commit steps run and queue the job at once.
    expect(ended.effectRows).toBeGreaterThan(0);
    expect(await wokenBy()).toBe(id);
  });
});
