/**
 * @module
 * The typed client's comparison helpers and the one exit-code rule of a CI gate.
 *
 * `compare` submits a comparison with `Prefer: wait` (the answer is the ended comparison when it ends within
 * 60 s: one request, no webhook, which a hosted CI runner cannot receive anyway), then, for a longer run,
 * reads it with backoff until its statistics are final. {@link GATE_EXIT_CODES} is what `npm run gate`,
 * `npm run meta-eval -- --compare` and the README's `gate.mjs` exit with.
 */
import { backoffDelay } from '../backoff/backoff.js';
import type { components } from './api-types.js';

type Comparison = components['schemas']['Comparison'];
type CreateComparisonRequest = components['schemas']['CreateComparisonRequest'];

/**
 * How a CI gate exits, everywhere: `passed` 0 (deploy); `failed` 1, and 1 for a comparison that ended without a
 * deciding gate (none asked, cancelled); `usage` 2 (a mistake on the command line); `inconclusive` 3: not a pass,
 * so `gate && deploy` holds the deploy, yet distinct, so a pipeline may let it through on purpose
 * (`gate; [ $? -eq 3 ]`); `request` 4: no gate came back because the request was refused (a key's 401/403, a
 * body's 400, a 429) or failed (unreachable, a 5xx, the wait timed out), so a pipeline can tell its setup or the
 * deployment from a candidate that failed.
 */
export const GATE_EXIT_CODES = { passed: 0, failed: 1, usage: 2, inconclusive: 3, request: 4 } as const;

/**
 * The exit code of an ended comparison by the one rule ({@link GATE_EXIT_CODES}): its gate's outcome once it
 * completed; 1 when it has no gate (none asked, none computed) or was cancelled (its gate then covers only the
 * items judged before the cancel, which decides nothing).
 */
export function gateExitCode(c: Pick<Comparison, 'status' | 'gate'>): number {
  const outcome = c.status === 'completed' ? c.gate?.outcome : undefined;
  return outcome ? GATE_EXIT_CODES[outcome] : GATE_EXIT_CODES.failed;
}

/** Options of {@link comparisonHelpers}' waits. */
export interface CompareOptions {
  /** Give up after this many ms (a `TribunalError` `comparison_timeout`; the comparison keeps running). Default 1 hour. */
  timeoutMs?: number;
  /** Sent as `Idempotency-Key`: a retried `compare` returns the same comparison. Default: none. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** What the helpers need of the client: its typed request and an error for a non-2xx answer. */
interface Transport {
  post: (
    body: CreateComparisonRequest,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ) => Promise<{ status: number; body: unknown }>;
  get: (id: string, signal: AbortSignal | undefined) => Promise<{ status: number; body: unknown }>;
  error: (status: number, body: unknown) => Error;
  timeout: (message: string, id: string) => Error;
}

/** Longest `Prefer: wait` the API honours, seconds (`MAX_PREFER_WAIT_SECONDS`, src/http/prefer.ts, which brings zod the client does without). */
const MAX_WAIT_SECONDS = 60;
const DEFAULT_TIMEOUT_MS = 3_600_000;

/** `ms` as a person reads it: whole seconds as `5 s`, anything else as `1500 ms`. */
function duration(ms: number): string {
  return ms % 1000 === 0 ? `${String(ms / 1000)} s` : `${String(ms)} ms`;
}

/** The comparison helpers over a client's transport (see the module note). */
export function comparisonHelpers(t: Transport) {
  const ended = (c: Comparison) => c.basis === 'final';

  /** Reads comparison `id` until its statistics are final (backing off from 500 ms to 5 s) and returns it. */
  function waitForComparison(id: string, opts: CompareOptions = {}): Promise<Comparison> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    return readUntilEnded(id, Date.now() + timeoutMs, timeoutMs, opts.signal);
  }

  /** {@link waitForComparison} until `deadline` (epoch ms); a timeout names `timeoutMs`, the time the caller gave. */
  async function readUntilEnded(
    id: string,
    deadline: number,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Comparison> {
    for (let attempt = 1; ; attempt++) {
      const r = await t.get(id, signal);
      if (r.status !== 200) throw t.error(r.status, r.body);
      const c = r.body as Comparison;
      if (ended(c)) return c;
      const left = deadline - Date.now();
      if (left <= 0)
        throw t.timeout(`comparison ${id} did not end within ${duration(timeoutMs)}; it keeps running`, id);
      await new Promise((resolve) =>
        setTimeout(resolve, Math.min(left, backoffDelay(attempt, { base: 500, max: 5_000 }))),
      );
    }
  }

  /**
   * Submits a comparison and returns it ended, its gate included: `Prefer: wait` first (up to 60 s in the
   * one request), then {@link waitForComparison}.
   * @throws TribunalError with the API's code, or `comparison_timeout` after `timeoutMs` (default 1 hour)
   */
  async function compare(req: CreateComparisonRequest, opts: CompareOptions = {}): Promise<Comparison> {
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const startedAt = Date.now();
    const wait = Math.max(0, Math.min(MAX_WAIT_SECONDS, Math.floor(timeoutMs / 1000)));
    const headers: Record<string, string> = { Prefer: `wait=${String(wait)}` };
    if (opts.idempotencyKey !== undefined) headers['Idempotency-Key'] = opts.idempotencyKey;
    const r = await t.post(req, headers, opts.signal);
    if (r.status === 200) return r.body as Comparison;
    if (r.status !== 202) throw t.error(r.status, r.body);
    const { id } = r.body as { id: string };
    // The time left after the wait is the deadline; the timeout still names the whole time the caller gave.
    return readUntilEnded(id, startedAt + timeoutMs, timeoutMs, opts.signal);
  }

  return { compare, waitForComparison };
}
