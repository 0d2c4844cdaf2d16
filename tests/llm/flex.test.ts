/**
 * Flex processing over HTTP: the mock echoes `service_tier`, refuses flex for capacity (429
 * `resource_unavailable`) at a seeded rate and for flex-unsupported models (400 `param: service_tier`), and
 * scopes its prompt cache by `prompt_cache_key`; the client sends `service_tier: "flex"` with the flex
 * timeout, classifies refusals as `flex_unavailable` / `flex_unsupported`, falls back per `flexFallback`,
 * records each attempt's tier, prices the call at the tier that answered, and reads the new settings.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AttemptInfo, CallOptions, TieredCallResult } from '../../src/llm/client.js';
import { createTieredLlm } from '../../src/llm/client.js';
import type { GateOutcome, ProviderGate } from '../../src/llm/provider-gate-hook.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer, StartMockOptions } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { costOf, priceFor } from '../../src/llm/pricing.js';
import type { LlmSettingsInput } from '../../src/llm/settings.js';
import { settingsFromEnv } from '../../src/llm/settings.js';
import { LlmSettingsError } from '../../src/llm/settings-error.js';
import { supportsTier } from '../../src/llm/tiers.js';
import { ConfigError } from '../../src/config/vars.js';

const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** A mock that records every chat-completion body it gets. */
async function mock(options: StartMockOptions = {}) {
  const bodies: Record<string, unknown>[] = [];
  const server = await startMockServer({
    ...options,
    around: async (request, next) => {
      if (request.url.endsWith('/chat/completions'))
        bodies.push((await request.clone().json()) as Record<string, unknown>);
      return next(request);
    },
  });
  servers.push(server);
  return { server, bodies };
}

async function post(server: MockServer, body: Record<string, unknown>) {
  const res = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      service_tier?: string;
      choices: { message: { content: string } }[];
      usage: { prompt_tokens_details: { cached_tokens: number } };
      error?: { code: string | null; param: string | null; type: string; message: string };
    },
  };
}

const ask = (i: number, model = 'mock-judge', extra: Record<string, unknown> = {}) => ({
  model,
  messages: [{ role: 'user', content: `Question ${i}: which answer is better? [[A]] or [[B]]` }],
  ...extra,
});

describe('the mock, flex and prompt_cache_key', () => {
  it('serves flex like standard, reporting the tier served; refuses an unknown tier', async () => {
    const { server } = await mock();
    const standard = await post(server, ask(1));
    const flex = await post(server, ask(1, 'mock-judge', { service_tier: 'flex' }));
    expect(standard.body.service_tier).toBe('default');
    expect(flex.body.service_tier).toBe('flex');
    expect(flex.body.choices[0]?.message.content).toBe(standard.body.choices[0]?.message.content);
    expect((await post(server, ask(1, 'mock-judge', { service_tier: 'auto' }))).body.service_tier).toBe('default');
    expect((await post(server, ask(1, 'mock-judge', { service_tier: 'cheap' }))).status).toBe(400);
  });

  it('refuses a seeded share of flex requests with 429 resource_unavailable; a retry draws again', async () => {
    const { server } = await mock({ flex: { refusalRate: 0.5, seed: 'cap' } });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await post(server, ask(i, 'mock-judge', { service_tier: 'flex' }))).status);
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(5);
    expect(refused).toBeLessThan(35);
    const first = statuses.indexOf(429);
    const refusal = await post(
      (await mock({ flex: { refusalRate: 1 } })).server,
      ask(1, 'mock-judge', { service_tier: 'flex' }),
    );
    expect(refusal.status).toBe(429);
    expect(refusal.body.error).toMatchObject({ code: 'resource_unavailable' });
    expect(refusal.body.error?.message).toMatch(/Resource Unavailable/);
    // Drawn per attempt: the refused prompt gets a new draw each time it is sent again.
    let ok = 0;
    for (let a = 0; a < 10; a++)
      if ((await post(server, ask(first, 'mock-judge', { service_tier: 'flex' }))).status === 200) ok += 1;
    expect(ok).toBeGreaterThan(0);
    // A standard request is never refused for flex capacity.
    expect((await post(server, ask(first))).status).toBe(200);
  });

  it('refuses flex for a flex-unsupported model with a 400 naming service_tier', async () => {
    const { server } = await mock({ flex: { unsupportedModels: ['gpt-4o-mini'] } });
    const refused = await post(server, ask(1, 'gpt-4o-mini', { service_tier: 'flex' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ param: 'service_tier', type: 'invalid_request_error' });
    expect(refused.body.error?.message).toMatch(/Unsupported service_tier: flex/);
    expect((await post(server, ask(1, 'gpt-4o-mini'))).status).toBe(200);
    expect((await post(server, ask(1, 'o4-mini', { service_tier: 'flex' }))).status).toBe(200);
  });

  it('scopes the prompt cache by prompt_cache_key, as OpenAI routes by it', async () => {
    const { server } = await mock();
    const system = 'Judge the two answers with care and explain the reasons for your verdict. '.repeat(100);
    const long = (q: string, key?: string) => ({
      model: 'mock-judge',
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: q },
      ],
      ...(key !== undefined ? { prompt_cache_key: key } : {}),
    });
    const cached = async (q: string, key?: string) =>
      (await post(server, long(q, key))).body.usage.prompt_tokens_details.cached_tokens;
    expect(await cached('Q1', 'ev_1')).toBe(0);
    expect(await cached('Q2', 'ev_1')).toBeGreaterThanOrEqual(1024);
    expect(await cached('Q3', 'ev_2')).toBe(0);
    expect(await cached('Q4')).toBe(0);
    expect(await cached('Q5')).toBeGreaterThanOrEqual(1024);
    expect((await post(server, { ...ask(1), prompt_cache_key: 7 })).status).toBe(400);
  });
});

