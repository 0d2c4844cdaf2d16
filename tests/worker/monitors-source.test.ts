/**
 * An evaluation's `source` (the trace, span and monitor it judged): given by hand on `POST /v1/evaluations`,
 * stored and shown on GET and the list, the list filtered by `traceId=`, the evaluation listed on its span by
 * `GET /v1/traces/{traceId}` with its status and verdict (recorded on the trace's own object), and the 400s: a bad
 * trace id, and a `monitorId`, which only a monitor sets; a list filter by a monitor or batch id of another form.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, POINTWISE, waitForEnd } from './helpers.js';
import { agentRunSpans, exportSpans, newTraceId, SPANS, traceWhen } from './monitors-support.js';

afterEach(drainAlarms);

interface Sourced {
  id: string;
  source: { traceId: string; spanId: string | null; monitorId: string | null } | null;
}

describe('an evaluation made of a trace by hand', () => {
  it('keeps its source, lists by traceId, and is listed on its span with status and verdict', async () => {
    const traceId = newTraceId();
    expect(await exportSpans(agentRunSpans(traceId))).toBe(200);
    const judge = { preset: 'geval-summeval', config: { defaults: { model: mockModel({ seed: newTestId('src') }) } } };
    const onSpan = await postJson('/v1/evaluations', {
      ...judge,
      task: POINTWISE,
      source: { traceId, spanId: SPANS.chat },
    });
    expect(onSpan.status).toBe(202);
    const { id } = await onSpan.json<{ id: string }>();
    // Linked to the trace alone, answered in the request (Prefer: wait): listed on the trace itself, not on a span.
    const whole = await postJson(
      '/v1/evaluations',
      { ...judge, task: POINTWISE, source: { traceId } },
      { Prefer: 'wait=30' },
    );
    expect(whole.status).toBe(200);
    const { id: wholeId } = await whole.json<{ id: string }>();
    const other = await postJson('/v1/evaluations', { ...judge, task: POINTWISE, source: null });
    const { id: otherId } = await other.json<{ id: string }>();
    for (const e of [id, wholeId, otherId]) expect((await waitForEnd(e)).status).toBe('succeeded');

    const got = await (await api(`/v1/evaluations/${id}`)).json<Sourced>();
    expect(got.source).toEqual({ traceId, spanId: SPANS.chat, monitorId: null });
    expect((await (await api(`/v1/evaluations/${otherId}`)).json<Sourced>()).source).toBeNull();

    const listed = await (await api(`/v1/evaluations?traceId=${traceId}`)).json<{ data: Sourced[] }>();
    expect(listed.data.map((e) => e.id).sort()).toEqual([id, wholeId].sort());
    expect(listed.data.find((e) => e.id === wholeId)?.source).toEqual({ traceId, spanId: null, monitorId: null });

    const trace = await traceWhen(traceId, (t) => t.spanCount === 4);
    const chat = trace.spans.find((s) => s.spanId === SPANS.chat);
    expect(chat?.evaluations).toHaveLength(1);
    expect(chat?.evaluations[0]).toMatchObject({ id, status: 'succeeded', spanId: SPANS.chat, monitorId: null });
    expect(chat?.evaluations[0]?.verdict?.score).toEqual(expect.any(Number));
    expect(trace.spans.find((s) => s.spanId === SPANS.tool)?.evaluations).toEqual([]);
    expect(trace.evaluations.map((e) => e.id)).toEqual([wholeId]);
  });

  it('is a 400 naming the field for a bad trace id and for a monitorId', async () => {
    const bad = await postJson('/v1/evaluations', {
      preset: 'geval-summeval',
      task: POINTWISE,
      source: { traceId: 'xyz' },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('source.traceId');
    const spoof = await postJson('/v1/evaluations', {
      preset: 'geval-summeval',
      task: POINTWISE,
      source: { traceId: newTraceId(), monitorId: 'mon_x' },
    });
    expect(spoof.status).toBe(400);
    expect(JSON.stringify(await spoof.json())).toContain('monitorId');
    const badFilter = await api('/v1/evaluations?traceId=nope');
    expect(badFilter.status).toBe(400);
    // Every id filter of the list is checked for its form: one that could match nothing is not an empty page.
    for (const [param, value] of [
      ['monitor', 'nope'],
      ['monitor', 'mon_x'],
      ['batch', 'nope'],
      ['batch', `ev_${'0'.repeat(32)}`],
    ]) {
      const r = await api(`/v1/evaluations?${param}=${value}`);
      const e = await r.json<ErrorJson>();
      expect(r.status, `${param}=${value}`).toBe(400);
      expect(e.error.issues?.map((i) => i.path)).toEqual([param]);
    }
    // A well-formed id lists what it made, which after a monitor's deletion is still its evaluations.
    const unknown = await api(`/v1/evaluations?monitor=mon_${'0'.repeat(32)}&batch=cp_${'0'.repeat(32)}`);
    expect(unknown.status).toBe(200);
    expect((await unknown.json<{ data: unknown[] }>()).data).toEqual([]);
  });
});
