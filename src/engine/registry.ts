/**
 * @module
 * Every method and preset the engine offers, and the resolution of a user's
 * `{ preset, config }` into a full, validated method config.
 */
import { z } from 'zod';
import type { AnyMethod, MethodDefinition, Preset } from './method.js';
import { cascadePresets, createCascade } from './methods/cascade/index.js';
import { chatEvalConfigSchema, chatEvalMethod, chatEvalPresets } from './methods/chateval/index.js';
import { debateConfigSchema, debateMethod, debatePresets } from './methods/debate/index.js';
import { ensembleConfigSchema, ensembleMethod, ensemblePresets } from './methods/ensemble/index.js';
import { juryConfigSchema, juryMethod, juryPresets } from './methods/jury/index.js';
import { moreConfigSchema, moreMethod, morePresets } from './methods/more/index.js';
import { createRepeat } from './methods/repeat/index.js';
import { rubricStepsConfigSchema, rubricStepsMethod } from './methods/rubric-steps/index.js';
import { samreConfigSchema, samreMethod, samrePresets } from './methods/samre/index.js';
import { singleAgentConfigSchema, singleAgentMethod, singleAgentPresets } from './methods/single/index.js';
import type { AnyTask } from './judged.js';
import type { EngineState } from './state.js';
import { createEvaluation } from './protocol.js';
import { EngineInputError } from './errors.js';
import { didYouMean, keysAt } from './suggest.js';

function erase<C extends { method: string }, S>(m: MethodDefinition<C, S>): AnyMethod {
  // Safe: a method is only ever called with the config its own schema produced and the state it made.
  return m;
}

/** The methods a cascade stage may run, with their presets. */
const STAGE_METHODS: readonly { method: AnyMethod; presets: readonly Preset[] }[] = [
  { method: erase(singleAgentMethod), presets: singleAgentPresets },
  { method: erase(ensembleMethod), presets: ensemblePresets },
  { method: erase(chatEvalMethod), presets: chatEvalPresets },
  { method: erase(moreMethod), presets: morePresets },
  { method: erase(samreMethod), presets: samrePresets },
  { method: erase(debateMethod), presets: debatePresets },
  { method: erase(juryMethod), presets: juryPresets },
];

// Bound late: the cascade looks stages up here (resolveMethodConfig, getMethod) only when a config is parsed.
const cascade = createCascade(
  { resolve: (preset, overrides) => resolveMethodConfig(preset, overrides), method: (id) => getMethod(id) },
  STAGE_METHODS.reduce((n, { method }) => n + (method.version ?? 1), 0),
);

// A repeat runs any judge but itself N times; bound late like the cascade.
const repeat = createRepeat(
  {
    resolve: (config) => resolveMethodConfig(undefined, config),
    method: (id) => getMethod(id),
  },
  [...STAGE_METHODS.map(({ method }) => method), cascade.method].reduce((n, m) => n + (m.version ?? 1), 0),
);

/** One schema for any method config; `method` discriminates. Drives validation and OpenAPI. */
export const MethodConfigSchema = z.discriminatedUnion('method', [
  singleAgentConfigSchema,
  ensembleConfigSchema,
  chatEvalConfigSchema,
  moreConfigSchema,
  samreConfigSchema,
  debateConfigSchema,
  juryConfigSchema,
  cascade.configSchema,
  repeat.configSchema,
  rubricStepsConfigSchema,
]);
export type MethodConfig = z.infer<typeof MethodConfigSchema>;

/** Every method with its presets, in a stable order: the one list {@link METHODS} and {@link PRESETS} derive from. */
const CATALOGUE: readonly { method: AnyMethod; presets: readonly Preset[] }[] = [
  ...STAGE_METHODS,
  { method: erase(cascade.method), presets: cascadePresets },
  // `repeat: N` on a request wraps its judge: no preset of its own.
  { method: erase(repeat.method), presets: [] },
  // G-Eval's auto-CoT for a rubric without steps: no preset, it judges nothing (a rubric's steps, once).
  { method: erase(rubricStepsMethod), presets: [] },
];

/** Methods by id. */
export const METHODS: ReadonlyMap<string, AnyMethod> = new Map(CATALOGUE.map(({ method }) => [method.method, method]));

/** Every preset, in a stable order. */
export const PRESETS: readonly Preset[] = CATALOGUE.flatMap(({ presets }) => presets);

/** The method with this id. @throws EngineInputError for an unknown id. */
export function getMethod(id: string): AnyMethod {
  const m = METHODS.get(id);
  if (!m) {
    const message = `unknown method "${id}"${didYouMean(id, METHODS.keys())}; known: ${[...METHODS.keys()].join(', ')}`;
    throw new EngineInputError(message, 'unknown_method', [{ path: 'config.method', message }]);
  }
  return m;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Deep merge for config overrides: objects merge key by key, arrays and scalars replace. */
export function mergeConfig(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(override)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? mergeConfig(b, v) : v;
  }
  return out;
}

/** Formats zod issues as `path: message; ...` for error responses. */
export function formatIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/**
 * A config's zod issues with their full path from the request (`config.turns`; `config` for the whole
 * object), an unknown key named by itself with the closest known key offered (`turn` → `turns`).
 */
