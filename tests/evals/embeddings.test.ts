/**
 * `cosine`'s embeddings over the deployment's LLM settings (src/evals/llm.ts, src/llm/embeddings.ts) in Node,
 * with `fetch` stubbed: the request goes to the default provider's `/embeddings` with its key, a failure is the
 * grader's `other_error` naming the provider's status and message without the key, a provider that never
 * answers is cut at the settings' `timeoutMs`, and a malformed reply is retried, then named, never scored.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { grade } from '../../src/evals/graders.js';
import { EMBEDDING_MODEL, graderDeps } from '../../src/evals/llm.js';

const KEY = 'sk-embeddings-test-key-0123456789';
/** Retries 1 ms apart, so a test of them takes no time. */
const env = (extra: Record<string, string> = {}) =>
  ({
    LLM_BASE_URL: 'https://llm.example/v1/',
    LLM_API_KEY: KEY,
    LLM_RETRY_BASE_MS: '1',
    LLM_RETRY_MAX_MS: '1',
    ...extra,
  }) as unknown as Bindings;
const cosine = {
  type: 'text_similarity',
  name: 'cos',
  input: 'a b',
  reference: 'a c',
  evaluation_metric: 'cosine',
  pass_threshold: 0.5,
} as const;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('embeddings for cosine', () => {
  it('asks the default provider with its key, and scores the cosine of the vectors', async () => {
    const fetch = vi.fn((_url: string, _init: RequestInit) =>
      Promise.resolve(
        Response.json({
          data: [
            { index: 1, embedding: [1, 1] },
            { index: 0, embedding: [1, 0] },
          ],
        }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const r = await grade(cosine, { item: {} }, graderDeps(env()));
    expect(r.score).toBeCloseTo(Math.SQRT1_2, 12);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('https://llm.example/v1/embeddings');
    expect(new Headers(init?.headers).get('authorization')).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(init?.body as string)).toEqual({ model: EMBEDDING_MODEL, input: ['a b', 'a c'] });
  });

  it("a provider's refusal is other_error with its status and message, the key removed", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(Response.json({ error: { message: `Incorrect API key provided: ${KEY}` } }, { status: 401 })),
    );
    const r = await grade(cosine, { item: {} }, graderDeps(env()));
    expect(r).toMatchObject({ score: 0, passed: false, error: { kind: 'other_error' } });
    expect(r.error?.message).toMatch(/HTTP 401: Incorrect API key provided/);
    expect(r.error?.message).not.toContain(KEY);
  });

  it('a provider that never answers is cut at LLM_TIMEOUT_MS', async () => {
    vi.stubGlobal(
      'fetch',
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => {
            reject(new Error('aborted'));
          });
        }),
    );
    const r = await grade(cosine, { item: {} }, graderDeps(env({ LLM_TIMEOUT_MS: '50', LLM_MAX_ATTEMPTS: '2' })));
    expect(r.error).toEqual({ kind: 'other_error', message: expect.stringMatching(/no reply within 50 ms/) as string });
  });

  it.each([
    ['a body that is not JSON', () => new Response('<html>oops</html>', { status: 200 }), /malformed response body/],
    ['no data list', () => Response.json({ object: 'list' }), /malformed embeddings: no data list/],
    ['one vector for two inputs', () => Response.json({ data: [{ index: 0, embedding: [1, 0] }] }), /1 vectors for 2/],
    [
      'an item without its vector',
      () => Response.json({ data: [{ index: 0, embedding: [1, 0] }, { index: 1 }] }),
      /item 1 has no embedding vector/,
    ],
    [
      'a vector of strings',
      () =>
        Response.json({
          data: [
            { index: 0, embedding: [1, 0] },
            { index: 1, embedding: ['1', '1'] },
          ],
        }),
      /other than finite numbers/,
    ],
  ])('%s is retried as a malformed reply, then named: never a crash or a score', async (_what, reply, cause) => {
    const fetch = vi.fn(() => Promise.resolve(reply()));
    vi.stubGlobal('fetch', fetch);
    const r = await grade(cosine, { item: {} }, graderDeps(env({ LLM_MAX_ATTEMPTS: '3' })));
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(r).toMatchObject({ score: 0, passed: false, error: { kind: 'other_error' } });
    expect(r.error?.message).toMatch(cause);
    expect(r.error?.message).toMatch(/3 attempts: malformed ×3/);
  });

  it('a malformed reply followed by a good one scores the good one', async () => {
    const replies = [
      Response.json({ data: [{ index: 0, embedding: [1, 0] }, { index: 1 }] }),
      Response.json({
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 1, embedding: [1, 1] },
        ],
      }),
    ];
    vi.stubGlobal('fetch', () => Promise.resolve(replies.shift() ?? Response.json({}, { status: 500 })));
    const r = await grade(cosine, { item: {} }, graderDeps(env()));
    expect(r.error).toBeUndefined();
    expect(r.score).toBeCloseTo(Math.SQRT1_2, 12);
    expect(replies).toHaveLength(0);
  });
});
