/**
 * A command a test runs to its end (a CLI, npm, tsc), waited on as an event: no wall-clock kill. A kill
 * on a timer made a slow run on a busy machine look finished (and, before `runCli` exited 141 on a reader that
 * went away, src/cli/args.ts, a killed run with its pipes closed exited 0 on its next write). The runner's timeout bounds the
 * wait instead; whatever is still running when the file ends is stopped by {@link stopLeftovers}.
 */
import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

/** How a process ended: its exit code, or null and the signal that ended it. */
export interface ProcessResult {
  /** Exit code; null when a signal ended the process. */
  code: number | null;
  /** The signal that ended it, else null. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link runProcess}: the working directory and the whole environment of the child. */
export interface RunProcessOptions {
  /** Working directory; default this process's. */
  cwd?: string;
  /** The child's whole environment; default this process's. */
  env?: NodeJS.ProcessEnv;
}

const running = new Set<ChildProcess>();

/** Runs `file args` to its end and resolves to how it ended, with everything it printed (up to 64 MB). */
export function runProcess(
  file: string,
  args: readonly string[],
  options: RunProcessOptions = {},
): Promise<ProcessResult> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        running.delete(child);
        // A spawn failure (ENOENT) has a string code: the process never ran, reported as a code no CLI uses.
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const signal = error && 'signal' in error && typeof error.signal === 'string' ? error.signal : null;
        resolve({ code: code === null && signal === null ? -1 : code, signal, stdout, stderr });
      },
    );
    running.add(child);
  });
}

/**
 * Stops every process {@link runProcess} started that is still running (a test that timed out): SIGTERM,
 * so a CLI stops the stack it started, then SIGKILL after `graceMs` (default 5000). For `afterAll`.
 */
export async function stopLeftovers(graceMs = 5_000): Promise<void> {
  const left = [...running];
  await Promise.all(
    left.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}
