/**
 * @module
 * The local stack as the benches start it (src/cli/local-stack.ts): on a port workerd picks, its state in a
 * directory of the run's own (./state-dir.ts), and its LLM calls going to the mock the bench started itself
 * (./mock-process.ts: its latency and CPU are the bench's to set and read) as model `mock-judge` with a
 * placeholder key, or to the stack's bundled mock on a port it picks. What differs between benches (vars,
 * crons, the log file, the runtime) is passed in.
 */
import { dirname, join } from 'node:path';
import type { LocalStack, LocalStackOptions } from '../src/cli/local-stack.js';
import { startLocalStack } from '../src/cli/local-stack.js';
import { benchStateDir } from './state-dir.js';

/** Where a bench's stack keeps its state: a directory the bench chose, or a new one for the run. */
export type BenchState =
  | {
      /** Directory of the stack's local D1 and Durable Object state (a bench never uses the repo's). */
      persistTo: string;
      stateDir?: never;
    }
  | {
      /** Prefix of a new run directory under the benches' state root (`benchStateDir`): the state goes to its `state`. */
      stateDir: string;
      persistTo?: never;
    };

/** Options of {@link startBenchStack}: the stack's own, the port, state and LLM endpoint set for a bench. */
export type BenchStackOptions = BenchState &
  Omit<LocalStackOptions, 'port' | 'llmBaseUrl' | 'llmApiKey' | 'persistTo' | 'mockPort' | 'logFile'> & {
    /** The mock LLM the bench started (its base URL). Default: the stack's bundled mock, on a free port. */
    mock?: { baseUrl: string };
    /** Model the calls name. Default with `mock`: `mock-judge` (the mock's judge mode); else the stack's default. */
    llmModel?: string;
    /** Write the runtime's output to this file, or with `true` to `stack.log` beside the state. Default: nowhere. */
    logFile?: string | true;
  };

/** A bench's stack: the local stack, with the directory that holds its state and the log file it writes. */
export interface BenchStack extends LocalStack {
  /** The directory that holds the state directory (and `stack.log` with `logFile: true`). */
  dir: string;
  /** The runtime's log file, when it writes one. */
  logFile: string | undefined;
}

/**
 * Starts a local stack for a bench: port 0, the state where {@link BenchState} says, the bench's mock as the LLM
 * (key `bench`, model `mock-judge` unless given) or else the bundled one on a free port.
 */
export async function startBenchStack(options: BenchStackOptions): Promise<BenchStack> {
  const { mock, llmModel, stateDir, persistTo: given, logFile: log, ...rest } = options;
  const persistTo = given ?? join(benchStateDir(stateDir), 'state');
  const dir = dirname(persistTo);
  const logFile = log === true ? join(dir, 'stack.log') : log;
  const llm = mock
    ? { llmBaseUrl: mock.baseUrl, llmApiKey: 'bench', llmModel: llmModel ?? 'mock-judge' }
    : { mockPort: 0, ...(llmModel !== undefined ? { llmModel } : {}) };
  // After the spread: a bench passing `llmModel: undefined` keeps the default rather than erasing it.
  const stack = await startLocalStack({
    port: 0,
    persistTo,
    ...(logFile !== undefined ? { logFile } : {}),
    ...rest,
    ...llm,
  });
  return Object.assign(stack, { dir, logFile });
}
