/**
 * @module
 * `npm run gate`: the CI gate from any runner. Submits a comparison (`POST /v1/comparisons` with
 * `Prefer: wait`, through the typed client's `compare`), waits for it to end, prints the comparison's id,
 * the gate's summary and its usage, and exits by the one gate rule (`GATE_EXIT_CODES`, src/client/comparisons.ts):
 * 0 passed, 1 failed or ended without a gate (cancelled), 2 a usage mistake, 3 inconclusive, 4 no gate came back
 * (the request refused or failed, or the wait timed out).
 *
 * ```
 * npm run gate -- --body gate.json [--target URL] [--token T] [--timeout SECONDS] [--idempotency-key K]
 * ```
 */
import { readFileSync } from 'node:fs';
import type { Comparison, CreateComparisonRequest } from '../client/index.js';
import { createTribunalClient, GATE_EXIT_CODES, gateExitCode } from '../client/index.js';
import type { CliIo, CliOptions, CliSpec, CliValues } from './args.js';
import { describeError, intOption, isMain, runCli, UsageError } from './args.js';

/** Command line of `npm run gate`. */
export const GATE_CLI = {
  usage: `usage: npm run gate -- --body gate.json [options]

Submits a comparison with a gate, waits for it to end (Prefer: wait, then reads it), prints the gate's
summary and exits by the gate rule.

  --body FILE             the POST /v1/comparisons body (JSON, with a "gate"); - reads it from stdin
  --target URL            the deployment (default TRIBUNAL_URL, else http://127.0.0.1:8787)
  --token T               API key (default TRIBUNAL_API_KEY; none for a deployment without keys)
  --timeout SECONDS       give up waiting after this long (default 3600; the comparison keeps running)
  --idempotency-key K     a retried job gets the same comparison (e.g. the commit SHA)
  -h, --help              this text

Exit codes: ${String(GATE_EXIT_CODES.passed)} gate passed; ${String(GATE_EXIT_CODES.failed)} gate failed, or the comparison ended without one
(cancelled); ${String(GATE_EXIT_CODES.usage)} a usage mistake; ${String(GATE_EXIT_CODES.inconclusive)} gate inconclusive (not a pass: \`gate && deploy\` holds);
${String(GATE_EXIT_CODES.request)} no gate came back: the request was refused (key, body) or failed, or --timeout passed.`,
  options: {
    body: { type: 'string' },
    target: { type: 'string' },
    token: { type: 'string' },
    timeout: { type: 'string' },
    'idempotency-key': { type: 'string' },
  },
} as const satisfies CliSpec<CliOptions>;

/** The comparison body of `--body` (a path, or `-` for stdin). @throws UsageError unreadable, not JSON, or without a gate. */
export function gateBodyOf(
  path: string,
  readStdin: () => string = () => readFileSync(0, 'utf8'),
): CreateComparisonRequest {
  let text: string;
  try {
    text = path === '-' ? readStdin() : readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--body: cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? describeError(e)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--body: ${path} is not valid JSON (${describeError(e)})`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UsageError(`--body: ${path} is not a JSON object`);
  if (!('gate' in body)) throw new UsageError(`--body: ${path} has no "gate" (which candidate must beat which)`);
  return body as CreateComparisonRequest;
}

/** The lines `npm run gate` prints for an ended comparison, ending with the code it exits with. */
export function gateReport(c: Comparison): string {
  return [
    `comparison ${c.id} ${c.status}: ${String(c.items)} items, ${String(c.counts.total)} evaluations (${String(c.counts.failed)} failed)`,
    c.summary,
    `calls ${String(c.usage.calls)} · cost $${c.usage.costUsd.toFixed(4)}`,
    `gate: ${c.gate?.outcome ?? 'none'} (exit ${String(gateExitCode(c))})`,
  ].join('\n');
}

/** Runs the gate; resolves to the exit code. */
export async function gateMain(
  values: CliValues<typeof GATE_CLI.options>,
  io: Pick<CliIo, 'out' | 'err'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  if (values.body === undefined) throw new UsageError('--body is required');
  const body = gateBodyOf(values.body);
  const timeoutS = intOption(values.timeout, 'timeout', 1, 7 * 86_400) ?? 3_600;
  const client = createTribunalClient({
    baseUrl: values.target ?? env.TRIBUNAL_URL ?? 'http://127.0.0.1:8787',
    apiKey: values.token ?? env.TRIBUNAL_API_KEY,
  });
  try {
    const c = await client.compare(body, {
      timeoutMs: timeoutS * 1000,
      ...(values['idempotency-key'] !== undefined ? { idempotencyKey: values['idempotency-key'] } : {}),
    });
    io.out(`${gateReport(c)}\n`);
    return gateExitCode(c);
  } catch (e) {
    // Nothing is known of the candidate: not the failed gate's code, so a pipeline can tell the two apart.
    io.err(`error: ${describeError(e)}\n`);
    return GATE_EXIT_CODES.request;
  }
}

if (isMain(import.meta.url))
  await runCli(GATE_CLI, (v) =>
    gateMain(v, { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }),
  );
