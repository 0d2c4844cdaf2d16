/**
 * @module
 * One attempt of a call, as the client (./client.ts) sends it: under its own timeout (an AbortSignal), to the
 * route's chat-completions endpoint or its Responses API, with the body built from the call (./request.ts,
 * ./responses.ts). Never throws: every failure is an {@link AttemptOutcome}.
 */
import type { LlmCallRequest } from '../engine/call.js';
import type { AttemptOutcome } from './outcome.js';
import type { BodyOptions } from './request.js';
import { buildChatBody } from './request.js';
import { buildResponsesBody, sendResponse } from './responses.js';
import type { Route } from './routing.js';
import { sendChatCompletion, timedSend } from './wire.js';

/** The call's id (the engine's, stable across invocations), sent on each of its attempts. */
export const CALL_ID_HEADER = 'x-tribunal-call-id';

/**
 * How many attempts of the call went before this one, every invocation's counted: the header the OpenAI SDK
 * sends on its own retries, so a provider (and our mock) tells a retry from a first request.
 */
export const RETRY_COUNT_HEADER = 'x-stainless-retry-count';

/**
 * Sends one attempt of `request` along `route`, aborted after `timeoutMs` (ms).
 * @param now the clock for an HTTP-date `Retry-After`, ms since epoch
 * @param retries attempts of this call sent before this one (earlier invocations' included), default 0
 */
export async function sendAttempt(
  route: Pick<Route, 'providerId' | 'model' | 'target' | 'responsesUrl' | 'fetch' | 'responses' | 'n'>,
  request: LlmCallRequest,
  body: BodyOptions,
  timeoutMs: number,
  now: () => number,
  retries = 0,
): Promise<AttemptOutcome> {
  const { send, done } = timedSend(route.fetch, timeoutMs, now);
  const { providerId, model } = route;
  // After the target's configured headers: a provider's `headers` setting cannot rename a call or its retries.
  const headers = { ...route.target.headers, [CALL_ID_HEADER]: request.id, [RETRY_COUNT_HEADER]: String(retries) };
  try {
    return await (route.responses
      ? sendResponse(providerId, route.responsesUrl, headers, model, buildResponsesBody(request, body), send)
      : sendChatCompletion(
          providerId,
          { ...route.target, headers },
          model,
          buildChatBody(request, body),
          send,
          route.n ?? 1,
        ));
  } finally {
    done();
  }
}
