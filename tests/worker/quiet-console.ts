/**
 * Setup file of the worker projects (first of them): the console keeps each test's lines in this isolate and
 * hands them to vitest only when the test fails. The pipeline logs a JSON line per call and per step
 * (src/log/log.ts), ~2,700 lines a run; vitest's console in the runtime formats each, sends it to vitest's process
 * over the pool's socket, and that process keeps every one to print those of failed tests
 * (`silent: 'passed-only'`, tests/vitest.worker.config.ts). The same lines are printed as before: those written
 * since the previous test's end (its hooks included) when a test fails, none when it passes; a file that runs
 * no test (its `beforeAll` failed) shows what its setup logged.
 *
 * `vi.spyOn(console, 'log')` still sees every line: a spy wraps the method set here (and a spy's
 * `mockImplementation` replaces it while the spy lasts). Installed once per isolate (vitest sets its console
 * once per runtime, and the files of a runtime share it).
 */
import { afterAll, afterEach, beforeEach } from 'vitest';

const INSTALLED = Symbol.for('tribunal.quietConsole');
const LEVELS = ['log', 'info', 'debug', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/** This isolate's held lines and vitest's console methods they go to; one per isolate. */
interface Held {
  lines: { level: Level; args: unknown[] }[];
  /** Tests started in the current file. */
  tests: number;
  vitest: Record<Level, (...args: unknown[]) => void>;
}

const held = ((): Held => {
  const existing = Reflect.get(globalThis, INSTALLED) as Held | undefined;
  if (existing) return existing;
  const created: Held = {
    lines: [],
    tests: 0,
    vitest: Object.fromEntries(LEVELS.map((l) => [l, console[l].bind(console)])) as Held['vitest'],
  };
  for (const level of LEVELS)
    console[level] = (...args: unknown[]) => {
      created.lines.push({ level, args });
    };
  Reflect.set(globalThis, INSTALLED, created);
  return created;
})();

/** Hands the lines held so far to vitest's console when `failed`, and drops them either way. */
function flush(failed: boolean): void {
  const lines = held.lines.splice(0);
  if (failed) for (const { level, args } of lines) held.vitest[level](...args);
}

beforeEach(() => {
  held.tests += 1;
});
afterEach(({ task }) => {
  flush(task.result?.state === 'fail');
});
// A file that ran no test (its `beforeAll` failed, or every test was skipped) shows what its setup logged.
afterAll(() => {
  flush(held.tests === 0);
  held.tests = 0;
});
