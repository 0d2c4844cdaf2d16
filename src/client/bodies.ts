/**
 * @module
 * Reading an answer's body by its media type: JSON parsed, NDJSON and server-sent events as async
 * iterators of their parsed items, read as they arrive. Platform-free (fetch streams only).
 */
import { errorOf, TribunalError } from './errors.js';
import { sseBlocks } from './sse.js';

/** The media type of a `Content-Type` header, lower-cased, without parameters. */
export function mediaTypeOf(header: string | null): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** `application/json` or a `+json` type: parsed as JSON. (Not NDJSON, nor anything merely containing "json".) */
export function isJsonType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * An NDJSON body as an async iterator of its parsed lines, read as they arrive (blank lines skipped).
 * A line that is not JSON throws a {@link TribunalError} `invalid_ndjson` naming its number.
 */
export async function* ndjsonLines(res: Response): AsyncGenerator<unknown, void, undefined> {
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let line = 0;
  const parse = (text: string): unknown => {
    line += 1;
    try {
      return JSON.parse(text);
    } catch {
      throw new TribunalError(`line ${line} of the NDJSON body is not JSON`, res.status, 'invalid_ndjson', text);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (value !== undefined) buffered += value;
      const lines = buffered.split('\n');
      buffered = done ? '' : (lines.pop() ?? '');
      for (const text of lines) {
        if (text.trim() === '') line += 1;
        else yield parse(text);
      }
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * A server-sent event stream as an async iterator of each event's `data`, parsed as JSON, read as it
 * arrives: comments (keep-alives) skipped, `data: [DONE]` ends it, and an item `{ "error": {…} }` (how a
 * stream that ends without its answer says why) is thrown as a {@link TribunalError} with its code.
 */
export async function* sseItems(res: Response): AsyncGenerator<unknown, void, undefined> {
  if (!res.body) return;
  // Typed `ReadableStream<any>` by the Worker runtime types; a fetch body is bytes everywhere.
  for await (const block of sseBlocks(res.body as ReadableStream<Uint8Array>)) {
    if (block.data === '') continue;
    if (block.data === '[DONE]') return;
    let item: unknown;
    try {
      item = JSON.parse(block.data);
    } catch {
      throw new TribunalError('an event of the stream is not JSON', res.status, 'invalid_sse', block.data);
    }
    if (typeof item === 'object' && item !== null && 'error' in item) throw errorOf(res.status, item);
    yield item;
  }
}

/** Whether a JSON request body asks for a stream (`stream: true`). */
export function asksStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}
