/**
 * @module
 * The LLM client with the mock LLM answering in-process (no port, no network): for Node code only,
 * i.e. the `judge` CLI, benches and tests. The Worker never imports this module, so its bundle holds no
 * mock; deployed and `npm start` Workers reach the mock over HTTP (`npm run mock-llm`, `node.ts`).
 */
import { createLlm } from '../llm/client.js';
import type { LlmDeps } from '../llm/client.js';
import type { LlmFunction } from '../engine/call.js';
import type { LlmSettings, LlmSettingsInput } from '../llm/settings.js';
import { createMockState, handleMockRequest } from './handler.js';
import type { MockServerOptions, MockState } from './handler.js';

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
  return createLlm(settings, {
    ...rest,
    inProcessMock: (input, init) => handleMockRequest(new Request(input, init), { ...mock, state }),
  });
}