let n = 0;
function call(model: string, extra: Partial<LlmCallRequest> = {}): LlmCallRequest {
  n += 1;
  return {
    id: `flex${n}`,
    agent: 'judge',
    label: 'Judge',
    stage: 'verdict',
    model,
    messages: [{ role: 'user', content: `Item ${n}: which answer is better? Reply [[A]] or [[B]].` }],
    temperature: 0,
    maxTokens: 64,
    parser: { type: 'text' },
    ...extra,
  };
}

/** A tiered client on `server`, flex declared, waits recorded instead of slept. */
function client(server: MockServer, settings: Partial<LlmSettingsInput> = {}, gate?: ProviderGate) {
  const delays: number[] = [];
  const reports: AttemptInfo[] = [];
  const llm = createTieredLlm(
    {
      providers: { default: { baseUrl: server.baseUrl, supportsFlex: true } },
      defaultModel: 'mock-judge',
      retry: { baseDelayMs: 100, maxDelayMs: 1000, maxAttempts: 4 },
      ...settings,
    },
    {
      sleep: (ms) => {
        delays.push(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
      onAttempt: (i) => reports.push(i),
      ...(gate ? { gate } : {}),
    },
  );
  return { llm, delays, reports };
}

function tiersOf(r: TieredCallResult) {
  return r.attempts.map((a) => [a.tier, a.ok ? 'ok' : a.code]);
}

describe('flex calls', () => {
  it('send service_tier "flex" and are priced at the flex tier', async () => {
    const { server, bodies } = await mock();
    const { llm, reports } = client(server);
    const request = call('o4-mini');
    const flex = await llm(request, { tier: 'flex' });
    const standard = await llm({ ...request, id: 'same-prompt' });
    expect(bodies.map((b) => b.service_tier)).toEqual(['flex', undefined]);
    expect(flex.tier).toBe('flex');
    expect(tiersOf(flex)).toEqual([['flex', 'ok']]);
    expect(reports.map((r) => r.tier)).toEqual(['flex', 'standard']);
    if (!flex.result.ok || !standard.result.ok) throw new Error('both calls should succeed');
    expect(flex.result.content).toBe(standard.result.content);
    const price = priceFor('o4-mini');
    expect(flex.usage?.tier).toBe('flex');
    expect(flex.result.usage.costUsd).toBeCloseTo(costOf(flex.result.usage, price, 'flex').costUsd, 15);
    expect(flex.result.usage.costUsd).toBeCloseTo(standard.result.usage.costUsd / 2, 15);
    // The stored result keeps the engine's Usage shape, with the tier it is billed at (absent: standard) and
    // what the prompt cache saved (for usage reports).
    expect(Object.keys(flex.result.usage).sort()).toEqual([
      'cacheSavedUsd',
      'cachedPromptTokens',
      'completionTokens',
      'costUsd',
      'estimated',
      'promptTokens',
      'tier',
    ]);
    expect(flex.result.usage.tier).toBe('flex');
    expect(standard.result.usage.tier).toBeUndefined();
  });

  it('fall back to standard at once on a capacity refusal (flexFallback "standard", the default)', async () => {
    const { server, bodies } = await mock({ flex: { refusalRate: 1 } });
    const { llm, delays, reports } = client(server);
    const r = await llm(call('o4-mini'), { tier: 'flex' });
    expect(r.result.ok).toBe(true);
    expect(r.tier).toBe('standard');
    // Each attempt is reported at the tier it was sent at: the refused one at flex, though the fallback
    // switched to standard before reporting it.
    expect(reports.map((a) => [a.tier, a.ok ? 'ok' : a.code])).toEqual([
      ['flex', 'flex_unavailable'],
      ['standard', 'ok'],
    ]);
    expect(tiersOf(r)).toEqual([
      ['flex', 'flex_unavailable'],
      ['standard', 'ok'],
    ]);
    expect(bodies.map((b) => b.service_tier)).toEqual(['flex', undefined]);
    expect(delays).toEqual([]);
    expect(r.result.ok && r.result.attempts).toBe(2);
    expect(r.usage?.tier).toBe('standard');
    const price = priceFor('o4-mini');
    if (r.result.ok) expect(r.result.usage.costUsd).toBeCloseTo(costOf(r.result.usage, price, 'standard').costUsd, 15);
  });

  it('wait with backoff under flexFallback "wait", and end as flex_unavailable when refusals outlast the attempts', async () => {
    const { server, bodies } = await mock({ flex: { refusalRate: 1 } });
    const { llm, delays } = client(server);
    const r = await llm(call('o4-mini'), { tier: 'flex', flexFallback: 'wait' });
    expect(r.result.ok).toBe(false);
    if (r.result.ok) return;
    expect(r.result.error.code).toBe('flex_unavailable');
    expect(r.result.error.status).toBe(429);
    expect(r.result.error.attempts?.map((a) => a.code)).toEqual(Array(4).fill('flex_unavailable'));
    expect(bodies.every((b) => b.service_tier === 'flex')).toBe(true);
    expect(delays).toHaveLength(3);
    expect(tiersOf(r).every(([tier]) => tier === 'flex')).toBe(true);

    // With capacity coming back, waiting succeeds at the flex price.
    const { server: some } = await mock({ flex: { refusalRate: 0.5, seed: 'w' } });
    const { llm: patient } = client(some, { retry: { maxAttempts: 20, baseDelayMs: 1, maxDelayMs: 1 } });
    for (let i = 0; i < 5; i++) {
      const x = await patient(call('o4-mini'), { tier: 'flex', flexFallback: 'wait' });
      expect(x.result.ok).toBe(true);
      expect(x.tier).toBe('flex');
    }
  });

  it('treat a flex-unsupported model as such: fallback and remembered, or flex_unsupported under "wait"', async () => {
    const { server, bodies } = await mock({ flex: { unsupportedModels: ['gpt-4o-mini'] } });
    const { llm } = client(server);
    const first = await llm(call('gpt-4o-mini'), { tier: 'flex' });
    expect(tiersOf(first)).toEqual([
      ['flex', 'flex_unsupported'],
      ['standard', 'ok'],
    ]);
    const second = await llm(call('gpt-4o-mini'), { tier: 'flex' });
    expect(tiersOf(second)).toEqual([['standard', 'ok']]);
    const waiting = await llm(call('gpt-4o-mini'), { tier: 'flex', flexFallback: 'wait' });
    expect(waiting.result.ok).toBe(false);
    if (!waiting.result.ok) expect(waiting.result.error.code).toBe('flex_unsupported');
    expect(bodies).toHaveLength(3);

    const { llm: fresh } = client(server);
    const direct = await fresh(call('gpt-4o-mini'), { tier: 'flex', flexFallback: 'wait' });
    expect(tiersOf(direct)).toEqual([['flex', 'flex_unsupported']]);
    if (!direct.result.ok) expect(direct.result.error.status).toBe(400);
  });

  it('are refused without a request at a provider not declared supportsFlex', async () => {
    const { server, bodies } = await mock();
    const { llm } = client(server, { providers: { default: { baseUrl: server.baseUrl } } });
    const r = await llm(call('o4-mini'), { tier: 'flex' });
    expect(r.result).toMatchObject({ ok: false, attempts: 0, error: { code: 'tier_unsupported' } });
    expect(r.attempts).toEqual([]);
    expect(bodies).toHaveLength(0);
  });

  it('wait up to the flex timeout, or the per-call timeout a caller gives', async () => {
    const { server } = await mock();
    const slow = mockModel({ latency: 300, seed: 'slow' });
    const { llm } = client(server, { timeoutMs: 5_000, flexTimeoutMs: 50, retry: { maxAttempts: 1 } });
    const flex = await llm(call(slow), { tier: 'flex' });
    expect(flex.result.ok).toBe(false);
    if (!flex.result.ok) expect(flex.result.error.code).toBe('timeout');
    expect((await llm(call(slow))).result.ok).toBe(true);
    const generous = await llm(call(slow), { tier: 'flex', timeoutMs: 5_000 });
    expect(generous.result.ok).toBe(true);
    const tight = await llm(call(slow), { timeoutMs: 50 });
    expect(tight.result.ok).toBe(false);
  });

  it('leave the provider gate window alone on a flex refusal (it is no rate limit of the model)', async () => {
    const { server } = await mock({ flex: { refusalRate: 1 } });
    const outcomes: GateOutcome[] = [];
    const gate: ProviderGate = {
      acquire: () => Promise.resolve({ release: (o: GateOutcome) => void outcomes.push(o) }),
    };
    const { llm } = client(server, {}, gate);
    await llm(call('o4-mini'), { tier: 'flex' });
    expect(outcomes).toEqual(['failed', 'ok']);
  });

  it('send prompt_cache_key only where the provider accepts it, and report what the cache saved', async () => {
    const { server, bodies } = await mock();
    const system = 'Judge the two answers with care and explain the reasons for your verdict. '.repeat(100);
    const long = (q: string): Partial<LlmCallRequest> => ({
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: q },
      ],
    });
    const options: CallOptions = { promptCacheKey: 'ev_cache' };
    const { llm: plain } = client(server);
    await plain(call('gpt-4o-mini', long('A')), options);
    expect(bodies[0]?.prompt_cache_key).toBeUndefined();
    const { llm } = client(server, {
      providers: { default: { baseUrl: server.baseUrl, supportsPromptCacheKey: true } },
    });
    await llm(call('gpt-4o-mini', long('B')), options);
    const hit = await llm(call('gpt-4o-mini', long('C')), options);
    expect(bodies.slice(1).map((b) => b.prompt_cache_key)).toEqual(['ev_cache', 'ev_cache']);
    if (!hit.result.ok) throw new Error('expected a reply');
    const cached = hit.result.usage.cachedPromptTokens;
    expect(cached).toBeGreaterThanOrEqual(1024);
    expect(hit.usage?.cacheSavedUsd).toBeCloseTo((cached * (0.15 - 0.075)) / 1e6, 15);
  });
});

