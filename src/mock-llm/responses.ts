/**
 * @module
 * The mock's JSON responses: a body, and an error in OpenAI's shape.
 */

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** An OpenAI-shaped error response (`{ error: { message, type, param, code } }`). */
export function openAiError(
  status: number,
  message: string,
  type: string,
  code: string | null,
  headers: Record<string, string> = {},
  param: string | null = null,
): Response {
  return json(status, { error: { message, type, param, code } }, headers);
}

/**
 * Response header naming the fault (`empty`, `truncated`, …) a 200 answer carries; absent on a clean answer.
 * Errors (4xx/5xx, a hang's 504) are faults by their status and carry none.
 */
export const MOCK_FAULT_HEADER = 'x-mock-fault';
