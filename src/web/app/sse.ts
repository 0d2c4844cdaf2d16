/**
 * @module
 * Server-sent events over `fetch`, so the stream request carries `Authorization: Bearer …` like every
 * other request (`EventSource` cannot send headers, and a key in the URL would land in logs and history).
 *
 * {@link SseParser} follows the WHATWG event-stream rules: lines end in LF, CRLF or CR (also split across
 * chunks); `event:` names the event (default `message`); `data:` lines join with LF; one leading space
 * after the colon is dropped; a line starting with `:` is a comment (the server's `: ping`); a blank line
 * dispatches; an event without data is not dispatched; an unfinished event at the end is discarded.
 * Pure (no DOM): tested in Node (tests/web/sse.test.ts).
 */

/** One dispatched event. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/** Incremental event-stream parser: feed decoded text, get complete events. */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;
  /** The previous chunk ended in CR: a LF starting the next chunk belongs to that line end. */
  private pendingCr = false;

  /** Parses a chunk of text; returns the events it completed, in order. */
  push(chunk: string): SseMessage[] {
    let text = chunk;
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = false;
    this.buffer += text;
    const out: SseMessage[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      const line = this.buffer.slice(start, i);
      if (c === 13) {
        if (i + 1 === this.buffer.length) this.pendingCr = true;
        else if (this.buffer.charCodeAt(i + 1) === 10) i++;
      }
      start = i + 1;
      const message = this.line(line);
      if (message) out.push(message);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\u0000')) this.id = value;
    // `retry` and unknown fields are ignored: the reader decides its own reconnect delay.
    return null;
  }

  private dispatch(): SseMessage | null {
    const message: SseMessage | null =
      this.data.length === 0
        ? null
        : {
            event: this.event || 'message',
            data: this.data.join('\n'),
            ...(this.id !== undefined ? { id: this.id } : {}),
          };
    this.event = '';
    this.data = [];
    return message;
  }
}

/**
 * Reads an event-stream response body to its end, calling `onMessage` for each event. Resolves when the
 * server closes the stream; rejects on a network error or when `signal` aborts.
 */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (m: SseMessage) => void,
  signal?: AbortSignal,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = new SseParser();
  const abort = () => {
    void reader.cancel().catch(() => undefined);
  };
  signal?.addEventListener('abort', abort);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const m of parser.push(decoder.decode(value, { stream: true }))) onMessage(m);
    }
    for (const m of parser.push(decoder.decode())) onMessage(m);
    if (signal?.aborted) throw signal.reason;
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}
