/**
 * Node side of the worker project (tests/vitest.worker.config.ts calls {@link keepPoolSocketsUncompressed} before
 * the pool starts): the pool talks to each runtime over one WebSocket, which Miniflare opens with the `ws` client,
 * and that client offers permessage-deflate, which workerd takes. Every frame of it (each module's code, every RPC
 * of vitest's, every test's result) was then deflated by its sender and inflated by its receiver, on both sides:
 * zlib was the first cost of the vitest process (34 of 268 CPU-s in a profile of the worker project), and workerd
 * paid the other half on its one thread. Nothing crosses that socket but loopback traffic, which compression
 * does not shorten in any way that matters.
 *
 * The offer now carries a parameter permessage-deflate does not define, so workerd declines it as RFC 7692
 * (section 5) says a server must, and the socket carries its frames as they are (the handshake is otherwise the
 * same). Only Miniflare's copy of `ws` is changed, in this process: the Worker's own sockets are opened by the
 * tests inside workerd, where nothing is negotiated.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What this file uses of `ws`'s permessage-deflate extension. */
interface PerMessageDeflateClass {
  prototype: { offer: (this: object) => Record<string, unknown> };
}

const PATCHED = Symbol.for('tribunal.poolSocketUncompressed');

/** Makes Miniflare's WebSocket client offer no compression workerd can accept; idempotent. */
export function keepPoolSocketsUncompressed(): void {
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve('miniflare'));
  // By its path: `ws` exports no subpath, and the module cache holds the one its client requires.
  const wsDir = dirname(fromMiniflare.resolve('ws'));
  const deflate = fromMiniflare(join(wsDir, 'lib', 'permessage-deflate.js')) as PerMessageDeflateClass;
  if (Reflect.has(deflate.prototype, PATCHED)) return;
  const offer = deflate.prototype.offer;
  Reflect.set(deflate.prototype, PATCHED, true);
  deflate.prototype.offer = function offerDeclined(this: object) {
    return { ...offer.call(this), x_tribunal_uncompressed: true };
  };
}
