/**
 * The official OpenAI SDK as the client of the Worker under test: requests go through the Worker entry
 * (`exports.default.fetch`, the successor of `SELF`, so the queue consumer and the Durable Object behind it are the real ones), or through the app
 * with bindings overridden (`API_KEYS`, `OPENAI_WAIT_SECONDS`), which the entry cannot take.
 */
import OpenAI, { APIError } from 'openai';
import { appFetch, workerFetch } from './api-fetch.js';
import type { Bindings } from '../../src/config/bindings.js';
import type { ChatCompletion, JudgeVerdict } from '../../src/openai/schemas.js';
import { JudgeVerdictSchema } from '../../src/openai/schemas.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { MockModelOptions } from '../../src/mock-llm/model-name.js';
import { testEnv } from './helpers.js';
import { bodyText } from '../support/body-text.js';

/** Base URL the SDK is given (the host is never resolved: requests go to the Worker in-process). */
export const BASE_URL = 'http://tribunal.test/v1';

/** A `string_check` grader that needs no model: the sample's text equals the item's `answer`. */
export const EXACT_CHECK = {
  type: 'string_check' as const,
  name: 'exact',
  operation: 'eq' as const,
  input: '{{sample.output_text}}',
  reference: '{{item.answer}}',
};

/** The item schema of a question and its answer, both strings: what most Evals tests' evals declare. */
export const ITEM_SCHEMA = {
  type: 'object',
  properties: { question: { type: 'string' }, answer: { type: 'string' } },
  required: ['question', 'answer'],
};

/** Options of {@link sdk}. */
export interface SdkOptions {
  /** Bindings over the test's; set = requests go to the app directly instead of the Worker entry. */
  overrides?: Partial<Bindings>;
  /** Bearer token; default a dummy (auth is off in tests unless `API_KEYS` is overridden). */
  apiKey?: string;
  /** The SDK's retries; default 0 (tests that check `x-should-retry` use its default, 2). */
  maxRetries?: number;
  /** What the SDK's requests go through instead (a wrapper of `workerFetch`, which checks every answer). */
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
}

/**
 * The `Response` the SDK finds on its `fetch`: it reads a multipart body with `.text()` once per fetch function,
 * to see that `FormData` is supported, and workerd warns on `.text()` of a body it does not know as text.
 */
class BytesTextResponse extends Response {
  override text(): Promise<string> {
    return bodyText(this);
  }
}

/** An OpenAI SDK client pointed at the Worker. */
export function sdk(o: SdkOptions = {}): OpenAI {
  const overrides = o.overrides;
  const target = o.fetch ?? (overrides ? appFetch(overrides) : workerFetch);
  const fetchFn = Object.assign((input: RequestInfo | URL, init?: RequestInit) => target(input, init), {
    Response: BytesTextResponse,
  });
  return new OpenAI({
    apiKey: o.apiKey ?? 'sk-test-unused',
    baseURL: BASE_URL,
    fetch: fetchFn,
    maxRetries: o.maxRetries ?? 0,
  });
}

/** `tribunal/<preset>@<mock model>`: the preset on the test's mock LLM (seeded so request counts are per test). */
export function judgeModel(preset: string, mock: MockModelOptions): string {
  return `tribunal/${preset}@${mockModel(mock)}`;
}

/** The verdict an answer's message carries, checked against its schema. */
export function verdictOf(completion: ChatCompletion | OpenAI.ChatCompletion): JudgeVerdict {
  return JudgeVerdictSchema.parse(JSON.parse(completion.choices[0]?.message.content ?? 'null'));
}

/** Number of evaluation rows in D1. */
export async function evaluationCount(): Promise<number> {
  return (await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>())?.n ?? 0;
}

/** The SDK's error for `p`, which must fail. */
export async function failure(p: Promise<unknown>): Promise<APIError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof APIError)) throw new Error(`expected an APIError, got ${String(e)}`);
  return e;
}
