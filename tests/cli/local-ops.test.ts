/**
 * The terminal's reads of workerd's D1 through the helper Worker (src/cli/local-ops.ts): an exchange that broke
 * (workerd closed a kept-alive socket while this process was starved) is sent again, an answer never is. A
 * plain HTTP server stands in for the helper Worker: what is pinned is the client's side of the exchange.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { d1ReaderOver, READ_EXCHANGES } from '../../src/cli/local-ops.js';

/**
 * A stand-in helper Worker that closes the connection of each exchange `cut` picks (by number, from 1) without
 * an answer, and answers the others with `status` and `body`; `seen` counts the exchanges.
 */
async function helper(
  cut: (n: number) => boolean,
  status: number,
  body: unknown,
): Promise<{ url: string; seen: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = createServer((req, res) => {
    const i = ++n;
    req.resume();
    req.on('end', () => {
      if (cut(i)) req.socket.destroy();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: () => n,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const read = (url: string) => d1ReaderOver(url, 'secret', 'DB').prepare('SELECT 1').bind().first<{ one: number }>();

describe('d1ReaderOver', () => {
  it('sends a read again when its exchange broke, up to READ_EXCHANGES in all, and never an answered one', async () => {
    const twice = await helper((n) => n <= 2, 200, { row: { one: 1 } });
    try {
      expect(await read(twice.url)).toEqual({ one: 1 });
      expect(twice.seen()).toBe(3);
    } finally {
      await twice.close();
    }
    const gone = await helper(() => true, 200, null);
    try {
      await expect(read(gone.url)).rejects.toThrow(/^\/d1\/first: no answer from the local runtime/);
      expect(gone.seen()).toBe(READ_EXCHANGES);
    } finally {
      await gone.close();
    }
    // D1's own error is an answer: it rejects at once.
    const failing = await helper(() => false, 500, { error: 'D1_ERROR: no such table: nope' });
    try {
      await expect(read(failing.url)).rejects.toThrow('/d1/first: D1_ERROR: no such table: nope');
      expect(failing.seen()).toBe(1);
    } finally {
      await failing.close();
    }
  });
});
