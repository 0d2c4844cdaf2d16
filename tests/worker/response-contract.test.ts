/**
 * The response contract the worker and e2e tests fetch through (tests/support/response-contract.ts): it
 * fails on a drift (a missing required field, an undocumented status or content type, a bad NDJSON line
 * or SSE event, an outbound webhook event off its documented schema), and the served document says what the server sends (nullable components, nullable
 * enums, declared tags).
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { ContractViolation } from '../support/response-contract.js';
import { api, ORIGIN, servedContract } from './api-fetch.js';
import { testEnv } from './helpers.js';

const json = (body: unknown, status = 200, type = 'application/json') =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'Content-Type': type } });

/** The contract's verdict on `response` as `method path`: the violation's message, or 'ok'. */
async function verdict(method: string, path: string, response: Response): Promise<string> {
  const contract = await servedContract();
  try {
    const checked = await contract.check({ method, url: `${ORIGIN}${path}`, response });
    await checked.arrayBuffer(); // a stream is checked as it is read
    return 'ok';
  } catch (e) {
    if (e instanceof ContractViolation) return e.message;
    throw e;
  }
}

describe('the response contract fails a test on a drift', () => {
  it('passes the real answer and fails it with a required field missing, naming path, status and the error', async () => {
    const real = await (await exports.default.fetch(new Request(`${ORIGIN}/health`))).json<Record<string, unknown>>();
    expect(await verdict('GET', '/health', json(real))).toBe('ok');
    const { d1: _dropped, ...drifted } = real;
    const message = await verdict('GET', '/health', json(drifted));
    expect(message).toMatch(/^GET \/health → 200: \(body\) must have required property 'd1'/);
  });

  it('fails an extra field where the schema is closed, an undocumented status and an undocumented content type', async () => {
    expect(
      await verdict('GET', '/health', json({ service: 'tribunal', status: 'ok', d1: 'ok', auth: 'open', x: 1 })),
    ).toContain('must NOT have additional properties');
    expect(await verdict('GET', '/health', json({}, 418))).toContain('status 418 is not documented for GET /health');
    expect(await verdict('GET', '/health', json('ok', 200, 'text/plain'))).toContain(
      'content type text/plain is not documented',
    );
  });

  it('matches path templates (a model id spans slashes) and fails an undocumented method or path', async () => {
    const contract = await servedContract();
    expect(contract.templateFor('/v1/evaluations/ev_1/cancel')).toBe('/v1/evaluations/{id}/cancel');
    expect(contract.templateFor('/v1/models/tribunal/chateval-single@gpt-4o-mini')).toBe('/v1/models/{model}');
    expect(await verdict('PUT', '/health', json({ error: { code: 'x', message: 'y' } }, 200))).toContain(
      'PUT is not documented on /health',
    );
    expect(await verdict('GET', '/v1/nowhere', json({ error: { code: 'not_found', message: 'no' } }, 404))).toBe('ok');
    expect(await verdict('GET', '/v1/nowhere', json({}, 200))).toContain('in no path template');
  });

  it('checks each NDJSON line and each SSE event against the item schema, as the stream is read', async () => {
    const ndjson = json('{"not":"a result line"}\n', 200, 'application/x-ndjson');
    expect(await verdict('GET', '/v1/batches/bt_1/results', ndjson)).toMatch(
      /^GET \/v1\/batches\/bt_1\/results → 200: item 1: \(body\) must have required property/,
    );
    const sse = json('data: {"id":"x"}\n\n', 200, 'text/event-stream');
    expect(await verdict('POST', '/v1/chat/completions', sse)).toContain('item 1: (body) must have required property');
    expect(
      await verdict('POST', '/v1/chat/completions', json(': keep-alive\n\ndata: [DONE]\n\n', 200, 'text/event-stream')),
    ).toBe('ok');
  });
});

