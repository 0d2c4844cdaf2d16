/**
 * @module
 * OpenAI's grader templates: `{{item.<path>}}` reads the data source item, `{{sample.output_text}}` the
 * sampled model's text, `{{sample.output_json}}` (or `{{sample.output_json.<path>}}`) that text parsed as
 * JSON. Spaces inside the braces are allowed. A string value is inserted as it is; any other value (a
 * number, an object, an array) as its JSON; a missing value as the empty string. Pure.
 */

/** One `{{…}}` reference: its namespace and the path after it. */
export interface TemplateRef {
  namespace: string;
  path: string[];
  /** The text between the braces, trimmed. */
  raw: string;
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** A reference from its dotted text (`item.meta.n`: namespace `item`, path `meta`, `n`). */
export function parseRef(raw: string): TemplateRef {
  const [namespace = '', ...path] = raw.split('.');
  return { namespace, path, raw };
}

/** The references of a template, in order. */
export function referencesOf(template: string): TemplateRef[] {
  return [...template.matchAll(TEMPLATE)].map((m) => parseRef(m[1] ?? ''));
}

/** What templates read: the item, and (once sampled) the sample. */
export interface TemplateContext {
  item: Record<string, unknown>;
  sample?: { output_text: string } | undefined;
}

/** `{{sample.output_json}}`: the sample's text as JSON, or undefined when it is not JSON. */
function outputJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function walk(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = Array.isArray(at) ? at[Number(key)] : (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The value a reference reads, or undefined. */
export function resolveRef(ref: TemplateRef, ctx: TemplateContext): unknown {
  if (ref.namespace === 'item') return walk(ctx.item, ref.path);
  if (ref.namespace === 'sample' && ctx.sample) {
    const [field, ...rest] = ref.path;
    if (field === 'output_text' && rest.length === 0) return ctx.sample.output_text;
    if (field === 'output_json') return walk(outputJson(ctx.sample.output_text), rest);
  }
  return undefined;
}

/** A value as inserted into text: strings as they are, others as JSON, nothing for undefined/null. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The template with every reference replaced (see the module note). */
export function render(template: string, ctx: TemplateContext): string {
  return template.replace(TEMPLATE, (_m, inner: string) => asText(resolveRef(parseRef(inner), ctx)));
}
