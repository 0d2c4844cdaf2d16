/**
 * @module
 * What one HTTP attempt of the LLM client came to: a reply, or a failure classified into a stable code,
 * an attempt kind (`http`, `timeout`, `network`, `empty_reply`, `malformed`) and whether the retry
 * policy may try again. The messages quote the provider; the client removes secrets before they leave.
 */
import { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { LlmAttempt, LlmError } from '../engine/call.js';
import type { HeaderLookup } from './retry.js';
import { retryAfterMs } from './retry.js';
import { rejectsJsonSchema } from './structured.js';
import type { ProviderUsage } from './usage.js';

/** A failed attempt: what the caller may learn, and how the retry loop treats it. */
export interface AttemptFailure {
  kind: 'error';
  /** The attempt's kind (its record in the error's `attempts`). */
  attemptKind: LlmAttempt['kind'];
  error: LlmError;
  retryable: boolean;
  retryAfterMs?: number;
  schemaRejected?: boolean;
}

/** The outcome of one HTTP attempt. */
export type AttemptOutcome =
  | {
      kind: 'reply';
      content: string;
      /** Every non-empty choice in order (`choices[0]` is `content`), at most the number asked for. */
      choices: string[];
      model: string;
      usage: ProviderUsage | null | undefined;
    }
  | AttemptFailure;

/** The provider's own message out of an SDK error (`error.message` of the JSON body, else the SDK's text). */
function providerMessage(e: { readonly error: unknown; readonly message: string }): string {
  const body = e.error;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string' && body.message !== '') return body.message;
  return e.message;
}

function statusCode(status: number): { code: string; retryable: boolean } {
  if (status === 429) return { code: 'rate_limited', retryable: true };
  if (status === 408) return { code: 'timeout', retryable: true };
  // 409: OpenAI documents it as a transient lock conflict; the SDK retries it too.
  if (status === 409) return { code: 'provider_error', retryable: true };
  if (status >= 500) return { code: 'provider_error', retryable: true };
  if (status === 401 || status === 403) return { code: 'auth', retryable: false };
  if (status === 404) return { code: 'not_found', retryable: false };
  return { code: 'bad_request', retryable: false };
}

/** Maps anything a call threw to an attempt outcome. `timedOut` is set when our own timer aborted it. */
export function classify(e: unknown, providerId: string, timeoutMs: number, timedOut: boolean, now: number): AttemptOutcome {
  if (timedOut || e instanceof APIConnectionTimeoutError) {
    return { kind: 'error', attemptKind: 'timeout', retryable: true, error: { code: 'timeout', message: `provider "${providerId}" gave no reply within ${timeoutMs} ms` } };
  }
  if (e instanceof APIUserAbortError) {
    return { kind: 'error', attemptKind: 'network', retryable: true, error: { code: 'network', message: `request to provider "${providerId}" was aborted` } };
  }
  if (e instanceof APIError && typeof e.status === 'number') {
    const status = e.status;
    const msg = providerMessage(e);
    const { code, retryable } = statusCode(status);
    // OpenAI answers 429 for exhausted credit too; waiting does not help there.
    const quota = status === 429 && (e.code === 'insufficient_quota' || /insufficient.quota|exceeded your current quota/i.test(msg));
    return {
      kind: 'error',
      attemptKind: 'http',
      retryable: retryable && !quota,
      schemaRejected: rejectsJsonSchema(status, msg),
      error: { code, status, message: `provider "${providerId}" returned HTTP ${status}: ${msg}` },
      ...(() => {
        const ra = retryAfterMs(e.headers as HeaderLookup | undefined, now);
        return ra === undefined ? {} : { retryAfterMs: ra };
      })(),
    };
  }
  if (e instanceof APIError) {
    // APIConnectionError: DNS, TLS, reset connections; the cause holds the detail.
    const cause = e.cause instanceof Error ? `: ${e.cause.message}` : '';
    return { kind: 'error', attemptKind: 'network', retryable: true, error: { code: 'network', message: `cannot reach provider "${providerId}": ${e.message}${cause}` } };
  }
  if (e instanceof SyntaxError) {
    return {
      kind: 'error',
      attemptKind: 'malformed',
      retryable: true,
      error: { code: 'provider_error', message: `provider "${providerId}" sent a malformed response body: ${e.message}` },
    };
  }
  const msg = e instanceof Error ? e.message : String(e);
  return { kind: 'error', attemptKind: 'network', retryable: true, error: { code: 'network', message: `call to provider "${providerId}" failed: ${msg}` } };
}

/** The text of one choice: its content, else its refusal, else ''. */
function choiceText(choice: unknown): string | undefined {
  const message = (choice as { message?: { content?: unknown; refusal?: unknown } | null } | undefined)?.message;
  if (typeof message !== 'object' || message === null) return undefined;
  // A refusal is still a reply: the parser rejects it and the protocol's repair turn takes over.
  return typeof message.content === 'string' ? message.content : typeof message.refusal === 'string' ? message.refusal : '';
}

/**
 * Reads the reply out of a completion body, checking its shape (the body may be anything).
 * @param wanted choices asked for (`n`, default 1): up to that many non-empty choices are read, in order; an
 *   empty choice is left out (it is no sample), and only when none has text is the attempt an empty reply.
 */
export function readCompletion(body: unknown, providerId: string, fallbackModel: string, wanted = 1): AttemptOutcome {
  const malformed = (why: string): AttemptOutcome => ({
    kind: 'error',
    attemptKind: 'malformed',
    retryable: true,
    error: { code: 'provider_error', message: `provider "${providerId}" sent a malformed completion: ${why}` },
  });
  if (typeof body !== 'object' || body === null) return malformed('the body is not a JSON object');
  const rec = body as { choices?: unknown; model?: unknown; usage?: unknown };
  if (!Array.isArray(rec.choices) || rec.choices.length === 0) return malformed('no choices');
  const texts: string[] = [];
  for (const [i, choice] of (rec.choices as unknown[]).slice(0, Math.max(1, wanted)).entries()) {
    const text = choiceText(choice);
    if (text === undefined) return malformed(i === 0 ? 'the first choice has no message' : `choice ${i} has no message`);
    if (text.trim() !== '') texts.push(text);
  }
  const [text] = texts;
  if (text === undefined) {
    return { kind: 'error', attemptKind: 'empty_reply', retryable: true, error: { code: 'empty_reply', message: `provider "${providerId}" returned an empty reply` } };
  }
  return {
    kind: 'reply',
    content: text,
    choices: texts,
    model: typeof rec.model === 'string' && rec.model !== '' ? rec.model : fallbackModel,
    usage: typeof rec.usage === 'object' ? (rec.usage) : undefined,
  };
}
