/**
 * The mock LLM in its own process group (`npm run mock-llm`), so the benches measure its CPU apart from
 * the runtime's and the client's (bench/proc-cpu.ts).
 */
import { startServingChild } from './serving-child.js';

/** A running mock process. */
export interface MockProcess {
  /** OpenAI base URL (`…/v1`). */
  baseUrl: string;
  /** Its process group id, for {@link import('./proc-cpu.js').groupCpuMs}. */
  pgid: number;
  stop(): Promise<void>;
}

/**
 * Starts the mock at `latency` ms per completion on a free port; resolves once it listens.
 * @param extra further `npm run mock-llm` flags (e.g. `--flex-refusal-rate 0.2`)
 */
export async function startMockProcess(latency: number, extra: readonly string[] = []): Promise<MockProcess> {
  const child = await startServingChild(
    ['src/cli/mock-llm.ts', '--port', '0', '--latency', String(latency), ...extra],
    /LLM_BASE_URL=(\S+)/,
    'the mock',
  );
  return { baseUrl: child.url, pgid: child.pgid, stop: () => child.stop() };
}
