/**
 * @module
 * A model call's messages, from wherever its producer put them:
 * - GenAI semantic conventions: `gen_ai.input.messages` / `gen_ai.output.messages` (JSON: `{role, parts}`, parts
 *   `text`, `tool_call`, `tool_call_response`), as span attributes or on the
 *   `gen_ai.client.inference.operation.details` event, with `gen_ai.system_instructions`; the older per-message
 *   events (`gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message`, `gen_ai.tool.message`,
 *   `gen_ai.choice`); the older `gen_ai.prompt.N.role` / `.content` and `gen_ai.completion.N.…` attributes;
 * - OpenInference: `llm.input_messages.N.message.role` / `.content` / `.tool_calls.M.tool_call.function.name` /
 *   `.arguments` / `.tool_call_id`, and `llm.output_messages.N.…`.
 */
import type { SpanMessage } from './span-schema.js';
import { firstText, textOf } from './attributes.js';

type Attrs = Record<string, unknown>;

function parsed(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return undefined;
  }
}

function record(v: unknown): Attrs | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Attrs) : null;
}

/** A part's or content's text: a string, or the texts of a list of parts. */
function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((p) => textOf(record(p)?.content ?? record(p)?.text ?? p) ?? '').join('');
  return textOf(v) ?? '';
}

/** One GenAI-convention message (`{role, parts}`, or the older `{role, content, tool_calls}`). */
function genAiMessage(m: unknown): SpanMessage | null {
  const r = record(m);
  if (!r) return null;
  const out: SpanMessage = { role: textOf(r.role) ?? 'user', content: '' };
  const texts: string[] = [];
  const calls: NonNullable<SpanMessage['toolCalls']> = [];
  for (const part of Array.isArray(r.parts) ? r.parts : []) {
    const p = record(part);
    if (!p) continue;
    if (p.type === 'tool_call') {
      calls.push({ id: textOf(p.id), name: textOf(p.name) ?? '', arguments: textOf(p.arguments) });
    } else if (p.type === 'tool_call_response') {
      out.toolCallId = textOf(p.id) ?? undefined;
      texts.push(textOf(p.response ?? p.result) ?? '');
    } else if (p.content !== undefined) texts.push(contentText(p.content));
  }
  if (r.content !== undefined && r.content !== null) texts.push(contentText(r.content));
  for (const tc of Array.isArray(r.tool_calls) ? r.tool_calls : []) {
    const t = record(tc);
    const fn = record(t?.function);
    if (t)
      calls.push({
        id: textOf(t.id),
        name: textOf(fn?.name ?? t.name) ?? '',
        arguments: textOf(fn?.arguments ?? t.arguments),
      });
  }
  if (typeof r.tool_call_id === 'string') out.toolCallId = r.tool_call_id;
  out.content = texts.join('');
  if (calls.length > 0) out.toolCalls = calls;
  return out;
}

function messageList(v: unknown): SpanMessage[] | null {
  const list = parsed(v);
  if (!Array.isArray(list)) return null;
  const out = list.map(genAiMessage).filter((m): m is SpanMessage => m !== null);
  return out.length > 0 ? out : null;
}

/** Indexed flat attributes (`<prefix>.<n>.<rest>`) grouped by n, in order. */
function indexed(attrs: Attrs, prefix: string): Attrs[] {
  const groups = new Map<number, Attrs>();
  for (const [k, v] of Object.entries(attrs)) {
    if (!k.startsWith(prefix)) continue;
    const m = /^(\d+)\.(.+)$/.exec(k.slice(prefix.length));
    if (!m) continue;
    const n = Number(m[1]);
    const g = groups.get(n) ?? {};
    g[m[2] ?? ''] = v;
    groups.set(n, g);
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([, g]) => g);
}

/** OpenInference's `llm.input_messages.N.message.*` (or output). */
function openInference(attrs: Attrs, prefix: string): SpanMessage[] | null {
  const out = indexed(attrs, prefix).map((g): SpanMessage => {
    const m: SpanMessage = { role: textOf(g['message.role']) ?? 'user', content: textOf(g['message.content']) ?? '' };
    const calls = indexed(g, 'message.tool_calls.').map((c) => ({
      id: textOf(c['tool_call.id']),
      name: textOf(c['tool_call.function.name']) ?? '',
      arguments: textOf(c['tool_call.function.arguments']),
    }));
    if (calls.length > 0) m.toolCalls = calls;
    const callId = textOf(g['message.tool_call_id']);
    if (callId !== null) m.toolCallId = callId;
    return m;
  });
  return out.length > 0 ? out : null;
}

/** The older `gen_ai.prompt.N.role` / `.content` (or completion) attributes. */
function legacyIndexed(attrs: Attrs, prefix: string): SpanMessage[] | null {
  const out = indexed(attrs, prefix).map((g) => ({ role: textOf(g.role) ?? 'user', content: textOf(g.content) ?? '' }));
  return out.length > 0 ? out : null;
}

const EVENT_ROLES: Readonly<Record<string, string>> = {
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
};

/** A span's input and output messages (null where it carries none). */
export function messagesOf(
  attrs: Attrs,
  events: readonly { name: string; attributes: Attrs }[],
): { input: SpanMessage[] | null; output: SpanMessage[] | null } {
  const details = events.find((e) => e.name === 'gen_ai.client.inference.operation.details')?.attributes ?? {};
  let input =
    messageList(attrs['gen_ai.input.messages']) ??
    messageList(details['gen_ai.input.messages']) ??
    openInference(attrs, 'llm.input_messages.') ??
    legacyIndexed(attrs, 'gen_ai.prompt.');
  let output =
    messageList(attrs['gen_ai.output.messages']) ??
    messageList(details['gen_ai.output.messages']) ??
    openInference(attrs, 'llm.output_messages.') ??
    legacyIndexed(attrs, 'gen_ai.completion.');
  if (input === null) {
    const fromEvents = events
      .filter((e) => e.name in EVENT_ROLES)
      .map((e) => genAiMessage({ role: EVENT_ROLES[e.name], ...e.attributes }))
      .filter((m): m is SpanMessage => m !== null);
    if (fromEvents.length > 0) input = fromEvents;
  }
  if (output === null) {
    const choices = events
      .filter((e) => e.name === 'gen_ai.choice')
      .map((e) => genAiMessage({ role: 'assistant', ...(record(parsed(e.attributes.message)) ?? e.attributes) }))
      .filter((m): m is SpanMessage => m !== null);
    if (choices.length > 0) output = choices;
  }
  const system = firstText(attrs, 'gen_ai.system_instructions') ?? firstText(details, 'gen_ai.system_instructions');
  if (system !== null && input !== null && input[0]?.role !== 'system') {
    const list = parsed(system);
    const text = Array.isArray(list) ? contentText(list) : system;
    input = [{ role: 'system', content: text }, ...input];
  }
  return { input, output };
}

/** The text of the last message with one of `roles` (null when none). */
export function lastText(messages: SpanMessage[] | null, roles: readonly string[]): string | null {
  if (!messages) return null;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m && roles.includes(m.role) && m.content !== '') return m.content;
  }
  return null;
}
