/**
 * The pieces a tier is built from: one request body for standard, flex and batch (identical but for
 * `service_tier`, on the wire too), the custom_id mapping (length, alphabet, uniqueness, collisions, its
 * inverse), waves split into files by model, count and bytes, and prices per tier with cached tokens.
 */
import { describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { BatchPlanError, planBatchFiles } from '../../src/llm/batch-files.js';
import { createLlm } from '../../src/llm/client.js';
import { createTieredLlm } from '../../src/llm/client.js';
import { CUSTOM_ID_PATTERN, customIdFor, CustomIdCollisionError, CustomIdIndex } from '../../src/llm/custom-id.js';
import { handleMockRequest } from '../../src/mock-llm/handler.js';
import { costOf, costUsd, DEFAULT_PRICES, priceAtTier, priceFor } from '../../src/llm/pricing.js';
import { batchLine, buildChatBody } from '../../src/llm/request.js';
import type { BatchInputLine } from '../../src/llm/request.js';
import { settingsFromEnv } from '../../src/llm/settings.js';
import { LlmSettingsError } from '../../src/llm/settings-error.js';
import { responseFormatFor } from '../../src/llm/structured.js';
import { usageOf } from '../../src/llm/usage.js';
import { createMockState } from '../../src/mock-llm/state.js';

const CALL: LlmCallRequest = {
  id: 'ab/turn1/agent0',
  agent: 'agent0',
  label: 'Critic',
  stage: 'turn 1',
  model: 'gpt-4o-mini',
  messages: [
    { role: 'system', content: 'You are a fair judge.' },
    { role: 'user', content: 'Which is better, A or B?', name: 'Alice' },
    { role: 'assistant', content: 'Let me think.' },
  ],
  temperature: 0,
  maxTokens: 300,
  parser: { type: 'json', shape: 'winner' },
  n: 3,
};

describe('one request builder', () => {
  const options = {
    model: 'gpt-4o-mini',
    responseFormat: responseFormatFor({ type: 'json', shape: 'winner' }),
    n: 3,
    promptCacheKey: 'ev_1',
  };

  it('builds the same body for standard, flex and batch, but for service_tier', () => {
    const standard = buildChatBody(CALL, { ...options, tier: 'standard' });
    const flex = buildChatBody(CALL, { ...options, tier: 'flex' });
    const batch = buildChatBody(CALL, { ...options, tier: 'batch' });
    expect(flex.service_tier).toBe('flex');
    expect(standard.service_tier).toBeUndefined();
    const { service_tier: _tier, ...flexRest } = flex;
    expect(JSON.stringify(flexRest)).toBe(JSON.stringify(standard));
    expect(JSON.stringify(batch)).toBe(JSON.stringify(standard));
    expect(standard).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a fair judge.' },
        { role: 'user', content: 'Which is better, A or B?', name: 'Alice' },
        { role: 'assistant', content: 'Let me think.' },
      ],
      temperature: 0,
      max_tokens: 300,
      response_format: options.responseFormat,
      n: 3,
      prompt_cache_key: 'ev_1',
    });
    const line = batchLine('c1', batch);
    expect(line).toEqual({ custom_id: 'c1', method: 'POST', url: '/v1/chat/completions', body: batch });
    expect(batchLine('c1', batch, '/chat/completions').url).toBe('/chat/completions');
  });

  it('is what the client sends: the wire body of a standard and a flex call equals the builder (and the batch line)', async () => {
    const sent: Record<string, unknown>[] = [];
    const state = createMockState();
    const fetchSpy: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      sent.push((await request.clone().json()) as Record<string, unknown>);
      return handleMockRequest(request, { state });
    };
    const llm = createTieredLlm(
      {
        providers: {
          default: {
            baseUrl: 'http://mock.invalid/v1',
            supportsFlex: true,
            supportsN: true,
            supportsPromptCacheKey: true,
          },
        },
      },
      { fetch: fetchSpy },
    );
    await llm(CALL, { promptCacheKey: 'ev_1' });
    await llm(CALL, { tier: 'flex', promptCacheKey: 'ev_1' });
    const batch = batchLine(customIdFor('ev_1', CALL.id), buildChatBody(CALL, { ...options, tier: 'batch' }));
    expect(sent[0]).toEqual(JSON.parse(JSON.stringify(batch.body)));
    expect(sent[1]).toEqual({ ...(JSON.parse(JSON.stringify(batch.body)) as object), service_tier: 'flex' });
    // The engine-facing face sends the same standard body.
    sent.length = 0;
    await createLlm(
      { providers: { default: { baseUrl: 'http://mock.invalid/v1', supportsN: true } } },
      { fetch: fetchSpy },
    )(CALL);
    const { prompt_cache_key: _key, ...withoutKey } = JSON.parse(JSON.stringify(batch.body)) as Record<string, unknown>;
    expect(sent[0]).toEqual(withoutKey);
  });
});

