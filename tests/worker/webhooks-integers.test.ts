/**
 * Every evaluation event, as its receiver reads it: the raw body's integers are written as integers. The event
 * is built in SQL (src/evaluations/webhook-event.ts), where D1 binds JS numbers as REAL, which `json_object`
 * writes `2.0`: `JSON.parse` hides that, so the check reads the text (`received` checks every sink's bodies).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { evaluationWebhookEvent } from '../../src/evaluations/webhook-event.js';
import { drainAlarms, insertJob, PAIRWISE, testEnv } from './helpers.js';
import { attempt, configureSink, deliveriesOf, endpointOf, received, sinkUrl } from './webhooks-helpers.js';
import { servedContract } from './api-fetch.js';

afterEach(drainAlarms);

describe('evaluation events write their integers as integers', () => {
  it.each(['succeeded', 'failed', 'cancelled'] as const)('evaluation.%s, with the usage it books', async (status) => {
    const tenant = `ints-${status}`;
    const sink = `ints-${status}`;
    const ep = await endpointOf(tenant, sinkUrl(sink));
    await configureSink(sink, [ep.secret]);
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE, tenant });
    const usage = {
      calls: 2,
      promptTokens: 696,
      completionTokens: 79,
      cachedPromptTokens: 0,
      estimated: false,
      costUsd: 0.72,
      cacheSavedUsd: 0,
    };
    // The ending's own event effect, as the final write runs it (the usage bound, the row not yet updated).
    const statements = evaluationWebhookEvent().statements(testEnv.DB, {
      id,
      status,
      error: status === 'succeeded' ? null : { code: 'test', message: `${status} by the test` },
      now: Date.now(),
      written: { verdictJson: status === 'succeeded' ? '{"winner":"A"}' : null, usage, calls: [] },
    });
    await testEnv.DB.batch(statements);
    const [delivery] = await deliveriesOf(id);
    expect(await attempt(delivery!.id)).toMatchObject({ kind: 'delivered' });
    const [got] = await received(sink); // throws on an integer written `2.0`
    expect(got!.body).toContain('"usage":{"calls":2,"promptTokens":696,"completionTokens":79,"cachedPromptTokens":0,');
    expect((await servedContract()).webhookBodyError(got!.body.replace('"calls":2,', '"calls":2.0,'))).toContain(
      '/data/usage/calls is an integer written as 2.0',
    );
  });
});
