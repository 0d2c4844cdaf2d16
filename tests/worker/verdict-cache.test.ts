/**
 * The verdict cache through the API (src/verdict-cache/): a repeat is served with 0 LLM calls and $0 (the
 * mock counts), `refresh` writes, `off` bypasses, a sampling judge without a seed bypasses, a tenant's cache
 * never serves another tenant, a deleted source stops serving, a repeated batch, a trigger and a chat
 * completion hit, usage reports hits and what they saved, the entry rule's SQL and its TypeScript twin agree;
 * and provider prompt caching: one `prompt_cache_key` per evaluation, cached prompt tokens reported and priced.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { PairwiseTask, Task } from '../../src/engine/task.js';
import { drainAlarms, mockRequests, newTestId, PAIRWISE, pollUntil, testEnv, waitForEnd } from './helpers.js';
import { as, chatAs, keyed, sendHook, tenantWithKey, triggerOf } from './tenants-helpers.js';
import { items, singleCallJudge } from './batches-support.js';
import { endpointOf, sinkUrl } from './webhooks-helpers.js';
import type { Batch } from '../../src/batches/schemas.js';
import { cacheEntrySql, mayBecomeEntry } from '../../src/verdict-cache/rows.js';

afterEach(drainAlarms);

interface View {
  id: string;
  status: string;
  verdict: { winner?: string; calls: number; usage: { costUsd: number } } | null;
  usage: {
    calls: number;
    promptTokens: number;
    cachedPromptTokens: number;
    costUsd: number;
    cacheSavedUsd: number;
  };
  cache: { mode: string; hit: boolean; from: string | null; savedUsd: number };
}

/** chateval-single on a priced model the mock answers (`gpt-4o-mini`), its calls counted under `seed`. */
function judgeOf(seed: string, defaults: Record<string, unknown> = {}) {
  return { preset: 'chateval-single', config: { defaults: { model: `gpt-4o-mini?seed=${seed}`, ...defaults } } };
}

/** A pairwise task made distinct by `tag`. */
function taskOf(tag: string): PairwiseTask {
  return { kind: 'pairwise', question: `Capital of France? (${tag})`, answerA: 'Paris.', answerB: 'Lyon.' };
}

/** POST /v1/evaluations as `key` (with binding `overrides`), then waits for its end and returns its view. */
async function judged(
  key: string,
  body: Record<string, unknown>,
  overrides: Parameters<typeof keyed>[2] = {},
): Promise<View> {
  const r = await keyed('/v1/evaluations', as(key, { body }), overrides);
  expect(r.status, await r.clone().text()).toBe(202);
  const { id } = await r.json<{ id: string }>();
  await waitForEnd(id);
  return viewOf(key, id);
}

async function viewOf(key: string, id: string): Promise<View> {
  const r = await keyed(`/v1/evaluations/${id}`, as(key));
  expect(r.status).toBe(200);
  return r.json<View>();
}

