/**
 * @module
 * Judges as OpenAI model names. Every preset is a model `tribunal/<preset>`; `tribunal/<preset>@<model>`
 * is the same preset with its default model replaced. The list is derived from the engine's preset
 * registry, so a preset added there (a jury, a cascade) is a model here without any change.
 *
 * What `@<model>` overrides: the method config's `defaults.model`, i.e. the model of every agent that does
 * not name its own. Agents a preset gives their own model (e.g. jurors of different families) keep it,
 * and so do their providers, temperatures and token limits. Everything after the first `@` is the model
 * name, sent to the provider as is (it may contain `/`, `:` or `@`).
 */
import type { Preset } from '../engine/method.js';
import { PRESETS } from '../engine/registry.js';

/** Prefix of every model name Tribunal serves. */
export const MODEL_PREFIX = 'tribunal/';

/** Longest model name accepted after `@`, in characters (the engine's limit for an agent's model): 200. */
export const MAX_OVERRIDE_CHARS = 200;

/**
 * `created` of every listed model, Unix seconds (2026-01-01T00:00:00Z). Presets have no creation date;
 * OpenAI's schema requires one, so the catalogue reports one fixed value rather than a changing one.
 */
export const MODELS_CREATED = 1_767_225_600;

/** A model name read as a judge. */
export interface JudgeModel {
  /** The name as given, e.g. `tribunal/chateval-faireval@gpt-4o-mini`. */
  id: string;
  preset: Preset;
  /** The default model that replaces the preset's, when the name has `@<model>`. */
  modelOverride?: string;
}

/** Why a model name does not name a judge: `format` (not `tribunal/<preset>[@<model>]`) or `preset` (no such preset). */
export class ModelNameError extends Error {
  override readonly name = 'ModelNameError';
  constructor(
    message: string,
    readonly reason: 'format' | 'preset',
  ) {
    super(message);
  }
}

/** `tribunal/<preset>`: the model name of a preset. */
export function modelIdOf(preset: Preset | string): string {
  return `${MODEL_PREFIX}${typeof preset === 'string' ? preset : preset.id}`;
}

/**
 * Reads `tribunal/<preset>` or `tribunal/<preset>@<model>`.
 * @throws ModelNameError naming what is wrong (and the list to look at).
 */
export function parseModelId(id: string): JudgeModel {
  if (!id.startsWith(MODEL_PREFIX)) {
    throw new ModelNameError(
      `model "${id}" is not a Tribunal judge: use "tribunal/<preset>" or "tribunal/<preset>@<model>" (GET /v1/models lists them)`,
      'format',
    );
  }
  const rest = id.slice(MODEL_PREFIX.length);
  const at = rest.indexOf('@');
  const presetId = at === -1 ? rest : rest.slice(0, at);
  const override = at === -1 ? undefined : rest.slice(at + 1);
  if (presetId === '') throw new ModelNameError(`model "${id}" names no preset after "${MODEL_PREFIX}"`, 'format');
  if (override !== undefined && (override.trim() === '' || override.length > MAX_OVERRIDE_CHARS)) {
    throw new ModelNameError(
      `model "${id}": the model after "@" must be 1-${MAX_OVERRIDE_CHARS} characters, not blank`,
      'format',
    );
  }
  const preset = PRESETS.find((p) => p.id === presetId);
  if (!preset)
    throw new ModelNameError(`model "${id}": unknown preset "${presetId}"; GET /v1/models lists every judge`, 'preset');
  return { id, preset, ...(override !== undefined ? { modelOverride: override } : {}) };
}

/**
 * The config overrides a judge model stands for: `{ defaults: { model } }` with an `@<model>`, else none
 * (the preset as it is). Merged over the preset like `config` in `POST /v1/evaluations`.
 */
export function configOverridesOf(model: JudgeModel): Record<string, unknown> | undefined {
  return model.modelOverride === undefined ? undefined : { defaults: { model: model.modelOverride } };
}

/** One entry of `GET /v1/models`: OpenAI's model object plus what the preset is. */
export interface ModelEntry {
  id: string;
  object: 'model';
  created: number;
  owned_by: 'tribunal';
  /** Tribunal's own fields (OpenAI clients ignore them). */
  tribunal: { preset: string; method: string; taskKind: Preset['taskKind']; description: string; paper: string };
}

/** The model object of a judge (for `@<model>` names too: `id` is the name as given). */
export function modelEntry(preset: Preset, id = modelIdOf(preset)): ModelEntry {
  return {
    id,
    object: 'model',
    created: MODELS_CREATED,
    owned_by: 'tribunal',
    tribunal: {
      preset: preset.id,
      method: preset.config.method,
      taskKind: preset.taskKind,
      description: preset.description,
      paper: preset.paper,
    },
  };
}

/** Every judge as a model object, in the registry's order. */
export function listModels(): ModelEntry[] {
  return PRESETS.map((p) => modelEntry(p));
}
