/**
 * @module
 * The meta-evaluation runner's side of the HTTP API (./meta-eval.ts runs it): one item submitted under an
 * `Idempotency-Key` and retried with backoff, waiting for its verdict, reading its transcript, the judge
 * checked once before any item is sent, and the target's reachability.
 */
import type { StoredReply } from '../engine/replay.js';
import type { Verdict } from '../engine/verdict.js';
import type { LabelledItem } from '../metrics/labelled.js';
import { backoffDelay } from '../backoff/backoff.js';
import { describeError } from './args.js';

/** Options of a meta-evaluation run (`runMetaEval`, ./meta-eval.ts). */
export interface MetaEvalOptions {
  /** Dataset name (`faireval`, `topical-chat`, `summeval`, `mt-bench`) or a path to a JSON/JSONL file of labelled items. */
  dataset: string;
  /** Preset id (see GET /v1/methods). */
  preset: string;
  /** Aspect for pointwise datasets (Topical-Chat, SummEval); required for them. */
  aspect?: string;
  /** Items to run, from the start of the dataset. Default: all. */
  limit?: number;
  /** Evaluations in flight at once. Default 8. */
  concurrency?: number;
  /** API base URL of a running deployment; default: start a local stack. */
  target?: string;
  /** OpenAI-compatible base URL for the local stack; default: the bundled mock. */
  baseUrl?: string;
  /** Model for every agent (sent as a config override, `defaults.model`, over `config`'s). */
  model?: string;
  /** Config overrides sent with every evaluation (merged over the preset by the API). */
  config?: Record<string, unknown>;
  /** Bearer token for `target` (its `API_KEYS`); sent as `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Names the run in every item's `Idempotency-Key` (`<runId>:<item id>`). Default: a new id per run.
   * Passing a crashed run's id again resumes it against the same `target`: items it submitted return
   * their evaluations instead of being judged (and billed) twice.
   */
  runId?: string;
  /** Where the JSON report goes; default `reports/meta-eval-<dataset>-<preset>-<time>.json`. */
  out?: string;
  /** Progress bar on stderr. Default true. */
  progress?: boolean;
  /** Give up on one evaluation after this many ms. Default 600000. */
  itemTimeoutMs?: number;
}

/** One item's result as the runner saw it. */

