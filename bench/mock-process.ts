/**
 * The mock LLM in its own process group (`npm run mock-llm`), so the benches measure its CPU apart from
 * the runtime's and the client's (bench/proc-cpu.ts).
 */
import { REPO_ROOT } from '../src/cli/local-stack.js';
import { spawnGroup, stopGroup } from '../src/cli/process-group.js';

/** A running mock process. */
export interface MockProcess {
  /** OpenAI base URL (`…/v1`). */
  baseUrl: string;
  /** Its process group id, for {@link import('./proc-cpu.js').groupCpuMs}. */
  pgid: number;
  stop(): Promise<void>;
}

/** Starts the mock at `latency` ms per completion on a free port; resolves once it listens. */
export async function startMockProcess(latency: number): Promise<MockProcess> {
  const child = spawnGroup(process.execPath, ['--import', 'tsx', 'src/llm/mock/cli.ts', '--port', '0', '--latency', String(latency)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /LLM_BASE_URL=(\S+)/.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => { reject(new Error(`the mock exited with code ${code ?? 'signal'}`)); });
  });
  return { baseUrl, pgid: child.pid ?? 0, stop: () => stopGroup(child) };
}
