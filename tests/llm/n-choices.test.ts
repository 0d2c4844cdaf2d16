/**
 * OpenAI's `n` on the wire, against the mock server: sent only to a provider declared `supportsN`; every
 * choice comes back with the one request's usage; a provider that ignores `n` (the mock's `n=ignore`)
 * returns one choice; settings read `supportsN` from `LLM_SUPPORTS_N` and `LLM_PROVIDERS`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import { describeFormat } from '../../src/engine/parsers/parse.js';
import { createLlm } from '../../src/llm/client.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { settingsFromEnv } from '../../src/llm/settings.js';
import { ConfigError } from '../../src/config/vars.js';
import { estimatePromptTokens, estimateTokens } from '../../src/llm/token-estimate.js';
import type { SeenRequest } from '../support/recording-fetch.js';
import { recordingFetch } from '../support/recording-fetch.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});

let seq = 0;
function request(model: string, n?: number): LlmCallRequest {
  seq += 1;
  return {
    id: `s${seq}`,
    agent: 'judge',
    label: 'Judge',
    stage: 'judge',
    model,
    messages: [
      { role: 'system', content: `Item ${seq}. Rate coherence 1-5. ${describeFormat({ type: 'geval-score' })}` },
    ],
    temperature: 2,
    maxTokens: 5,
    parser: { type: 'geval-score' },
    ...(n !== undefined ? { n } : {}),
  };
}

/** A client on the mock recording every request body. */
function client(supportsN: boolean) {
  const bodies: SeenRequest[] = [];
  const llm = createLlm(
    { providers: { default: { baseUrl: server.baseUrl, supportsN } }, defaultModel: 'mock-judge' },
    {
      fetch: recordingFetch(bodies),
    },
  );
  return { llm, bodies };
}

function ok(r: LlmCallResult): Extract<LlmCallResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected success, got ${JSON.stringify(r.error)}`);
  return r;
}

describe('n on the wire', () => {
  it('a provider with supportsN gets n and returns every choice, distinct and deterministic, with one prompt billed', async () => {
    const { llm, bodies } = client(true);
    const req = request(mockModel({ seed: 'n-wire' }), 20);
    const r = ok(await llm(req));
    expect(bodies[0]?.body.n).toBe(20);
    expect(r.choices).toHaveLength(20);
    expect(r.content).toBe(r.choices?.[0]);
    expect(new Set(r.choices).size).toBeGreaterThan(1);
    // The mock's usage: the prompt once, every choice's completion.
    expect(r.usage.promptTokens).toBe(estimatePromptTokens(req.messages));
    expect(r.usage.completionTokens).toBe((r.choices ?? []).reduce((n, c) => n + estimateTokens(c), 0));
    expect(r.usage.estimated).toBe(false);
    // The same request again: the same choices.
    const again = ok(await client(true).llm({ ...req, id: 'again' }));
    expect(again.choices).toEqual(r.choices);
  });

  it('a provider without supportsN never gets n: one choice comes back', async () => {
    const { llm, bodies } = client(false);
    const r = ok(await llm(request(mockModel({ seed: 'n-off' }), 20)));
    expect(bodies[0]?.body).not.toHaveProperty('n');
    expect(r.choices).toHaveLength(1);
    expect(r.usage.promptTokens).toBeGreaterThan(0);
  });

  it('a provider that ignores n (mock n=ignore) returns one choice; a request without n carries no choices', async () => {
    const { llm, bodies } = client(true);
    const short = ok(await llm(request(mockModel({ seed: 'n-ignored', n: 'ignore' }), 3)));
    expect(bodies[0]?.body.n).toBe(3);
    expect(short.choices).toHaveLength(1);
    const plain = ok(await llm(request(mockModel({ seed: 'n-none' }))));
    expect(bodies[1]?.body).not.toHaveProperty('n');
    expect(plain.choices).toBeUndefined();
  });

  it('the mock refuses an n that OpenAI refuses', async () => {
    const res = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock-judge', messages: [{ role: 'user', content: 'hi' }], n: 0 }),
    });
    expect(res.status).toBe(400);
  });
});

describe('declaring supportsN', () => {
  const base = { LLM_BASE_URL: 'https://api.example.test/v1' };
  it('LLM_SUPPORTS_N for the default provider, supportsN per LLM_PROVIDERS entry; default false', () => {
    expect(settingsFromEnv(base).providers.default?.supportsN).toBe(false);
    expect(settingsFromEnv({ ...base, LLM_SUPPORTS_N: 'true' }).providers.default?.supportsN).toBe(true);
    const s = settingsFromEnv({
      ...base,
      LLM_PROVIDERS: JSON.stringify({
        oa: { baseUrl: 'https://api.openai.com/v1', supportsN: true },
        local: { baseUrl: 'http://localhost:11434/v1' },
      }),
    });
    expect(s.providers.oa?.supportsN).toBe(true);
    expect(s.providers.local?.supportsN).toBe(false);
  });

  it('a value that is neither true nor false is a configuration error, not a silent default', () => {
    expect(() => settingsFromEnv({ ...base, LLM_SUPPORTS_N: 'yes' })).toThrow(ConfigError);
  });
});
