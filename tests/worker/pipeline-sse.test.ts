/** The SSE hub on its own: keep-alive comments and dropping subscribers that stop reading. */
import { WAIT_MS } from '../support/patience.js';
import { describe, expect, it, vi } from 'vitest';
import type { EvaluationEvent } from '../../src/evaluations/live-events.js';
import { SSE_PING, SseHub } from '../../src/evaluations/sse-hub.js';
import { parseSse, pollUntil, withTimeout } from './helpers.js';

const decoder = new TextDecoder();

/** A `status` event padded to about `bytes` bytes on the wire. */
function bigEvent(bytes: number): EvaluationEvent {
  return {
    type: 'status',
    data: { evaluationId: 'x'.repeat(bytes), status: 'running', callsDone: 0, callsPlanned: 1, at: 0 },
  };
}

/** Reads a stream to its end in the background, as a client does. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += decoder.decode(value, { stream: true });
  }
}

describe('SseHub', () => {
  it('sends a ping comment while subscribers exist; closeAll stops it', async () => {
    const hub = new SseHub({ pingIntervalMs: 20 });
    const reader = hub.open('', false).getReader();
    const first = await withTimeout(reader.read(), 2_000, 'the first ping');
    expect(decoder.decode(first.value)).toBe(SSE_PING);
    hub.closeAll();
    expect(hub.size).toBe(0);
    expect(hub.pinging).toBe(false);
    // Drains what was queued before the close, then ends.
    for (;;) {
      const r = await withTimeout(reader.read(), 2_000, 'the end of the stream');
      if (r.done) break;
    }
  });

  it('stops the ping when the last subscriber leaves: its reader cancels, the next ping fails and drops it', async () => {
    const cleared = vi.spyOn(globalThis, 'clearInterval');
    try {
      const hub = new SseHub({ pingIntervalMs: 20 });
      const reader = hub.open('', false).getReader();
      await withTimeout(reader.read(), 2_000, 'the first ping');
      expect(hub.pinging).toBe(true);
      expect(cleared).not.toHaveBeenCalled();
      // The client goes away; only the keep-alive's failing write can notice.
      await reader.cancel();
      expect(hub.size).toBe(1);
      await pollUntil(
        () => Promise.resolve(hub.size),
        (n) => n === 0,
        WAIT_MS,
      );
      expect(hub.size).toBe(0);
      expect(hub.pinging).toBe(false);
      expect(cleared).toHaveBeenCalledTimes(1);
    } finally {
      cleared.mockRestore();
    }
  });

  it('does not count the replay against the limit: a replay over it survives the first live event', async () => {
    const hub = new SseHub({ maxBufferedBytes: 1024, pingIntervalMs: 60_000 });
    const replay = 'x'.repeat(4096);
    const stream = hub.open(`: ${replay}\n\n`, false);
    hub.send(bigEvent(100));
    expect(hub.size).toBe(1);
    const text = readAll(stream);
    hub.send(bigEvent(100));
    expect(hub.size).toBe(1);
    hub.closeAll();
    expect(parseSse(await withTimeout(text, 2_000, 'the stream'))).toHaveLength(2);
  });

  it('still drops a subscriber with more than the limit unread beyond its replay', async () => {
    const hub = new SseHub({ maxBufferedBytes: 1024, pingIntervalMs: 60_000 });
    const stream = hub.open(`: ${'x'.repeat(4096)}\n\n`, false);
    for (let i = 0; i < 10; i++) hub.send(bigEvent(200));
    expect(hub.size).toBe(0);
    await expect(stream.getReader().read()).rejects.toThrow(/dropped/);
  });

  it('drops a subscriber with more than the limit unread; one that reads keeps everything', async () => {
    const hub = new SseHub({ maxBufferedBytes: 1024, pingIntervalMs: 60_000 });
    const stalled = hub.open('', false);
    const live = readAll(hub.open('', false));
    expect(hub.size).toBe(2);
    for (let i = 0; i < 20; i++) {
      hub.send(bigEvent(200));
      // Lets the reading client drain between events, as a connected client would.
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(hub.size).toBe(1);
    await expect(stalled.getReader().read()).rejects.toThrow(/dropped/);
    hub.closeAll();
    const text = await withTimeout(live, 2_000, 'the live stream');
    expect(text.match(/event: status/g)).toHaveLength(20);
  });
});
