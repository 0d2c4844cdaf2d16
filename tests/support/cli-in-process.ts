/**
 * A CLI run in the test's own process, as a terminal would run it, at a fraction of a process's cost (a
 * `node --import tsx` start is ~1.2-1.7 CPU-s: tsx's loader and the CLI's modules transformed anew). The
 * CLI's module is imported afresh (under a query of its own; the modules it imports are shared) with
 * `process.argv` as a terminal sets it, so its own entry code runs (the `isMain` guard and `runCli`, or a
 * bench's top-level `parseCliOrExit`), and what it writes to stdout/stderr, its exit code and any
 * `process.exit()` are captured. What only a real process shows (tsx, a child's streams, the exit code the
 * shell sees) stays with one spawned run per kind of entry (tests/cli/cli-usage.test.ts).
 */
import type { MockInstance } from 'vitest';
import { vi } from 'vitest';

/** How an in-process run ended: its exit code and everything it wrote. */
export interface CliRun {
  /** The code the process would have exited with. */
  code: number;
  stdout: string;
  stderr: string;
}

/** `process.exit(code)` called by the CLI: thrown to end its module's evaluation there, as the process would end. */
class ProcessExit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

/** The exit code the process would end with now. */
const exitCode = (): number => Number(process.exitCode ?? 0);

/** Runs so far: each imports its CLI under a query of its own. */
let runs = 0;

/**
 * Runs the CLI at the absolute `path` in this process with `args` (and `env` over process.env, put back
 * after): its output and exit code. Output goes nowhere else while it runs; everything is restored after.
 */
export async function runCliInProcess(
  path: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const sink =
    (into: string[]) =>
    (chunk: unknown): boolean => {
      into.push(String(chunk));
      return true;
    };
  const spies: MockInstance[] = [
    vi.spyOn(process.stdout, 'write').mockImplementation(sink(out)),
    vi.spyOn(process.stderr, 'write').mockImplementation(sink(err)),
    vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(`${a.join(' ')}\n`)),
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(`${a.join(' ')}\n`)),
    vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void err.push(`${a.join(' ')}\n`)),
    vi.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
      throw new ProcessExit(Number(code ?? process.exitCode ?? 0));
    }),
  ];
  // runCli listens for EPIPE on both streams of a real process; those listeners go with the run.
  const errorListeners = (s: NodeJS.WriteStream) => s.listeners('error') as ((e: Error) => void)[];
  const listening = [process.stdout, process.stderr].map((s) => [s, errorListeners(s)] as const);
  const argv = process.argv;
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  process.argv = [process.execPath, path, ...args];
  process.exitCode = undefined;
  let code: number;
  try {
    // A query of its own: the entry module is evaluated anew (its `import.meta.url` has no query, so `isMain`
    // holds); the modules it imports are not, nor reset for the files this fork runs next.
    await import(/* @vite-ignore */ `${path}?run=${++runs}`);
    code = exitCode();
  } catch (e) {
    if (!(e instanceof ProcessExit)) throw e;
    code = e.code;
  } finally {
    process.argv = argv;
    process.exitCode = undefined;
    vi.unstubAllEnvs();
    for (const s of spies) s.mockRestore();
    for (const [stream, before] of listening)
      for (const l of errorListeners(stream)) if (!before.includes(l)) stream.off('error', l);
  }
  return { code, stdout: out.join(''), stderr: err.join('') };
}
