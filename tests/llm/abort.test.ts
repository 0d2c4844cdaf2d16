/**
 * A client's per-attempt timeout ends a hung attempt even when the process collects garbage meanwhile, over
 * HTTP (through the tests' recording fetch) and with the in-process mock. A `Request` built from the
 * client's `init` follows its AbortSignal only through a weak reference (undici): once such a copy was
 * collected, the abort went nowhere and the attempt waited out the mock's hang (a flake of full runs, where
 * files share one process and collect more often).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmCallRequest, LlmCallResult } from '../../src/engine/call.js';
import type { AttemptInfo, LlmDeps } from '../../src/llm/client.js';
import { createLlm } from '../../src/llm/client.js';
import type { ProviderGate } from '../../src/llm/provider-gate-hook.js';
import { IN_PROCESS_MOCK_URL } from '../../src/llm/settings.js';
import { createLlmWithMock } from '../../src/mock-llm/in-process.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockServer } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';
import type { SeenRequest } from '../support/recording-fetch.js';
import { recordingFetch } from '../support/recording-fetch.js';

// A full collection on demand, without starting the process with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/**
 * Per-attempt timeout, ms: far below the mock's hang, so a lost abort fails on the attempt's code, and long
 * enough for the second attempt's answer over HTTP on a busy machine (300 ms timed it out at load 10-15).
 */
const TIMEOUT_MS = 1_500;
/** How long the mock holds a hung attempt, ms (the file's timeout is 20 s). */
const HANG_MS = 10_000;

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer();
});
afterAll(async () => {
  await server.close();
});

/** Effects that collect garbage while each attempt is in flight and record the attempts. */
function collecting(): { deps: LlmDeps; attempts: AttemptInfo[] } {
  const attempts: AttemptInfo[] = [];
  const gate: ProviderGate = {
    acquire: () => {
      // Once the attempt's request is built and sent, before its timeout fires.
      setTimeout(gc, TIMEOUT_MS / 3);
      return Promise.resolve({ release: () => undefined });
    },
  };
  return { deps: { gate, sleep: () => Promise.resolve(), onAttempt: (i) => attempts.push(i) }, attempts };
}

function hungOnce(seed: string): LlmCallRequest {
  return {
    id: seed,
    agent: 'judge',
    label: 'Judge',
    stage: 'verdict',
    model: mockModel({ fail: [['timeout', 1]], hang: HANG_MS, seed }),
    messages: [{ role: 'user', content: 'Which answer is better? End with [[A]], [[B]] or [[C]].' }],
    temperature: 0,
    maxTokens: 64,
    parser: { type: 'fastchat-verdict' },
  };
}

function expectTimedOutThenAnswered(r: LlmCallResult, attempts: AttemptInfo[]): void {
  expect(attempts.map((a) => [a.attempt, a.code ?? 'ok'])).toEqual([
    [1, 'timeout'],
    [2, 'ok'],
  ]);
  expect(attempts[0]?.latencyMs).toBeLessThan(HANG_MS);
  expect(r.ok).toBe(true);
}

describe('a timeout survives a garbage collection during the attempt', () => {
  it('over HTTP, through the recording fetch', async () => {
    const { deps, attempts } = collecting();
    const seen: SeenRequest[] = [];
    const llm = createLlm(
      { providers: { default: { baseUrl: server.baseUrl } }, timeoutMs: TIMEOUT_MS },
      { ...deps, fetch: recordingFetch(seen) },
    );
    expectTimedOutThenAnswered(await llm(hungOnce('abort-http')), attempts);
    expect(seen).toHaveLength(2);
  });

  it('with the in-process mock, which rejects on abort as fetch does', async () => {
    const { deps, attempts } = collecting();
    const llm = createLlmWithMock(
      { providers: { default: { baseUrl: IN_PROCESS_MOCK_URL } }, timeoutMs: TIMEOUT_MS },
      deps,
    );
    expectTimedOutThenAnswered(await llm(hungOnce('abort-in-process')), attempts);
  });
});
