/**
 * Counts D1 round trips (a `batch()`, `run()`, `all()`, `first()` or `raw()` call) and their statements, over every
 * call this isolate makes: the API, the queue consumers and the evaluation objects share the binding's prototype.
 */
import { testEnv } from './helpers.js';

/**
 * The D1 calls `run` makes, each as its statements' SQL (whitespace collapsed, its first `chars` characters).
 * @param chars characters kept of each statement's SQL; default 60.
 */
export async function d1CallsOf(run: () => Promise<void>, chars = 60): Promise<string[][]> {
  type Fn = (...args: unknown[]) => unknown;
  const db = Object.getPrototypeOf(testEnv.DB) as Record<string, Fn>;
  const stmt = Object.getPrototypeOf(testEnv.DB.prepare('SELECT 1')) as Record<string, Fn>;
  // workerd's statement keeps its SQL as `statement`.
  const sqlOf = (s: unknown) =>
    String((s as { statement?: unknown }).statement)
      .replace(/\s+/g, ' ')
      .slice(0, chars);
  const calls: string[][] = [];
  const saved: [Record<string, Fn>, string, Fn][] = [];
  const wrap = (on: Record<string, Fn>, name: string, statements: (self: unknown, args: unknown[]) => unknown[]) => {
    const original = on[name] as Fn;
    saved.push([on, name, original]);
    on[name] = function (this: unknown, ...args: unknown[]) {
      calls.push(statements(this, args).map(sqlOf));
      return original.apply(this, args);
    };
  };
  wrap(db, 'batch', (_, args) => args[0] as unknown[]);
  for (const name of ['run', 'all', 'first', 'raw']) wrap(stmt, name, (self) => [self]);
  try {
    await run();
  } finally {
    for (const [on, name, original] of saved) on[name] = original;
  }
  return calls;
}
