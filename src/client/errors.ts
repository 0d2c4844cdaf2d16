/**
 * @module
 * The client's one error: an answer that is not 2xx, or a helper's failure, with the API's stable code.
 */

/** An answer that is not 2xx, or a helper's failure; `code` is the API's stable error code. */
export class TribunalError extends Error {
  override readonly name = 'TribunalError';
  constructor(
    message: string,
    /** HTTP status (0 for a failure without a response, e.g. a client-side timeout). */
    readonly status: number,
    /** Stable code: the API's `error.code`, or `verdict_timeout` / `evaluation_failed` / `evaluation_cancelled` / `comparison_timeout` from the helpers. */
    readonly code: string,
    /** The error body, or the evaluation that did not succeed. */
    readonly body: unknown = null,
  ) {
    super(message);
  }
}

/** A {@link TribunalError} from an error answer (`{ error: { code, message } }` in either of the API's shapes). */
export function errorOf(status: number, body: unknown): TribunalError {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  return new TribunalError(error?.message ?? `HTTP ${status}`, status, error?.code ?? 'http_error', body);
}
