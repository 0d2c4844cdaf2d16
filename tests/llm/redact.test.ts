/**
 * Redaction: credential shapes and the deployment's own secret values never survive; the rest of a
 * provider's message (status, kind of error, wording) does. Then the client end to end against a mock
 * that echoes the key it was sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmCallRequest } from '../../src/engine/call.js';
import { dominantAttemptIndex, summarizeAttempts } from '../../src/llm/attempts.js';
import { createLlm } from '../../src/llm/client.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { createRedactor, isSecretName, REDACTED, redactSecrets, rememberSecrets } from '../../src/log/redact.js';
import { settingsFromEnv } from '../../src/llm/settings.js';

describe('createRedactor', () => {
  const redact = createRedactor();

  it.each([
    [
      'OpenAI',
      'Incorrect API key provided: sk-abcdefghijklmnopqrstuvwxyz012345.',
      'Incorrect API key provided: [redacted].',
    ],
    ['OpenAI project', 'key sk-proj-AbC123_def-456ghiJKL was revoked', 'key [redacted] was revoked'],
    [
      'OpenAI masked echo',
      'Incorrect API key provided: sk-proj-********************abcd.',
      'Incorrect API key provided: [redacted].',
    ],
    ['Groq', 'invalid gsk_9f8e7d6c5b4a39281706 key', 'invalid [redacted] key'],
    ['Google', 'API key not valid: AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv', 'API key not valid: [redacted]'],
    ['xAI', 'bad key xai-Qw3rTy7uIoP0aSdF', 'bad key [redacted]'],
    ['Tribunal', 'token trb_Zx9Yw8Vu7Ts6 refused', 'token [redacted] refused'],
    ['webhook secret', 'signing with whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'signing with [redacted]'],
    [
      'Bearer header',
      'sent "Authorization: Bearer abc.def-123_XYZ" upstream',
      'sent "Authorization: Bearer [redacted]" upstream',
    ],
    [
      'query parameter',
      'GET https://x.test/v1?api_key=s3cr3tvalue&q=1 failed',
      'GET https://x.test/v1?api_key=[redacted]&q=1 failed',
    ],
    ['JSON field', '{"x-api-key": "s3cr3tvalue", "ok": true}', '{"x-api-key": "[redacted]", "ok": true}'],
  ])('removes a %s credential', (_name, text, expected) => {
    expect(redact(text)).toBe(expected);
  });

  it('keeps what the caller needs: status, kind of error, ordinary words', () => {
    const text =
      'provider "default" returned HTTP 429: Rate limit reached for task-risk-assessment, ask-me later (5 attempts: 429 ×4, timeout)';
    expect(redact(text)).toBe(text);
  });

  it("removes the deployment's own values literally, whatever their shape, longest first", () => {
    const r = createRedactor(['plainDeploymentKey42', 'plainDeploymentKey42-extended', undefined, '', 'abc']);
    expect(r('sent plainDeploymentKey42-extended and plainDeploymentKey42')).toBe(`sent ${REDACTED} and ${REDACTED}`);
    // Values under 4 characters would match ordinary text and are not searched for.
    expect(r('abc')).toBe('abc');
  });

  it('knows which environment names hold secrets', () => {
    expect(['LLM_API_KEY', 'GROQ_API_KEY', 'ADMIN_TOKEN', 'WEBHOOK_SECRET', 'DB_PASSWORD'].every(isSecretName)).toBe(
      true,
    );
    expect(['LLM_BASE_URL', 'LLM_MODEL', 'API_KEYS', 'ALLOW_BYOK'].some(isSecretName)).toBe(false);
  });

  it('redactSecrets (for the logger) removes values the settings reader remembered', () => {
    settingsFromEnv({ LLM_BASE_URL: 'http://x/v1', LLM_API_KEY: 'remembered-deploy-key-77' });
    rememberSecrets(['another-remembered-value']);
    expect(redactSecrets('{"detail":"remembered-deploy-key-77 / another-remembered-value / sk-abcdef123456"}')).toBe(
      `{"detail":"${REDACTED} / ${REDACTED} / ${REDACTED}"}`,
    );
  });
});

describe('attempt summaries', () => {
  const a = (kind: 'http' | 'timeout', code: string, status?: number) => ({
    kind,
    code,
    ...(status ? { status } : {}),
  });

  it('labels attempts by status, else kind, with counts in order of first appearance', () => {
    expect(
      summarizeAttempts([
        a('http', 'rate_limited', 429),
        a('http', 'rate_limited', 429),
        a('timeout', 'timeout'),
        a('timeout', 'timeout'),
        a('timeout', 'timeout'),
      ]),
    ).toBe('5 attempts: 429 ×2, timeout ×3');
    expect(summarizeAttempts([a('http', 'auth', 401)])).toBe('1 attempt: 401');
  });

  it('picks the latest attempt of the most frequent code; a tie goes to the later code', () => {
    expect(dominantAttemptIndex([{ code: 'rate_limited' }, { code: 'rate_limited' }, { code: 'timeout' }])).toBe(1);
    expect(
      dominantAttemptIndex([
        { code: 'timeout' },
        { code: 'rate_limited' },
        { code: 'timeout' },
        { code: 'rate_limited' },
      ]),
    ).toBe(3);
    expect(dominantAttemptIndex([{ code: 'rate_limited' }, { code: 'timeout' }, { code: 'timeout' }])).toBe(2);
    expect(dominantAttemptIndex([])).toBe(-1);
  });
});

describe('the client against a provider that echoes its key', () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startMockServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const request = (model: string, provider?: string): LlmCallRequest => ({
    id: 'echo',
    agent: 'judge',
    label: 'Judge',
    stage: 'verdict',
    model,
    ...(provider ? { provider } : {}),
    messages: [{ role: 'user', content: `Which is better? ${model}` }],
    temperature: 0,
    maxTokens: 64,
    parser: { type: 'text' },
  });

  it.each([
    ['the default provider (LLM_API_KEY)', undefined, 'deployment-key-with-no-known-shape-1234'],
    ['a named provider (its apiKeySecret)', 'groq', 'gsk_groqKeyEchoedBack998877'],
  ])('never returns the key of %s, yet says what happened', async (_name, provider, key) => {
    const env = {
      LLM_BASE_URL: server.baseUrl,
      LLM_API_KEY: provider ? 'unused-default-key-000' : key,
      LLM_PROVIDERS: JSON.stringify({ groq: { baseUrl: server.baseUrl, apiKeySecret: 'GROQ_API_KEY' } }),
      GROQ_API_KEY: provider ? key : 'unused-groq-key-000',
      LLM_RETRY_BASE_MS: '0',
    };
    const llm = createLlm(settingsFromEnv(env));
    const permanent = await llm(request(mockModel({ permanent: 401, echoKey: true, seed: `perm-${key}` }), provider));
    const retried = await llm(request(mockModel({ fail: [[500, 9]], echoKey: true, seed: `500-${key}` }), provider));
    if (permanent.ok || retried.ok) throw new Error('expected failures');
    for (const r of [permanent, retried]) {
      expect(JSON.stringify(r)).not.toContain(key);
      expect(r.error.message).toContain(`Incorrect API key provided: ${REDACTED}`);
      expect(r.error.message).toContain(`"Authorization: Bearer ${REDACTED}"`);
    }
    expect(permanent.error).toMatchObject({ code: 'auth', status: 401 });
    expect(retried.error).toMatchObject({ code: 'provider_error', status: 500 });
    expect(retried.error.message).toMatch(/\(5 attempts: 500 ×5\)$/);
  });

  it('the mock really echoes the key (so the test above can fail)', async () => {
    const res = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer visible-key-123', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: mockModel({ permanent: 401, echoKey: true }),
        messages: [{ role: 'user', content: 'hi' }],
      }),
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Incorrect API key provided: visible-key-123');
  });
});
