/**
 * The LLM client against the mock server: retries and attempt counts under each fault, Retry-After,
 * terminal errors, structured output and its fallback, usage and cost, routing per request.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import { describeFormat, parseReply } from '../../src/engine/parsers/parse.js';
import type { ParserSpec } from '../../src/engine/parsers/spec.js';
import type { AttemptInfo, LlmDeps } from '../../src/llm/client.js';
import { createLlm, createTieredLlm, NOT_SENT } from '../../src/llm/client.js';
import type { ProviderGate } from '../../src/llm/provider-gate-hook.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { costUsd, priceFor } from '../../src/llm/pricing.js';
import { retryAfterMs } from '../../src/llm/retry.js';
import type { LlmSettingsInput } from '../../src/llm/settings.js';
import { settingsFromEnv } from '../../src/llm/settings.js';
import { LLM_NOT_CONFIGURED_MESSAGE, LlmSettingsError } from '../../src/llm/settings-error.js';
import { ConfigError } from '../../src/config/vars.js';
import { estimatePromptTokens } from '../../src/llm/token-estimate.js';
import { sumUsage } from '../../src/llm/usage.js';
import type { SeenRequest } from '../support/recording-fetch.js';
import { recordingFetch } from '../support/recording-fetch.js';

let a: MockServer;
let b: MockServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startMockServer(), startMockServer()]);
});
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
});

let n = 0;
function req(model: string | undefined, extra: Partial<LlmCallRequest> = {}): LlmCallRequest {
  n += 1;
  return {
    id: `call${n}`,
    agent: 'judge',
    label: 'Judge',
    stage: 'verdict',
    ...(model !== undefined ? { model } : {}),
    messages: [
      { role: 'user', content: `Item ${n}: which answer is better? ${describeFormat({ type: 'fastchat-verdict' })}` },
    ],
    temperature: 0,
    maxTokens: 256,
    parser: { type: 'fastchat-verdict' },
    ...extra,
  };
}

/** A client on server `a` whose waits are recorded, not slept. */
function harness(settings: Partial<LlmSettingsInput> = {}, deps: LlmDeps = {}) {
  const delays: number[] = [];
  const attempts: AttemptInfo[] = [];
  const bodies: SeenRequest[] = [];
  const all: LlmSettingsInput = {
    providers: { default: { baseUrl: a.baseUrl } },
    defaultModel: 'mock-judge',
    timeoutMs: 5_000,
    ...settings,
  };
  const allDeps: LlmDeps = {
    sleep: (ms) => {
      delays.push(ms);
      return Promise.resolve();
    },
    random: () => 0.5,
    onAttempt: (i) => attempts.push(i),
    fetch: recordingFetch(bodies),
    ...deps,
  };
  const llm = createLlm(all, allDeps);
  return { llm, delays, attempts, bodies, settings: all, deps: allDeps };
}

function ok(r: LlmCallResult): Extract<LlmCallResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r;
}
function err(r: LlmCallResult): Extract<LlmCallResult, { ok: false }> {
  if (r.ok) throw new Error(`expected failure, got ${r.content}`);
  return r;
}

