/**
 * One webhook POST's outcome (src/webhooks/send.ts) when nothing answers: the error names the receiver's host, so
 * its owner knows which endpoint is down, and never its path or query (which may hold a token). Run in Node: the
 * message is composed here from the runtime's own, and workerd's test runtime reports a refused connection as an
 * uncaught rejection of its own besides (a deployed Worker and a plain Miniflare do not).
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { postWebhook } from '../../src/webhooks/send.js';

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

describe('postWebhook to a receiver that is not listening', () => {
  it('is no status and an error naming its host, never its path or query', async () => {
    const port = await closedPort();
    const sent = await postWebhook(`http://127.0.0.1:${port}/hooks/secret-path?token=abc`, '{}', {}, 5_000);
    expect(sent).toMatchObject({ statusCode: null, excerpt: null });
    expect(sent.error).toMatch(
      new RegExp(`^network error: no answer from 127\\.0\\.0\\.1:${port} \\(.+\\); is the receiver running`),
    );
    expect(sent.error).not.toMatch(/secret-path|token/);
  });
});
