/**
 * @module
 * Secret removal for text that leaves the LLM layer: provider error messages (stored, streamed, logged,
 * shown to callers) and the operator's configuration diagnostics.
 *
 * Two nets, both applied by {@link createRedactor} and {@link redactSecrets}:
 * - the deployment's own secret values, matched literally (provider keys, `*_API_KEY`, `*_TOKEN`,
 *   `*_SECRET` variables, a caller's own key);
 * - anything shaped like a credential: `Bearer …`, OpenAI `sk-…` / `sk-proj-…`, Groq `gsk_…`, Google
 *   `AIza…`, xAI `xai-…`, Tribunal `trb_…`, Standard Webhooks `whsec_…`, and `api_key=…`-style pairs.
 * Each match becomes {@link REDACTED}; the rest of the text (status, error kind, the provider's wording)
 * is kept so a caller still learns what went wrong.
 */

/** What a removed secret is replaced with. */
export const REDACTED = '[redacted]';

/**
 * Secret values shorter than this (in characters) are not matched literally: they would match ordinary
 * words. No provider issues keys that short; the shape patterns still apply to them. Default 4.
 */
export const MIN_LITERAL_SECRET_LENGTH = 4;

/** Credential shapes; each `g` regex's whole match is replaced (a `prefix` group is kept). */
const SHAPES: readonly RegExp[] = [
  // `Authorization: Bearer <token>` and the bare `Bearer <token>` a provider may quote.
  /\b(?<prefix>Bearer\s+)[^\s"',;]+/gi,
  // OpenAI (sk-…, sk-proj-…, sk-svcacct-…), Anthropic (sk-ant-…), OpenRouter (sk-or-…); `*` keeps masked echoes whole.
  /\bsk-[\w*-]{6,}/g,
  /\bgsk_[\w*]{6,}/g,
  /\bAIza[\w*-]{10,}/g,
  /\bxai-[\w*-]{6,}/g,
  /\btrb_[\w*-]{6,}/g,
  /\bwhsec_[\w*+/=-]{6,}/g,
  // `api_key=…`, `"api-key": "…"`, `x-api-key: …`, `access_token=…` as in URLs, headers and JSON.
  /(?<prefix>\b(?:x-)?(?:api[_-]?key|access[_-]?token|secret[_-]?key)["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
];

/** Names of environment variables whose values are secrets the LLM layer must never repeat. */
const SECRET_NAME = /(?:API_KEY|TOKEN|SECRET|PASSWORD)$/i;

/** Whether an environment variable of this name holds a secret (e.g. `LLM_API_KEY`, `GROQ_API_KEY`, `ADMIN_TOKEN`). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Matches wherever any of {@link SHAPES} could start (case-insensitive, a superset): text without such a
 * start, i.e. nearly every log line, skips the eight replacements. Keep it in step with SHAPES.
 */
const ANY_SHAPE = /bearer\s|sk-|gsk_|aiza|xai-|trb_|whsec_|api[_-]?key|access[_-]?token|secret[_-]?key/i;

/** Removes credential shapes from `text`. */
function redactShapes(text: string): string {
  if (!ANY_SHAPE.test(text)) return text;
  let out = text;
  for (const re of SHAPES) {
    out = out.replace(re, (...args: unknown[]) => {
      // With named groups, the replacer's last argument is the groups object.
      const groups = args.at(-1);
      const prefix =
        typeof groups === 'object' && groups !== null && 'prefix' in groups && typeof groups.prefix === 'string'
          ? groups.prefix
          : '';
      return `${prefix}${REDACTED}`;
    });
  }
  return out;
}

/** The usable literal secrets, longest first (so a key containing another is removed whole). */
function literals(secrets: Iterable<string | undefined>): string[] {
  const set = new Set<string>();
  for (const s of secrets) {
    const t = s?.trim();
    if (t && t.length >= MIN_LITERAL_SECRET_LENGTH) set.add(t);
  }
  return [...set].sort((a, b) => b.length - a.length);
}

/**
 * A function that removes the given secret values and every credential shape from a text.
 * @param secrets literal values to remove (empty and very short values are skipped, see {@link MIN_LITERAL_SECRET_LENGTH}).
 */
export function createRedactor(secrets: Iterable<string | undefined> = []): (text: string) => string {
  const values = literals(secrets);
  return (text) => {
    let out = text;
    for (const v of values) if (out.includes(v)) out = out.split(v).join(REDACTED);
    return redactShapes(out);
  };
}

/** Secret values seen by {@link rememberSecrets} in this isolate, oldest first. */
const remembered = new Set<string>();
/** Remembered values at most (a BYOK deployment sees many keys); the oldest are forgotten first. Default 256. */
const MAX_REMEMBERED = 256;
/** The redactor over {@link remembered}, rebuilt when it changes (the logger calls it for every line). */
let rememberedRedactor: ((text: string) => string) | null = null;

/**
 * Remembers secret values for {@link redactSecrets} (the LLM settings reader calls it with the deployment's
 * keys), so code that has no settings at hand, such as the logger, can remove them too. In memory only.
 */
export function rememberSecrets(values: Iterable<string | undefined>): void {
  for (const v of literals(values)) {
    // Seen again: moves to the newest end, so the deployment's own keys outlive a stream of BYOK keys.
    if (!remembered.delete(v)) rememberedRedactor = null;
    remembered.add(v);
  }
  while (remembered.size > MAX_REMEMBERED) {
    const oldest = remembered.values().next();
    if (oldest.done) break;
    remembered.delete(oldest.value);
    rememberedRedactor = null;
  }
}

/**
 * Removes the remembered secret values, `extra` values and every credential shape from `text`. Meant for
 * the logger (defence in depth: provider messages are already redacted where the LLM layer builds them).
 */
export function redactSecrets(text: string, extra: Iterable<string | undefined> = []): string {
  rememberedRedactor ??= createRedactor(remembered);
  const more = literals(extra);
  return rememberedRedactor(more.length === 0 ? text : createRedactor(more)(text));
}
