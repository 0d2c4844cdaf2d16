/**
 * @module
 * A chat completion as the mock reads it, and the text it replies: a scripted rule's reply, the criteria
 * rewrite, or a judge-mode reply in the format the prompt (or the JSON schema) asks for, seeded as
 * ./handler.ts describes.
 */
import type { DetectedFormat, MockMessage } from './detect-format.js';
import {
  fewShotCorrects,
  judgeReply,
  LENGTH_RULE,
  rewriteReply,
  shownAnswers,
  pointQualityOf,
  shownQualities,
} from './judge-mode.js';
import { detectFormat, formatFromJsonSchema } from './detect-format.js';
import type { ServiceTier } from './flex.js';
import { SERVICE_TIERS } from './flex.js';
import type { MockDirectives, MockMode } from './model-name.js';
import type { MockState } from './state.js';

/** A chat completion's body as the mock reads it. */
export interface ChatBody {
  model: string;
  messages: (MockMessage & { name?: string })[];
  response_format?: { type?: string; json_schema?: { schema?: unknown } };
  /** Function calling: a forced call gets `tool_calls` (see ./tools.ts). */
  tools?: unknown;
  tool_choice?: unknown;
  /** Choices asked for (OpenAI's `n`, 1-128). Default 1. */
  n?: number;
  /** OpenAI's processing tier (`flex.ts`). */
  service_tier?: ServiceTier;
  /** OpenAI's prompt-cache routing key. */
  prompt_cache_key?: string;
}

/** The body read, or the OpenAI-style message for what is wrong with it. */
export function readBody(raw: unknown): ChatBody | string {
  if (typeof raw !== 'object' || raw === null) return 'the body must be a JSON object';
  const b = raw as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return 'you must provide a model parameter';
  if (!Array.isArray(b.messages) || b.messages.length === 0) return "'messages' must be a non-empty array";
  const messages: ChatBody['messages'] = [];
  for (const m of b.messages as unknown[]) {
    const r = m as { role?: unknown; content?: unknown; name?: unknown } | null;
    if (!r || typeof r.role !== 'string' || typeof r.content !== 'string')
      return 'each message needs a string role and content';
    messages.push({ role: r.role, content: r.content, ...(typeof r.name === 'string' ? { name: r.name } : {}) });
  }
  if (b.n !== undefined && b.n !== null && (typeof b.n !== 'number' || !Number.isInteger(b.n) || b.n < 1 || b.n > 128))
    return "'n' must be an integer from 1 to 128";
  const tier = b.service_tier;
  if (tier !== undefined && tier !== null && !(SERVICE_TIERS as readonly unknown[]).includes(tier))
    return `Invalid value for 'service_tier': expected one of ${SERVICE_TIERS.join(', ')}`;
  const cacheKey = b.prompt_cache_key;
  if (cacheKey !== undefined && cacheKey !== null && typeof cacheKey !== 'string')
    return "'prompt_cache_key' must be a string";
  return {
    model: b.model,
    messages,
    ...(typeof b.response_format === 'object' && b.response_format !== null
      ? { response_format: b.response_format }
      : {}),
    ...(b.tools !== undefined ? { tools: b.tools, tool_choice: b.tool_choice } : {}),
    ...(typeof b.n === 'number' ? { n: b.n } : {}),
    ...(typeof tier === 'string' ? { service_tier: tier as ServiceTier } : {}),
    ...(typeof cacheKey === 'string' ? { prompt_cache_key: cacheKey } : {}),
  };
}

/** The reply of choice `choice` (0 = the reply a request without `n` gets; others are seeded apart). */
export function replyText(
  body: ChatBody,
  d: MockDirectives,
  state: MockState,
  mode: MockMode,
  choice: number,
  attempt: number,
): string {
  const prompt = body.messages.map((m) => m.content).join('\n');
  if (mode === 'scripted') {
    const rule = state.scripts.get(d.namespace)?.find((r) => {
      r.re.lastIndex = 0;
      return r.re.test(prompt);
    });
    if (rule) return rule.reply;
  }
  const rewrite = rewriteReply(prompt);
  if (rewrite !== undefined) return rewrite;
  const schemaFormat: DetectedFormat | undefined =
    body.response_format?.type === 'json_schema'
      ? formatFromJsonSchema(body.response_format.json_schema?.schema)
      : undefined;
  const format = schemaFormat ?? detectFormat(body.messages);
  // A model named for a real one (not `mock-*`) judges as that model: distinct names answer one prompt
  // differently, as a jury's different model families would; `mock-judge` replies are as before.
  const model = d.mode === undefined ? `${d.base}\u0000` : '';
  // `vary`: a repeat of the prompt is a fresh draw, as from a model sampling at a temperature.
  const draw = d.vary ? `\u0000attempt${attempt}` : '';
  const key = `${d.seed}\u0000${model}${JSON.stringify(body.messages.map((m) => [m.role, m.content]))}${choice === 0 ? '' : `\u0000choice${choice}`}${draw}`;
  return judgeReply(format, key, {
    quality: shownQualities(prompt),
    firstShownBias: d.bias,
    ...(d.verbose > 0 ? { longerBias: longerBiasOf(prompt, d.verbose) } : {}),
    ...pointQualityOf(prompt, d.generous),
  });
}

/**
 * The `verbose` option's bias for this prompt: toward the longer shown answer, a quarter when few-shot examples
 * or the rewrite's length rule correct it.
 */
function longerBiasOf(prompt: string, p: number): { p: number; longer: 'A' | 'B' | undefined } {
  const shown = shownAnswers(prompt);
  const longer =
    !shown || shown[0].length === shown[1].length ? undefined : shown[0].length > shown[1].length ? 'A' : 'B';
  return { p: fewShotCorrects(prompt) || prompt.includes(LENGTH_RULE) ? p / 4 : p, longer };
}
