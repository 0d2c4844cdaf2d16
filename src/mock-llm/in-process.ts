/**
 * @module
 * The LLM client with the mock LLM answering in-process (no port, no network): for Node code only,
 * i.e. the `judge` CLI, benches and tests. The Worker never imports this module, so its bundle holds no
 * mock; deployed and `npm start` Workers reach the mock over HTTP (`npm run mock-llm`, `node.ts`).
 */
import type { BatchClient, BatchClientDeps } from '../llm/batch-client.js';
import { createBatchClient } from '../llm/batch-client.js';
import { createLlm, createTieredLlm } from '../llm/client.js';
import type { LlmDeps, TieredLlmFunction } from '../llm/client.js';
import type { LlmFunction } from '../engine/call.js';
import type { LlmSettings, LlmSettingsInput } from '../llm/settings.js';
import { handleMockRequest } from './handler.js';
import type { MockServerOptions } from './handler.js';
import { createMockState } from './state.js';
import type { MockState } from './state.js';

/** Options of {@link createLlmWithMock}: the client's dependencies plus the in-process mock's. */
export interface LlmWithMockDeps extends Omit<LlmDeps, 'inProcessMock'> {
  /** The mock's state (attempt counters, prompt cache, scripts). Default: a fresh one per client. */
  mockState?: MockState;
  /** The mock's own options (default mode, latency). */
  mock?: Omit<MockServerOptions, 'state'>;
}

/**
 * {@link createLlm} where providers whose base URL is `IN_PROCESS_MOCK_URL` (`LLM_BASE_URL = "mock"` read
 * with `settingsFromEnv(env, { inProcessMock: true })`) are answered by the mock's fetch handler in this
 * process; every other provider is reached as usual.
 */
export function createLlmWithMock(settings: LlmSettings | LlmSettingsInput, deps: LlmWithMockDeps = {}): LlmFunction {
  const { mockState, mock, ...rest } = deps;
  const state = mockState ?? createMockState();
  return createLlm(settings, { ...rest, inProcessMock: inProcessFetch(state, mock) });
}

/** {@link createTieredLlm} with the in-process mock, as {@link createLlmWithMock}. */
export function createTieredLlmWithMock(
  settings: LlmSettings | LlmSettingsInput,
  deps: LlmWithMockDeps = {},
): TieredLlmFunction {
  const { mockState, mock, ...rest } = deps;
  return createTieredLlm(settings, { ...rest, inProcessMock: inProcessFetch(mockState ?? createMockState(), mock) });
}

/**
 * {@link createBatchClient} where a provider at `IN_PROCESS_MOCK_URL` is answered by the mock's Files and
 * Batch APIs in this process. Give it the `mockState` of the LLM function it works beside, so both share the
 * mock's counters and prompt cache; `mock.batch` sets the turnaround and per-line faults.
 */
export function createBatchClientWithMock(
  settings: LlmSettings | LlmSettingsInput,
  providerId?: string,
  deps: Omit<BatchClientDeps, 'inProcessMock'> & Pick<LlmWithMockDeps, 'mockState' | 'mock'> = {},
): BatchClient {
  const { mockState, mock, ...rest } = deps;
  return createBatchClient(settings, providerId, {
    ...rest,
    inProcessMock: inProcessFetch(mockState ?? createMockState(), mock),
  });
}

/**
 * The mock's handler as a `fetch` that honours `init.signal` as `fetch` does: an abort rejects at once with
 * the signal's reason, so a client's per-attempt timeout is reported as a timeout (not as the mock's 504 once
 * its hang ends), and it ends the mock's wait.
 */
function inProcessFetch(state: MockState, mock: Omit<MockServerOptions, 'state'> | undefined): typeof fetch {
  return (input, init) => {
    const request = new Request(input, init);
    const { signal } = request;
    const answer = handleMockRequest(request, { ...mock, state });
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => {
        const reason: unknown = signal.reason;
        reject(reason instanceof Error ? reason : new DOMException('This operation was aborted', 'AbortError'));
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      // The request's signal follows the caller's only through a weak reference (undici's Request): this
      // closure keeps the request, and so that link, alive until the mock has answered.
      answer.then(resolve, reject).finally(() => {
        request.signal.removeEventListener('abort', onAbort);
      });
    });
  };
}