export function configIssues(schema: z.ZodType, error: z.ZodError): { path: string; message: string }[] {
  const at = (segments: readonly PropertyKey[]) => ['config', ...segments.map(String)].join('.');
  return error.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({
          path: at([...i.path, key]),
          message: `unknown key "${key}"${didYouMean(key, keysAt(schema, i.path))}`,
        }))
      : [{ path: at(i.path), message: i.message }],
  );
}

/** Configs resolved lately, by preset and overrides' JSON; their values frozen, since every caller shares them. */
const resolved = new Map<string, EngineState['config']>();
/** How many configs {@link resolveMethodConfig} and {@link parsedMethodConfig} each remember (64); cleared when full. */
const RESOLVED_MAX = 64;
/** How an override set to undefined shows in the key (JSON drops it). */
const UNDEFINED = '\u0000undefined';

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * Resolves `{ preset, config }` into a full config: the preset's config (if any), the user's overrides
 * merged over it, then validated and completed by the method's schema. The same preset and overrides give
 * the same (frozen) object: a burst of one judge parses its config once, and what is keyed by the config
 * (its hashes) can be remembered by identity.
 * @throws EngineInputError with code `unknown_preset`, `unknown_method` or `invalid_config`.
 */
export function resolveMethodConfig(
  preset: string | undefined,
  overrides: Record<string, unknown> | undefined,
): EngineState['config'] {
  // An override set to undefined replaces the preset's value (mergeConfig), so it is part of the key.
  const key = `${preset ?? ''}\n${JSON.stringify(overrides ?? {}, (_k, v: unknown) => (v === undefined ? UNDEFINED : v))}`;
  // Frozen after the parse: zod may hand back parts of the overrides themselves, which are the caller's.
  return frozenBy(resolved, key, () => parseMethodConfig(preset, structuredClone(overrides)));
}

/** Configs parsed from their stored JSON lately, by that text; frozen, since every evaluation that runs one shares it. */
const parsedConfigs = new Map<string, EngineState['config']>();

/**
 * The config an evaluation stored as JSON (what {@link resolveMethodConfig} gave, serialised): parsed once per text
 * and frozen, like a resolved one, so the evaluations of one judge share one parse. Each evaluation's object parsed
 * its config (up to 6 KB) on its start and on every replay; it was the largest parse of a single-call verdict.
 * Remembers {@link RESOLVED_MAX} texts, cleared when full.
 * @throws SyntaxError when `json` is not JSON.
 */
export function parsedMethodConfig(json: string): EngineState['config'] {
  return frozenBy(parsedConfigs, json, () => JSON.parse(json) as EngineState['config']);
}

/** `cache`'s config for `key`, else `make()`'s, frozen and remembered ({@link RESOLVED_MAX} at most, cleared when full). */
function frozenBy(
  cache: Map<string, EngineState['config']>,
  key: string,
  make: () => EngineState['config'],
): EngineState['config'] {
  let config = cache.get(key);
  if (config === undefined) {
    config = deepFreeze(make());
    if (cache.size >= RESOLVED_MAX) cache.clear();
    cache.set(key, config);
  }
  return config;
}

function parseMethodConfig(
  preset: string | undefined,
  overrides: Record<string, unknown> | undefined,
): EngineState['config'] {
  let base: Record<string, unknown> = {};
  if (preset !== undefined) {
    const p = PRESETS.find((x) => x.id === preset);
    if (!p) {
      const hint = didYouMean(
        preset,
        PRESETS.map((x) => x.id),
      );
      const message = `unknown preset "${preset}"${hint}; see GET /v1/methods for the list`;
      throw new EngineInputError(message, 'unknown_preset', [{ path: 'preset', message }]);
    }
    base = p.config;
  }
  const merged = mergeConfig(base, overrides ?? {});
  if (typeof merged.method !== 'string') {
    throw new EngineInputError('give a "preset" or a config with a "method"', 'invalid_config');
  }
  const schema = getMethod(merged.method).configSchema;
  const parsed = schema.safeParse(merged);
  if (!parsed.success) {
    const issues = configIssues(schema, parsed.error);
    const message = `invalid config: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
    throw new EngineInputError(message, 'invalid_config', issues);
  }
  return parsed.data as EngineState['config'];
}

/**
 * What an evaluation is asked to do: a preset and/or config overrides, the task, and the rubric it judges
 * by. The rubric is an input beside the task, never a config override: without one, the job runs exactly as
 * before rubrics existed.
 */
export interface EngineJob {
  preset?: string | undefined;
  config?: Record<string, unknown> | undefined;
  task: AnyTask;
  /** A rubric's content (src/engine/rubric.ts), as given inline or resolved from a stored version. */
  rubric?: unknown;
}

/**
 * Resolves a job into its method, full config and initial state (`resolveMethodConfig`, then
 * `createEvaluation` with the rubric).
 * @throws EngineInputError naming what is wrong: the preset, the config, the task, or the rubric (`rubric.…`).
 */
export function createJob(job: EngineJob): { method: AnyMethod; config: EngineState['config']; state: EngineState } {
  const config = resolveMethodConfig(job.preset, job.config);
  const method = getMethod(config.method);
  return { method, config, state: createEvaluation(method, config, job.task, job.rubric) };
}
