/**
 * A mock LLM server whose Files and Batch APIs run on a clock the test steps (no sleeps), each closed after
 * the file's tests.
 */
import { afterAll } from 'vitest';
import type { MockServer, StartMockOptions } from '../../src/mock-llm/node.js';
import { startMockServer } from '../../src/mock-llm/node.js';

/** The clocks' start, ms since epoch. */
export const T0 = 1_750_000_000_000;

const servers: MockServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Starts a mock at {@link T0} with a batch turnaround of 1,000 ms unless `options` say otherwise. */
export async function startClockedMock(
  options: StartMockOptions = {},
): Promise<{ clock: { t: number }; server: MockServer }> {
  const clock = { t: T0 };
  const server = await startMockServer({
    now: () => clock.t,
    ...options,
    batch: { turnaroundMs: 1000, ...options.batch },
  });
  servers.push(server);
  return { clock, server };
}
