/**
 * An evaluation made of a trace carries its `source` ({traceId, spanId, monitorId}) in its webhook events: a
 * monitor's evaluation to the monitor's `webhook.url` and to subscribed endpoints, one made by hand with its
 * `monitorId` null, and one not made of a trace with `source: null`. Every body passes the document's `webhooks`
 * section (`received` checks it), so the field is documented where receivers read it.
 */
import { WAIT_MS } from '../support/patience.js';
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, newTestId, POINTWISE } from './helpers.js';
import { agentRunSpans, exportSpans, newTraceId, SPANS } from './monitors-support.js';
import { configureSink, endpointOf, received, sinkUrl } from './webhooks-helpers.js';

afterEach(drainAlarms);

interface Event {
  type: string;
  data: { id: string; source: { traceId: string; spanId: string | null; monitorId: string | null } | null };
}

/** The events sink `name` got once it has `n`, parsed. */
async function eventsAt(name: string, n: number): Promise<Event[]> {
  await expect.poll(async () => (await received(name)).length, { timeout: WAIT_MS, interval: 50 }).toBe(n);
  return (await received(name)).map((r) => JSON.parse(r.body) as Event);
}

describe('webhook events of evaluations made of traces', () => {
  it("carry the trace, span and monitor: to the monitor's webhook and to endpoints; null without a source", async () => {
    const { secret } = await (await api('/v1/webhook-signing-secret', { method: 'POST' })).json<{ secret: string }>();
    const ep = await endpointOf('default', sinkUrl('src-ep'), ['evaluation.succeeded']);
    await configureSink('src-ep', [ep.secret]);
    await configureSink('src-mon', [secret]);
    await configureSink('src-hand', [secret]);

    const service = `wh-${newTestId('svc')}`;
    const judge = {
      preset: 'rubric-judge',
      config: { defaults: { model: mockModel({ seed: newTestId('whs') }) } },
      aspect: { name: 'helpfulness', description: 'How well the answer helps.', scale: { min: 1, max: 5 } },
    };
    const made = await postJson('/v1/monitors', {
      name: 'm',
      sampleRate: 1,
      filter: { service, model: 'gpt-4o' },
      scope: 'span',
      judge,
      webhook: { url: sinkUrl('src-mon') },
    });
    expect(made.status, await made.clone().text()).toBe(201);
    const monitorId = (await made.json<{ id: string }>()).id;
    const traceId = newTraceId();
    expect(await exportSpans(agentRunSpans(traceId), service)).toBe(200);

    // The monitor judges two spans (the model call and the answer): each event names its span and the monitor.
    const toMonitor = await eventsAt('src-mon', 2);
    expect(toMonitor.map((e) => e.data.source?.spanId).sort()).toEqual([SPANS.chat, SPANS.answer].sort());
    for (const e of toMonitor) {
      expect(e.type).toBe('evaluation.succeeded');
      expect(e.data.source).toMatchObject({ traceId, monitorId });
    }

    const simple = { preset: 'geval-summeval', config: { defaults: { model: mockModel({ seed: newTestId('h') }) } } };
    const byHand = await postJson('/v1/evaluations', {
      ...simple,
      task: POINTWISE,
      source: { traceId, spanId: SPANS.tool },
      webhook: { url: sinkUrl('src-hand') },
    });
    const handId = (await byHand.json<{ id: string }>()).id;
    const plain = await postJson('/v1/evaluations', {
      ...simple,
      task: POINTWISE,
      webhook: { url: sinkUrl('src-hand') },
    });
    const plainId = (await plain.json<{ id: string }>()).id;
    const hand = await eventsAt('src-hand', 2);
    expect(hand.find((e) => e.data.id === handId)?.data.source).toEqual({
      traceId,
      spanId: SPANS.tool,
      monitorId: null,
    });
    expect(hand.find((e) => e.data.id === plainId)?.data.source).toBeNull();

    // The endpoint got all four, each with the same source as the callback.
    const atEndpoint = await eventsAt('src-ep', 4);
    for (const e of [...toMonitor, ...hand])
      expect(atEndpoint.find((x) => x.data.id === e.data.id)?.data.source).toEqual(e.data.source);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });
});
