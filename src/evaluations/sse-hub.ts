/**
 * @module
 * Server-sent-event subscribers of one evaluation's Durable Object, with backpressure and keep-alive.
 *
 * Backpressure: each subscriber's stream buffers at most {@link SseHubOptions.maxBufferedBytes} unread
 * bytes (a byte-length queuing strategy on the writable side, so `writer.desiredSize` is that limit
 * minus what the client has not read yet). A subscriber whose `desiredSize` is below zero when the next
 * frame goes out, i.e. more than the limit is still unread, is dropped (its stream is aborted): one
 * stalled client must not grow the object's memory without bound. A dropped client reconnects and gets
 * the full replay, so nothing is lost for it. The replay itself does not count against the limit: a long
 * debate's replay can exceed it, and counting it would drop the subscriber on the first live event and
 * send it into a reconnect loop. So each subscriber may have its replay's size plus the limit unread.
 *
 * Keep-alive: a `: ping` comment every {@link SseHubOptions.pingIntervalMs} while subscribers exist, so
 * proxies do not close an idle stream during a long LLM call, and so a write to a vanished client
 * fails and drops it. Why an in-memory `setInterval` rather than the alarm: the alarm is the
 * evaluation's step loop (one alarm per object) and must stay that; and an open SSE response keeps the
 * object in memory anyway (it cannot hibernate with a request in progress), so the interval costs
 * nothing extra and dies with the instance, like the writers it serves. It is cleared when the last
 * subscriber leaves. WebSockets get no server ping: they use the hibernation API, and a timer would keep
 * a hibernatable object awake; their clients ping (`ping` → `pong`).
 */
import type { EvaluationEvent } from './live-events.js';
import { encodeSse } from './live-events.js';

/** Default {@link SseHubOptions.maxBufferedBytes}: 1 MiB unread per subscriber. */
export const SSE_MAX_BUFFERED_BYTES = 1024 * 1024;

/** Default {@link SseHubOptions.pingIntervalMs}: 15 s (common proxy idle timeouts are 30-100 s). */
export const SSE_PING_INTERVAL_MS = 15_000;

/** The keep-alive frame: an SSE comment, ignored by `EventSource` and by our parsers. */
export const SSE_PING = ': ping\n\n';

/** Options of {@link SseHub}. */
export interface SseHubOptions {
  /** Unread bytes a subscriber may have before it is dropped. Default {@link SSE_MAX_BUFFERED_BYTES}. */
  maxBufferedBytes?: number;
  /** Interval of the `: ping` comment while subscribers exist, ms. Default {@link SSE_PING_INTERVAL_MS}. */
  pingIntervalMs?: number;
}

/** The open SSE streams of one object. */
export class SseHub {
  /** Open writers, each with the bytes of its replay (unread bytes allowed beyond the limit). */
  private readonly writers = new Map<WritableStreamDefaultWriter<Uint8Array>, number>();
  private readonly encoder = new TextEncoder();
  private readonly maxBufferedBytes: number;
  private readonly pingIntervalMs: number;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(options: SseHubOptions = {}) {
    this.maxBufferedBytes = options.maxBufferedBytes ?? SSE_MAX_BUFFERED_BYTES;
    this.pingIntervalMs = options.pingIntervalMs ?? SSE_PING_INTERVAL_MS;
  }

  /** Live subscribers. */
  get size(): number {
    return this.writers.size;
  }

  /** True while the keep-alive timer runs (exactly while subscribers exist). */
  get pinging(): boolean {
    return this.timer !== null;
  }

  /**
   * A new subscriber's stream: `initial` (the replay, already SSE-encoded) first; with `end` the stream
   * closes right after it, else it receives every {@link send} until {@link closeAll}.
   */
  open(initial: string, end: boolean): ReadableStream<Uint8Array> {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(
      undefined,
      new ByteLengthQueuingStrategy({ highWaterMark: this.maxBufferedBytes }),
    );
    const writer = writable.getWriter();
    const replay = this.encoder.encode(initial);
    // Not awaited: the stream only drains once the Response carrying `readable` is returned.
    if (replay.byteLength > 0)
      void writer.write(replay).catch(() => {
        this.drop(writer);
      });
    if (end) {
      void writer.close().catch(() => undefined);
      return readable;
    }
    this.writers.set(writer, replay.byteLength);
    this.timer ??= setInterval(() => {
      this.ping();
    }, this.pingIntervalMs);
    return readable;
  }

  /** Sends one event to every subscriber. */
  send(event: EvaluationEvent): void {
    this.write(encodeSse(event));
  }

  /** Sends the keep-alive comment (the interval calls this). */
  ping(): void {
    this.write(SSE_PING);
  }

  /** Closes every stream (after the terminal event) and stops the keep-alive. */
  closeAll(): void {
    for (const w of this.writers.keys()) w.close().catch(() => undefined);
    this.writers.clear();
    this.stopPing();
  }

  private write(text: string): void {
    if (this.writers.size === 0) return;
    const bytes = this.encoder.encode(text);
    for (const [w, replayBytes] of this.writers) {
      // null: the stream errored or closed (client gone); below -replayBytes: more than the limit is
      // unread beyond the replay (desiredSize = limit - unread, and the replay is not held against it).
      const room = w.desiredSize;
      if (room === null || room < -replayBytes) {
        this.drop(w);
        continue;
      }
      w.write(bytes).catch(() => {
        this.drop(w);
      });
    }
  }

  private drop(w: WritableStreamDefaultWriter<Uint8Array>): void {
    if (!this.writers.delete(w)) return;
    w.abort(new Error('subscriber dropped: too slow or gone')).catch(() => undefined);
    if (this.writers.size === 0) this.stopPing();
  }

  private stopPing(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
