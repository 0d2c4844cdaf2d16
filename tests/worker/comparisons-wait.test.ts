/**
 * `POST /v1/comparisons` for a CI runner that cannot receive a webhook: `Prefer: wait` answers 200 with the
 * ended comparison (gate included, as GET shows it) when it ends in time, else the usual 202; and the verdict
 * cache on a comparison, so re-judging an unchanged candidate makes no LLM call.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Comparison, ComparisonAccepted } from '../../src/comparisons/answer-schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, mockRequests, newTestId, pollUntil, replyInGroups, testEnv } from './helpers.js';
import { WAIT_MS } from '../support/patience.js';

afterEach(drainAlarms);

/** A two-candidate gate on `n` items, judged by fastchat-pair on the mock with `seed`. */
function gateBody(seed: string, n = 3) {
  return {
    preset: 'fastchat-pair',
    config: { defaults: { model: mockModel({ seed }) } },
    candidates: ['prod', 'pr'],
    design: { baseline: 'prod' },
    gate: { candidate: 'pr', baseline: 'prod' },
    items: Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      question: `${seed} question ${i}?`,
      outputs: { prod: `prod answer ${i}`, pr: `pr answer ${i}` },
    })),
  };
}

async function view(id: string): Promise<Comparison> {
  return (await api(`/v1/comparisons/${id}`)).json<Comparison>();
}

describe('Prefer: wait on POST /v1/comparisons', () => {
  it('answers 200 with the ended comparison, its gate and statistics as GET shows them, and Preference-Applied', async () => {
    const r = await postJson('/v1/comparisons', gateBody(newTestId('cmp-wait')), { Prefer: 'wait=30' });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(r.headers.get('Preference-Applied')).toBe('wait=30');
    const ended = await r.json<Comparison>();
    expect(r.headers.get('Location')).toBe(`/v1/comparisons/${ended.id}`);
    expect(ended.status).toBe('completed');
    expect(ended.basis).toBe('final');
    expect(ended.gate?.outcome).toMatch(/^(passed|failed|inconclusive)$/);
    expect(ended.gateOutcome).toBe(ended.gate?.outcome);
    expect(await view(ended.id)).toEqual(ended);
  });

  it('answers the usual 202 when it has not ended in time; a replay with the key waits again and gets the 200', async () => {
    const key = newTestId('cmp-wait-key');
    // The mock holds every reply until the 202 is in: the comparison cannot end within the wait, however long
    // a loaded machine takes to answer.
    const seed = newTestId('cmp-wait-slow');
    await replyInGroups(seed, Infinity);
    const body = gateBody(seed, 2);
    const r = await postJson('/v1/comparisons', body, { Prefer: 'wait=1', 'Idempotency-Key': key });
    expect(r.status).toBe(202);
    // The wait ran its whole second: honoured (RFC 7240), though nothing ended in it.
    expect(r.headers.get('Preference-Applied')).toBe('wait=1');
    const { id } = await r.json<ComparisonAccepted>();
    // The held replies go, and no later one is held: the replay's wait sees the end.
    await replyInGroups(seed, 1);
    const again = await postJson('/v1/comparisons', body, { Prefer: 'wait=30', 'Idempotency-Key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await again.json<Comparison>()).id).toBe(id);
  });

  it('applies a wait over 60 s as 60 s, and says so: 200 with Preference-Applied: wait=60', async () => {
    const r = await postJson('/v1/comparisons', gateBody(newTestId('cmp-wait-long')), { Prefer: 'wait=61' });
    expect(r.status, await r.clone().text()).toBe(200);
    expect(r.headers.get('Preference-Applied')).toBe('wait=60');
  });

  it('rejects a malformed wait, naming the header, and stores nothing', async () => {
    const before = await testEnv.DB.prepare('SELECT count(*) AS n FROM comparisons').first<{ n: number }>();
    for (const prefer of ['wait=soon', 'wait=1.5']) {
      const r = await postJson('/v1/comparisons', gateBody('cmp-wait-bad'), { Prefer: prefer });
      expect(r.status, prefer).toBe(400);
      expect(JSON.stringify(await r.json<ErrorJson>()), prefer).toContain('Prefer');
    }
    const after = await testEnv.DB.prepare('SELECT count(*) AS n FROM comparisons').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});

describe('the verdict cache on a comparison', () => {
  /** Runs `body` to its end and returns it with the LLM requests its seed had made by then. */
  async function judged(body: unknown, seed: string): Promise<{ c: Comparison; calls: number }> {
    const r = await postJson('/v1/comparisons', body);
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<ComparisonAccepted>();
    const c = await pollUntil(
      () => view(id),
      (v) => v.basis === 'final',
      WAIT_MS,
      25,
    );
    return { c, calls: await mockRequests(seed) };
  }

  it('re-judging unchanged candidates makes no LLM call (cache unset or "use"); "off" and "refresh" judge again', async () => {
    const seed = newTestId('cmp-cache');
    const body = gateBody(seed, 4);
    const first = await judged(body, seed);
    expect(first.calls).toBeGreaterThan(0);
    expect(first.c.usage.calls).toBe(first.calls);

    const repeat = await judged({ ...body, cache: 'use' }, seed);
    expect(repeat.calls, 'the repeat made no LLM call').toBe(first.calls);
    expect(repeat.c.usage.calls).toBe(0);
    expect(repeat.c.usage.costUsd).toBe(0);
    expect(repeat.c.gate).toEqual(first.c.gate);
    expect(repeat.c.pairs).toEqual(first.c.pairs);
    const hits = await testEnv.DB.prepare(
      "SELECT count(*) AS n FROM evaluations WHERE batch_id = ? AND cache_from IS NOT NULL AND status = 'succeeded'",
    )
      .bind(repeat.c.id)
      .first<{ n: number }>();
    expect(hits?.n).toBe(4);

    // One candidate changed on one item: only that pair is judged.
    const changed = structuredClone(body);
    changed.items[0]!.outputs.pr = 'a new answer';
    const partial = await judged(changed, seed);
    expect(partial.calls - repeat.calls).toBe(first.calls / 4);

    const off = await judged({ ...body, cache: 'off' }, seed);
    expect(off.calls - partial.calls).toBe(first.calls);
    const refresh = await judged({ ...body, cache: 'refresh' }, seed);
    expect(refresh.calls - off.calls).toBe(first.calls);
  });

  it('refuses an unknown cache mode naming the field', async () => {
    const r = await postJson('/v1/comparisons', { ...gateBody('cmp-cache-bad'), cache: 'sometimes' });
    expect(r.status).toBe(400);
    expect((await r.json<ErrorJson>()).error.issues?.map((i) => i.path)).toContain('cache');
  });
});

describe('the tier of a comparison', () => {
  it('shows the tier and flex fallback its pair evaluations run at, read and listed (not left out)', async () => {
    const r = await postJson('/v1/comparisons', { ...gateBody(newTestId('cmp-tier')), tier: 'batch' });
    expect(r.status, await r.clone().text()).toBe(202);
    const { id } = await r.json<ComparisonAccepted>();
    const c = await view(id);
    expect(c.tier).toBe('batch');
    expect(c.flexFallback).toBe('standard');
    const listed = await (await api('/v1/comparisons?limit=5')).json<{ data: { id: string; tier: string }[] }>();
    expect(listed.data.find((x) => x.id === id)?.tier).toBe('batch');
    await api(`/v1/comparisons/${id}/cancel`, { method: 'POST' });
    await pollUntil(
      () => view(id),
      (v) => v.status === 'cancelled' && v.basis === 'final',
      WAIT_MS,
      50,
    );
  });
});