describe('custom_id', () => {
  it('fits 64 characters of [A-Za-z0-9_-] whatever the ids hold, and is deterministic', () => {
    const pairs: [string, string][] = [
      ['ev_01HZX', 'ab/turn1/agent0#1'],
      ['', ''],
      ['é'.repeat(300), '🙂/'.repeat(100)],
      ['x'.repeat(5000), 'y'.repeat(5000)],
      ['ev with spaces', 'call\nwith\nnewlines'],
    ];
    for (const [e, c] of pairs) {
      const id = customIdFor(e, c);
      expect(id.length).toBeLessThanOrEqual(64);
      expect(id).toMatch(CUSTOM_ID_PATTERN);
      expect(customIdFor(e, c)).toBe(id);
    }
    // Readable parts first (`_` is the separator, so it is replaced inside them), then the hash.
    expect(customIdFor('ev_01HZX', 'ab/turn1/agent0')).toMatch(/^ev-01HZX_ab-turn1-agent0_[0-9a-f]{28}$/);
  });

  it('is unique over 20,000 calls, and tells apart ids that read alike', () => {
    const seen = new Set<string>();
    for (let e = 0; e < 20; e++)
      for (let c = 0; c < 1000; c++) seen.add(customIdFor(`ev_${e}`, `round${c % 7}/agent${c}`));
    expect(seen.size).toBe(20_000);
    // Same readable parts, different pairs.
    expect(customIdFor('ev', 'a/b')).not.toBe(customIdFor('ev', 'a-b'));
    expect(customIdFor('ab', 'c')).not.toBe(customIdFor('a', 'bc'));
    expect(customIdFor('a\u0000b', 'c')).not.toBe(customIdFor('a', 'b\u0000c'));
    expect(customIdFor('ev', 'x'.repeat(40) + '1')).not.toBe(customIdFor('ev', 'x'.repeat(40) + '2'));
  });

  it('keeps its inverse in an index that round-trips as plain data and refuses a collision', () => {
    const index = new CustomIdIndex();
    const a = index.add('ev_1', 'ab/turn1/agent0');
    const b = index.add('ev_2', 'ab/turn1/agent0');
    expect(index.add('ev_1', 'ab/turn1/agent0')).toBe(a);
    expect(index.size).toBe(2);
    expect(index.get(a)).toEqual({ evaluationId: 'ev_1', callId: 'ab/turn1/agent0' });
    expect(index.get('nope')).toBeUndefined();
    const copy = CustomIdIndex.from(
      JSON.parse(JSON.stringify(index.entries())) as [string, { evaluationId: string; callId: string }][],
    );
    expect(copy.get(b)).toEqual({ evaluationId: 'ev_2', callId: 'ab/turn1/agent0' });
    expect(() =>
      CustomIdIndex.from([
        ['same', { evaluationId: 'e1', callId: 'c' }],
        ['same', { evaluationId: 'e2', callId: 'c' }],
      ]),
    ).toThrow(CustomIdCollisionError);
  });
});

describe('splitting a wave into files', () => {
  const line = (id: string, model: string, content = 'x'): BatchInputLine =>
    batchLine(
      id,
      buildChatBody({ messages: [{ role: 'user', content }], temperature: 0, maxTokens: 8 }, { model, tier: 'batch' }),
    );

  it('groups by model and cuts by count and bytes, each file valid JSONL', () => {
    const lines = [line('a1', 'm-a'), line('b1', 'm-b'), line('a2', 'm-a'), line('a3', 'm-a'), line('b2', 'm-b')];
    const byCount = planBatchFiles(lines, { maxRequests: 2, maxBytes: 1e9 });
    expect(byCount.map((f) => [f.model, f.customIds])).toEqual([
      ['m-a', ['a1', 'a2']],
      ['m-b', ['b1', 'b2']],
      ['m-a', ['a3']],
    ]);
    const one = `${JSON.stringify(line('c1', 'm', 'é'))}\n`;
    const size = new TextEncoder().encode(one).byteLength;
    expect(size).toBeGreaterThan(one.length);
    const byBytes = planBatchFiles(
      ['c1', 'c2', 'c3', 'c4', 'c5'].map((id) => line(id, 'm', 'é')),
      { maxRequests: 100, maxBytes: 2 * size + 1 },
    );
    expect(byBytes.map((f) => f.customIds.length)).toEqual([2, 2, 1]);
    for (const f of byBytes) {
      expect(f.bytes).toBe(new TextEncoder().encode(f.lines.join('')).byteLength);
      expect(f.bytes).toBeLessThanOrEqual(2 * size + 1);
      for (const l of f.lines) expect((JSON.parse(l) as BatchInputLine).body.model).toBe('m');
    }
    // Defaults: the providers' 50,000 requests, 16 MiB.
    expect(
      planBatchFiles(Array.from({ length: 50_001 }, (_, i) => line(`x${i}`, 'm'))).map((f) => f.lines.length),
    ).toEqual([50_000, 1]);
  });

  it('refuses a line larger than a file, and a custom_id used twice', () => {
    expect(() => planBatchFiles([line('big', 'm', 'y'.repeat(500))], { maxRequests: 10, maxBytes: 100 })).toThrow(
      BatchPlanError,
    );
    try {
      planBatchFiles([line('d', 'm'), line('d', 'm')]);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(BatchPlanError);
      expect((e as BatchPlanError).code).toBe('duplicate_custom_id');
    }
  });
});