describe('retries', () => {
  it('succeeds first time with attempts and latency filled', async () => {
    const { llm, delays } = harness();
    const r = ok(await llm(req(mockModel({ seed: 'plain' }))));
    expect(r.attempts).toBe(1);
    expect(r.latencyMs).toBeGreaterThanOrEqual(0);
    expect(parseReply({ type: 'fastchat-verdict' }, r.content).ok).toBe(true);
    expect(delays).toEqual([]);
  });

  it('retries 500s with full-jitter exponential backoff', async () => {
    const { llm, delays, attempts } = harness();
    const r = ok(await llm(req(mockModel({ fail: [[500, 2]], seed: '500' }))));
    expect(r.attempts).toBe(3);
    // random() = 0.5 → half of 500·2^0 and 500·2^1.
    expect(delays).toEqual([250, 500]);
    expect(attempts.map((x) => [x.attempt, x.ok, x.code, x.status])).toEqual([
      [1, false, 'provider_error', 500],
      [2, false, 'provider_error', 500],
      [3, true, undefined, undefined],
    ]);
  });

  it('honours Retry-After seconds on 429', async () => {
    const { llm, delays } = harness();
    const r = ok(await llm(req(mockModel({ fail: [[429, 2]], retryAfter: 3, seed: '429' }))));
    expect(r.attempts).toBe(3);
    expect(delays).toEqual([3000, 3000]);
  });

  it('honours retry-after-ms', async () => {
    const { llm, delays } = harness();
    const r = ok(await llm(req(mockModel({ fail: [[429, 1]], retryAfterMs: 1500, seed: '429ms' }))));
    expect(r.attempts).toBe(2);
    expect(delays).toEqual([1500]);
  });

  it('reads Retry-After as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const h = new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:07 GMT' });
    expect(retryAfterMs(h, now)).toBe(7000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });

  it('gives up as rate_limited when Retry-After exceeds the longest wait', async () => {
    const { llm, delays } = harness();
    const r = err(await llm(req(mockModel({ fail: [[429, 1]], retryAfter: 120, seed: '429long' }))));
    expect(r.error.code).toBe('rate_limited');
    expect(r.error.status).toBe(429);
    expect(r.attempts).toBe(1);
    expect(delays).toEqual([]);
  });

  it('retries a malformed body', async () => {
    const { llm, attempts } = harness();
    const r = ok(await llm(req(mockModel({ fail: [['malformed', 1]], seed: 'malformed' }))));
    expect(r.attempts).toBe(2);
    expect(attempts[0]?.code).toBe('provider_error');
  });

  it('retries empty replies under the same policy as every other transient fault', async () => {
    const { llm, delays } = harness();
    // Four empty replies in a row: the old separate bound (2 retries) would have failed this call.
    const r1 = ok(await llm(req(mockModel({ fail: [['empty', 4]], seed: 'empty4' }))));
    expect(r1.attempts).toBe(5);
    expect(delays).toEqual([250, 500, 1000, 2000]);
    const r2 = err(await llm(req(mockModel({ fail: [['empty', 9]], seed: 'empty9' }))));
    expect(r2.error.code).toBe('empty_reply');
    expect(r2.attempts).toBe(5);
    expect(r2.error.message).toContain('(5 attempts: empty_reply ×5)');
  });

  it('stops after maxAttempts and reports every attempt', async () => {
    const { llm } = harness({ retry: { maxAttempts: 4 } });
    const r = err(await llm(req(mockModel({ fail: [[503, 10]], seed: 'exhaust' }))));
    expect(r.attempts).toBe(4);
    expect(r.error).toMatchObject({ code: 'provider_error', status: 503 });
    expect(r.error.message).toContain('The server had an error');
    expect(r.error.message).toContain('(4 attempts: 503 ×4)');
    expect(r.error.attempts?.map((a) => [a.attempt, a.kind, a.code, a.status])).toEqual([
      [1, 'http', 'provider_error', 503],
      [2, 'http', 'provider_error', 503],
      [3, 'http', 'provider_error', 503],
      [4, 'http', 'provider_error', 503],
    ]);
    for (const a of r.error.attempts ?? []) expect(a.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('a call stopped after a failed attempt sends no further one, and one stopped at its first gate wait sends nothing', async () => {
    let stop = false;
    const released: string[] = [];
    const lease = { release: (o: string) => released.push(o) };
    // Stopped as the first attempt's slot goes back, failed (a cancel stored meanwhile): no wait, no second attempt.
    const between = harness(
      {},
      { gate: { acquire: () => Promise.resolve({ release: (o) => (lease.release(o), (stop = true)) }) } },
    );
    const r = err(
      await createLlm(between.settings, between.deps, { stop: () => stop })(
        req(mockModel({ fail: [[500, 9]], seed: 'stopped' })),
      ),
    );
    expect(r.attempts).toBe(1);
    expect(r.error).toMatchObject({ code: 'provider_error', status: 500 });
    expect(r.error.attempts).toHaveLength(1);
    expect(between.bodies).toHaveLength(1);
    expect(between.delays).toEqual([]);
    expect(released).toEqual(['failed']);
    // Stopped while the second attempt waited for its slot: the slot goes back unused, the call fails with the first.
    stop = false;
    const gate: ProviderGate = {
      acquire: (a) => {
        if (a.attempt === 2) stop = true;
        return Promise.resolve(lease);
      },
    };
    const atGate = harness({}, { gate });
    const out = await createTieredLlm(atGate.settings, atGate.deps)(
      req(mockModel({ fail: [[500, 9]], seed: 'stopped-at-gate' })),
      {
        stop: () => stop,
      },
    );
    expect(err(out.result).attempts).toBe(1);
    expect(out.attempts.map((a) => a.attempt)).toEqual([1]);
    expect(atGate.bodies).toHaveLength(1);
    expect(atGate.delays).toEqual([250]);
    expect(released).toEqual(['failed', 'failed', 'failed']);
    // Stopped while the first attempt waited for its slot: the slot goes back unused, nothing is sent.
    released.length = 0;
    const waiting = harness({}, { gate: { acquire: () => ((stop = true), Promise.resolve(lease)) } });
    stop = false;
    const never = await createTieredLlm(waiting.settings, waiting.deps)(req(mockModel({ seed: 'stopped-waiting' })), {
      stop: () => stop,
    });
    expect(never.unsent).toBe(true);
    expect(never.result).toMatchObject({ ok: false, attempts: 0, error: { code: NOT_SENT } });
    expect(never.attempts).toEqual([]);
    expect(waiting.bodies).toHaveLength(0);
    expect(released).toEqual(['failed']);
    // Stopped from the start without a gate: the first attempt still goes (the caller chose to make the call).
    const first = harness();
    expect(
      ok(await createLlm(first.settings, first.deps, { stop: () => true })(req(mockModel({ seed: 'stopped-first' }))))
        .attempts,
    ).toBe(1);
  });

  // The three tests of a timed-out attempt wait out real timeouts (1 s each: 5 s in all, idle): side by side they
  // take the longest one's 3 s. Each has its own client and call; the mock server answers them independently.
  it.concurrent('times out a hanging attempt and retries', async () => {
    const { llm, attempts } = harness({ timeoutMs: 1_000 });
    const r = ok(await llm(req(mockModel({ fail: [['timeout', 1]], seed: 'timeout' }))));
    expect(r.attempts).toBe(2);
    expect(attempts[0]?.code).toBe('timeout');
  });

  it.concurrent(
    'a slow last attempt does not turn a rate-limited call into a timeout: the dominant cause is reported',
    async () => {
      // 1 s per attempt, as the hanging-attempt test: at 150 ms a 429's own round trip outlasted it at load 12-18
      // and was counted as a timeout.
      const { llm } = harness({ timeoutMs: 1_000 });
      const r = err(
        await llm(
          req(
            mockModel({
              fail: [
                [429, 4],
                ['timeout', 1],
              ],
              retryAfterMs: 1,
              seed: 'mostly429',
            }),
          ),
        ),
      );
      expect(r.error).toMatchObject({ code: 'rate_limited', status: 429 });
      expect(r.error.message).toContain('HTTP 429');
      expect(r.error.message).toContain('(5 attempts: 429 ×4, timeout)');
      expect(r.error.attempts?.map((a) => a.kind)).toEqual(['http', 'http', 'http', 'http', 'timeout']);
      expect(r.error.attempts?.[4]?.latencyMs).toBeGreaterThanOrEqual(1_000);
    },
  );

  it.concurrent('reports timeout when timeouts dominate, and breaks a tie towards the later cause', async () => {
    const { llm } = harness({ timeoutMs: 1_000 });
    const timeouts = err(
      await llm(
        req(
          mockModel({
            fail: [
              [429, 2],
              ['timeout', 3],
            ],
            retryAfterMs: 1,
            seed: 'mostlyTimeout',
          }),
        ),
      ),
    );
    expect(timeouts.error.code).toBe('timeout');
    expect(timeouts.error.status).toBeUndefined();
    expect(timeouts.error.message).toContain('(5 attempts: 429 ×2, timeout ×3)');
    const four = harness({ retry: { maxAttempts: 4 } }).llm;
    const tie = err(
      await four(
        req(
          mockModel({
            fail: [
              [500, 2],
              [429, 2],
            ],
            seed: 'tie',
          }),
        ),
      ),
    );
    expect(tie.error).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(tie.error.message).toContain('(4 attempts: 500 ×2, 429 ×2)');
  });

  it('a fault retrying cannot fix ends the call and is the one reported', async () => {
    const { llm } = harness();
    const r = err(
      await llm(
        req(
          mockModel({
            fail: [
              [500, 2],
              [401, 1],
            ],
            seed: 'then401',
          }),
        ),
      ),
    );
    expect(r.attempts).toBe(3);
    expect(r.error).toMatchObject({ code: 'auth', status: 401 });
    expect(r.error.message).toContain('(3 attempts: 500 ×2, 401)');
  });

  it('a mix of faults counts every attempt', async () => {
    const { llm, attempts } = harness();
    const r = ok(
      await llm(
        req(
          mockModel({
            fail: [
              [429, 1],
              [500, 1],
              ['malformed', 1],
            ],
            seed: 'mix',
          }),
        ),
      ),
    );
    expect(r.attempts).toBe(4);
    expect(attempts.map((x) => x.code ?? 'ok')).toEqual(['rate_limited', 'provider_error', 'provider_error', 'ok']);
  });

  it.each([
    [400, 'bad_request', 'Invalid request (mock fault).'],
    [401, 'auth', 'Incorrect API key provided (mock).'],
    [403, 'auth', 'You are not allowed to use this model (mock).'],
    [404, 'not_found', 'does not exist or you do not have access to it'],
  ])('does not retry %i and quotes the provider', async (status, code, message) => {
    const { llm, delays } = harness();
    const r = err(await llm(req(mockModel({ permanent: status, seed: `perm${status}` }))));
    expect(r.attempts).toBe(1);
    expect(r.error.code).toBe(code);
    expect(r.error.status).toBe(status);
    expect(r.error.message).toContain(message);
    expect(delays).toEqual([]);
  });

  it('network errors are retried and end as network', async () => {
    const { llm } = harness({
      providers: { default: { baseUrl: 'http://127.0.0.1:9/v1' } },
      retry: { maxAttempts: 2 },
    });
    const r = err(await llm(req('mock-judge')));
    expect(r.error.code).toBe('network');
    expect(r.attempts).toBe(2);
  });
});

describe('structured output', () => {
  const spec: Extract<ParserSpec, { type: 'json' }> = {
    type: 'json',
    shape: 'pair-scores',
    min: 1,
    max: 10,
    fallback: { type: 'chateval-scores', min: 1, max: 10 },
  };

  it('sends a strict json_schema built from zod and parses the reply', async () => {
    const { llm, bodies } = harness();
    const r = ok(await llm(req(mockModel({ seed: 'js' }), { parser: spec })));
    const rf = bodies[0]?.body.response_format as {
      type: string;
      json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
    };
    expect(rf.type).toBe('json_schema');
    expect(rf.json_schema.strict).toBe(true);
    expect(rf.json_schema.name).toBe('tribunal_pair_scores');
    expect(rf.json_schema.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['rationale', 'score_a', 'score_b'],
      properties: { score_a: { type: 'number', minimum: 1, maximum: 10 } },
    });
    expect(rf.json_schema.schema.$schema).toBeUndefined();
    const parsed = parseReply(spec, r.content);
    expect(parsed.ok && parsed.value.kind).toBe('pair-scores');
  });

  it('falls back to text once when the provider rejects json_schema, and remembers', async () => {
    const { llm, bodies, delays, attempts } = harness();
    const model = mockModel({ jsonSchema: 'reject', seed: 'nojs' });
    // The method's own prompt asks for the text format; the fallback parser reads it.
    const messages = [
      { role: 'user' as const, content: `Judge the answers. End with ${describeFormat(spec.fallback as ParserSpec)}.` },
    ];
    const r = ok(await llm(req(model, { parser: spec, messages })));
    expect(r.attempts).toBe(2);
    expect(delays).toEqual([]);
    expect(bodies.map((x) => x.body.response_format !== undefined)).toEqual([true, false]);
    // Each attempt is reported as it was sent: the refused one structured, though the fallback dropped the format first.
    expect(attempts.map((x) => x.structured)).toEqual([true, false]);
    const parsed = parseReply(spec, r.content);
    expect(parsed.ok && parsed.value.kind).toBe('pair-scores');
    const again = ok(
      await llm(
        req(model, { parser: spec, messages: [{ role: 'user', content: `Another. ${messages[0]?.content}` }] }),
      ),
    );
    expect(again.attempts).toBe(1);
    expect(bodies[2]?.body.response_format).toBeUndefined();
  });

  it('never sends json_schema to a provider that does not support it', async () => {
    const { llm, bodies } = harness({ providers: { default: { baseUrl: a.baseUrl, supportsJsonSchema: false } } });
    ok(await llm(req(mockModel({ seed: 'nojs2' }), { parser: spec })));
    expect(bodies[0]?.body.response_format).toBeUndefined();
  });
});