describe('verdict cache', () => {
  it('serves a repeat with the first verdict, 0 calls and $0, and reports the hit and what it saved', async () => {
    const { key, tenant } = await tenantWithKey();
    await endpointOf(tenant, sinkUrl('verdict-cache-hit'), ['evaluation.succeeded']);
    const seed = newTestId('vc_hit');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    const first = await judged(key, body);
    expect(first.status).toBe('succeeded');
    expect(first.cache).toEqual({ mode: 'use', hit: false, from: null, savedUsd: 0 });
    expect(first.usage.costUsd).toBeGreaterThan(0);
    const calls = await mockRequests(seed);
    expect(calls).toBeGreaterThan(0);

    const second = await judged(key, body);
    expect(second.status).toBe('succeeded');
    expect(await mockRequests(seed), 'no LLM call on a hit').toBe(calls);
    expect(second.cache).toEqual({ mode: 'use', hit: true, from: first.id, savedUsd: first.usage.costUsd });
    expect(second.verdict?.winner).toBe(first.verdict?.winner);
    expect(second.verdict?.calls).toBe(0);
    expect(second.verdict?.usage.costUsd).toBe(0);
    expect(second.usage).toMatchObject({ calls: 0, costUsd: 0 });
    // Ended through the normal ending: its evaluation.succeeded event was written, as for any verdict.
    const events = await testEnv.DB.prepare('SELECT type FROM webhook_events WHERE subject_id = ?')
      .bind(second.id)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toEqual(['evaluation.succeeded']);

    const usage = await keyed('/v1/usage', as(key));
    const report = await usage.json<{ verdictCache: { hits: number; savedUsd: number }; totals: { calls: number } }>();
    expect(report.verdictCache.hits).toBe(1);
    expect(report.verdictCache.savedUsd).toBeCloseTo(first.usage.costUsd, 12);
    expect(report.totals.calls, 'the hit has no usage row').toBe(first.usage.calls);
  });

  it('a miss and a hit started by the queue consumer (no fast start) become an entry and are served', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_queue');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    // The miss goes through the queue too: its job comes from D1 (loadJob), whose entry flag must let it serve.
    const first = await judged(key, body, { FAST_START: 'false' });
    expect(first).toMatchObject({ status: 'succeeded', cache: { hit: false } });
    const calls = await mockRequests(seed);
    const view = await judged(key, body, { FAST_START: 'false' });
    expect(view.status).toBe('succeeded');
    expect(view.cache).toMatchObject({ hit: true, from: first.id });
    expect(await mockRequests(seed)).toBe(calls);
  });

  it("who may become an entry: the SQL a started job reads and a new row's plan agree, every mode with and without a key", async () => {
    const plans = ['use', 'refresh', 'off', 'bypass'].flatMap((mode) => [
      { mode, key: 'k' },
      { mode, key: null },
    ]);
    const db = testEnv.DB;
    const read = await db.batch<{ aliased: number; bare: number }>(
      plans.map((p) =>
        db
          .prepare(
            `SELECT ${cacheEntrySql('t')} AS aliased, ${cacheEntrySql()} AS bare FROM (SELECT ? AS cache_mode, ? AS cache_key) t`,
          )
          .bind(p.mode, p.key),
      ),
    );
    const sql = read.map((r) => r.results[0]);
    expect(sql.map((r) => r?.aliased === 1)).toEqual(plans.map(mayBecomeEntry));
    expect(sql.map((r) => r?.bare === 1)).toEqual(plans.map(mayBecomeEntry));
    expect(plans.map(mayBecomeEntry)).toEqual([true, false, true, false, false, false, false, false]);
  });

  it('"off" neither reads nor writes; "refresh" judges anew and replaces the entry', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_modes');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    const off = await judged(key, { ...body, cache: 'off' });
    expect(off.cache).toMatchObject({ mode: 'off', hit: false });
    const afterOff = await mockRequests(seed);

    const use = await judged(key, body);
    expect(use.cache.hit, '"off" wrote no entry').toBe(false);
    const afterUse = await mockRequests(seed);
    expect(afterUse).toBeGreaterThan(afterOff);

    const offAgain = await judged(key, { ...body, cache: 'off' });
    expect(offAgain.cache.hit, '"off" reads no entry').toBe(false);
    const afterOffAgain = await mockRequests(seed);
    expect(afterOffAgain).toBeGreaterThan(afterUse);

    const refresh = await judged(key, { ...body, cache: 'refresh' });
    expect(refresh.cache).toMatchObject({ mode: 'refresh', hit: false });
    expect(await mockRequests(seed)).toBeGreaterThan(afterOffAgain);
    const calls = await mockRequests(seed);

    const hit = await judged(key, body);
    expect(hit.cache).toMatchObject({ hit: true, from: refresh.id });
    expect(await mockRequests(seed)).toBe(calls);
  });

  it('a change to the config, the task or the seed misses; temperature > 0 without a seed bypasses', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_keys');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    await judged(key, body);
    expect((await judged(key, body)).cache.hit).toBe(true);
    expect((await judged(key, { ...body, task: taskOf(`${seed} other`) })).cache.hit, 'task').toBe(false);
    const model = await judged(key, { ...judgeOf(`${seed}_m`), task: body.task });
    expect(model.cache.hit, 'config (model)').toBe(false);

    const sampling = { ...judgeOf(seed, { temperature: 0.5 }), task: body.task };
    const bypass1 = await judged(key, sampling);
    const bypass2 = await judged(key, sampling);
    expect(bypass1.cache).toMatchObject({ mode: 'bypass', hit: false });
    expect(bypass2.cache).toMatchObject({ mode: 'bypass', hit: false });

    const seeded = await judged(key, { ...sampling, seed: 1 });
    expect(seeded.cache).toMatchObject({ mode: 'use', hit: false });
    expect((await judged(key, { ...sampling, seed: 1 })).cache).toMatchObject({ hit: true, from: seeded.id });
    expect((await judged(key, { ...sampling, seed: 2 })).cache.hit, 'seed').toBe(false);
    expect((await judged(key, { ...sampling, cache: 'use' })).cache, 'asked for').toMatchObject({ mode: 'use' });
  });

  it('an entry older than VERDICT_CACHE_TTL_DAYS misses, and the new verdict replaces it', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_ttl');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    const old = await judged(key, body);
    // 30 days (the default TTL) and a minute ago.
    await testEnv.DB.prepare('UPDATE evaluations SET cache_entry_at = ? WHERE id = ?')
      .bind(Date.now() - 30 * 86_400_000 - 60_000, old.id)
      .run();
    const calls = await mockRequests(seed);
    const fresh = await judged(key, body);
    expect(fresh.cache.hit).toBe(false);
    expect(await mockRequests(seed)).toBeGreaterThan(calls);
    expect((await judged(key, body)).cache).toMatchObject({ hit: true, from: fresh.id });
  });

  it("never serves one tenant's verdict to another", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const seed = newTestId('vc_tenants');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    const fromA = await judged(a.key, body);
    const calls = await mockRequests(seed);
    const fromB = await judged(b.key, body);
    expect(fromB.cache.hit).toBe(false);
    expect(await mockRequests(seed)).toBeGreaterThan(calls);
    expect((await judged(b.key, body)).cache).toMatchObject({ hit: true, from: fromB.id });
    expect((await judged(a.key, body)).cache).toMatchObject({ hit: true, from: fromA.id });
  });

  it('a deleted evaluation stops serving as a source', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_delete');
    const body = { ...judgeOf(seed), task: taskOf(seed) };
    const source = await judged(key, body);
    const del = await keyed(`/v1/evaluations/${source.id}`, as(key, { method: 'DELETE' }));
    expect(del.status).toBeLessThan(300);
    const entries = await testEnv.DB.prepare(
      'SELECT count(*) AS n FROM evaluations WHERE id = ? AND cache_entry_at IS NOT NULL',
    )
      .bind(source.id)
      .first<{ n: number }>();
    expect(entries?.n).toBe(0);
    const calls = await mockRequests(seed);
    const again = await judged(key, body);
    expect(again.cache.hit).toBe(false);
    expect(await mockRequests(seed)).toBeGreaterThan(calls);
  });

  it('a batch repeated with the cache on makes 0 LLM calls, every item ends through the normal ending, and the batch counts its hits and what they saved', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_batch');
    // A priced model, so the saving is a figure.
    const body = { ...singleCallJudge(seed, { base: 'gpt-4o-mini' }), items: items(12) };
    const run = async (): Promise<Batch> => {
      const r = await keyed('/v1/batches', as(key, { body }));
      expect(r.status, await r.clone().text()).toBe(202);
      const { id } = await r.json<{ id: string }>();
      return pollUntil(
        async () => (await keyed(`/v1/batches/${id}`, as(key))).json<Batch>(),
        (b) => b.completedAt !== null,
        WAIT_MS,
        25,
      );
    };
    const first = await run();
    const calls = await mockRequests(seed);
    expect(calls).toBe(12);
    const second = await run();
    expect(await mockRequests(seed), 'the repeat made no LLM call').toBe(calls);
    expect(second.counts).toMatchObject({ succeeded: 12 });
    expect(first.counts).toMatchObject({ succeeded: 12 });
    const hits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM evaluations WHERE batch_id = ? AND cache_from IS NOT NULL AND status = 'succeeded'",
    )
      .bind(second.id)
      .first<{ n: number }>();
    expect(hits?.n).toBe(12);
    // The batch says so: 0 calls and $0 in its usage, 12 hits and the first run's cost saved in its cache.
    expect(first.cache).toEqual({ hits: 0, savedUsd: 0 });
    expect(first.usage.costUsd).toBeGreaterThan(0);
    expect(second.usage).toMatchObject({ calls: 0, costUsd: 0 });
    expect(second.cache.hits).toBe(12);
    expect(second.cache.savedUsd).toBeCloseTo(first.usage.costUsd, 10);
  });

  it('a meta-evaluation repeated gets the same report with 0 LLM calls', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_meta');
    const body = {
      ...judgeOf(seed),
      items: [
        { id: 'q1', task: taskOf(`${seed} 1`), human: 'A' },
        { id: 'q2', task: taskOf(`${seed} 2`), human: 'B' },
      ],
    };
    const run = async (): Promise<{ report: unknown }> => {
      const r = await keyed('/v1/meta-evaluations', as(key, { body }));
      expect(r.status, await r.clone().text()).toBe(202);
      const { id } = await r.json<{ id: string }>();
      return pollUntil(
        async () => (await keyed(`/v1/meta-evaluations/${id}`, as(key))).json<{ report: unknown }>(),
        (m) => m.report !== null,
        WAIT_MS,
        25,
      );
    };
    const first = await run();
    const calls = await mockRequests(seed);
    expect(calls).toBeGreaterThan(0);
    const second = await run();
    expect(await mockRequests(seed), 'the repeat made no LLM call').toBe(calls);
    expect(second.report).toEqual(first.report);
  });

  it('a trigger and a chat completion answer from the cache', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_hooks');
    const model = `mock-judge?seed=${seed}`;
    const trigger = await triggerOf(key, model);
    const event = { prompt: `Capital of France? (${seed})`, a: 'Paris.', b: 'Lyon.' };
    expect((await sendHook(trigger, event)).status).toBe(202);
    const ended = async (): Promise<number> =>
      (
        await testEnv.DB.prepare(
          "SELECT count(*) AS n FROM evaluations WHERE status = 'succeeded' AND json_extract(metadata, '$.triggerId') = ?",
        )
          .bind(trigger.id)
          .first<{ n: number }>()
      )?.n ?? 0;
    await pollUntil(ended, (n) => n === 1, WAIT_MS, 25);
    const calls = await mockRequests(seed);
    expect(calls).toBeGreaterThan(0);
    expect((await sendHook(trigger, event)).status).toBe(202);
    await pollUntil(ended, (n) => n === 2, WAIT_MS, 25);
    expect(await mockRequests(seed), 'the trigger repeat made no call').toBe(calls);

    const chatSeed = newTestId('vc_chat');
    const chat1 = await chatAs(key, `mock-judge?seed=${chatSeed}`);
    expect(chat1.status).toBe(200);
    const chatCalls = await mockRequests(chatSeed);
    const chat2 = await chatAs(key, `mock-judge?seed=${chatSeed}`);
    expect(chat2.status).toBe(200);
    expect(await mockRequests(chatSeed), 'the chat repeat made no call').toBe(chatCalls);
    // The hit's answer keeps the rationale: it comes from the replies of the evaluation that judged.
    const verdictOf = async (r: Response) =>
      JSON.parse(
        (await r.json<{ choices: { message: { content: string } }[] }>()).choices[0]?.message.content ?? '{}',
      ) as {
        rationale: string;
        calls: number;
        evaluationId: string;
      };
    const [v1, v2] = [await verdictOf(chat1), await verdictOf(chat2)];
    expect(v2.calls).toBe(0);
    expect(v2.evaluationId).not.toBe(v1.evaluationId);
    expect(v2.rationale).not.toBe('');
    expect(v2.rationale).toBe(v1.rationale);
    // Streamed, a hit replays those replies before the verdict (no debate ran).
    const streamed = await keyed(
      '/v1/chat/completions',
      as(key, {
        body: {
          model: `tribunal/chateval-single@mock-judge?seed=${chatSeed}`,
          messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
          stream: true,
        },
      }),
    );
    const text = await streamed.text();
    expect(await mockRequests(chatSeed)).toBe(chatCalls);
    const replies = text.split('\n\n').filter((f) => f.includes('"event":"message"'));
    expect(replies.length).toBe(chatCalls);
    expect(text.indexOf('"event":"message"')).toBeLessThan(text.indexOf('[VERDICT]'));
  });
});

