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
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What this file uses of `ws`'s permessage-deflate extension. */
interface PerMessageDeflateClass {
  prototype: {
    offer: (this: object) => Record<string, unknown>;
    accept: (this: object, configurations: unknown) => unknown;
  };
}

const PATCHED = Symbol.for('tribunal.poolSocketUncompressed');

/** The error when workerd took the offer anyway: the sockets are deflated again and this file does nothing. */
const INERT_PATCH = 'pool socket negotiated permessage-deflate: the patch is inert';

/**
 * The directory of package `name` as Node finds it from the file `from`: the pool's `exports` (import only, no
 * `./package.json`) let `require.resolve` reach neither its entry nor its package.json.
 */
function packageDir(name: string, from: string): string {
  for (const dir of createRequire(from).resolve.paths(name) ?? []) {
    if (existsSync(join(dir, name, 'package.json'))) return join(dir, name);
  }
  throw new Error(`${name} not found from ${from}`);
}

/**
 * Makes Miniflare's WebSocket client offer no compression workerd can accept, and fail the handshake should
 * workerd accept it all the same; idempotent.
 */
export function keepPoolSocketsUncompressed(): void {
  // The Miniflare the pool runs (an upgrade may nest its own copy under the pool), and the `ws` that one requires.
  const fromPool = createRequire(join(packageDir('@cloudflare/vitest-pool-workers', import.meta.url), 'package.json'));
  const fromMiniflare = createRequire(fromPool.resolve('miniflare'));
  // By its path: `ws` exports no subpath, and the module cache holds the one its client requires.
  const wsDir = dirname(fromMiniflare.resolve('ws'));
  const deflate = fromMiniflare(join(wsDir, 'lib', 'permessage-deflate.js')) as PerMessageDeflateClass;
  if (Reflect.has(deflate.prototype, PATCHED)) return;
  const { offer, accept } = deflate.prototype;
  // The extension objects that made the patched offer: a client's. A server's (never offering) accepts as before.
  const offered = new WeakSet<object>();
  Reflect.set(deflate.prototype, PATCHED, true);
  deflate.prototype.offer = function offerDeclined(this: object) {
    offered.add(this);
    return { ...offer.call(this), x_tribunal_uncompressed: true };
  };
  // The ws client calls this only when the server took the extension: the claim above, checked on every run.
  deflate.prototype.accept = function acceptChecked(this: object, configurations: unknown) {
    if (offered.has(this)) {
      // ws reports any error thrown here as "Invalid Sec-WebSocket-Extensions header": say why first.
      console.error(`error: ${INERT_PATCH} (tests/worker/pool-socket-deflate.ts)`);
      throw new Error(INERT_PATCH);
    }
    return accept.call(this, configurations);
  };
}