describe('usage and cost', () => {
  it('reads reported usage and prices it', async () => {
    const { llm } = harness();
    const r = ok(await llm(req('gpt-4o-mini')));
    expect(r.usage.estimated).toBe(false);
    expect(r.usage.promptTokens).toBeGreaterThan(10);
    const price = priceFor('gpt-4o-mini');
    expect(price).toEqual({
      input: 0.15,
      cachedInput: 0.075,
      output: 0.6,
      batch: { input: 0.075, output: 0.3 },
    });
    expect(r.usage.costUsd).toBeCloseTo((r.usage.promptTokens * 0.15 + r.usage.completionTokens * 0.6) / 1e6, 12);
  });

  it('estimates when usage is missing', async () => {
    const { llm } = harness();
    const request = req(mockModel({ usage: 'omit', seed: 'omit' }));
    const r = ok(await llm(request));
    expect(r.usage.estimated).toBe(true);
    expect(r.usage.promptTokens).toBe(estimatePromptTokens(request.messages));
    expect(r.usage.completionTokens).toBeGreaterThan(0);
  });

  it('counts cached prompt tokens for a repeated long prefix, and sums cost', async () => {
    const { llm } = harness();
    const instructions = 'You are a careful, impartial judge of answer quality. '.repeat(140);
    const ask = (q: string) =>
      req('gpt-4o', {
        messages: [
          { role: 'system', content: instructions },
          { role: 'user', content: `${q} ${describeFormat({ type: 'fastchat-verdict' })}` },
        ],
      });
    const first = ok(await llm(ask('Question one?')));
    const second = ok(await llm(ask('Question two, different?')));
    expect(first.usage.promptTokens).toBeGreaterThan(1024);
    expect(first.usage.cachedPromptTokens).toBe(0);
    expect(second.usage.cachedPromptTokens).toBeGreaterThanOrEqual(1024);
    expect(second.usage.cachedPromptTokens % 128).toBe(0);
    expect(second.usage.cachedPromptTokens).toBeLessThanOrEqual(second.usage.promptTokens);
    const price = priceFor('gpt-4o');
    // gpt-4o: $2.50 per 1M uncached input, $1.25 cached, $10 output.
    const u = second.usage;
    expect(u.costUsd).toBeCloseTo(
      ((u.promptTokens - u.cachedPromptTokens) * 2.5 + u.cachedPromptTokens * 1.25 + u.completionTokens * 10) / 1e6,
      12,
    );
    expect(second.usage.costUsd).toBeLessThan(costUsd({ ...second.usage, cachedPromptTokens: 0 }, price));
    const total = sumUsage([first, second, { id: 'x', ok: false, error: { code: 'timeout', message: 't' } }]);
    expect(total.promptTokens).toBe(first.usage.promptTokens + second.usage.promptTokens);
    expect(total.cachedPromptTokens).toBe(second.usage.cachedPromptTokens);
    expect(total.costUsd).toBeCloseTo(first.usage.costUsd + second.usage.costUsd, 12);
  });

  it('prices dated snapshots, vendor prefixes and overrides; unknown models cost 0', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18')?.input).toBe(0.15);
    expect(priceFor('openai/gpt-4.1-mini')?.output).toBe(1.6);
    expect(priceFor('anthropic/claude-3.5-sonnet')?.input).toBe(3);
    expect(priceFor('mock-judge?seed=1')?.input).toBe(0);
    expect(priceFor('no-such-model')).toBeUndefined();
    expect(costUsd({ promptTokens: 100, cachedPromptTokens: 0, completionTokens: 5 }, undefined)).toBe(0);
    expect(
      priceFor('llama-3.3-70b-versatile', 'groq', { 'groq:llama-3.3-70b-versatile': { input: 1, output: 2 } })?.input,
    ).toBe(1);
  });
});

