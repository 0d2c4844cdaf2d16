/**
 * @module
 * Following one evaluation from the API Worker: subscribes to its Durable Object's event stream (the SSE
 * that `GET /v1/evaluations/{id}/events` serves, through `forwardEvents`), parses it, and yields each
 * event once, until the terminal `status` event or a deadline.
 *
 * A stream that ends without a terminal event (the subscriber was dropped, the object restarted) is
 * resubscribed with a short backoff: the object replays everything so far, and replayed events already
 * yielded are skipped, so a consumer sees each call exactly once. The terminal `status` is only sent
 * once the evaluation's final D1 write has landed, so D1 can be read as soon as it arrives.
 */
import type { EvaluationNamespaceEnv, EvaluationObject } from '../evaluations/stub.js';
import { forwardEvents } from '../evaluations/stub.js';
import type { EvaluationEvent } from '../evaluations/live-events.js';
import type { EvaluationStatus } from '../evaluations/status.js';
import { isTerminal } from '../evaluations/status.js';
import { log, messageOf } from '../log/log.js';
import { parseSseBlock } from '../client/sse.js';
import { backoffDelay } from '../backoff/backoff.js';

/** What {@link followEvaluation} yields: an event, or a keep-alive the object sent while nothing happened. */
export type FollowItem = { kind: 'event'; event: EvaluationEvent } | { kind: 'ping' };

/** How following ended: the evaluation ended (status as the object announced it), or the deadline passed first. */
export type FollowEnd = { kind: 'ended'; status: EvaluationStatus } | { kind: 'timeout' };

/** First delay before resubscribing after a stream ended early, ms; doubles up to {@link RESUBSCRIBE_MAX_MS}. */
const RESUBSCRIBE_MS = 50;
/** Longest delay between resubscriptions, ms. */
const RESUBSCRIBE_MAX_MS = 1_000;

const EVENT_TYPES: ReadonlySet<string> = new Set(['status', 'call.started', 'call.finished', 'vote', 'verdict']);

/** One SSE block read: an event, a comment (keep-alive), or nothing usable. */
function itemOf(text: string): FollowItem | null {
  const block = parseSseBlock(text);
  if (block.event === null) return block.comment ? { kind: 'ping' } : null;
  if (!EVENT_TYPES.has(block.event)) return null;
  // The object's own encoding (src/evaluations/live-events.ts `encodeSse`): `type` selects the data's shape.
  return { kind: 'event', event: { type: block.event, data: JSON.parse(block.data) as unknown } as EvaluationEvent };
}

/** A stable key of an event for de-duplication across replays; null for events that always pass. */
function keyOf(e: EvaluationEvent): string | null {
  switch (e.type) {
    case 'call.started':
    case 'call.finished':
      return `${e.type}:${e.data.callId}`;
    case 'vote':
      return `vote:${e.data.agent}:${e.data.order ?? ''}`;
    case 'verdict':
      return 'verdict';
    case 'status':
      return null;
  }
}

/**
 * Yields the evaluation's events (each once) until it ends or `deadline` (epoch ms) passes; the return
 * value says which. The caller checks first that the evaluation exists and belongs to the tenant.
 */
export async function* followEvaluation<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
  deadline: number,
): AsyncGenerator<FollowItem, FollowEnd> {
  const seen = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(
      () => {
        resolve('timeout');
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  /** Subscriptions in a row that ended early: the wait before the next one grows with it. */
  let early = 0;
  try {
    while (Date.now() < deadline) {
      const reader = await subscribe(env, id);
      if (reader) {
        try {
          const decoder = new TextDecoder();
          let buffer = '';
          for (;;) {
            const next = await Promise.race([reader.read(), expired]);
            if (next === 'timeout') return { kind: 'timeout' };
            if (next.done) break;
            buffer += decoder.decode(next.value, { stream: true });
            let cut: number;
            while ((cut = buffer.indexOf('\n\n')) !== -1) {
              const item = itemOf(buffer.slice(0, cut));
              buffer = buffer.slice(cut + 2);
              if (!item) continue;
              if (item.kind === 'ping') {
                yield item;
                continue;
              }
              const key = keyOf(item.event);
              if (key !== null) {
                if (seen.has(key)) continue;
                seen.add(key);
              }
              yield item;
              early = 0;
              if (item.event.type === 'status' && isTerminal(item.event.data.status))
                return { kind: 'ended', status: item.event.data.status };
            }
          }
        } finally {
          reader.cancel().catch(() => undefined);
        }
      }
      // Ended without a terminal event: the object replays everything to the next subscription.
      const wait = await Promise.race([
        new Promise<'again'>((r) =>
          setTimeout(
            () => {
              r('again');
            },
            backoffDelay(early + 1, { base: RESUBSCRIBE_MS, max: RESUBSCRIBE_MAX_MS }),
          ),
        ),
        expired,
      ]);
      if (wait === 'timeout') return { kind: 'timeout' };
      early += 1;
    }
    return { kind: 'timeout' };
  } finally {
    clearTimeout(timer);
  }
}

/** Opens the object's SSE stream; null (logged) when it cannot be opened now. */
async function subscribe<T extends EvaluationObject>(
  env: EvaluationNamespaceEnv<T>,
  id: string,
): Promise<ReadableStreamDefaultReader<Uint8Array> | null> {
  try {
    const res = await forwardEvents(
      env,
      id,
      new Request('https://evaluation.internal/events', { headers: { Accept: 'text/event-stream' } }),
    );
    if (res.ok && res.body) return res.body.getReader();
    log('warn', 'openai.subscribe_failed', { evaluationId: id, status: res.status });
    await res.body?.cancel();
  } catch (err) {
    log('warn', 'openai.subscribe_failed', { evaluationId: id, error: messageOf(err) });
  }
  return null;
}
