/**
 * The Worker's JSON log lines written while a function runs (the evaluation object's included: it runs
 * in the test's isolate), parsed; other console output is left out.
 */
import { vi } from 'vitest';

/** One of the Worker's log lines (src/log/log.ts). */
export interface LoggedLine {
  level: string;
  event: string;
  [field: string]: unknown;
}

/**
 * Runs `run` with the console captured; its result and the JSON log lines written meanwhile (`run` gets
 * them as they come, to wait for one written by a queue consumer).
 */
export async function capturingLogLines<T>(
  run: (lines: readonly LoggedLine[]) => Promise<T>,
): Promise<{ result: T; lines: LoggedLine[] }> {
  const lines: LoggedLine[] = [];
  const spies = (['log', 'warn', 'error'] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      const text = args.map(String).join(' ');
      if (!text.startsWith('{')) return;
      try {
        lines.push(JSON.parse(text) as LoggedLine);
      } catch {
        // Not a log line.
      }
    }),
  );
  try {
    return { result: await run(lines), lines };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}