describe('tier settings', () => {
  const base = { LLM_BASE_URL: 'http://x/v1' };
  it('read supportsFlex, supportsBatch and supportsPromptCacheKey (default false) and LLM_FLEX_TIMEOUT_MS', () => {
    const plain = settingsFromEnv({ ...base });
    expect(plain.providers.default).toMatchObject({
      supportsFlex: false,
      supportsBatch: false,
      supportsPromptCacheKey: false,
    });
    expect(plain.flexTimeoutMs).toBe(900_000);
    const on = settingsFromEnv({
      ...base,
      LLM_SUPPORTS_FLEX: 'true',
      LLM_SUPPORTS_BATCH: 'true',
      LLM_SUPPORTS_PROMPT_CACHE_KEY: 'true',
      LLM_FLEX_TIMEOUT_MS: '120000',
      LLM_PROVIDERS: JSON.stringify({
        groq: { baseUrl: 'https://api.groq.com/openai/v1', supportsFlex: true },
        together: { baseUrl: 'https://api.together.xyz/v1', supportsBatch: true },
      }),
    });
    expect(on.providers.default).toMatchObject({
      supportsFlex: true,
      supportsBatch: true,
      supportsPromptCacheKey: true,
    });
    expect(on.flexTimeoutMs).toBe(120_000);
    expect(on.providers.groq).toMatchObject({ supportsFlex: true, supportsBatch: false });
    expect(on.providers.together).toMatchObject({ supportsFlex: false, supportsBatch: true });
    expect(supportsTier(on, 'groq', 'flex')).toBe(true);
    expect(supportsTier(on, 'groq', 'batch')).toBe(false);
    expect(supportsTier(on, undefined, 'batch')).toBe(true);
    expect(supportsTier(plain, undefined, 'flex')).toBe(false);
    expect(supportsTier(plain, undefined, 'standard')).toBe(true);
    expect(supportsTier(plain, 'nobody', 'standard')).toBe(false);
  });

  it('refuse malformed values as configuration errors', () => {
    // Flags and numbers are the deployment's configuration (src/config/vars.ts); a provider table is the LLM layer's.
    expect(() => settingsFromEnv({ ...base, LLM_SUPPORTS_FLEX: 'yes' })).toThrow(ConfigError);
    expect(() => settingsFromEnv({ ...base, LLM_FLEX_TIMEOUT_MS: '0' })).toThrow(ConfigError);
    expect(() =>
      settingsFromEnv({ ...base, LLM_PROVIDERS: JSON.stringify({ g: { baseUrl: 'x', supportsFlex: 'yes' } }) }),
    ).toThrow(LlmSettingsError);
  });
});