interface EvaluationView {
  id: string;
  status: string;
  verdict?: Omit<Verdict, 'transcript'>;
  error?: { code: string; message: string };
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** The config overrides every item is sent with: `config`, with `model` as `defaults.model` over it. */
export function overridesOf(options: MetaEvalOptions): Record<string, unknown> | undefined {
  if (!options.model) return options.config;
  const defaults = options.config?.defaults;
  const base = typeof defaults === 'object' && defaults !== null ? defaults : {};
  return { ...options.config, defaults: { ...base, model: options.model } };
}

export function authOf(options: MetaEvalOptions): Record<string, string> {
  return options.token ? { authorization: `Bearer ${options.token}` } : {};
}

/** Attempts per item's POST: a lost answer (network error), 429 or 5xx is sent again with the same key. */
export const SUBMIT_ATTEMPTS = 4;

/**
 * Submits one item. The `Idempotency-Key` makes a retry safe: a POST whose answer was lost may have
 * created the evaluation, and the same key returns it instead of creating a second one.
 */
export async function submitItem(
  base: string,
  options: MetaEvalOptions,
  runId: string,
  item: LabelledItem,
): Promise<string> {
  const config = overridesOf(options);
  const body = JSON.stringify({
    preset: options.preset,
    ...(config ? { config } : {}),
    task: item.task,
    metadata: { item: item.id },
  });
  const headers = { 'content-type': 'application/json', 'idempotency-key': `${runId}:${item.id}`, ...authOf(options) };
  for (let attempt = 1; ; attempt++) {
    let r: Response;
    try {
      r = await fetch(`${base}/v1/evaluations`, { method: 'POST', headers, body });
    } catch (e) {
      if (attempt >= SUBMIT_ATTEMPTS) throw new Error(`submit: ${describeError(e)} (${attempt} attempts)`);
      await backoff(attempt);
      continue;
    }
    const json = (await r.json().catch(() => ({}))) as { id?: string; error?: { message: string } };
    if (r.ok && json.id) return json.id;
    const transient = r.status === 429 || r.status >= 500;
    if (!transient || attempt >= SUBMIT_ATTEMPTS)
      throw new Error(`submit: HTTP ${r.status} ${json.error?.message ?? ''}`.trimEnd());
    await backoff(attempt, r.headers.get('retry-after'));
  }
}

function backoff(attempt: number, retryAfter?: string | null): Promise<void> {
  const seconds = Number(retryAfter);
  const ms =
    Number.isFinite(seconds) && seconds > 0
      ? Math.min(seconds * 1000, 30_000)
      : backoffDelay(attempt, { base: 200, max: Number.POSITIVE_INFINITY });
  return new Promise((res) => setTimeout(res, ms));
}

export async function waitFor(
  base: string,
  id: string,
  timeoutMs: number,
  headers: Record<string, string>,
): Promise<EvaluationView> {
  const deadline = Date.now() + timeoutMs;
  let delay = 50;
  for (;;) {
    const r = await fetch(`${base}/v1/evaluations/${id}`, { headers });
    const view = (await r.json()) as EvaluationView & { error?: { message?: string } };
    // An error answer (401, 404, 5xx) has no status: it ends the wait, with the service's reason.
    if (!r.ok)
      return {
        id,
        status: 'failed',
        error: { code: 'runner_error', message: `poll: HTTP ${r.status} ${view.error?.message ?? ''}`.trimEnd() },
      };
    if (TERMINAL.has(view.status)) return view;
    if (Date.now() > deadline)
      return { ...view, error: { code: 'runner_timeout', message: `no verdict after ${timeoutMs} ms` } };
    await new Promise((res) => setTimeout(res, delay));
    delay = Math.min(500, delay * 1.5);
  }
}

export async function transcriptOf(
  base: string,
  id: string,
  headers: Record<string, string>,
): Promise<StoredReply[] | undefined> {
  const r = await fetch(`${base}/v1/evaluations/${id}/transcript`, { headers });
  if (!r.ok) return undefined;
  const body = (await r.json()) as { messages?: StoredReply[] };
  return body.messages?.map(({ callId, model, content }) => ({ callId, model, content }));
}

/** The judge, config or task was refused before any item was sent (every item would have been). */
export class JudgeRefusedError extends Error {
  override name = 'JudgeRefusedError';
}

/**
 * Checks the judge (`--preset`, `--config`, `--model`) with the first item's task once, before any item is
 * submitted: `POST /v1/estimates` validates a body exactly as `POST /v1/evaluations` does, and creates
 * nothing and calls no LLM. A refusal (an unknown preset, a bad config, a task kind the preset does not
 * take, a missing or wrong token) throws {@link JudgeRefusedError} with the service's reason. A service
 * without that route, or a transient failure, leaves the check to the items.
 */
export async function checkJudge(base: string, options: MetaEvalOptions, item: LabelledItem): Promise<void> {
  const config = overridesOf(options);
  let r: Response;
  try {
    r = await fetch(`${base}/v1/estimates`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...authOf(options) },
      body: JSON.stringify({ preset: options.preset, ...(config ? { config } : {}), task: item.task }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    return;
  }
  if (r.ok) {
    await r.body?.cancel();
    return;
  }
  const body = (await r.json().catch(() => ({}))) as {
    error?: { code?: string; message?: string; issues?: { path?: string; message?: string }[] };
  };
  const code = body.error?.code ?? '';
  if (r.status === 429 || r.status >= 500 || code === 'not_found' || code === 'method_not_allowed') return;
  const issues = (body.error?.issues ?? []).map((i) => `${i.path ?? ''}: ${i.message ?? ''}`);
  throw new JudgeRefusedError(
    `the service refused this run before any item was sent (HTTP ${r.status} ${code}): ${body.error?.message ?? ''}` +
      (issues.length > 0 ? ` (${issues.join('; ')})` : ''),
  );
}

/** Fails at once, naming the URL, when `--target` does not answer (instead of one failure per item). */
export async function reachable(base: string): Promise<void> {
  try {
    await fetch(`${base}/health`, { signal: AbortSignal.timeout(15_000) });
  } catch (e) {
    throw new Error(`cannot reach --target ${base}: ${describeError(e)}`);
  }
}
