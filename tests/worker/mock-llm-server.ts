/**
 * Node side of the worker suite: serves the project's mock LLM (the Node adapter, `startMockServer`) over
 * real HTTP on 127.0.0.1, so Worker code reaches it through its ordinary `fetch`, exactly like a provider.
 * Adds one test-only route, `GET /_test/requests?seed=<seed>`, answering `{ count }`: the chat-completion
 * requests seen whose model name carries that `seed` (tests use one seed each to count their calls), and
 * `GET /_test/cache-keys?seed=<seed>` answering `{ keys }`: the `prompt_cache_key` each of them carried, in
 * order (null for none).
 */
import { parseMockModel } from '../../src/mock-llm/model-name.js';
import { startMockServer } from '../../src/mock-llm/node.js';

/** A running mock; `url` ends in `/v1`. */
export interface TestMockServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The seed of a chat-completion request's mock model ('' without a model) and its `prompt_cache_key`; null
 * when the body or name is malformed.
 */
async function seedOf(request: Request): Promise<{ seed: string; cacheKey: string | null } | null> {
  try {
    const body = (await request.clone().json()) as { model?: unknown; prompt_cache_key?: unknown };
    const seed = typeof body.model === 'string' ? parseMockModel(body.model).seed : '';
    return { seed, cacheKey: typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : null };
  } catch {
    // The mock itself answers malformed requests with 400; they are not counted.
    return null;
  }
}

/** Starts the mock on a free port of 127.0.0.1. */
export async function startTestMockServer(): Promise<TestMockServer> {
  const counts = new Map<string, number>();
  const cacheKeys = new Map<string, (string | null)[]>();
  const server = await startMockServer({
    // Never keep the test process alive for the mock alone.
    unref: true,
    around: async (request, next) => {
      const url = new URL(request.url);
      if (url.pathname === '/_test/requests') {
        const seed = url.searchParams.get('seed') ?? '';
        return Response.json({ count: counts.get(seed) ?? 0 });
      }
      if (url.pathname === '/_test/cache-keys') {
        return Response.json({ keys: cacheKeys.get(url.searchParams.get('seed') ?? '') ?? [] });
      }
      if (url.pathname.endsWith('/chat/completions')) {
        const seen = await seedOf(request);
        if (seen !== null) {
          counts.set(seen.seed, (counts.get(seen.seed) ?? 0) + 1);
          cacheKeys.set(seen.seed, [...(cacheKeys.get(seen.seed) ?? []), seen.cacheKey]);
        }
      }
      return next(request);
    },
  });
  return { url: server.baseUrl, close: () => server.close() };
}
