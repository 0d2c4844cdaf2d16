/**
 * @module
 * What one HTTP attempt of the LLM client came to: a reply, or a failure classified into a stable code,
 * an attempt kind (`http`, `timeout`, `network`, `empty_reply`, `malformed`) and whether the retry
 * policy may try again (the HTTP side is `wire.ts`). The messages quote the provider; the client removes
 * secrets before they leave.
 */
import type { LlmAttempt, LlmError } from '../engine/call.js';
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
  /** The provider's own `error.code` and `error.param`, when its error body had them (flex refusals are told by them). */
  provider?: { code?: string; param?: string };
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

/** The text of one choice: its content, else its refusal, else ''. */
function choiceText(choice: unknown): string | undefined {
  const message = (choice as { message?: { content?: unknown; refusal?: unknown } | null } | undefined)?.message;
  if (typeof message !== 'object' || message === null) return undefined;
  // A refusal is still a reply: the parser rejects it and the protocol's repair turn takes over.
  return typeof message.content === 'string'
    ? message.content
    : typeof message.refusal === 'string'
      ? message.refusal
      : '';
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
    if (text === undefined)
      return malformed(i === 0 ? 'the first choice has no message' : `choice ${i} has no message`);
    if (text.trim() !== '') texts.push(text);
  }
  const [text] = texts;
  if (text === undefined) {
    return {
      kind: 'error',
      attemptKind: 'empty_reply',
      retryable: true,
      error: { code: 'empty_reply', message: `provider "${providerId}" returned an empty reply` },
    };
  }
  return {
    kind: 'reply',
    content: text,
    choices: texts,
    model: typeof rec.model === 'string' && rec.model !== '' ? rec.model : fallbackModel,
    usage: typeof rec.usage === 'object' ? rec.usage : undefined,
  };
}
