/**
 * The client's `signal` ends a request in Node even after a garbage collection: Node's fetch (undici) links a
 * Request's signal to the caller's only through a weak reference, so a client that sent only the Request it
 * built lost the caller's abort once that Request was collected, and the call hung on.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTribunalClient } from '../../src/client/index.js';

// A full collection on demand, without starting the process with --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Resolves each time the server has received a request, which it never answers. */
let received: () => void = () => undefined;
const server = createServer(() => {
  received();
});
let baseUrl = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
});

it('an abort after a garbage collection still ends a hanging request', async () => {
  const client = createTribunalClient({ baseUrl });
  const controller = new AbortController();
  const arrived = new Promise<void>((resolve) => {
    received = resolve;
  });
  const call = client.request('get', '/health', { signal: controller.signal });
  await arrived;
  gc();
  controller.abort();
  await expect(call).rejects.toMatchObject({ name: 'AbortError' });
});