describe('routing per request', () => {
  it('sends each call to its provider with its model, defaults otherwise', async () => {
    const sent: SeenRequest[] = [];
    const llm = createLlm(
      {
        providers: {
          default: { baseUrl: a.baseUrl, apiKey: 'key-a' },
          groq: { baseUrl: b.baseUrl, apiKey: 'key-b', headers: { 'x-extra': '1' } },
        },
        defaultModel: 'mock-judge?seed=default',
      },
      { fetch: recordingFetch(sent) },
    );
    const r1 = ok(await llm(req(undefined)));
    const r2 = ok(await llm(req('mock-judge?seed=llama', { provider: 'groq' })));
    const r3 = ok(await llm(req('mock-judge?seed=other')));
    const seen = sent.map((s) => ({ url: s.url, model: s.body.model, auth: s.headers.get('authorization') }));
    expect(
      seen.map((s) => [s.url.startsWith(a.baseUrl) ? 'a' : s.url.startsWith(b.baseUrl) ? 'b' : s.url, s.model, s.auth]),
    ).toEqual([
      ['a', 'mock-judge?seed=default', 'Bearer key-a'],
      ['b', 'mock-judge?seed=llama', 'Bearer key-b'],
      ['a', 'mock-judge?seed=other', 'Bearer key-a'],
    ]);
    expect([r1.model, r2.model, r3.model]).toEqual([
      'mock-judge?seed=default',
      'mock-judge?seed=llama',
      'mock-judge?seed=other',
    ]);
    const unknown = err(await llm(req('x', { provider: 'nope' })));
    expect(unknown.error.code).toBe('bad_request');
    expect(unknown.attempts).toBe(0);
    // The deployment's provider ids are not the caller's business.
    expect(unknown.error.message).toBe('unknown provider "nope"');
  });

  it('Azure providers put the deployment in the path, api-version in the query and the key in api-key', async () => {
    const { llm, bodies } = harness({
      providers: { default: { baseUrl: a.url + '/openai', apiKey: 'az-key', azureApiVersion: '2024-10-21' } },
    });
    ok(await llm(req('mock-judge')));
    const u = new URL(bodies[0]?.url ?? '');
    expect(u.pathname).toBe('/openai/deployments/mock-judge/chat/completions');
    expect(u.searchParams.get('api-version')).toBe('2024-10-21');
    expect(bodies[0]?.headers.get('api-key')).toBe('az-key');
  });
});

