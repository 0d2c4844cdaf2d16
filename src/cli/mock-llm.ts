/**
 * @module
 * `npm run mock-llm -- [--port 8788] [--host 127.0.0.1] [--mode judge|scripted] [--latency 100 | 50-300]`
 * Starts the mock OpenAI-compatible server and prints its base URL (for `LLM_BASE_URL`).
 */
import { choiceOption, intOption, isMain, runCli } from './args.js';
import { whenOrphaned } from './process-group.js';
import type { CliOptions, CliSpec, CliValues } from './args.js';
import type { MockMode } from '../mock-llm/model-name.js';
import { startMockServer } from '../mock-llm/node.js';

/** Command line of `npm run mock-llm`. */
export const MOCK_LLM_CLI = {
  usage: `usage: npm run mock-llm -- [--port 8788] [--host 127.0.0.1] [--mode judge|scripted] [--latency MS | MIN-MAX]

Serves the bundled OpenAI-compatible mock (/v1/chat/completions, /v1/models) until Ctrl+C.

  --port N            TCP port (default MOCK_LLM_PORT, else 8788; 0 = any free port)
  --host H            interface (default 127.0.0.1)
  --mode M            judge (answers in the format the prompt asks for) or scripted (default judge)
  --latency L         added latency per reply in ms, or a MIN-MAX range (default 0)
  -h, --help          this text

Per-request controls go in the model name, e.g. mock-judge?latency=250&fail=429:2 (src/mock-llm/model-name.ts).`,
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    mode: { type: 'string', default: 'judge' },
    latency: { type: 'string' },
  },
} as const satisfies CliSpec<CliOptions>;

function latencyOf(value: string | undefined): number | [number, number] | undefined {
  if (value === undefined) return undefined;
  const range = /^(\d+)-(\d+)$/.exec(value);
  if (range) return [Number(range[1]), Number(range[2])];
  const ms = intOption(value, 'latency', 0, 600_000);
  return ms;
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
  let server;
  try {
    server = await startMockServer({
      port,
      host: values.host,
      defaultMode: mode,
      ...(latency !== undefined ? { latencyMs: latency } : {}),
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
