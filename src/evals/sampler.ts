/**
 * @module
 * A run's sampler: the model a `completions` or `responses` data source names, asked on each item from its
 * `input_messages` with its `sampling_params` as the SDK types them. `responses` asks for OpenAI's Responses
 * API (`api: 'responses'`), which the LLM client uses where the provider speaks it (`supportsResponses`) and
 * replaces by chat completions elsewhere. Mapped: `max_completion_tokens` (chat `max_tokens`, Responses
 * `max_output_tokens`), `temperature`, `top_p`, `seed` (chat only: the Responses API takes none),
 * `reasoning_effort`, and the reply's format (`response_format`, or `text.format`).
 */
import type { ChatMessage, LlmCallRequest, OutputFormat, SamplingOptions } from '../engine/call.js';
import { flatFormat } from '../llm/structured.js';
import type { GraderDeps, ModelUsage } from './graders.js';
import { modelUsage, renderMessages } from './graders.js';
import type { RunDataSource } from './run-schemas.js';
import { contentText } from './item-reference.js';
import { parseRef, resolveRef } from './templates.js';

/** A data source that samples a model. */
type Sampled = Extract<RunDataSource, { type: 'completions' | 'responses' }>;

/** A sample as an output item shows it. */
export interface Sample {
  input: { role: string; content: string }[];
  output: { role: string; content: string }[];
  model: string;
  finish_reason: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number; cached_tokens: number };
  error: { code: string; message: string } | null;
  temperature: number;
  max_completion_tokens: number;
  top_p: number;
  seed: number;
}

const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 };

/** OpenAI's sampling defaults, which a sample shows for a parameter not given. */
const DEFAULTS = { temperature: 1, max_completion_tokens: 2048, top_p: 1, seed: 42 };

/**
 * The sample of a `jsonl` line as an output item shows it: OpenAI's API answers a sample object on every output
 * item (the SDK types it non-null), so a line's own sample is shown in that shape: its text (`output_text`, or
 * the given sample as JSON) as the one assistant message of `output`, its `model` and `finish_reason` when given
 * as strings (else ""); no input, no usage (nothing was sampled here) and the default parameters. A line without a
 * sample (an eval that does not read it) shows an empty `output`.
 * @param text the sample's text as the graders read it, or null when the line gives none.
 */
export function givenSample(given: Record<string, unknown> | undefined, text: string | null): Sample {
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    input: [],
    output: text === null ? [] : [{ role: 'assistant', content: text }],
    model: str(given?.model),
    finish_reason: str(given?.finish_reason),
    usage: NO_USAGE,
    error: null,
    ...DEFAULTS,
  };
}

/** The sampler's messages: the template rendered on the item, or the messages an item field holds. */
function samplerMessages(ds: Sampled, item: Record<string, unknown>): ChatMessage[] {
  const input = ds.input_messages;
  if (!input) return [];
  if (input.type === 'template') return renderMessages(input.template, { item });
  const value = resolveRef(parseRef(input.item_reference), { item });
  if (!Array.isArray(value)) return [];
  return value.flatMap((m: unknown): ChatMessage[] => {
    const r = m as { role?: unknown; content?: unknown };
    const role = r.role === 'system' || r.role === 'assistant' ? r.role : 'user';
    // Content parts are flattened to their text (the create refused a line with a part that has none).
    const got = contentText(r.content);
    return 'text' in got ? [{ role, content: got.text }] : [];
  });
}

/**
 * The format a data source's parameters ask for, in the Responses API's flat shape, its fields as the engine
 * types them (a schema always, `strict` only when true or false).
 */
function formatOf(ds: Sampled): OutputFormat | undefined {
  const rf = ds.type === 'completions' ? ds.sampling_params?.response_format : undefined;
  const f = ds.type === 'responses' ? ds.sampling_params?.text?.format : rf && flatFormat(rf);
  if (f?.type !== 'json_schema') return f;
  const { schema, strict, description, ...rest } = f;
  return {
    ...rest,
    schema: schema ?? {},
    ...(strict !== undefined && strict !== null ? { strict } : {}),
    ...(description !== undefined ? { description } : {}),
  };
}

/** The sampler's parameters beyond temperature and the token limit, each only when given. */
export function samplingOf(ds: Sampled): SamplingOptions {
  const p = ds.sampling_params ?? {};
  const format = formatOf(ds);
  return {
    ...(p.top_p !== undefined ? { topP: p.top_p } : {}),
    ...(p.seed !== undefined ? { seed: p.seed } : {}),
    ...(p.reasoning_effort !== undefined && p.reasoning_effort !== null ? { reasoningEffort: p.reasoning_effort } : {}),
    ...(format ? { format } : {}),
  };
}

/** Samples the model on one item: its sample as an output item shows it, its text, and the call's usage. */
export async function sampleOf(
  ds: Sampled,
  item: Record<string, unknown>,
  idx: number,
  deps: GraderDeps,
): Promise<{ sample: Sample; text: string | null; usage: ModelUsage[] }> {
  const messages = samplerMessages(ds, item);
  const params = ds.sampling_params ?? {};
  const model = ds.model ?? '';
  const base = {
    input: messages.map((m) => ({ role: m.role, content: m.content })),
    model,
    temperature: params.temperature ?? DEFAULTS.temperature,
    max_completion_tokens: params.max_completion_tokens ?? DEFAULTS.max_completion_tokens,
    top_p: params.top_p ?? DEFAULTS.top_p,
    seed: params.seed ?? DEFAULTS.seed,
  };
  const request: LlmCallRequest = {
    id: `sample/${String(idx)}`,
    agent: 'sampler',
    label: 'sampler',
    stage: 'sample',
    model,
    messages,
    temperature: base.temperature,
    maxTokens: base.max_completion_tokens,
    parser: { type: 'text' },
    ...(ds.type === 'responses' ? { api: 'responses' as const } : {}),
    sampling: samplingOf(ds),
  };
  const result = deps.llm ? await deps.llm(request) : null;
  if (!result?.ok) {
    const error = result ? { code: result.error.code, message: result.error.message } : null;
    const sample: Sample = {
      ...base,
      output: [],
      finish_reason: 'error',
      usage: NO_USAGE,
      error: error ?? { code: 'llm_not_configured', message: 'no LLM' },
    };
    return { sample, text: null, usage: [] };
  }
  const calls = modelUsage(model, result.usage);
  // The sample shows its one call's tokens, without the per-model fields.
  const { model: _m, invocation_count: _n, ...usage } = calls;
  const sample: Sample = {
    ...base,
    output: [{ role: 'assistant', content: result.content }],
    finish_reason: 'stop',
    usage,
    error: null,
  };
  return { sample, text: result.content, usage: [calls] };
}
