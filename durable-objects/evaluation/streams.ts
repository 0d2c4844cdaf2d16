/**
 * @module
 * The object's subscribers: SSE streams (in memory, with backpressure and keep-alive: src/evaluations/sse-hub.ts)
 * and WebSockets (hibernation API: they live in `ctx.getWebSockets()`, so they survive hibernation).
 * Both get the replay first, then every broadcast, and are closed after the terminal event.
 */
import type { EvaluationEvent } from '../../src/evaluations/live-events.js';
import { encodeSse, encodeWs } from '../../src/evaluations/live-events.js';
import { SseHub } from '../../src/evaluations/sse-hub.js';

/** Close code and reason sent to WebSocket subscribers when the evaluation ended. */
const ENDED = { code: 1000, reason: 'evaluation ended' } as const;

/** Every subscriber of one object. */
export class Streams {
  private readonly sse = new SseHub();
  /** Callers of {@link whenClosed} (the API's `Prefer: wait`): resolved by {@link closeAll}. In memory only. */
  private readonly waiters = new Set<(closed: boolean) => void>();
  /** Callers that will wait in {@link whenClosed} once their start returns ({@link expectWaiter}). */
  private expected = 0;

  /**
   * Whether this object may hold a WebSocket subscriber: unknown (null) in a new instance (sockets outlive
   * hibernation), then what the last broadcast found, and true once {@link open} accepts one. While false, a
   * broadcast asks the runtime nothing.
   */
  private sockets: boolean | null = null;

  constructor(private readonly ctx: DurableObjectState) {}

  /**
   * Sends one event to every subscriber (a socket closing meanwhile is skipped). Encoded only for a kind of
   * subscriber that exists: most evaluations have none, and each call's start and result came through here
   * as JSON text (the reply included) on the way to the next call.
   */
  broadcast(event: EvaluationEvent): void {
    if (this.sse.size > 0) this.sse.send(event);
    if (this.sockets === false) return;
    const sockets = this.ctx.getWebSockets();
    // None left (or none since a restart): ask no more until open() accepts one.
    this.sockets = sockets.length > 0;
    if (!this.sockets) return;
    const frame = encodeWs(event);
    for (const ws of sockets) {
      try {
        ws.send(frame);
      } catch {
        // A socket closing concurrently: nothing to deliver to.
      }
    }
  }

  /** Ends every subscription (after the terminal event). */
  closeAll(): void {
    for (const resolve of this.waiters) resolve(true);
    this.waiters.clear();
    this.sse.closeAll();
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(ENDED.code, ENDED.reason);
      } catch {
        // Already closed.
      }
    }
  }

  /**
   * Whether a caller waits in {@link whenClosed}, or will once its start returns (the final write then reads the
   * evaluation back for it).
   */
  hasWaiters(): boolean {
    return this.waiters.size > 0 || this.expected > 0;
  }

  /**
   * Counts a caller that will wait for the end after its start, until `run` settles: an evaluation that ends
   * inside its start (a verdict cache hit) then reads itself back in its final write's round trip, instead of
   * the caller reading D1 again in a round trip of its own.
   */
  async expectWaiter<T>(run: () => Promise<T>): Promise<T> {
    this.expected += 1;
    try {
      return await run();
    } finally {
      this.expected -= 1;
    }
  }

  /**
   * Resolves true when the subscriptions are closed after the terminal event ({@link closeAll}), or false
   * after `timeoutMs`. Memory only: an eviction drops the waiter with the RPC that holds it, and the
   * caller falls back to the accepted answer.
   */
  whenClosed(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters.delete(done);
        resolve(false);
      }, timeoutMs);
      const done = (closed: boolean) => {
        clearTimeout(timer);
        resolve(closed);
      };
      this.waiters.add(done);
    });
  }

  /**
   * Serves one subscriber: a WebSocket upgrade is accepted with the hibernation API, anything else gets
   * SSE. The replay goes first; with `done` the subscription ends right after it.
   */
  open(request: Request, replay: readonly EvaluationEvent[], done: boolean): Response {
    if (request.headers.get('Upgrade')?.toLowerCase() === 'websocket') {
      const pair = new WebSocketPair();
      const [client, server] = [pair[0], pair[1]];
      this.ctx.acceptWebSocket(server);
      this.sockets = true;
      for (const e of replay) server.send(encodeWs(e));
      if (done) server.close(ENDED.code, ENDED.reason);
      return new Response(null, { status: 101, webSocket: client });
    }
    const readable = this.sse.open(replay.map(encodeSse).join(''), done);
    return new Response(readable, {
      headers: {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Accel-Buffering': 'no',
      },
    });
  }
}
