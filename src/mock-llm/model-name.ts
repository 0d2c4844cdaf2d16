/**
 * @module
 * The mock's per-request controls, carried in the model name (tests inside workerd can only shape the
 * request body, so the model name is the one knob every test can turn).
 *
 * Syntax: `<base>[?<key>=<value>(&<key>=<value>)*]`, e.g. `mock-judge?latency=250&fail=500:2&seed=x`.
 *
 * Base name: `mock-scripted` selects scripted mode, `mock-judge` judge mode; any other name (e.g.
 * `gpt-4o-mini` when a deployment points at the mock) uses the server's default mode.
 *
 * | key | value | effect |
 * |---|---|---|
 * | `latency` | `250` or `100-400` (ms) | fixed delay, or uniform in the range seeded by prompt and attempt |
 * | `fail` | `<fault>:<n>[,<fault>:<n>…]` | the first attempts of each distinct prompt fail in sequence: `fail=429:2,500:1` = attempts 1-2 get 429, attempt 3 gets 500, attempt 4 succeeds |
 * | `rate` | `0`-`1` | probability of fault `fault` on any attempt, decided by a hash of (seed, prompt, attempt): deterministic |
 * | `fault` | a fault | the fault `rate` injects; default `500` |
 * | `permanent` | HTTP status, e.g. `401` | every attempt fails with that status and an OpenAI-style error body |
 * | `retryAfter` | seconds | `Retry-After` header sent with 429s; default `1` |
 * | `retryAfterMs` | ms | send `retry-after-ms` instead of `Retry-After` |
 * | `hang` | ms | how long a `timeout` fault holds the request (ends early when the client hangs up); default 30000 |
 * | `seed` | text | mixed into scores and attempt counters: use one per test to keep counters apart |
 * | `jsonSchema` | `reject` | answer 400 "response_format json_schema is not supported" to structured-output requests |
 * | `usage` | `omit` | leave `usage` out of replies (exercises client-side estimates) |
 * | `ns` | text | scripted-mode namespace (rules set with the control endpoint or in code) |
 * | `n` | `ignore` | answer a request with `n` with one choice, as a provider that ignores `n` does (default: `n` distinct choices) |
 * | `flexRefuse` | count | the first attempts of each prompt that ask for `service_tier: "flex"` are refused for capacity (429 `resource_unavailable`), as the server's `--flex-refusal-rate` does at random |
 * | `echoKey` | `1` | every error body quotes the key the request carried (`Authorization: Bearer …` or `api-key`), as some providers do: tests prove it is redacted |
 * | `vary` | `1` | a prompt sent again is answered afresh (the attempt number joins the reply's hash), as a sampling model would: repeats of one item can disagree |
 * | `bias` | `0`-`1` | probability that a pairwise verdict goes to whichever answer is shown first, whatever the answers say (seeded by the prompt): a position-biased judge |
 * | `verbose` | `0`-`1` | a verbosity bias few-shot examples correct: probability that a pairwise verdict goes to the longer answer, whatever the quality tags say (seeded by the prompt, so each sample or `vary` repeat draws afresh); a quarter of it when the prompt shows a few-shot example whose human verdict went to the shorter answer (`fewShotCorrects`, ./judge-mode.ts) or carries the rule the mock's criteria rewrite writes from such a case (`LENGTH_RULE`, `rewriteReply`) |
 * | `generous` | `-10`-`10` | a leniency thresholds correct: points added to every pointwise score a quality tag decides (clamped to the scale) |
 *
 * Faults: an HTTP status (`500`, `502`, `503`, `429`, `400`, `401`, `403`, `404`, …), `timeout` (hang),
 * `malformed` (200 with a broken JSON body), `empty` (200 with empty content), `truncated` (200 with half
 * the reply and `finish_reason: "length"`), `wrong-format` (200 with a reply in no known format).
 *
 * Attempt counters are keyed by a hash of the whole model name and the messages, so the same prompt
 * sent with another `seed` counts from zero again.
 *
 * Hidden quality tags: in judge mode, a pairwise prompt whose two answers carry `[quality=<number>]` (see
 * `qualityTag`, ./judge-mode.ts) is judged by them: the higher tag wins, equal tags tie, whatever the order
 * they are shown in (tests script tournaments whose true order is known this way). A pointwise prompt that
 * carries exactly one tag, a quality from 0 to 1, is scored `min + round(quality × (max − min))` on each scale
 * it asks for, plus `generous` (clamped to the scale).
 */

/** A fault the mock can inject. */
export type MockFault =
  | { kind: 'status'; status: number }
  | { kind: 'timeout' }
  | { kind: 'malformed' }
  | { kind: 'empty' }
  | { kind: 'truncated' }
  | { kind: 'wrong-format' };

/** Spelling of a fault in a model name: an HTTP status or one of the named faults. */
export type MockFaultName = number | 'timeout' | 'malformed' | 'empty' | 'truncated' | 'wrong-format';