describe('prices per tier', () => {
  const tokens = { promptTokens: 10_000, cachedPromptTokens: 4_096, completionTokens: 1_000 };

  it('bills cached prompt tokens at the tier cached price and reports what the cache saved', () => {
    const gpt5 = priceFor('gpt-5-2025-08-07');
    const standard = costOf(tokens, gpt5, 'standard');
    expect(standard.costUsd).toBeCloseTo((5_904 * 1.25 + 4_096 * 0.125 + 1_000 * 10) / 1e6, 12);
    expect(standard.cacheSavedUsd).toBeCloseTo((4_096 * (1.25 - 0.125)) / 1e6, 12);
    const flex = costOf(tokens, gpt5, 'flex');
    const batch = costOf(tokens, gpt5, 'batch');
    expect(flex.costUsd).toBeCloseTo(standard.costUsd / 2, 12);
    expect(batch.costUsd).toBeCloseTo(standard.costUsd / 2, 12);
    expect(flex.cacheSavedUsd).toBeCloseTo(standard.cacheSavedUsd / 2, 12);
    expect(costUsd(tokens, gpt5)).toBe(standard.costUsd);
  });

  it('bills a tier without its own price at the standard price, and cached tokens at input without a cached price', () => {
    const mini = priceFor('gpt-4o-mini');
    expect(priceAtTier(mini, 'flex')).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(costOf(tokens, mini, 'flex').costUsd).toBe(costOf(tokens, mini, 'standard').costUsd);
    const batch = costOf(tokens, mini, 'batch');
    expect(batch.costUsd).toBeCloseTo((10_000 * 0.075 + 1_000 * 0.3) / 1e6, 12);
    expect(batch.cacheSavedUsd).toBe(0);
    expect(costOf(tokens, undefined, 'batch')).toEqual({ tier: 'batch', costUsd: 0, cacheSavedUsd: 0 });
    expect(costOf(tokens, DEFAULT_PRICES.mock, 'flex').costUsd).toBe(0);
  });

  it('prices a usage at its tier; LLM_PRICES takes tier prices and refuses bad ones', () => {
    const u = usageOf(
      { prompt_tokens: 2_000, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 1_024 } },
      [],
      'reply',
      priceFor('o3'),
      'batch',
    );
    expect(u).toMatchObject({ tier: 'batch', cachedPromptTokens: 1_024, promptTokens: 2_000 });
    expect(u.costUsd).toBeCloseTo((976 * 1 + 1_024 * 0.25 + 100 * 4) / 1e6, 12);
    expect(u.cacheSavedUsd).toBeCloseTo((1_024 * 0.75) / 1e6, 12);
    const base = { LLM_BASE_URL: 'http://x/v1' };
    const s = settingsFromEnv({
      ...base,
      LLM_PRICES: JSON.stringify({
        'my-model': { input: 1, output: 2, flex: { input: 0.4, output: 0.8 }, batch: { input: 0.5, output: 1 } },
      }),
    });
    expect(priceAtTier(s.prices['my-model'], 'flex')).toEqual({ input: 0.4, output: 0.8 });
    expect(() =>
      settingsFromEnv({
        ...base,
        LLM_PRICES: JSON.stringify({ m: { input: 1, output: 1, flex: { input: -1, output: 1 } } }),
      }),
    ).toThrow(LlmSettingsError);
    expect(() =>
      settingsFromEnv({
        ...base,
        LLM_PRICES: JSON.stringify({ m: { input: 1, output: 1, priority: { input: 1, output: 1 } } }),
      }),
    ).toThrow(LlmSettingsError);
  });
});
