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
 * How long a serving child may take to print its URL: 120 s. A cold start on a loaded machine takes seconds
 * (Miniflare's load, workerd's start); a child still silent after this is stuck (workerd up with no socket once
 * held `bench:peers` ~10 min), and the bench ends with an error instead of hanging.
 */
export const SERVING_READY_MS = 120_000;

/**
 * Runs `node --import tsx <args>` from the repository root in a new process group and resolves once its
 * standard output has matched `printed` (whose first group is the URL); rejects if it exits first, or stops its
 * group and rejects naming `what` when nothing matched within `readyMs` (default {@link SERVING_READY_MS}).
 */
export async function startServingChild(
  args: readonly string[],
  printed: RegExp,
  what: string,
  readyMs = SERVING_READY_MS,
): Promise<ServingChild> {
  const child = spawnGroup(process.execPath, ['--import', 'tsx', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let timer: NodeJS.Timeout | undefined;
  try {
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
      timer = setTimeout(() => {
        reject(new Error(`${what} did not print ${printed.source} within ${readyMs / 1000} s of its start`));
      }, readyMs);
    });
    return { url, pgid: child.pid ?? 0, stop: () => stopGroup(child) };
  } catch (e) {
    await stopGroup(child);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `fetch` with a bound: rejects naming `what` when no answer (headers and body, as `read` takes it) came within
 * `ms`, so a bench item never waits silently on a stuck server.
 */
export async function fetchWithin<T>(
  what: string,
  ms: number,
  url: string,
  init: RequestInit,
  read: (r: Response) => Promise<T>,
): Promise<T> {
  const signal = AbortSignal.timeout(ms);
  try {
    return await read(await fetch(url, { ...init, signal }));
  } catch (e) {
    if (signal.aborted) throw new Error(`${what}: no answer within ${ms / 1000} s`);
    throw e;
  }
}