/** Mode of a request. */
export type MockMode = 'judge' | 'scripted';

/** Everything a model name can ask of the mock. */
export interface MockDirectives {
  /** Model name without the query part. */
  base: string;
  /** Mode from the base name, or undefined for the server default. */
  mode?: MockMode;
  /** Latency in ms: fixed, or a [min, max] range. */
  latency?: number | [number, number];
  /** Faults for the first attempts of each prompt, in order (one entry per attempt). */
  failSequence: MockFault[];
  /** Probability of `rateFault` per attempt. */
  rate: number;
  rateFault: MockFault;
  /** HTTP status every attempt fails with. */
  permanent?: number;
  /** Seconds for `Retry-After` on 429s. Default 1. */
  retryAfterSeconds: number;
  /** When set, 429s carry `retry-after-ms` with this value instead. */
  retryAfterMs?: number;
  /** How long a `timeout` fault holds the request, ms. Default 30,000. */
  hangMs: number;
  seed: string;
  rejectJsonSchema: boolean;
  omitUsage: boolean;
  namespace: string;
  /** Error bodies quote the request's key. Default false. */
  echoKey: boolean;
  /** Answer one choice whatever `n` asks. Default false. */
  ignoreN: boolean;
  /** Flex attempts refused for capacity: the first this many attempts of each prompt. Default 0. */
  flexRefusals: number;
  /** Answer a repeated prompt afresh. Default false. */
  vary: boolean;
  /** Probability that a pairwise verdict goes to the answer shown first. Default 0. */
  bias: number;
  /** Probability that a pairwise verdict goes to the longer answer (a verbosity bias). Default 0. */
  verbose: number;
  /** Points added to a pointwise score a quality tag decides (a lenient or strict judge). Default 0. */
  generous: number;
}

/** Thrown for a model name the mock cannot read; the handler turns it into a 400. */
export class MockModelNameError extends Error {
  override readonly name = 'MockModelNameError';
}

function parseFault(text: string): MockFault {
  const t = text.trim().toLowerCase();
  if (/^\d{3}$/.test(t)) return { kind: 'status', status: Number(t) };
  if (t === 'timeout' || t === 'malformed' || t === 'empty' || t === 'truncated' || t === 'wrong-format')
    return { kind: t };
  throw new MockModelNameError(
    `unknown fault "${text}"; use an HTTP status, timeout, malformed, empty, truncated or wrong-format`,
  );
}

function num(key: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new MockModelNameError(`${key}=${v} must be a number from ${min} to ${max}`);
  return n;
}

/** Reads a model name. @throws MockModelNameError on an unknown key or a bad value. */
export function parseMockModel(model: string): MockDirectives {
  const q = model.indexOf('?');
  const base = q < 0 ? model : model.slice(0, q);
  const d: MockDirectives = {
    base,
    ...(base.startsWith('mock-scripted')
      ? { mode: 'scripted' as const }
      : base.startsWith('mock-judge')
        ? { mode: 'judge' as const }
        : {}),
    failSequence: [],
    rate: 0,
    rateFault: { kind: 'status', status: 500 },
    retryAfterSeconds: 1,
    hangMs: 30_000,
    seed: '',
    rejectJsonSchema: false,
    omitUsage: false,
    namespace: 'default',
    echoKey: false,
    ignoreN: false,
    flexRefusals: 0,
    vary: false,
    bias: 0,
    verbose: 0,
    generous: 0,
  };
  if (q < 0) return d;
  for (const [key, value] of new URLSearchParams(model.slice(q + 1))) {
    switch (key) {
      case 'latency': {
        const range = /^(\d+)-(\d+)$/.exec(value);
        d.latency = range ? [Number(range[1]), Number(range[2])] : num(key, value, 0, 600_000);
        break;
      }
      case 'fail':
        for (const part of value.split(',')) {
          const m = /^([\w-]+):(\d+)$/.exec(part.trim());
          if (!m?.[1] || !m[2]) throw new MockModelNameError(`fail=${value}: each part is <fault>:<count>`);
          const fault = parseFault(m[1]);
          for (let i = 0; i < Number(m[2]); i++) d.failSequence.push(fault);
        }
        break;
      case 'rate':
        d.rate = num(key, value, 0, 1);
        break;
      case 'fault':
        d.rateFault = parseFault(value);
        break;
      case 'permanent':
        d.permanent = num(key, value, 400, 599);
        break;
      case 'retryAfter':
        d.retryAfterSeconds = num(key, value, 0, 86_400);
        break;
      case 'retryAfterMs':
        d.retryAfterMs = num(key, value, 0, 86_400_000);
        break;
      case 'hang':
        d.hangMs = num(key, value, 0, 600_000);
        break;
      case 'seed':
        d.seed = value;
        break;
      case 'jsonSchema':
        d.rejectJsonSchema = value === 'reject';
        break;
      case 'usage':
        d.omitUsage = value === 'omit';
        break;
      case 'ns':
        d.namespace = value;
        break;
      case 'echoKey':
        if (value !== '1' && value !== 'true' && value !== '0' && value !== 'false')
          throw new MockModelNameError(`echoKey=${value} must be 1 or 0`);
        d.echoKey = value === '1' || value === 'true';
        break;
      case 'flexRefuse':
        d.flexRefusals = num(key, value, 0, 1000);
        break;
      case 'n':
        if (value !== 'ignore') throw new MockModelNameError(`n=${value}: the only value is ignore`);
        d.ignoreN = true;
        break;
      case 'vary':
        if (value !== '1' && value !== '0') throw new MockModelNameError(`vary=${value} must be 1 or 0`);
        d.vary = value === '1';
        break;
      case 'bias':
        d.bias = num(key, value, 0, 1);
        break;
      case 'verbose':
        d.verbose = num(key, value, 0, 1);
        break;
      case 'generous':
        d.generous = num(key, value, -10, 10);
        break;
      default:
        throw new MockModelNameError(`unknown mock model option "${key}"`);
    }
  }
  return d;
}

