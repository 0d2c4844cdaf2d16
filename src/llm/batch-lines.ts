/**
 * @module
 * Reading a Batch API output or error file: JSONL streamed line by line (a file never sits whole in
 * memory), each line turned into the outcome of its request, classified as a chat-completions attempt would
 * be, and that outcome turned into the engine's result for the idempotent result store.
 *
 * Lines (OpenAI's "request output object"): `{id, custom_id, response: {status_code, request_id, body},
 * error}`. A 200 response is read like a synchronous completion (`readCompletion`: a reply, or an empty /
 * malformed one); a 4xx/5xx response like an HTTP failure (`httpFailure`: `rate_limited`, `provider_error`,
 * `bad_request`, … with their retryability); a line with `error` and no response is `batch_expired` (the
 * completion window ran out: retryable, attempt kind `timeout`), `batch_cancelled` (attempt kind `network`:
 * the request was aborted) or, for any other code, `provider_error` (retryable). A line that is not JSON or
 * names no `custom_id` comes out with `customId: null`.
 */
import type { LlmAttempt, LlmCallRequest, LlmCallResult } from '../engine/call.js';
import type { AttemptFailure, AttemptOutcome } from './outcome.js';
import { readCompletion } from './outcome.js';
import type { PriceTable } from './pricing.js';
import { DEFAULT_PRICES, priceFor } from './pricing.js';
import type { TierUsage } from './usage.js';
import { plainUsage, usageOf } from './usage.js';
import { httpFailure } from './wire.js';

/** The outcome of one line: its `custom_id` (null when unreadable) and what came of the request. */
export type BatchLineOutcome = AttemptOutcome & {
  customId: string | null;
  /** The provider's `request_id` of the line's request, when given. */
  requestId?: string;
};

/** The lines of a JSONL stream, without their newlines; blank lines skipped. */
export async function* jsonlLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let rest = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const parts = (rest + value).split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p.trim() !== '') yield p;
    }
    if (rest.trim() !== '') yield rest;
  } finally {
    reader.releaseLock();
  }
}

function lineFailure(code: string, attemptKind: LlmAttempt['kind'], message: string): AttemptFailure {
  return { kind: 'error', attemptKind, retryable: true, error: { code, message } };
}

/**
 * The outcome of one output or error file line (module notes). Never throws.
 * @param providerId named in messages
 */
export function readBatchLine(text: string, providerId: string): BatchLineOutcome {
  let line: unknown;
  try {
    line = JSON.parse(text);
  } catch {
    return {
      customId: null,
      kind: 'error',
      attemptKind: 'malformed',
      retryable: true,
      error: { code: 'provider_error', message: `provider "${providerId}" wrote a batch result line that is not JSON` },
    };
  }
  const rec = (typeof line === 'object' && line !== null ? line : {}) as {
    custom_id?: unknown;
    response?: { status_code?: unknown; request_id?: unknown; body?: unknown } | null;
    error?: { code?: unknown; message?: unknown } | null;
  };
  const customId = typeof rec.custom_id === 'string' && rec.custom_id !== '' ? rec.custom_id : null;
  const requestId = typeof rec.response?.request_id === 'string' ? { requestId: rec.response.request_id } : {};
  const response = rec.response;
  if (response && typeof response.status_code === 'number') {
    if (response.status_code === 200)
      return { customId, ...requestId, ...readCompletion(response.body, providerId, '', Number.POSITIVE_INFINITY) };
    // No headers in a line: no Retry-After, so no clock needed.
    return {
      customId,
      ...requestId,
      ...httpFailure(providerId, response.status_code, undefined, JSON.stringify(response.body ?? null), 0),
    };
  }
  const code = typeof rec.error?.code === 'string' ? rec.error.code : '';
  const message = typeof rec.error?.message === 'string' ? rec.error.message : 'no response and no error message';
  const quoted = `provider "${providerId}" batch line: ${code ? `${code}: ` : ''}${message}`;
  if (code === 'batch_expired') return { customId, ...lineFailure('batch_expired', 'timeout', quoted) };
  if (code === 'batch_cancelled') return { customId, ...lineFailure('batch_cancelled', 'network', quoted) };
  return { customId, ...lineFailure('provider_error', 'malformed', quoted) };
}

/** What a batch line's outcome means for its call. */
export interface BatchCallResult {
  /** The engine's result, for the result store (on success its cost is at the batch price). */
  result: LlmCallResult;
  /** On success, the usage with tier `batch` and the USD the prompt cache saved. */
  usage?: TierUsage;
  /** On failure: whether another wave (or a synchronous call) may succeed. */
  retryable: boolean;
}

/** Where a batch result is priced and how its attempt is numbered. */
export interface BatchResultContext {
  /** The provider the batch went to; default the call's own or `default`. */
  provider?: string;
  /** The model the line named; default the call's own. */
  model?: string;
  /** Price table; default {@link DEFAULT_PRICES}. */
  prices?: PriceTable;
  /** This attempt's number across waves, 1-based. Default 1. */
  attempt?: number;
  /** Time from the wave's submission to this result, ms. Default 0. */
  latencyMs?: number;
}

/**
 * The engine's result of a call from its batch line: a reply with its usage priced at the batch tier, or a
 * failure holding this one attempt. The caller stores it as it would a synchronous result, or, when it is a
 * retryable failure, sends the call again in the next wave (or synchronously) and counts the attempt.
 */
export function batchCallResult(
  request: LlmCallRequest,
  outcome: AttemptOutcome,
  context: BatchResultContext = {},
): BatchCallResult {
  const provider = context.provider ?? request.provider ?? 'default';
  const model = context.model ?? request.model ?? '';
  const attempt = context.attempt ?? 1;
  const latencyMs = context.latencyMs ?? 0;
  if (outcome.kind === 'reply') {
    const choices = request.n !== undefined && request.n > 1 ? outcome.choices.slice(0, request.n) : outcome.choices;
    const usage = usageOf(
      outcome.usage,
      request.messages,
      choices,
      priceFor(model, provider, context.prices ?? DEFAULT_PRICES),
      'batch',
    );
    return {
      result: {
        id: request.id,
        ok: true,
        content: outcome.content,
        ...(request.n !== undefined && request.n > 1 ? { choices } : {}),
        model: outcome.model || model,
        usage: plainUsage(usage),
        attempts: attempt,
        latencyMs,
      },
      usage,
      retryable: false,
    };
  }
  const { error } = outcome;
  const status = error.status !== undefined ? { status: error.status } : {};
  return {
    result: {
      id: request.id,
      ok: false,
      attempts: attempt,
      error: {
        ...error,
        attempts: [{ attempt, kind: outcome.attemptKind, code: error.code, ...status, latencyMs }],
      },
    },
    retryable: outcome.retryable,
  };
}
