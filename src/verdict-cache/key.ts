/**
 * @module
 * The verdict cache's key: a sha-256 over everything that decides a verdict, so a change to any of it misses
 * (a peer's cache kept serving stale verdicts after its judge changed because its key left the judge out).
 *
 * ```
 * key = sha256(canonicalJson({
 *   v: 1,                          the key's own format
 *   engine: "1/chateval@1",        engine version: the protocol core and the method's steps, ids and prompts
 *   judge: sha256(canonicalJson({  the judge, hashed once per request (a batch shares it):
 *     config,                        the fully resolved method config (preset + overrides: prompts, models,
 *                                    providers, temperatures, rounds, …), without `budget`
 *     deployment: {                  what the config leaves to the deployment:
 *       model, provider,               the default model and provider (`LLM_MODEL`, `default`)
 *       endpoints,                     each provider's base URL, by id (never a key)
 *     },
 *   })),
 *   rubric: "<sha-256>" | null,    the rubric version's content hash; null: no rubric
 *   task,                          the task as submitted (canonical JSON: key order does not matter)
 *   seed: 3 | null,                the sample or seed index; null: none
 * }))
 * ```
 *
 * The tenant is not in the hash: entries are keyed by (tenant, key), and every lookup names its tenant.
 * A budget is left out on purpose: it does not change a verdict it lets finish, and a verdict a budget cut
 * short is never cached (src/evaluations/verdict-cache-entry.ts).
 */
import { canonicalJson, sha256Hex } from '../http/request-hash.js';

/** Bump when the key's parts or their encoding change: every older entry then misses. */
export const KEY_FORMAT = 1;

/**
 * The rubric part of a key when the evaluation judges by none. The extension point for rubrics: a request
 * that names a rubric version passes that version's content hash (`rubricHash`, src/engine/rubric.ts) instead.
 */
export const NO_RUBRIC = null;

/** What the deployment decides for a config that leaves it open. */
export interface DeploymentDefaults {
  /** `LLM_MODEL`: the model of every agent that names none. */
  model: string;
  /** The provider of every agent that names none (`default`). */
  provider: string;
  /** Each provider's base URL by id: a provider repointed elsewhere judges anew. */
  endpoints: Readonly<Record<string, string>>;
}

/** The parts of a key shared by every item of one request. */
export interface JudgeParts {
  /** The engine version the evaluation would run under (`engineVersionOf`, src/engine/version.ts). */
  engineVersion: string;
  /** The fully resolved method config; its `budget`, if any, is left out. */
  config: Readonly<Record<string, unknown>>;
  deployment: DeploymentDefaults;
}

/** The parts of one evaluation's key. */
export interface KeyParts extends JudgeParts {
  /** The rubric version's content hash, or {@link NO_RUBRIC}. */
  rubricHash: string | null;
  task: unknown;
  /** The sample or seed index; null for none. */
  seed: number | null;
}

/** The judge part of a key: computed once per request and shared by its items (see the module note). */
export async function judgeHash(parts: JudgeParts): Promise<string> {
  // A frozen config (src/engine/registry.ts hands out one object per judge) is hashed once per deployment.
  const frozen = Object.isFrozen(parts.config) ? parts.config : null;
  const deployment = frozen ? JSON.stringify(parts.deployment) : '';
  const known = frozen && judgeHashes.get(frozen);
  if (known && known.deployment === deployment) return known.hash;
  const { budget: _budget, ...config } = parts.config;
  const hash = await sha256Hex(canonicalJson({ config, deployment: parts.deployment }));
  if (frozen) judgeHashes.set(frozen, { deployment, hash });
  return hash;
}

/** {@link judgeHash} of frozen configs, by the object, with the deployment it was computed for (as JSON). */
const judgeHashes = new WeakMap<object, { deployment: string; hash: string }>();

/** An evaluation's key from its request's {@link judgeHash} (lower-case hex sha-256). */
export async function keyOf(
  engineVersion: string,
  judge: string,
  item: { rubricHash: string | null; task: unknown; seed: number | null },
): Promise<string> {
  return sha256Hex(
    canonicalJson({
      v: KEY_FORMAT,
      engine: engineVersion,
      judge,
      rubric: item.rubricHash,
      task: item.task,
      seed: item.seed,
    }),
  );
}

/** An evaluation's key (lower-case hex sha-256 of its parts, see the module note). */
export async function verdictCacheKey(parts: KeyParts): Promise<string> {
  return keyOf(parts.engineVersion, await judgeHash(parts), parts);
}
