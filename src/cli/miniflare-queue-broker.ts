/**
 * @module
 * A fix for Miniflare's local queue broker, applied where this project loads Miniflare (./worker-options.ts),
 * so `npm start`, the e2e stacks and the benches get it. Node only.
 *
 * The broker (miniflare/dist/src/workers/queues/broker.worker.js, a Durable Object per queue) hands one batch
 * at a time: `#ensurePendingFlush` returns at once while `#pendingFlush` is set, and only the end of `#flush`
 * clears it. Anything that throws in `#flush` before that line (its `logWithLevel` calls, HTTP requests to
 * the Node process; a retry's `setTimeout`, past workerd's 10,000 active timers per object) leaves it set
 * for good: the queue still accepts messages and reports them waiting, but no batch is handed over again.
 * The fix wraps `#flush`: when it throws with its own pending flush still set, that flush is cleared and
 * the next batch scheduled, as its normal end does. Miniflare reads the broker's file when it builds its
 * first config; the fix serves that one file patched through `fs.readFileSync` (nothing on disk changes).
 * Where the line is not found (another Miniflare) the fix changes nothing and returns `'skipped'`;
 * tests/cli/miniflare-queue-broker.test.ts then fails, so an upgrade is reviewed before it ships.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The start of the broker's `#flush`, as bundled in miniflare 4. */
export const BROKER_FLUSH_START = '  #flush = async () => {\n    let consumer = this.#maybeConsumer;';

/** The same start behind a wrapper that frees the broker when a flush throws. */
export const BROKER_FLUSH_GUARDED = `  #flush = async () => {
    // Patched by Tribunal (src/cli/miniflare-queue-broker.ts): a throw below used to leave #pendingFlush set,
    // and no batch was handed over again.
    const pending = this.#pendingFlush;
    try {
      await this.#flushOnce();
    } catch (e) {
      // The message, not the stack: a batch cancel's late log call throws here too, and npm start prints each line.
      console.error("Queue " + this.name + ": a batch's hand-over failed, the next one goes on: " + (e?.message ?? e));
      if (this.#pendingFlush === pending) {
        this.#pendingFlush = void 0;
        if (this.#messages.length > 0) this.#ensurePendingFlush();
      }
    }
  };
  #flushOnce = async () => {
    let consumer = this.#maybeConsumer;`;

/**
 * `source` with the broker's flush guarded, or undefined when `source` does not hold its start exactly once
 * (another Miniflare: left as it is).
 */
export function patchQueueBroker(source: string): string | undefined {
  const at = source.indexOf(BROKER_FLUSH_START);
  if (at === -1 || source.indexOf(BROKER_FLUSH_START, at + 1) !== -1) return undefined;
  return source.slice(0, at) + BROKER_FLUSH_GUARDED + source.slice(at + BROKER_FLUSH_START.length);
}

/** What {@link installQueueBrokerFix} did in this process: `'patched'`, or `'skipped'` (its line not found). */
export type QueueBrokerFixState = 'patched' | 'skipped';

/**
 * Where the process keeps what the fix did: on `globalThis`, not in this module, because a test runner may load
 * the module again (a fresh module graph per file) in a process whose `fs` already serves the patched file, and
 * that copy would find no line to patch.
 */
const INSTALLED = Symbol.for('tribunal.miniflareQueueBroker');

/**
 * Serves Miniflare's queue broker patched ({@link patchQueueBroker}) to this process's Miniflare. Idempotent;
 * must run before the first Miniflare with a queue starts (Miniflare keeps the file it read).
 */
export function installQueueBrokerFix(): QueueBrokerFixState {
  const g = globalThis as { [INSTALLED]?: QueueBrokerFixState };
  const done = g[INSTALLED];
  if (done !== undefined) return done;
  const require = createRequire(import.meta.url);
  // The CommonJS module object, the one Miniflare's bundle calls readFileSync on (an ESM namespace is frozen).
  const fs = require('node:fs') as typeof import('node:fs');
  const brokerPath = join(dirname(require.resolve('miniflare')), 'workers', 'queues', 'broker.worker.js');
  const patched = patchQueueBroker(fs.readFileSync(brokerPath, 'utf8'));
  if (patched === undefined) return (g[INSTALLED] = 'skipped');
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (this: unknown, ...args: Parameters<typeof readFileSync>) {
    return args[0] === brokerPath && args[1] === 'utf8' ? patched : readFileSync.apply(this, args);
  } as typeof readFileSync;
  return (g[INSTALLED] = 'patched');
}
