/**
 * @module
 * One mock server's mutable state (attempt counters, the prompt cache, scripted-mode rules, the Files and
 * Batch API stores), and the route that sets its scripted-mode rules.
 */
import { MockBatchStore } from './batches.js';
import { MockFileStore } from './files.js';
import { PrefixCache } from './prompt-cache.js';
import { openAiError } from './responses.js';

/** A scripted-mode rule: when `pattern` (a regex source, or a RegExp) matches the prompt, reply `reply`. */
export interface ScriptRule {
  pattern: string | RegExp;
  /** Regex flags when `pattern` is a string, e.g. `i`. */
  flags?: string;
  reply: string;
}

/** Mutable state of one mock server: attempt counters, prompt cache, scripts, files and batches. */
export interface MockState {
  /** Attempts seen per (model name, messages) hash. */
  counters: Map<string, number>;
  cache: PrefixCache;
  /** Scripted rules by namespace. */
  scripts: Map<string, { re: RegExp; reply: string }[]>;
  /** Files API store. */
  files: MockFileStore;
  /** Batch API store (writes its output files to `files`). */
  batches: MockBatchStore;
}

/** A fresh, empty mock state. */
export function createMockState(): MockState {
  const files = new MockFileStore();
  return {
    counters: new Map(),
    cache: new PrefixCache(),
    scripts: new Map(),
    files,
    batches: new MockBatchStore(files),
  };
}

function compile(rules: readonly ScriptRule[]): { re: RegExp; reply: string }[] {
  return rules.map((r) => ({
    re: typeof r.pattern === 'string' ? new RegExp(r.pattern, r.flags ?? '') : r.pattern,
    reply: r.reply,
  }));
}

/** Sets (replaces) the scripted-mode rules of a namespace; an empty list removes them. */
export function setScript(state: MockState, namespace: string, rules: readonly ScriptRule[]): void {
  if (rules.length === 0) state.scripts.delete(namespace);
  else state.scripts.set(namespace, compile(rules));
}

/** `PUT` / `POST` / `DELETE /_mock/scripts/<ns>`: sets or removes the scripted-mode rules of namespace `ns`. */
export async function scriptsRoute(request: Request, ns: string, state: MockState): Promise<Response> {
  if (request.method === 'DELETE') {
    state.scripts.delete(ns);
    return new Response(null, { status: 204 });
  }
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return openAiError(400, 'body must be JSON {"rules": [...]}', 'invalid_request_error', null);
  }
  const rules = (raw as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules))
    return openAiError(
      400,
      'body must be JSON {"rules": [{"pattern", "flags"?, "reply"}]}',
      'invalid_request_error',
      null,
    );
  const parsed: ScriptRule[] = [];
  for (const r of rules as unknown[]) {
    const rule = r as { pattern?: unknown; flags?: unknown; reply?: unknown } | null;
    if (!rule || typeof rule.pattern !== 'string' || typeof rule.reply !== 'string') {
      return openAiError(400, 'each rule needs string "pattern" and "reply"', 'invalid_request_error', null);
    }
    parsed.push({
      pattern: rule.pattern,
      reply: rule.reply,
      ...(typeof rule.flags === 'string' ? { flags: rule.flags } : {}),
    });
  }
  try {
    setScript(state, ns, parsed);
  } catch (e) {
    return openAiError(
      400,
      `bad pattern: ${e instanceof Error ? e.message : String(e)}`,
      'invalid_request_error',
      null,
    );
  }
  return new Response(null, { status: 204 });
}