describe("events POSTed to receivers are checked against the document's webhooks", () => {
  it('names the event type and the first error; an undocumented type fails', async () => {
    const contract = await servedContract();
    expect(contract.webhookError({ type: 'batch.completed', timestamp: '2026-01-01T00:00:00Z' })).toMatch(
      /^batch\.completed: \(body\) must have required property 'data'/,
    );
    expect(contract.webhookError({ type: 'batch.exploded', timestamp: 'x', data: {} })).toContain(
      "event type batch.exploded is not in the document's webhooks",
    );
  });
});

describe('the served document describes what the server sends', () => {
  it('a nullable reference is anyOf [$ref, null] (allOf with a nullable type can never accept null; a component is never nullable itself)', async () => {
    const contract = await servedContract();
    const doc = await (await exports.default.fetch(new Request(`${ORIGIN}/openapi.json`))).json<unknown>();
    const bad: string[] = [];
    const walk = (x: unknown, at: string) => {
      if (Array.isArray(x)) {
        x.forEach((v, i) => {
          walk(v, `${at}/${i}`);
        });
        return;
      }
      if (!x || typeof x !== 'object') return;
      const o = x as Record<string, unknown>;
      const types = Array.isArray(o.type) ? (o.type as unknown[]) : [o.type];
      if (Array.isArray(o.allOf) && o.allOf.some((s) => Array.isArray((s as { type?: unknown }).type))) bad.push(at);
      if (types.includes('null') && Array.isArray(o.enum) && !o.enum.includes(null)) bad.push(`${at} (enum)`);
      // `.nullable()` on a component makes the component itself nullable (or drops the null): a union instead.
      if (/^\/components\/schemas\/[^/]+$/.test(at) && types.includes('null')) bad.push(`${at} (nullable component)`);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}/${k}`);
    };
    walk(doc, '');
    expect(bad).toEqual([]);
    for (const [schema, field] of [
      ['Batch', 'webhook'],
      ['Batch', 'budget'],
      ['Trigger', 'webhook'],
      ['CreatedTrigger', 'webhook'],
      ['EvaluationTask', 'task'],
      ['Evaluation', 'verdict'],
      ['BatchResultLine', 'error'],
    ] as const) {
      expect(
        contract.validatorAt(`/components/schemas/${schema}/properties/${field}`)(null),
        `${schema}.${field}`,
      ).toBe(true);
    }
  });

  it('a content chunk has finish_reason null, and a request may send n: null', async () => {
    const contract = await servedContract();
    const chunk = {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'tribunal/chateval-single',
      choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null, logprobs: null }],
    };
    expect(contract.errorAt('/components/schemas/ChatCompletionChunk', chunk)).toBeNull();
    const request = { model: 'tribunal/chateval-single', messages: [{ role: 'user', content: 'x' }], n: null };
    expect(contract.errorAt('/components/schemas/ChatCompletionRequest', request)).toBeNull();
  });

  it('declares every tag an operation uses', async () => {
    const doc = await (
      await exports.default.fetch(new Request(`${ORIGIN}/openapi.json`))
    ).json<{
      tags: { name: string }[];
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    const declared = new Set(doc.tags.map((t) => t.name));
    const used = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? []));
    expect(used.filter((t) => !declared.has(t))).toEqual([]);
    expect(declared.has('estimates')).toBe(true);
  });
});

describe('answers the document used to leave out', () => {
  it('POST /v1/evaluations/{id}/cancel over the body limit is its documented 413', async () => {
    const r = await api('/v1/evaluations/ev_missing/cancel', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'x'.repeat(Number(testEnv.MAX_BODY_BYTES) + 10) }),
    });
    expect(r.status).toBe(413);
    expect((await r.json<{ error: { code: string } }>()).error.code).toBe('payload_too_large');
  });

  it('GET /openapi.json itself passes (the route every other check starts from)', async () => {
    expect((await api('/openapi.json')).status).toBe(200);
  });
});
