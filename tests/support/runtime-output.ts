/**
 * Reporter of every vitest run (vitest.config.ts) that keeps workerd's own diagnostics off the terminal:
 * the worker project's runtime writes its log lines (`exception = workerd/…c++:N: disconnected: WebSocket peer
 * disconnected`, `uncaught exception` of a request or an object a test made fail on purpose, the pool's socket
 * closing at teardown) straight to this process's stdout and stderr, where no test owns them, so `silent: 'passed-only'`
 * cannot hold them back. They go to {@link RUNTIME_LOG} instead, all of them, and a run that fails ends with
 * one line saying how many there are and where; a passing run prints only vitest's report. A test's own
 * console (our logger's JSON lines included) is vitest's to show: with the test when it fails.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Reporter, TestRunEndReason } from 'vitest/node';

/** Where the runtime's lines of the last run are kept (git-ignored). */
export const RUNTIME_LOG = join(new URL('../..', import.meta.url).pathname, '.wrangler', 'vitest-runtime.log');

/**
 * A chunk workerd or the Workers pool wrote on its own: a log line naming workerd's C++ source
 * (`workerd/…` or `kj/…`, possibly after `exception = `), or the pool's "Error sending to pool".
 */
export function isRuntimeOutput(chunk: string): boolean {
  return /^(?:[\w ]+ = )?(?:workerd|kj)\/\S+:\d+:/.test(chunk) || chunk.startsWith('Error sending to pool: ');
}

/**
 * The errors tests throw into the runtime on purpose, by their own message: `abortAllDurableObjects()` (an
 * eviction mid-call), the wave coordinator's crash hook (tests/worker/test-wave-coordinator.ts) and a provider
 * gate object's reset (`state.abort`, tests/worker/provider-gate.test.ts).
 */
const INTENDED_ABORTS = [
  'Application called abortAllDurableObjects().',
  'test: crashed between upload and submit',
  'test: the gate object was reset',
];

/**
 * A workerd `uncaught exception` report (one chunk, its stacks included) of an abort a test made on purpose
 * ({@link INTENDED_ABORTS}): its first line ends with that error. The pool writes these without workerd's source
 * prefix, so {@link isRuntimeOutput} does not see them; any other uncaught exception is still shown.
 */
export function isIntendedAbort(chunk: string): boolean {
  if (!chunk.startsWith('uncaught exception; ')) return false;
  const first = chunk.split('\n', 1)[0] ?? '';
  return INTENDED_ABORTS.some((m) => first.endsWith(`Error: ${m}`));
}

/** A stream's `write`, as far as diverting it goes. */
type Write = (chunk: unknown, ...rest: unknown[]) => boolean;

/**
 * Replaces each stream's `write` so that runtime output ({@link isRuntimeOutput}, {@link isIntendedAbort}) is
 * appended to `file` instead,
 * everything else written as before. Returns how many lines went to the file so far.
 */
export function divertRuntimeOutput(streams: readonly { write: Write }[], file: string): () => number {
  let lines = 0;
  for (const stream of streams) {
    const original = stream.write.bind(stream);
    stream.write = (chunk: unknown, ...rest: unknown[]): boolean => {
      const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString() : '';
      if (!isRuntimeOutput(text) && !isIntendedAbort(text)) return original(chunk, ...rest);
      lines += text.split('\n').filter((l) => l !== '').length;
      appendFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
      rest.find((r): r is () => void => typeof r === 'function')?.();
      return true;
    };
  }
  return () => lines;
}

export default class RuntimeOutput implements Reporter {
  private lines: () => number = () => 0;

  onInit(): void {
    mkdirSync(dirname(RUNTIME_LOG), { recursive: true });
    writeFileSync(RUNTIME_LOG, '');
    // Until the process ends: workerd writes its last lines as the pool shuts it down, after the report.
    this.lines = divertRuntimeOutput([process.stdout, process.stderr] as unknown as { write: Write }[], RUNTIME_LOG);
  }

  onTestRunEnd(_modules: unknown, _errors: unknown, reason: TestRunEndReason): void {
    const lines = this.lines();
    if (reason === 'failed' && lines > 0)
      process.stdout.write(`\n workerd wrote ${String(lines)} lines of its own during this run: ${RUNTIME_LOG}\n`);
  }
}
