/**
 * Node side of the worker suite: serves the project's mock LLM (the Node adapter, `startMockServer`) over
 * real HTTP on 127.0.0.1, so Worker code reaches it through its ordinary `fetch`, exactly like a provider.
 * Adds one test-only route, `GET /_test/requests?seed=<seed>`, answering `{ count }`: the chat-completion
 * requests seen whose model name carries that `seed` (tests use one seed each to count their calls).
 */
import { parseMockModel } from '../../src/mock-llm/model-name.js';
import { startMockServer } from '../../src/mock-llm/node.js';

/** A running mock; `url` ends in `/v1`. */
export interface TestMockServer {
  url: string;
  close(): Promise<void>;
}

/** The seed of a chat-completion request's mock model ('' without a model); null when the body or name is malformed. */
async function seedOf(request: Request): Promise<string | null> {
  try {
    const model = ((await request.clone().json()) as { model?: unknown }).model;
    return typeof model === 'string' ? parseMockModel(model).seed : '';
  } catch {
    // The mock itself answers malformed requests with 400; they are not counted.
    return null;
  }
}

/** Starts the mock on a free port of 127.0.0.1. */
export async function startTestMockServer(): Promise<TestMockServer> {
  const counts = new Map<string, number>();
  const server = await startMockServer({
    // Never keep the test process alive for the mock alone.
    unref: true,
    around: async (request, next) => {
      const url = new URL(request.url);
      if (url.pathname === '/_test/requests') {
        const seed = url.searchParams.get('seed') ?? '';
        return Response.json({ count: counts.get(seed) ?? 0 });
      }
      if (url.pathname.endsWith('/chat/completions')) {
        const seed = await seedOf(request);
        if (seed !== null) counts.set(seed, (counts.get(seed) ?? 0) + 1);
      }
      return next(request);
    },
  });
  return { url: server.baseUrl, close: () => server.close() };
}
