/**
 * Node side of the worker suite: serves the project's mock LLM (the Node adapter, `startMockServer`) over
 * real HTTP on 127.0.0.1, so Worker code reaches it through its ordinary `fetch`, exactly like a provider.
 * Adds test-only routes:
 * - `GET /_test/requests?seed=<seed>` answers `{ count, resent }`: the chat-completion requests seen whose model
 *   name carries that `seed` (tests use one seed each to count their calls); with `&route=responses`, the
 *   Responses API requests (`POST /v1/responses`) instead. `count` is each call's first attempt plus the
 *   retries of attempts that failed (a fault, a refusal, an error status); `resent` is the rest: the re-sends of
 *   an attempt this mock had answered cleanly (its call id and retry-count headers, ../../src/llm/send-attempt.ts,
 *   say so), which only a loaded machine causes (the answer was not read within the client's timeout, or the
 *   instance that sent it died before storing it). A call sent afresh after its result was stored starts again
 *   at retry count 0, so it is counted: a stored call repeated still fails a test's count. The
 *   cache keys and prompts below leave re-sends out the same way;
 * - `GET /_test/attempts?seed=<seed>` answers `{ attempts }`: each chat-completion request's call id and retry count
 *   headers, in order (null for a request without them), re-sends included;
 * - `GET /_test/cache-keys?seed=<seed>` answers `{ keys }`: the `prompt_cache_key` each of them carried, in
 *   order (null for none);
 * - `GET /_test/prompts?seed=<seed>` answers `{ prompts }`: each of them's messages' contents joined by a
 *   blank line, in order (what a template sent, e.g. the steps a rubric's auto-CoT wrote);
 * - `PUT /_test/groups?seed=<seed>&size=<n>` makes the replies to that seed's requests go out in groups of
 *   `n`: each reply, once ready, is held until `n` replies are, then all of them are sent in the same tick
 *   (a wave of parallel calls gets its results together, however loaded the machine is); `size=Infinity` holds
 *   every reply; a new size keeps the replies held, and sends them once they are as many (`size=1`: the held
 *   replies go, and no later one is held); `GET` answers `{ size, held }` (the replies held now), `POST` sends
 *   the replies held now (a test lets a call in flight end when it chooses).
 * - `PUT /_test/batch?turnaround=<ms>&failure=<p>&expiry=<p>&uploadLoss=<p>&createLoss=<p>` sets the Batch API's
 *   turnaround and per-line failure and expiry rates for the batches created from then on, and the shares of
 *   uploads and of batch creations whose answer is lost (defaults: {@link BATCH_DEFAULTS});
 *   `GET /_test/batch` answers `{ uploads, creates, lists }`: the `POST /files`, `POST /batches` and
 *   `GET /batches` (the listing, not one batch) requests seen so far;
 * - `POST /_test/batch-lock` answers once the caller holds the Batch API (see `holdMockBatchApi` in
 *   ./helpers.ts), `DELETE /_test/batch-lock` lets the next one have it.
 */
import { parseMockModel } from '../../src/mock-llm/model-name.js';
import type { MockBatchOptions } from '../../src/mock-llm/batches.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import { MOCK_FAULT_HEADER } from '../../src/mock-llm/responses.js';
import { CALL_ID_HEADER, RETRY_COUNT_HEADER } from '../../src/llm/send-attempt.js';

/** A running mock; `url` ends in `/v1`. */
export interface TestMockServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The seed of a chat-completion request's mock model ('' without a model) and its `prompt_cache_key`; null
 * when the body or name is malformed.
 */