/** Options of {@link mockModel}; see the module table for their meaning. */
export interface MockModelOptions {
  /** Base name; default `mock-judge`. */
  base?: string;
  /** Shorthand for the base name: `judge` → `mock-judge`, `scripted` → `mock-scripted`. */
  mode?: MockMode;
  /** ms, or a [min, max] range in ms. */
  latency?: number | [number, number];
  /** Faults for the first attempts of each prompt, in order: `[[429, 2], [500, 1]]`. */
  fail?: [MockFaultName, number][];
  /** Probability per attempt of `fault` (default 500). */
  rate?: number;
  fault?: MockFaultName;
  /** HTTP status for every attempt. */
  permanent?: number;
  /** Seconds for `Retry-After`. */
  retryAfter?: number;
  /** ms for `retry-after-ms` (replaces `Retry-After`). */
  retryAfterMs?: number;
  /** How long a timeout fault hangs, ms. */
  hang?: number;
  seed?: string;
  jsonSchema?: 'reject';
  usage?: 'omit';
  /** Scripted-mode namespace. */
  ns?: string;
  /** Error bodies quote the request's key (to test redaction). */
  echoKey?: boolean;
  /** `ignore`: one choice whatever `n` asks (a provider without `n`). */
  n?: 'ignore';
  /** Flex attempts refused for capacity: the first this many of each prompt. */
  flexRefuse?: number;
  /** Repeats of one prompt answer afresh. */
  vary?: boolean;
  /** Probability that a pairwise verdict goes to the answer shown first. */
  bias?: number;
  /** Probability that a pairwise verdict goes to the longer answer. */
  verbose?: number;
  /** Points added to a pointwise score a quality tag decides. */
  generous?: number;
}

/** Builds a mock model name, e.g. `mockModel({ fail: [[500, 2]], seed: 't1' })` → `mock-judge?fail=500:2&seed=t1`. */
export function mockModel(opts: MockModelOptions = {}): string {
  const base = opts.base ?? (opts.mode === 'scripted' ? 'mock-scripted' : 'mock-judge');
  const params = new URLSearchParams();
  if (opts.latency !== undefined)
    params.set('latency', Array.isArray(opts.latency) ? `${opts.latency[0]}-${opts.latency[1]}` : String(opts.latency));
  if (opts.fail?.length) params.set('fail', opts.fail.map(([f, n]) => `${f}:${n}`).join(','));
  if (opts.rate !== undefined) params.set('rate', String(opts.rate));
  if (opts.fault !== undefined) params.set('fault', String(opts.fault));
  if (opts.permanent !== undefined) params.set('permanent', String(opts.permanent));
  if (opts.retryAfter !== undefined) params.set('retryAfter', String(opts.retryAfter));
  if (opts.retryAfterMs !== undefined) params.set('retryAfterMs', String(opts.retryAfterMs));
  if (opts.hang !== undefined) params.set('hang', String(opts.hang));
  if (opts.seed !== undefined) params.set('seed', opts.seed);
  if (opts.jsonSchema) params.set('jsonSchema', opts.jsonSchema);
  if (opts.usage) params.set('usage', opts.usage);
  if (opts.ns !== undefined) params.set('ns', opts.ns);
  if (opts.echoKey) params.set('echoKey', '1');
  if (opts.n) params.set('n', opts.n);
  if (opts.flexRefuse !== undefined) params.set('flexRefuse', String(opts.flexRefuse));
  if (opts.vary) params.set('vary', '1');
  if (opts.bias !== undefined) params.set('bias', String(opts.bias));
  if (opts.verbose !== undefined) params.set('verbose', String(opts.verbose));
  if (opts.generous !== undefined) params.set('generous', String(opts.generous));
  const q = params.toString().replaceAll('%2C', ',').replaceAll('%3A', ':');
  return q ? `${base}?${q}` : base;
}
