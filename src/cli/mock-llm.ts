/**
 * @module
 * `npm run mock-llm -- [--port 8788] [--host 127.0.0.1] [--mode judge|scripted] [--latency 100 | 50-300]
 * [--batch-turnaround MS] [--batch-failure-rate P] [--batch-expiry-rate P] [--batch-upload-loss-rate P] [--batch-create-loss-rate P] [--flex-refusal-rate P]
 * [--flex-unsupported M1,M2] [--seed S]`
 * Starts the mock OpenAI-compatible server and prints its base URL (for `LLM_BASE_URL`).
 */
import { choiceOption, intOption, isMain, runCli, UsageError } from './args.js';
import { whenOrphaned } from './process-group.js';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import type { MockMode } from '../mock-llm/model-name.js';
import { startMockServer } from '../mock-llm/node.js';

/** Command line of `npm run mock-llm`. */
export const MOCK_LLM_CLI = {
  usage: `usage: npm run mock-llm -- [--port 8788] [--host 127.0.0.1] [--mode judge|scripted] [--latency MS | MIN-MAX]
         [--batch-turnaround MS] [--batch-failure-rate P] [--batch-expiry-rate P] [--batch-upload-loss-rate P]
         [--batch-create-loss-rate P]
         [--flex-refusal-rate P] [--flex-unsupported MODEL,...] [--seed S]

Serves the bundled OpenAI-compatible mock (/v1/chat/completions, /v1/models, /v1/files, /v1/batches) until
Ctrl+C.

  --port N                TCP port (default MOCK_LLM_PORT, else 8788; 0 = any free port)
  --host H                interface (default 127.0.0.1)
  --mode M                judge (answers in the format the prompt asks for) or scripted (default judge)
  --latency L             added latency per reply in ms, or a MIN-MAX range (default 0)
  --batch-turnaround MS   time from creating a batch to its completion, ms (default 1000)
  --batch-failure-rate P  share of batch lines answered with a 500 in the error file, 0-1 (default 0)
  --batch-expiry-rate P   share of batch lines that expire (batch_expired), 0-1 (default 0)
  --batch-upload-loss-rate P
                          share of file uploads stored and then answered with a 500, 0-1 (default 0)
  --batch-create-loss-rate P
                          share of batch creations made and then answered with a 500, 0-1 (default 0)
  --flex-refusal-rate P   share of service_tier "flex" requests refused with 429 resource_unavailable (default 0)
  --flex-unsupported M    comma-separated model names that refuse flex with a 400 (default none)
  --seed S                seed of the batch and flex draws (default none)
  -h, --help              this text

Per-request controls go in the model name, e.g. mock-judge?latency=250&fail=429:2 (src/mock-llm/model-name.ts).`,
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    mode: { type: 'string', default: 'judge' },
    latency: { type: 'string' },
    'batch-turnaround': { type: 'string' },
    'batch-failure-rate': { type: 'string' },
    'batch-expiry-rate': { type: 'string' },
    'batch-upload-loss-rate': { type: 'string' },
    'batch-create-loss-rate': { type: 'string' },
    'flex-refusal-rate': { type: 'string' },
    'flex-unsupported': { type: 'string' },
    seed: { type: 'string' },
  },
} as const satisfies CliSpec<CliOptions>;

function latencyOf(value: string | undefined): number | [number, number] | undefined {
  if (value === undefined) return undefined;
  const range = /^(\d+)-(\d+)$/.exec(value);
  if (range) return [Number(range[1]), Number(range[2])];
  const ms = intOption(value, 'latency', 0, 600_000);
  return ms;
}

/** A share from 0 to 1, or undefined when not given. */
function rateOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1)
    throw new UsageError(`--${name} must be a number from 0 to 1, got ${JSON.stringify(value)}`);
  return p;
}

async function main(values: CliValues<typeof MOCK_LLM_CLI.options>): Promise<undefined> {
  const fromEnv = process.env.MOCK_LLM_PORT;
  const port =
    values.port !== undefined
      ? intOption(values.port, 'port', 0, 65_535)
      : fromEnv
        ? intOption(fromEnv, 'port (MOCK_LLM_PORT)', 0, 65_535)
        : 8788;
  const mode: MockMode = choiceOption(values.mode, 'mode', ['judge', 'scripted'] as const) ?? 'judge';
  const latency = latencyOf(values.latency);
  const turnaround = intOption(values['batch-turnaround'], 'batch-turnaround', 0, 86_400_000);
  const lineFailureRate = rateOption(values['batch-failure-rate'], 'batch-failure-rate');
  const lineExpiryRate = rateOption(values['batch-expiry-rate'], 'batch-expiry-rate');
  const uploadLossRate = rateOption(values['batch-upload-loss-rate'], 'batch-upload-loss-rate');
  const createLossRate = rateOption(values['batch-create-loss-rate'], 'batch-create-loss-rate');
  const refusalRate = rateOption(values['flex-refusal-rate'], 'flex-refusal-rate');
  const unsupported = values['flex-unsupported']
    ?.split(',')
    .map((m) => m.trim())
    .filter((m) => m !== '');
  const seed = values.seed;
  let server;
  try {
    server = await startMockServer({
      port,
      host: values.host,
      defaultMode: mode,
      ...(latency !== undefined ? { latencyMs: latency } : {}),
      batch: {
        ...(turnaround !== undefined ? { turnaroundMs: turnaround } : {}),
        ...(lineFailureRate !== undefined ? { lineFailureRate } : {}),
        ...(lineExpiryRate !== undefined ? { lineExpiryRate } : {}),
        ...(uploadLossRate !== undefined ? { uploadLossRate } : {}),
        ...(createLossRate !== undefined ? { createLossRate } : {}),
        ...(seed !== undefined ? { seed } : {}),
      },
      flex: {
        ...(refusalRate !== undefined ? { refusalRate } : {}),
        ...(unsupported !== undefined ? { unsupportedModels: unsupported } : {}),
        ...(seed !== undefined ? { seed } : {}),
      },
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
      throw new Error(`${(e as Error).message}: pick another with --port N (or --port 0 for any free one)`);
    throw e;
  }
  console.log(`mock LLM (${mode} mode) listening: LLM_BASE_URL=${server.baseUrl}`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  whenOrphaned(stop);
  return undefined;
}

if (isMain(import.meta.url)) await runCli(MOCK_LLM_CLI, main);
