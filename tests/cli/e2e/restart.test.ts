/**
 * Losing the runtime mid-debate loses no work, and costs no long wait: the local runtime (workerd with
 * persisted D1 and Durable Object state) is stopped while an evaluation is half done and started again on
 * the same state with the deployed settings (STALL_SECONDS 120, the sweeper's cron on its minute). The
 * stack's sweep at start resumes the evaluation within seconds (before it, the first step's watchdog
 * alarm or the sweeper took 60-90 s), it finishes, and no LLM call whose result was stored before the
 * stop is made again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { LocalStack } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import type { MockServer } from '../../../src/mock-llm/node.js';
import { startMockServer } from '../../../src/mock-llm/node.js';
import { WAIT_MS } from '../../support/patience.js';
import { seededState } from '../../support/seed-state.js';
import { preparedWorker } from '../../support/worker-ready.js';

interface View {
  status: string;
  progress: { callsDone: number };
  verdict: { calls: number } | null;
}

const persistTo = seededState(join(mkdtempSync(join(tmpdir(), 'tribunal-restart-')), 'state'));
/** Prompts the mock answered, by a key of their messages: a repeated call shows as a count above 1. */
const answered = new Map<string, number>();
let mock: MockServer | undefined;
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
  await mock?.close();
});

async function view(url: string, id: string): Promise<View> {
  return (await (await fetch(`${url}/v1/evaluations/${id}`)).json()) as View;
}

describe('a restart of the local runtime mid-debate', () => {
  it('resumes from persisted state and repeats no stored call', async () => {
    mock = await startMockServer({
      port: 0,
      latencyMs: 600,
      around: async (request, next) => {
        const response = await next(request.clone());
        if (request.method === 'POST' && response.ok) {
          const body = (await request.json()) as { messages: unknown };
          const key = JSON.stringify(body.messages);
          answered.set(key, (answered.get(key) ?? 0) + 1);
        }
        return response;
      },
    });
    // wrangler.toml's STALL_SECONDS (120) and crons (each minute): only the sweep at start can resume the
    // evaluation within seconds.
    const options = {
      port: 0,
      persistTo,
      llmBaseUrl: mock.baseUrl,
      llmApiKey: 'local',
      llmModel: 'mock-judge',
      worker: preparedWorker(),
      reuseRuntime: true,
    };
    stack = await startLocalStack(options);
    const r = await fetch(`${stack.url}/v1/evaluations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        // 4 sequential stages of 2 parallel calls (both orders): 8 distinct prompts.
        preset: 'chateval-faireval',
        task: {
          kind: 'pairwise',
          question: 'Is it better to rent or buy a home in a city you may leave in 3 years?',
          answerA: 'Rent: buying costs are hard to recover in 3 years.',
          answerB: 'Buy, always.',
        },
      }),
    });
    const { id } = (await r.json()) as { id: string };
    const first = stack;
    await vi.waitFor(
      async () => {
        expect((await view(first.url, id)).progress.callsDone).toBeGreaterThanOrEqual(2);
      },
      { timeout: WAIT_MS, interval: 100 },
    );
    await first.stop();
    const storedBeforeStop = [...answered.values()].reduce((a, b) => a + b, 0);

    stack = await startLocalStack(options);
    const second = stack;
    // The stop ended the first runtime's workerd and kept its Node process, Miniflare loaded, for this one
    // (`reuseRuntime`): a start without loading Miniflare again, on a workerd of its own.
    expect(second.runtimePid).toBe(first.runtimePid);
    // The first stack's handle is done with it: stopping or killing it again leaves the second's runtime alone.
    await first.stop();
    await first.kill();
    // Ended within 20 s of the runtime answering again (the other ways back take 60 s and more).
    await vi.waitFor(
      async () => {
        expect((await view(second.url, id)).status).not.toBe('running');
      },
      { timeout: 20_000, interval: 100 },
    );

    const end = await view(second.url, id);
    expect(end.status).toBe('succeeded');
    expect(storedBeforeStop).toBeGreaterThanOrEqual(2);
    // Every call in the verdict was answered once, except at most the two calls in flight at the stop
    // (their results were never stored, so they had to be made again).
    const repeats = [...answered.values()].filter((n) => n > 1).length;
    expect(repeats).toBeLessThanOrEqual(2);
    expect(end.verdict?.calls).toBe(8);
    expect(answered.size).toBe(8);

    // What npm start's file watcher does once it has rebuilt: a bundle swapped in keeps the state and serves on.
    // The run's own bundle, made by the watcher's `bundleAndSetup` (worker-prepare.ts), stands for the rebuild
    // here: a rebuild of its own cost ~5 CPU-s of wrangler.
    await second.reload(preparedWorker());
    expect((await view(second.url, id)).status).toBe('succeeded');
    // Two stack starts: each took 40-60 s at load 23 (6 s quiet), past the 150 s it had there.
  }, 360_000);
});
