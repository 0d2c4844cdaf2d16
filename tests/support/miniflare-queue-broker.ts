/**
 * A test fix for Miniflare's local queues, installed in the Node process that runs Miniflare (the worker
 * projects' config, tests/vitest.worker.config.ts). Miniflare's queue broker (a Durable Object per queue,
 * `workers/queues/broker.worker.js`) delivers one batch at a time: while a flush is under way, new messages only
 * join the backlog. After each delivery the flush writes a log line to Miniflare's Node loopback server and only
 * then clears its "flush under way" mark. On a loaded machine that loopback call can fail (workerd's
 * "Network connection lost", printed as an uncaught promise rejection); the flush then rejects before clearing
 * the mark, and the broker never delivers again: every later message of that queue waits forever. A worker
 * test's items then stay `queued`, as `tests/worker/comparisons.test.ts` did under load after its tournament
 * (tests/cli/miniflare-queue-broker.test.ts reproduces it by dropping one log call).
 *
 * The fix makes the broker's log calls unable to throw (a lost log line of the local broker is harmless): the
 * broker's source is rewritten as Miniflare reads it (`fs.readFileSync`, once per process). Nothing on disk
 * changes; a broker without the expected class line (another Miniflare) is left as it is. Node only.
 */
import fs from 'node:fs';

/** The class line of the queue broker as bundled in miniflare 4. */
export const BROKER_CLASS = 'var QueueBrokerObject = class extends MiniflareDurableObject {';

/** The same class with its log calls made unable to reject. */
export const BROKER_LOG_GUARD = `${BROKER_CLASS}
  logWithLevel(level, message) { return super.logWithLevel(level, message).catch(() => {}); }`;

/** Miniflare's broker script, the one file the hook rewrites. */
const BROKER_FILE = '/miniflare/dist/src/workers/queues/broker.worker.js';

/** The global the hook sets once it ran: `'patched'`, or `'skipped'` when the class line was not there. */
export const BROKER_STATE = Symbol.for('tribunal.miniflareQueueBroker');

/** `source` with the broker's log calls guarded, or undefined when it does not hold the class line exactly once. */
export function patchBroker(source: string): string | undefined {
  const at = source.indexOf(BROKER_CLASS);
  if (at === -1 || source.indexOf(BROKER_CLASS, at + 1) !== -1) return undefined;
  return source.slice(0, at) + BROKER_LOG_GUARD + source.slice(at + BROKER_CLASS.length);
}

const installed = Symbol.for('tribunal.miniflareQueueBroker.installed');

/**
 * Wraps `fs.readFileSync` so that Miniflare's broker script is read patched ({@link patchBroker}). Idempotent;
 * must run before the process's first Miniflare starts (Miniflare caches the script).
 */
export function installQueueBrokerFix(): void {
  const g = globalThis as Record<symbol, unknown>;
  if (g[installed] === true) return;
  g[installed] = true;
  const read = fs.readFileSync;
  function readPatched(this: unknown, ...args: unknown[]): unknown {
    const out: unknown = Reflect.apply(read, fs, args);
    const path = args[0];
    if (typeof path === 'string' && typeof out === 'string' && path.replaceAll('\\', '/').endsWith(BROKER_FILE)) {
      const patched = patchBroker(out);
      g[BROKER_STATE] = patched === undefined ? 'skipped' : 'patched';
      return patched ?? out;
    }
    return out;
  }
  fs.readFileSync = readPatched as typeof fs.readFileSync;
}
