/**
 * @module
 * How a failed call's attempts are reported: a one-line summary ("5 attempts: 429 ×2, timeout ×3") and
 * the choice of the attempt whose code stands for the whole call.
 *
 * The rule for that code (why: a call that met 429s four times and then one slow attempt is a rate-limit
 * problem, not a timeout):
 * - a call that ended on a fault retrying cannot fix (401, 400, 404, exhausted quota, a `Retry-After`
 *   longer than we wait) reports that fault: it is what ended the call;
 * - a call that used up its attempts reports its *dominant* cause: the code met most often, ties going to
 *   the code met most recently. Its `status` is that of the latest attempt with that code.
 * Either way the message lists every attempt, and the error's `attempts` holds each one's kind, code,
 * status and latency.
 */
import type { LlmAttempt, LlmError } from '../engine/call.js';

/** How one attempt shows in a summary: its HTTP status, else its kind (`timeout`, `network`, `empty_reply`, `malformed`). */
export function attemptLabel(a: Pick<LlmAttempt, 'kind' | 'status'>): string {
  return a.kind === 'http' && a.status !== undefined ? String(a.status) : a.kind;
}

/** "1 attempt: 401", "5 attempts: 429 ×2, timeout ×3": labels in order of first appearance, with counts. */
export function summarizeAttempts(attempts: readonly Pick<LlmAttempt, 'kind' | 'status'>[]): string {
  const counts = new Map<string, number>();
  for (const a of attempts) {
    const label = attemptLabel(a);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const parts = [...counts].map(([label, n]) => (n === 1 ? label : `${label} ×${n}`));
  return `${attempts.length} attempt${attempts.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

/**
 * Index of the attempt that stands for a call that used up its attempts: the latest attempt with the
 * most frequent code (ties go to the code met most recently). -1 for an empty list.
 */
export function dominantAttemptIndex(attempts: readonly Pick<LlmAttempt, 'code'>[]): number {
  const counts = new Map<string, number>();
  for (const a of attempts) counts.set(a.code, (counts.get(a.code) ?? 0) + 1);
  const seen = new Set<string>();
  let best = -1;
  let bestCount = 0;
  // Newest first: the first index met per code is that code's latest attempt, and since only a strictly
  // larger count wins, a tie keeps the code met more recently.
  for (let i = attempts.length - 1; i >= 0; i--) {
    const code = attempts[i]?.code ?? '';
    if (seen.has(code)) continue;
    seen.add(code);
    const n = counts.get(code) ?? 0;
    if (n > bestCount) {
      best = i;
      bestCount = n;
    }
  }
  return best;
}

/** A failed attempt of a call: its record, its error, and whether it was only a fallback's probe. */
export interface FailedAttempt {
  record: LlmAttempt;
  error: LlmError;
  /** A flex refusal or a structured-output rejection sent again at once: not a cause of the call's failure. */
  fallback: boolean;
}

/**
 * The call's error from its failed attempts: the final attempt's when it ended the call on a fault retrying
 * cannot fix (`terminal`), else the dominant one's ({@link dominantAttemptIndex}); the message lists them all
 * and passes through `redact`.
 * @throws Error when `failures` is empty and no `terminal` is given.
 */
export function callError(
  failures: readonly FailedAttempt[],
  terminal: LlmError | undefined,
  redact: (text: string) => string,
): LlmError {
  const records = failures.map((f) => f.record);
  // The structured-output fallback's 400 is a capability probe, not a cause of the failure.
  const causes = failures.filter((f) => !f.fallback);
  const chosen = terminal ?? causes[dominantAttemptIndex(causes.map((f) => f.record))]?.error ?? failures.at(-1)?.error;
  if (!chosen) throw new Error('callError needs at least one failed attempt');
  return {
    code: chosen.code,
    message: redact(`${chosen.message} (${summarizeAttempts(records)})`),
    ...(chosen.status !== undefined ? { status: chosen.status } : {}),
    attempts: records,
  };
}
