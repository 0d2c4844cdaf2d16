/**
 * The worker projects' fix for Miniflare's queue broker (tests/support/miniflare-queue-broker.ts): it applies to
 * the Miniflare installed here, and with it a queue keeps delivering after one of the broker's log calls to
 * Miniflare's loopback server was lost. Without it that queue delivers nothing more, ever (the second delivery
 * below is the last one): under load this left every comparison after the first of
 * tests/worker/comparisons.test.ts with all its items queued.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Miniflare } from 'miniflare';
import {
  BROKER_CLASS,
  BROKER_LOG_GUARD,
  BROKER_STATE,
  installQueueBrokerFix,
  patchBroker,
} from '../support/miniflare-queue-broker.js';
import { WAIT_MS } from '../support/patience.js';

/** Waits until `read()` gives a value `ok` accepts, every 50 ms. */
const pollUntil = <T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> =>
  vi.waitFor(
    async () => {
      const v = await read();
      if (!ok(v)) throw new Error(`not yet: ${String(v)}`);
      return v;
    },
    { timeout: WAIT_MS, interval: 50 },
  );

const brokerPath = join(
  dirname(createRequire(import.meta.url).resolve('miniflare')),
  'workers',
  'queues',
  'broker.worker.js',
);

/** A Worker that sends one message per `/send` and counts the messages its consumer got (`/count`). */
const SCRIPT = `let n = 0;
export default {
  async fetch(req, env) {
    if (new URL(req.url).pathname === '/send') { await env.Q.send({ x: 1 }); return new Response('sent'); }
    return new Response(String(n));
  },
  async queue(batch) { n += batch.messages.length; for (const m of batch.messages) m.ack(); },
};`;

// Kept to be called with each server as `this` (Reflect.apply below) and put back after each test.
// eslint-disable-next-line @typescript-eslint/unbound-method
const emit = http.Server.prototype.emit;
afterEach(() => {
  http.Server.prototype.emit = emit;
});

describe("Miniflare's queue broker", () => {
  it('the fix applies to the Miniflare installed here: its class line is there once', () => {
    // Fails when Miniflare changed the broker: check whether a lost log call still stops its deliveries.
    const source = readFileSync(brokerPath, 'utf8');
    expect(patchBroker(source)?.length).toBe(source.length - BROKER_CLASS.length + BROKER_LOG_GUARD.length);
    expect(patchBroker('const x = 1;')).toBeUndefined();
  });

  it('keeps delivering after a log call to the loopback server was lost', async () => {
    installQueueBrokerFix();
    // Drops the connection of the broker's next log calls while `drop` is set, as a loaded machine did.
    const state = { drop: false, dropped: 0 };
    http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]): boolean {
      const req = args[0] as http.IncomingMessage | undefined;
      if (event === 'request' && state.drop && req?.url === '/core/log') {
        state.dropped++;
        req.socket.destroy();
        return true;
      }
      return Reflect.apply(emit, this, [event, ...args]) as boolean;
    } as typeof emit;
    const mf = new Miniflare({
      modules: true,
      script: SCRIPT,
      compatibilityDate: '2025-01-01',
      queueProducers: { Q: 'q' },
      queueConsumers: { q: { maxBatchTimeout: 0 } },
    });
    try {
      const count = async () => Number(await (await mf.dispatchFetch('http://x/count')).text());
      const send = () => mf.dispatchFetch('http://x/send').then((r) => r.text());
      state.drop = true;
      await send();
      await pollUntil(count, (n) => n === 1);
      await pollUntil(
        () => Promise.resolve(state.dropped),
        (n) => n > 0,
      );
      state.drop = false;
      await send();
      await send();
      expect(await pollUntil(count, (n) => n === 3)).toBe(3);
      expect((globalThis as Record<symbol, unknown>)[BROKER_STATE]).toBe('patched');
    } finally {
      await mf.dispose();
    }
  });
});
