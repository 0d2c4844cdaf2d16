/**
 * @module
 * TCP ports of the local stack: a free one, whether one is free, and waiting until one is free again
 * (a stopped runtime must leave its port bindable). Node only; IPv4 loopback unless told otherwise.
 */
import { createServer } from 'node:net';

/** A port that {@link assertPortFree} found taken; `hint` says how to pick another. */
export class PortInUseError extends Error {
  override name = 'PortInUseError';
  constructor(
    readonly port: number,
    what: string,
    hint: string,
  ) {
    super(`port ${port} (${what}) is already in use by another process: ${hint}`);
  }
}

/** Resolves true when `host:port` can be bound right now (nothing listens there). */
export function portIsFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EADDRINUSE' || e.code === 'EACCES') resolve(false);
      else reject(e);
    });
    srv.listen({ port, host, exclusive: true }, () =>
      srv.close(() => {
        resolve(true);
      }),
    );
  });
}

/** A free TCP port on `host` (default 127.0.0.1), as the OS hands them out. */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => {
        resolve(port);
      });
    });
  });
}

/** Throws {@link PortInUseError} when `port` is taken; `what` names its use, `hint` how to change it. */
export async function assertPortFree(port: number, what: string, hint: string, host = '127.0.0.1'): Promise<void> {
  if (!(await portIsFree(port, host))) throw new PortInUseError(port, what, hint);
}

/** Resolves true once `port` is free, false if it is still taken after `timeoutMs` (polled every 50 ms). */
export async function waitForPortFree(port: number, timeoutMs: number, host = '127.0.0.1'): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await portIsFree(port, host)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
