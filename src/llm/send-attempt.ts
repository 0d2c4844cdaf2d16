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

/**
 * Sends one attempt of `request` along `route`, aborted after `timeoutMs` (ms).
 * @param now the clock for an HTTP-date `Retry-After`, ms since epoch
 */
export async function sendAttempt(
  route: Pick<Route, 'providerId' | 'model' | 'target' | 'responsesUrl' | 'fetch' | 'responses' | 'n'>,
  request: LlmCallRequest,
  body: BodyOptions,
  timeoutMs: number,
  now: () => number,
): Promise<AttemptOutcome> {
  const { send, done } = timedSend(route.fetch, timeoutMs, now);
  const { providerId, model } = route;
  try {
    return await (route.responses
      ? sendResponse(
          providerId,
          route.responsesUrl,
          route.target.headers,
          model,
          buildResponsesBody(request, body),
          send,
        )
      : sendChatCompletion(providerId, route.target, model, buildChatBody(request, body), send, route.n ?? 1));
  } finally {
    done();
  }
}
