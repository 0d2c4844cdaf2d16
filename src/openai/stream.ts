/**
 * @module
 * The streamed answer of `POST /v1/chat/completions` (`stream: true`): the debate's replies as chunks as
 * they are stored, then the verdict, usage and `[DONE]` (format: ./chunks.ts). A client that goes away
 * stops the stream, not the evaluation: it runs to its end and stays readable (and billed) as usual.
 */
import type { Bindings } from '../config/bindings.js';
import type { ChunkContext } from './chunks.js';
import {
  finishChunk,
  replyChunk,
  roleChunk,
  SSE_DONE,
  SSE_KEEP_ALIVE,
  sseData,
  usageChunk,
  verdictChunk,
} from './chunks.js';
import type { JudgeRequest } from './completion.js';
import { followToOutcome, internalErrorBody, outcomeError } from './completion.js';
import { chatUsageOf } from './answer.js';

/** Thrown by a write to a client that has gone away. */
class ClientGone extends Error {}

/** What {@link streamAnswer} needs to know about the request. */
export interface StreamParams {
  env: Bindings;
  tenant: string;
  evaluationId: string;
  req: JudgeRequest;
  chunk: ChunkContext;
  /** Epoch ms after which the stream ends with `verdict_timeout`. */
  deadline: number;
  waitSeconds: number;
  requestId: string;
}

/** The SSE body: written as the evaluation proceeds (the Worker keeps running while the body streams). */
export function streamAnswer(p: StreamParams): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const send = async (text: string): Promise<void> => {
    try {
      await writer.write(encoder.encode(text));
    } catch {
      throw new ClientGone();
    }
  };
  const run = async (): Promise<void> => {
    try {
      await send(sseData(roleChunk(p.chunk)));
      const outcome = await followToOutcome(p.env, p.tenant, p.evaluationId, p.req, p.deadline, async (item) => {
        if (item.kind === 'ping') await send(SSE_KEEP_ALIVE);
        else if (item.event.type === 'call.finished') await send(sseData(replyChunk(p.chunk, item.event.data)));
      });
      if (outcome.kind === 'verdict') {
        // A verdict cache hit ran no debate: the replies of the evaluation that judged come first, as stored.
        for (const m of outcome.judgedBy?.messages ?? [])
          await send(
            sseData(
              replyChunk(p.chunk, {
                callId: m.callId,
                agent: m.agent,
                label: m.label,
                stage: m.stage,
                ok: true,
                content: m.content,
              }),
            ),
          );
        await send(sseData(verdictChunk(p.chunk, outcome.verdict)));
        await send(sseData(finishChunk(p.chunk)));
        if (p.chunk.includeUsage) await send(sseData(usageChunk(p.chunk, chatUsageOf(outcome.evaluation.usage))));
        await send(SSE_DONE);
      } else {
        await send(sseData(outcomeError(outcome, p.waitSeconds).body));
      }
      await writer.close();
    } catch (err) {
      if (err instanceof ClientGone) return;
      try {
        await send(sseData(internalErrorBody(p.evaluationId, err, p.requestId)));
        await writer.close();
      } catch {
        // The client went away meanwhile: nothing to tell.
      }
    }
  };
  void run();
  return readable;
}