describe('settingsFromEnv', () => {
  it('reads variables, the provider table and secrets', () => {
    const s = settingsFromEnv({
      LLM_BASE_URL: 'https://api.openai.com/v1',
      LLM_API_KEY: 'sk-default',
      LLM_MODEL: 'gpt-4.1-mini',
      LLM_TIMEOUT_MS: '30000',
      LLM_MAX_ATTEMPTS: '3',
      LLM_PROVIDERS: JSON.stringify({
        groq: { baseUrl: 'https://api.groq.com/openai/v1', apiKeySecret: 'GROQ_API_KEY' },
        az: {
          baseUrl: 'https://r.openai.azure.com/openai',
          apiKeySecret: 'AZ_KEY',
          apiVersion: '2024-10-21',
          supportsJsonSchema: false,
        },
      }),
      GROQ_API_KEY: 'gsk-1',
    });
    expect(s.defaultModel).toBe('gpt-4.1-mini');
    expect(s.timeoutMs).toBe(30_000);
    expect(s.retry.maxAttempts).toBe(3);
    expect(s.providers.default).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-default' });
    expect(s.providers.groq).toMatchObject({ apiKey: 'gsk-1', supportsJsonSchema: true });
    expect(s.providers.az).toMatchObject({ azureApiVersion: '2024-10-21', supportsJsonSchema: false });
    expect(s.providers.az?.apiKey).toBeUndefined();
    // Every secret value of the environment is scrubbed from provider messages.
    expect(s.secrets.sort()).toEqual(['gsk-1', 'sk-default']);
  });

  it('BYOK only when allowed', () => {
    expect(() => settingsFromEnv({ LLM_BASE_URL: 'http://x/v1', LLM_API_KEY: 'mine' }, { byokKey: 'theirs' })).toThrow(
      LlmSettingsError,
    );
    const s = settingsFromEnv(
      { LLM_BASE_URL: 'http://x/v1', LLM_API_KEY: 'mine', ALLOW_BYOK: 'true' },
      { byokKey: 'theirs' },
    );
    expect(s.providers.default?.apiKey).toBe('theirs');
  });

  it('reads the retry policy from its variables, defaults otherwise', () => {
    const s = settingsFromEnv({
      LLM_BASE_URL: 'http://x/v1',
      LLM_MAX_ATTEMPTS: '7',
      LLM_RETRY_BASE_MS: '0',
      LLM_RETRY_MAX_MS: '1000',
      LLM_RETRY_AFTER_MAX_MS: '5000',
    });
    expect(s.retry).toEqual({ maxAttempts: 7, baseDelayMs: 0, maxDelayMs: 1000, maxRetryAfterMs: 5000 });
    expect(settingsFromEnv({ LLM_BASE_URL: 'http://x/v1' }).retry).toEqual({
      maxAttempts: 5,
      baseDelayMs: 500,
      maxDelayMs: 20_000,
      maxRetryAfterMs: 60_000,
    });
  });

  it('rejects malformed variables: a generic error for callers, the reason in the operator log', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const caught = (f: () => unknown): LlmSettingsError => {
        try {
          f();
        } catch (e) {
          if (e instanceof LlmSettingsError) return e;
          throw e;
        }
        throw new Error('expected an LlmSettingsError');
      };
      const cases: [Record<string, string>, string][] = [
        [{ LLM_BASE_URL: 'http://x/v1', LLM_PROVIDERS: '{' }, 'invalid_providers'],
        [{ LLM_BASE_URL: 'http://x/v1', LLM_PROVIDERS: '{"x": {"url": "y"}}' }, 'invalid_providers'],
        // A deployment that forgot its endpoint fails loudly instead of answering with mock verdicts.
        [{ LLM_API_KEY: 'sk-real' }, 'missing_base_url'],
        [{ LLM_BASE_URL: '  ' }, 'missing_base_url'],
        // The Worker holds no mock.
        [{ LLM_BASE_URL: 'mock' }, 'mock_unavailable'],
      ];
      for (const [env, reason] of cases) {
        const e = caught(() => settingsFromEnv(env));
        expect([e.reason, e.code, e.message]).toEqual([reason, 'llm_not_configured', LLM_NOT_CONFIGURED_MESSAGE]);
        const line = JSON.parse(String(logged.mock.calls.at(-1)?.[0])) as Record<string, unknown>;
        expect(line).toMatchObject({ level: 'error', event: 'llm.settings_invalid', reason, detail: e.detail });
      }
      expect(
        caught(() => settingsFromEnv({ LLM_BASE_URL: 'http://x/v1', LLM_PROVIDERS: '{"x": {"url": "y"}}' })).detail,
      ).toContain('LLM_PROVIDERS');
      // An invalid number is the configuration's: one operator line names it, callers get config_invalid.
      for (const [name, value] of [
        ['LLM_TIMEOUT_MS', 'soon'],
        ['LLM_RETRY_BASE_MS', '-1'],
        ['LLM_MAX_ATTEMPTS', '50'],
      ] as const) {
        const env = { LLM_BASE_URL: 'http://x/v1', [name]: value };
        expect(() => settingsFromEnv(env)).toThrow(ConfigError);
        const line = JSON.parse(String(logged.mock.calls.at(-1)?.[0])) as Record<string, unknown>;
        expect(line).toMatchObject({ level: 'error', event: 'config.invalid' });
        expect(line.invalid).toContain(`${name}="${value}"`);
      }
      // The caller's mistake keeps its own code and says what to do; it is not the operator's problem.
      logged.mockClear();
      const byok = caught(() => settingsFromEnv({ LLM_BASE_URL: 'http://x/v1' }, { byokKey: 'theirs' }));
      expect([byok.code, byok.message]).toEqual([
        'byok_disabled',
        'this deployment does not accept caller-supplied API keys (ALLOW_BYOK is off)',
      ]);
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
    }
  });

  it('a broken LLM_PROVIDERS never quotes a key, not even to the operator', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // A key pasted inline (instead of naming its secret) and broken JSON: JSON.parse quotes the text.
      const env = {
        LLM_BASE_URL: 'http://x/v1',
        LLM_PROVIDERS: '{"groq": {"baseUrl": "u", "apiKey": "gsk_live1234567890abcdef"',
      };
      expect(() => settingsFromEnv(env)).toThrow(LlmSettingsError);
      const text = logged.mock.calls.map((c) => String(c[0])).join('\n');
      expect(text).toContain('llm.settings_invalid');
      expect(text).not.toContain('gsk_live1234567890abcdef');
    } finally {
      logged.mockRestore();
    }
  });

  it('LLM_BASE_URL "mock" answers from the in-process mock where the caller opts in (Node only)', async () => {
    const settings = settingsFromEnv({ LLM_BASE_URL: 'mock', LLM_MODEL: 'mock-judge' }, { inProcessMock: true });
    const r = ok(await createLlmWithMock(settings)(req(undefined)));
    expect(parseReply({ type: 'fastchat-verdict' }, r.content).ok).toBe(true);
    // The Worker's client has no mock to answer with: it refuses instead of failing every call.
    expect(() => createLlm(settings)).toThrow(LlmSettingsError);
  });
});
