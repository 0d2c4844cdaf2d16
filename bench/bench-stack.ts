/**
 * @module
 * The local stack as the benches start it (src/cli/local-stack.ts): on a port workerd picks, its state where
 * the bench says (./state-dir.ts), and its LLM calls going to the mock the bench started itself
 * (./mock-process.ts: its latency and CPU are the bench's to set and read), as model `mock-judge` with a
 * placeholder key. What differs between benches (vars, crons, the log file, the runtime) is passed in.
 */
import type { LocalStack, LocalStackOptions } from '../src/cli/local-stack.js';
import { startLocalStack } from '../src/cli/local-stack.js';

/** Options of {@link startBenchStack}: the stack's own, the port and LLM endpoint set for a bench. */
export interface BenchStackOptions extends Omit<LocalStackOptions, 'port' | 'llmBaseUrl' | 'llmApiKey'> {
  /** Directory of the stack's local D1 and Durable Object state (required: a bench never uses the repo's). */
  persistTo: string;
  /** The mock LLM the bench started (its base URL). */
  mock: { baseUrl: string };
  /** Model the calls name. Default `mock-judge` (the mock's judge mode). */
  llmModel?: string;
}

/** Starts a local stack for a bench: port 0, the bench's mock as the LLM, key `bench`, model `mock-judge` unless given. */
export function startBenchStack(options: BenchStackOptions): Promise<LocalStack> {
  const { mock, llmModel, ...rest } = options;
  // After the spread: a bench passing `llmModel: undefined` keeps the default rather than erasing it.
  return startLocalStack({
    port: 0,
    llmBaseUrl: mock.baseUrl,
    llmApiKey: 'bench',
    ...rest,
    llmModel: llmModel ?? 'mock-judge',
  });
}