async function seedOf(request: Request): Promise<{ seed: string; cacheKey: string | null; prompt: string } | null> {
  try {
    const raw: unknown = await request.clone().json();
    const body = raw as {
      model?: unknown;
      prompt_cache_key?: unknown;
      messages?: unknown;
      instructions?: unknown;
      input?: unknown;
    };
    const seed = typeof body.model === 'string' ? parseMockModel(body.model).seed : '';
    // A Responses API request's prompt: its instructions, then its input (a string or messages).
    const input = typeof body.input === 'string' ? [{ content: body.input }] : body.input;
    const listed: unknown = Array.isArray(body.messages) ? body.messages : input;
    const messages: { content?: unknown }[] = [
      ...(typeof body.instructions === 'string' ? [{ content: body.instructions }] : []),
      ...(Array.isArray(listed) ? (listed as { content?: unknown }[]) : []),
    ];
    const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n\n');
    return { seed, cacheKey: typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : null, prompt };
  } catch {
    // The mock itself answers malformed requests with 400; they are not counted.
    return null;
  }
}

/**
 * The call a request is an attempt of (the client's call id header within `scope`: the seed and the evaluation's
 * `prompt_cache_key`) and the attempts of it sent before (the retry-count header); null without a call id.
 */
function attemptOf(request: Request, scope: string): { call: string; retries: number } | null {
  const call = request.headers.get(CALL_ID_HEADER);
  const retries = Number(request.headers.get(RETRY_COUNT_HEADER) ?? '0');
  if (call === null || !Number.isInteger(retries) || retries < 0) return null;
  return { call: `${scope}\u0000${call}`, retries };
}

/** The test mock's Batch API: a short turnaround, no faults. */
export const BATCH_DEFAULTS = {
  turnaroundMs: 100,
  lineFailureRate: 0,
  lineExpiryRate: 0,
  uploadLossRate: 0,
  createLossRate: 0,
} as const;

