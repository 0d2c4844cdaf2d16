/**
 * Tenant isolation for the resources merged after the tenants work: webhook endpoints, the delivery log,
 * the signing secret, triggers (and the evaluations their signed hooks create), and the OpenAI-compatible
 * chat completions. Another tenant's resource reads exactly like an id that does not exist (404 with the
 * same code), cannot be changed, deleted, rotated or retried, and never shows up in a list.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { drainAlarms, waitForEnd } from './helpers.js';
import { as, chatAs, errorOf, keyed, sendHook, tenantWithKey, triggerOf } from './tenants-helpers.js';
import { endedEvaluation, sinkUrl } from './webhooks-helpers.js';

afterEach(drainAlarms);

type Call = [method: string, path: string, body?: unknown];

/** Each call as `other` is 404 with the code an absent id gets; as `owner` it is not 404. */
async function onlyOwner(
  owner: string,
  other: string,
  calls: readonly Call[],
  absent: (path: string) => string,
): Promise<void> {
  for (const [method, path, body] of calls) {
    const init = (key: string) => as(key, { method, ...(body !== undefined ? { body } : {}) });
    const mine = await keyed(path, init(owner));
    expect(mine.status, `${method} ${path} as owner: ${await mine.clone().text()}`).not.toBe(404);
    expect(mine.status, `${method} ${path} as owner`).toBeLessThan(500);
    await mine.body?.cancel();
    const theirs = await keyed(path, init(other));
    expect(theirs.status, `${method} ${path} as another tenant`).toBe(404);
    const missing = await keyed(absent(path), init(other));
    expect(missing.status, `${method} ${absent(path)} (absent)`).toBe(404);
    expect((await errorOf(theirs)).code).toBe((await errorOf(missing)).code);
  }
}

describe('tenant isolation: webhooks', () => {
  it('endpoints and their deliveries: another tenant cannot read, list, change, rotate, retry or delete them', async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const created = await keyed('/v1/webhook-endpoints', as(a.key, { body: { url: sinkUrl('tenants-iso') } }));
    expect(created.status, await created.clone().text()).toBe(201);
    const endpoint = (await created.json<{ id: string }>()).id;
    // An ended evaluation of A fans out to A's endpoint: one delivery in A's log.
    const subject = await endedEvaluation(a.tenant);
    const logA = await (
      await keyed(`/v1/webhook-deliveries?subject=${subject}`, as(a.key))
    ).json<{ data: { id: string; endpointId: string | null }[] }>();
    expect(logA.data.map((d) => d.endpointId)).toEqual([endpoint]);
    const delivery = logA.data[0]?.id ?? '';

    const absent = (p: string) =>
      p.replace(endpoint, 'we_00000000000000000000000000').replace(delivery, 'dl_00000000000000000000000000');
    await onlyOwner(
      a.key,
      b.key,
      [
        ['GET', `/v1/webhook-endpoints/${endpoint}`],
        ['GET', `/v1/webhook-endpoints/${endpoint}/deliveries`],
        ['PATCH', `/v1/webhook-endpoints/${endpoint}`, { description: 'changed' }],
        ['POST', `/v1/webhook-endpoints/${endpoint}/deliveries/${delivery}/retry`],
        ['POST', `/v1/webhook-deliveries/${delivery}/retry`],
        ['POST', `/v1/webhook-endpoints/${endpoint}/rotate-secret`],
        ['DELETE', `/v1/webhook-endpoints/${endpoint}`],
      ],
      absent,
    );
    // Lists are the caller's own: B sees neither A's endpoint nor A's deliveries.
    expect(await (await keyed('/v1/webhook-endpoints', as(b.key))).text()).not.toContain(endpoint);
    const logB = await (
      await keyed(`/v1/webhook-deliveries?subject=${subject}`, as(b.key))
    ).json<{ data: unknown[] }>();
    expect(logB.data).toEqual([]);
    expect(await (await keyed('/v1/webhook-deliveries', as(b.key))).text()).not.toContain(delivery);
  });

  it('the signing secret is per tenant: A creating one leaves B without', async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    expect((await keyed('/v1/webhook-signing-secret', as(a.key, { method: 'POST' }))).status).toBe(201);
    expect(await (await keyed('/v1/webhook-signing-secret', as(a.key))).json()).toMatchObject({ exists: true });
    expect(await (await keyed('/v1/webhook-signing-secret', as(b.key))).json()).toMatchObject({ exists: false });
  });
});

describe('tenant isolation: triggers', () => {
  it('another tenant cannot read, list, rotate or delete a trigger, nor read what its hook created', async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const t = await triggerOf(a.key);
    const hooked = await sendHook(t);
    expect(hooked.status, await hooked.clone().text()).toBe(202);
    const evaluation = (await hooked.json<{ evaluationId: string }>()).evaluationId;
    // The evaluation belongs to the trigger's tenant.
    expect((await keyed(`/v1/evaluations/${evaluation}`, as(a.key))).status).toBe(200);
    expect((await keyed(`/v1/evaluations/${evaluation}`, as(b.key))).status).toBe(404);
    await waitForEnd(evaluation);

    await onlyOwner(
      a.key,
      b.key,
      [
        ['GET', `/v1/triggers/${t.id}`],
        ['POST', `/v1/triggers/${t.id}/rotate-secret`],
        ['DELETE', `/v1/triggers/${t.id}`],
      ],
      (p) => p.replace(t.id, 'trg_00000000000000000000000000'),
    );
    expect(await (await keyed('/v1/triggers', as(b.key))).text()).not.toContain(t.id);
  });
});

describe('tenant isolation: chat completions', () => {
  it("the evaluation behind a completion is the caller's; the same Idempotency-Key in another tenant is another evaluation", async () => {
    const a = await tenantWithKey();
    const b = await tenantWithKey();
    const mock = mockModel({ seed: `iso-chat-${Date.now()}` });
    const first = await chatAs(a.key, mock, { 'Idempotency-Key': 'iso-chat' });
    expect(first.status, await first.clone().text()).toBe(200);
    const evaluation = first.headers.get('Tribunal-Evaluation-Id') ?? '';
    expect(evaluation).toMatch(/^ev_/);
    expect((await keyed(`/v1/evaluations/${evaluation}`, as(b.key))).status).toBe(404);
    expect((await keyed(`/v1/evaluations/${evaluation}/transcript`, as(b.key))).status).toBe(404);

    const again = await chatAs(b.key, mock, { 'Idempotency-Key': 'iso-chat' });
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBeNull();
    const other = again.headers.get('Tribunal-Evaluation-Id') ?? '';
    expect(other).not.toBe(evaluation);
    expect((await keyed(`/v1/evaluations/${other}`, as(a.key))).status).toBe(404);
    // A's replay still finds A's own.
    const replay = await chatAs(a.key, mock, { 'Idempotency-Key': 'iso-chat' });
    expect(replay.headers.get('Tribunal-Evaluation-Id')).toBe(evaluation);
  });
});
