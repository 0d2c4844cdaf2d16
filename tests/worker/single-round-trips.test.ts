/**
 * D1 round trips (a `batch()`, `run()`, `all()`, `first()` or `raw()` call) and statements of one single evaluation
 * with `Prefer: wait`, judged and as a verdict cache hit, counted over every call this isolate makes (the API and the
 * evaluation object share the binding's prototype). Each round trip costs the runtime more than a statement inside a
 * batch: the insert is one, and the final write, with the waiting caller's read of the ended row riding on it, the
 * other. A hit ends inside its start, before its caller waits, and read itself back in a third round trip of its own.
 */
import { describe, expect, it } from 'vitest';
import { api, postJson } from './api-fetch.js';
import { PAIRWISE } from './helpers.js';
import { d1CallsOf } from './d1-calls.js';

describe('D1 round trips of a single evaluation with Prefer: wait', () => {
  it('a judged verdict and a verdict cache hit each take two: the insert and the final write with the read', async () => {
    const once = async (hit: boolean, question = 'How many round trips do I take?') => {
      let id = '';
      const calls = await d1CallsOf(async () => {
        const res = await postJson(
          '/v1/evaluations',
          { preset: 'fastchat-pair', task: { ...PAIRWISE, question } },
          { Prefer: 'wait=30' },
        );
        expect(res.status).toBe(200);
        const body = await res.json<{ id: string; status: string; cache: { hit: boolean }; verdict: unknown }>();
        expect(body).toMatchObject({ status: 'succeeded', cache: { hit } });
        expect(body.verdict).toMatchObject({ winner: expect.any(String) as unknown });
        answers.set(body.id, body);
        id = body.id;
      });
      return Object.assign(calls, { id });
    };
    /** Each waited answer by its evaluation's id. */
    const answers = new Map<string, unknown>();
    // The preset's resolved config is stored by hash the first time: stored first.
    await once(false, 'Which config do I store?');
    const judged = await once(false);
    const hit = await once(true);
    // The waited answer is the evaluation as GET shows it: the row the final write read back is the row D1 holds.
    for (const { id } of [judged, hit])
      expect(await (await api(`/v1/evaluations/${id}`)).json()).toEqual(answers.get(id));
    const show = (calls: string[][]) => calls.map((c) => c.join(' | ')).join('\n');
    expect(judged.length, show(judged)).toBe(2);
    expect(hit.length, show(hit)).toBe(2);
    // The read of the ended row is the status update's RETURNING, not a statement of its own (14 and 12 before).
    expect(judged.flat().length, show(judged)).toBeLessThanOrEqual(13);
    expect(hit.flat().length, show(hit)).toBeLessThanOrEqual(11);
  });
});
