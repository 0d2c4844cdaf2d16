/**
 * A server the benches run in its own process group (the mock LLM, the forwarding Worker), so its CPU is
 * measured apart from the runtime's and the client's (bench/proc-cpu.ts).
 */
import { REPO_ROOT } from '../src/cli/worker-bundle.js';
import { spawnGroup, stopGroup } from '../src/cli/process-group.js';

/** A running server process. */
export interface ServingChild {
  /** The URL it printed. */
  url: string;
  /** Its process group id, for {@link import('./proc-cpu.js').groupCpuMs}. */
  pgid: number;
  stop(): Promise<void>;
}

/**
 * Runs `node --import tsx <args>` from the repository root in a new process group and resolves once its
 * standard output has matched `printed` (whose first group is the URL); rejects if it exits first.
 */
export async function startServingChild(args: readonly string[], printed: RegExp, what: string): Promise<ServingChild> {
  const child = spawnGroup(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = printed.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => {
      reject(new Error(`${what} exited with code ${code ?? 'signal'}`));
    });
  });
  return { url, pgid: child.pid ?? 0, stop: () => stopGroup(child) };
}