/** Starts the mock on a free port of 127.0.0.1. */
export async function startTestMockServer(): Promise<TestMockServer> {
  const counts = new Map<string, number>();
  /** Per seed: the requests not counted, each the re-send of an attempt this mock had answered cleanly. */
  const resent = new Map<string, number>();
  /** The attempts answered with a clean 200 (no fault), as `call NUL retries`, until a re-send of them comes. */
  const answered = new Set<string>();
  /** Per seed: each chat request's call id and retry count, in order (null without a call id). */
  const attempts = new Map<string, ({ call: string; retries: number } | null)[]>();
  const cacheKeys = new Map<string, (string | null)[]>();
  const prompts = new Map<string, string[]>();
  /** Per seed: the group size, and the replies ready and held until the group is complete. */
  const groups = new Map<string, { size: number; held: (() => void)[] }>();
  const inGroup = async (seed: string, reply: Response): Promise<Response> => {
    const group = groups.get(seed);
    if (!group) return reply;
    // Read before holding, so the whole group is written out at once.
    const body = await reply.arrayBuffer();
    await new Promise<void>((release) => {
      group.held.push(release);
      if (group.held.length >= group.size) for (const r of group.held.splice(0)) r();
    });
    return new Response(body, { status: reply.status, headers: reply.headers });
  };
  // Read by the mock at each batch's creation: the route below changes it in place.
  const batch: MockBatchOptions = { ...BATCH_DEFAULTS };
  let uploads = 0;
  let creates = 0;
  let lists = 0;
  // The Batch API's settings and upload count belong to the mock, not to a seed, and the worker project's
  // two runtimes run files side by side: a file that uses them holds this lock (first come, first served).
  let batchLock: Promise<void> = Promise.resolve();
  let releaseBatchLock: (() => void) | undefined;
  const server = await startMockServer({
    // Never keep the test process alive for the mock alone.
    unref: true,
    batch,
    around: async (request, next) => {
      const url = new URL(request.url);
      if (url.pathname === '/_test/batch-lock') {
        if (request.method === 'DELETE') {
          releaseBatchLock?.();
          releaseBatchLock = undefined;
          return Response.json({ held: false });
        }
        const previous = batchLock;
        let release: () => void = () => undefined;
        batchLock = new Promise<void>((r) => {
          release = r;
        });
        await previous;
        releaseBatchLock = release;
        return Response.json({ held: true });
      }
      if (url.pathname === '/_test/batch') {
        if (request.method === 'PUT') {
          const q = url.searchParams;
          batch.turnaroundMs = Number(q.get('turnaround') ?? BATCH_DEFAULTS.turnaroundMs);
          batch.lineFailureRate = Number(q.get('failure') ?? 0);
          batch.lineExpiryRate = Number(q.get('expiry') ?? 0);
          batch.uploadLossRate = Number(q.get('uploadLoss') ?? 0);
          batch.createLossRate = Number(q.get('createLoss') ?? 0);
        }
        return Response.json({ uploads, creates, lists, ...batch });
      }
      if (request.method === 'POST' && url.pathname.endsWith('/files')) uploads += 1;
      if (url.pathname.endsWith('/batches')) {
        if (request.method === 'POST') creates += 1;
        if (request.method === 'GET') lists += 1;
      }
      if (url.pathname === '/_test/requests') {
        const seed = url.searchParams.get('seed') ?? '';
        const route = url.searchParams.get('route') === 'responses' ? 'responses\u0000' : '';
        return Response.json({ count: counts.get(`${route}${seed}`) ?? 0, resent: resent.get(`${route}${seed}`) ?? 0 });
      }
      if (url.pathname === '/_test/attempts') {
        return Response.json({ attempts: attempts.get(url.searchParams.get('seed') ?? '') ?? [] });
      }
      if (url.pathname === '/_test/cache-keys') {
        return Response.json({ keys: cacheKeys.get(url.searchParams.get('seed') ?? '') ?? [] });
      }
      if (url.pathname === '/_test/prompts') {
        return Response.json({ prompts: prompts.get(url.searchParams.get('seed') ?? '') ?? [] });
      }
      if (url.pathname === '/_test/groups') {
        const seed = url.searchParams.get('seed') ?? '';
        if (request.method === 'PUT') {
          const size = Number(url.searchParams.get('size'));
          // Resized in place: the replies held go on waiting for the new size (dropping them left their calls
          // to time out and go again).
          const group = groups.get(seed) ?? { size, held: [] };
          group.size = size;
          groups.set(seed, group);
          if (group.held.length >= size) for (const r of group.held.splice(0)) r();
          return Response.json({ size });
        }
        const group = groups.get(seed);
        if (request.method === 'POST') {
          const released = group?.held.splice(0) ?? [];
          for (const r of released) r();
          return Response.json({ released: released.length });
        }
        return Response.json({ size: group?.size ?? null, held: group?.held.length ?? 0 });
      }
      const route = url.pathname.endsWith('/chat/completions')
        ? 'chat'
        : request.method === 'POST' && url.pathname.endsWith('/responses')
          ? 'responses'
          : null;
      const seen = route === null ? null : await seedOf(request);
      if (route === null || seen === null) return next(request);
      const counter = route === 'responses' ? `responses\u0000${seen.seed}` : seen.seed;
      const attempt = attemptOf(request, `${counter}\u0000${seen.cacheKey ?? ''}`);
      if (route === 'chat') {
        const sent = { call: request.headers.get(CALL_ID_HEADER) ?? '', retries: attempt?.retries ?? 0 };
        attempts.set(seen.seed, [...(attempts.get(seen.seed) ?? []), attempt ? sent : null]);
      }
      if (attempt !== null && attempt.retries > 0 && answered.delete(`${attempt.call}\u0000${attempt.retries - 1}`)) {
        resent.set(counter, (resent.get(counter) ?? 0) + 1);
      } else {
        counts.set(counter, (counts.get(counter) ?? 0) + 1);
        if (route === 'chat') {
          cacheKeys.set(seen.seed, [...(cacheKeys.get(seen.seed) ?? []), seen.cacheKey]);
          prompts.set(seen.seed, [...(prompts.get(seen.seed) ?? []), seen.prompt]);
        }
      }
      const reply = route === 'chat' ? await inGroup(seen.seed, await next(request)) : await next(request);
      // Clean, and to a client still there: an answer to one whose timeout had fired is no answer.
      if (attempt !== null && reply.status === 200 && !reply.headers.has(MOCK_FAULT_HEADER) && !request.signal.aborted)
        answered.add(`${attempt.call}\u0000${attempt.retries}`);
      return reply;
    },
  });
  return { url: server.baseUrl, close: () => server.close() };
}
