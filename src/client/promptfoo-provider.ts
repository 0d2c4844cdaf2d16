/**
 * @module
 * A promptfoo provider that asks a Tribunal judge: point promptfoo at this file
 * (`id: file://node_modules/tribunal/src/client/promptfoo-provider.ts`; promptfoo loads TypeScript
 * providers itself) and give the judge as `config.model`. The rendered prompt is the task, in either
 * convention of `POST /v1/chat/completions` (a JSON Task, or plain text with `[QUESTION]` `[ANSWER A]`
 * `[ANSWER B]` / `[SOURCE]` `[OUTPUT]` `[ASPECT]` markers); the output is the verdict's JSON text
 * (`JSON.parse(output).winner`), `tokenUsage` and `cost` the whole debate's. A 504 (no verdict within the
 * deployment's wait bound) is asked again with the same `Idempotency-Key`, which waits on the same
 * evaluation, until `config.timeoutMs`.
 *
 * Config (each optional): `model` (default `tribunal/chateval-faireval`), `baseUrl` (default
 * `TRIBUNAL_URL`, else `http://127.0.0.1:8787`), `apiKey` (default `TRIBUNAL_API_KEY`), `timeoutMs`
 * (default 600000). Docs: docs/integrations.md.
 */
import type { JudgeVerdict } from './index.js';
import { createTribunalClient } from './index.js';

/** The judge used when the config names none. */
export const DEFAULT_MODEL = 'tribunal/chateval-faireval';
/** Default of `config.timeoutMs`: 10 minutes. */
export const DEFAULT_TIMEOUT_MS = 600_000;

/** This provider's `config` in promptfooconfig.yaml. */
export interface TribunalProviderConfig {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  /**
   * Your own criteria: a stored rubric (`rb_…`, `rb_…@3`, `rb_…#prod`) or an inline one, as `POST
   * /v1/evaluations` takes `rubric`. The prompt must then render the task as JSON: it is sent as
   * `{"rubric": …, "task": <the prompt's JSON>}`.
   */
  rubric?: string | Record<string, unknown>;
}

/** What promptfoo passes to a provider's constructor (the subset used here). */
export interface ProviderOptions {
  id?: string;
  label?: string;
  config?: TribunalProviderConfig;
}

/** What `callApi` returns: promptfoo's `ProviderResponse` (the fields this provider sets). */
export interface ProviderResponse {
  output?: string;
  error?: string;
  tokenUsage?: { prompt: number; completion: number; total: number; cached: number; numRequests: number };
  cost?: number;
  metadata?: { evaluationId: string; verdict: JudgeVerdict };
}

/** Environment variables, where a runtime has them (Node: `process.env`). */
function env(name: string): string | undefined {
  const g = globalThis as { process?: { env?: Record<string, string | undefined> } };
  return g.process?.env?.[name];
}

/** A Tribunal judge as a promptfoo provider (default export: promptfoo instantiates it). */
export default class TribunalProvider {
  private readonly model: string;
  private readonly providerId: string;
  private readonly timeoutMs: number;
  private readonly rubric: TribunalProviderConfig['rubric'];
  private readonly client: ReturnType<typeof createTribunalClient>;

  constructor(options: ProviderOptions = {}) {
    const config = options.config ?? {};
    this.model = config.model ?? DEFAULT_MODEL;
    this.providerId = options.id ?? `tribunal:${this.model}`;
    this.timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.rubric = config.rubric;
    this.client = createTribunalClient({
      baseUrl: config.baseUrl ?? env('TRIBUNAL_URL') ?? 'http://127.0.0.1:8787',
      apiKey: config.apiKey ?? env('TRIBUNAL_API_KEY'),
    });
  }

  /** promptfoo's provider id. */
  id(): string {
    return this.providerId;
  }

  /** Judges the rendered prompt; errors come back as `{ error }`, as promptfoo expects. */
  async callApi(prompt: string): Promise<ProviderResponse> {
    const deadline = Date.now() + this.timeoutMs;
    // One key per call: a retry after a 504 waits on the same evaluation instead of starting another.
    const key = `promptfoo-${crypto.randomUUID()}`;
    let content = prompt;
    if (this.rubric !== undefined) {
      let task: unknown;
      try {
        task = JSON.parse(prompt);
      } catch {
        return { error: 'with config.rubric, the prompt must render the task as JSON ({"kind": …})' };
      }
      content = JSON.stringify({ rubric: this.rubric, task });
    }
    for (;;) {
      const res = await this.client.request('post', '/v1/chat/completions', {
        body: { model: this.model, messages: [{ role: 'user', content }] },
        headers: { 'Idempotency-Key': key },
      });
      if (res.status === 200) {
        const answer = res.body.choices[0]?.message.content ?? '';
        const verdict = JSON.parse(answer) as JudgeVerdict;
        const u = res.body.usage;
        return {
          output: answer,
          tokenUsage: {
            prompt: u.prompt_tokens,
            completion: u.completion_tokens,
            total: u.total_tokens,
            cached: u.prompt_tokens_details.cached_tokens,
            numRequests: verdict.calls,
          },
          cost: verdict.costUsd,
          metadata: { evaluationId: verdict.evaluationId, verdict },
        };
      }
      if (res.status === 504 && Date.now() < deadline) continue;
      return { error: `Tribunal ${res.status} ${res.body.error.code}: ${res.body.error.message}` };
    }
  }
}
