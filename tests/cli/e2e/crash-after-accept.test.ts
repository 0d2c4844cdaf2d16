/**
 * A crash right after acceptance strands nothing: evaluations are accepted (202, row in D1), the
 * runtime is SIGKILLed at once — local queues live in memory, so their messages are lost with it — and
 * started again on the same persisted state. The local stack fires the wrangler.toml cron (the sweeper)
 * by itself, and every accepted evaluation ends with a verdict.
 *
 * To make "accepted, never started" certain rather than a race, the API does not start objects itself
 * (FAST_START false), and the first runtime has no job queue consumer (its messages wait in memory however
 * slow the machine: a batch timeout, at most 60 s, ran out at load 22) and no crons: at the kill, every
 * evaluation's only start signal is a message in memory. Without the sweeper they stay `queued` for good.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LocalStack, LocalStackOptions } from '../../../src/cli/local-stack.js';
import { startLocalStack } from '../../../src/cli/local-stack.js';
import type { MockServer } from '../../../src/mock-llm/node.js';
import { startMockServer } from '../../../src/mock-llm/node.js';
import { seededState } from '../../support/seed-state.js';
import { preparedWorker } from '../../support/worker-ready.js';

const ACCEPTED = 30;
const persistTo = seededState(join(mkdtempSync(join(tmpdir(), 'tribunal-crash-')), 'state'));
let mock: MockServer | undefined;
let stack: LocalStack | undefined;

afterAll(async () => {
  await stack?.stop();
  await mock?.close();
});

interface View {
  status: string;
  verdict: { calls: number } | null;
}

async function statuses(url: string, ids: readonly string[]): Promise<View[]> {
  return Promise.all(ids.map(async (id) => (await (await fetch(`${url}/v1/evaluations/${id}`)).json()) as View));
}

/**
 * Each of `ids`' status as one page of the list answers it (undefined for one it leaves out): one request a poll,
 * where a read of each evaluation was 30.
 */
async function listed(url: string, ids: readonly string[]): Promise<(string | undefined)[]> {
  const page = (await (await fetch(`${url}/v1/evaluations?limit=100`)).json()) as {
    data: { id: string; status: string }[];
  };
  const status = new Map(page.data.map((e) => [e.id, e.status]));
  return ids.map((id) => status.get(id));
}

describe('a crash right after accepting evaluations', () => {
  it('ends every accepted evaluation after a restart on the same state, the sweeper firing on its own', async () => {
    mock = await startMockServer({ port: 0 });
    const options: LocalStackOptions = {
      port: 0,
      persistTo,
      llmBaseUrl: mock.baseUrl,
      llmApiKey: 'local',
      llmModel: 'mock-judge',
      // The sweeper re-kicks what made no progress for 1 s; its cron fires every second (deployed: each minute).
      vars: { STALL_SECONDS: '1', FAST_START: 'false' },
      crons: { everyMs: 1_000 },
      worker: preparedWorker(),
      reuseRuntime: true,
    };
    // No crons either: the sweeper (every second, STALL_SECONDS 1) started them whenever the POSTs took over a
    // second, as they do on a busy machine.
    stack = await startLocalStack({ ...options, crons: false, queueConsumers: { 'tribunal-jobs': { held: true } } });
    const first = stack;
    const ids = await Promise.all(
      Array.from({ length: ACCEPTED }, async (_, i) => {
        const r = await fetch(`${first.url}/v1/evaluations`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': `crash-${i}` },
          body: JSON.stringify({
            preset: 'fastchat-pair',
            task: {
              kind: 'pairwise',
              question: `(${i}) Which reply is more helpful?`,
              answerA: `Short reply ${i}.`,
              answerB: `A longer, more careful reply ${i}.`,
            },
          }),
        });
        expect(r.status).toBe(202);
        return ((await r.json()) as { id: string }).id;
      }),
    );
    await first.kill();

    // Nothing had started: each evaluation's queue message died with the runtime. Read on a runtime with no
    // crons, since a runtime that has them sweeps at once what an earlier one left (it would race the read).
    stack = await startLocalStack({ ...options, crons: false });
    expect((await statuses(stack.url, ids)).map((v) => v.status)).toEqual(ids.map(() => 'queued'));
    await stack.stop();

    stack = await startLocalStack(options);
    const second = stack;

    await expect
      .poll(() => listed(second.url, ids), { timeout: 90_000, interval: 500 })
      .toEqual(ids.map(() => 'succeeded'));
    // Each read on its own too. fastchat-pair judges both orders: two calls each, every one with its verdict.
    expect((await statuses(second.url, ids)).map((v) => [v.status, v.verdict?.calls])).toEqual(
      ids.map(() => ['succeeded', 2]),
    );
    // Three stack starts: each took 40-60 s at load 23 (6 s quiet), past the runner's 180 s there.
  }, 480_000);
});