describe('provider prompt caching', () => {
  it('sends one prompt_cache_key per evaluation, and reports and prices the cached prompt tokens', async () => {
    const { key } = await tenantWithKey();
    const seed = newTestId('vc_prompt');
    // A question long enough (over 1,024 tokens) that the two orders' shared prefix is cacheable.
    const question = 'Explain, step by step and with care, how a compiler turns source code into machine code. '.repeat(
      80,
    );
    const task: Task = { kind: 'pairwise', question, answerA: 'It parses, checks and emits.', answerB: 'Magic.' };
    const view = await judged(key, {
      preset: 'fastchat-pair',
      config: { defaults: { model: `gpt-4o-mini?seed=${seed}` } },
      task,
      cache: 'off',
    });
    expect(view.status).toBe('succeeded');
    const r = await fetch(`${testEnv.TEST_MOCK_URL.replace(/\/v1$/, '')}/_test/cache-keys?seed=${seed}`);
    const { keys } = await r.json<{ keys: (string | null)[] }>();
    expect(keys.length).toBe(view.usage.calls);
    expect(keys.length).toBeGreaterThan(1);
    expect(new Set(keys), 'one key, the evaluation id, for all its calls').toEqual(new Set([view.id]));

    expect(view.usage.cachedPromptTokens).toBeGreaterThan(0);
    // gpt-4o-mini: $0.15 per million input tokens, $0.075 cached.
    expect(view.usage.cacheSavedUsd).toBeCloseTo((view.usage.cachedPromptTokens * (0.15 - 0.075)) / 1e6, 12);
    const usage = await keyed('/v1/usage', as(key));
    const report = await usage.json<{ totals: { cachedPromptTokens: number; cacheSavedUsd: number } }>();
    expect(report.totals.cachedPromptTokens).toBe(view.usage.cachedPromptTokens);
    expect(report.totals.cacheSavedUsd).toBeCloseTo(view.usage.cacheSavedUsd, 12);
  });

  it("the estimate gives a preset's cacheable share", async () => {
    const { key } = await tenantWithKey();
    const long = (text: string) => Array.from({ length: 20 }, (_, i) => `(${i + 1}) ${text}`).join(' ');
    const task = {
      kind: 'pairwise',
      question: 'Explain why the sky is blue to a ten-year-old.',
      answerA: long('Air scatters blue light the most, so blue comes at us from every direction of the sky.'),
      answerB: long('Because the ocean reflects onto the sky.'),
    };
    const shareOf = async (preset: string) => {
      const r = await keyed('/v1/estimates', as(key, { body: { preset, task } }));
      expect(r.status, await r.clone().text()).toBe(200);
      return (
        await r.json<{ promptCache: { promptTokens: number; cacheableTokens: number; cacheableShare: number } }>()
      ).promptCache;
    };
    const debate = await shareOf('chateval-faireval');
    expect(debate.cacheableShare).toBeGreaterThan(0.3);
    expect(debate.cacheableShare).toBeCloseTo(debate.cacheableTokens / debate.promptTokens, 12);
    expect((await shareOf('fastchat-pair')).cacheableShare).toBe(0);
  });
});
