/**
 * @module
 * Reading server-sent events from a byte stream: blocks separated by a blank line, `event:` and `data:`
 * fields, comment lines (`: ping`) reported as such. Platform-free (fetch streams and `TextDecoder`
 * only), shared by the client and the API's own follower of an evaluation (src/openai/follow.ts).
 */

/** One SSE block: its `event` (null when absent), its `data` lines joined by `\n`, and whether it held a comment. */
export interface SseBlock {
  event: string | null;
  data: string;
  comment: boolean;
}

/** Parses one block (the text between two blank lines). */
export function parseSseBlock(block: string): SseBlock {
  let event: string | null = null;
  const data: string[] = [];
  let comment = false;
  for (const line of block.split(/\r?\n/)) {
    if (line.startsWith(':')) comment = true;
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    // The spec strips one leading space after the colon.
    else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  }
  return { event, data: data.join('\n'), comment };
}

/** The blocks of an SSE byte stream, in order, as they arrive; the reader is released when iteration stops. */
export async function* sseBlocks(body: ReadableStream<Uint8Array>): AsyncGenerator<SseBlock> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.trim() !== '') yield parseSseBlock(block);
      }
    }
    if (buffer.trim() !== '') yield parseSseBlock(buffer);
  } finally {
    reader.cancel().catch(() => undefined);
  }
}
