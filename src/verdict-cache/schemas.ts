/**
 * @module
 * The verdict cache's fields in the API: the `cache` and `seed` request fields every creating endpoint
 * shares, and the `cache` object an evaluation shows.
 */
import { z } from '@hono/zod-openapi';

/** `use` | `refresh` | `off` (src/verdict-cache/plan.ts). */
export const CacheModeSchema = z
  .enum(['use', 'refresh', 'off'])
  .describe(
    'The verdict cache. `use` (default): an earlier verdict of this tenant for the same judge (engine version, resolved config, ' +
      'deployment defaults), rubric, task and seed, at most VERDICT_CACHE_TTL_DAYS old, is served at once with 0 LLM calls and $0 ' +
      '(`cache.hit`), else the new verdict is cached. `refresh`: judged anew, and the new verdict replaces the cached one. `off`: ' +
      'neither read nor written. Unset, a judge sampling at a temperature above 0 without a `seed` bypasses the cache (each run is ' +
      'a fresh sample); set `cache` to use it anyway.',
  )
  .meta({ id: 'CacheMode' });
/** `use` | `refresh` | `off`. */
export type CacheMode = z.infer<typeof CacheModeSchema>;

/** Most a seed may be: 2^31 − 1. */
export const MAX_SEED = 2_147_483_647;

/** The `seed` request field: the sample or seed index the verdict cache keys by. */
export const CacheSeedSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_SEED)
  .describe(
    'The sample or seed index of this verdict (0 to 2^31 − 1), part of the verdict cache key: verdicts of different seeds are ' +
      'cached apart, so a judge sampling at a temperature above 0 is cached per seed (seed 0, 1, 2 … for several samples ' +
      'of one item). It keys the cache only: providers get no seed (their seeds are best effort and many refuse one).',
  );

/** What the cache did for an evaluation. */
export const EvaluationCacheSchema = z
  .object({
    mode: z
      .enum(['use', 'refresh', 'off', 'bypass'])
      .describe(
        "The mode it ran under: the request's `cache`, or `bypass` (a judge sampling above temperature 0 without a seed).",
      ),
    hit: z.boolean().describe('True when the verdict came from the cache: no LLM call, $0.'),
    from: z.string().nullable().describe('On a hit: the evaluation whose verdict this is (its transcript is there).'),
    savedUsd: z
      .number()
      .nonnegative()
      .describe('On a hit: what the cached verdict had cost (USD), saved this time; else 0.'),
  })
  .strict()
  .meta({ id: 'EvaluationCache' });
/** What the cache did for an evaluation. */
export type EvaluationCache = z.infer<typeof EvaluationCacheSchema>;

/** What the cache did for a batch's items (`GET /v1/batches/{id}`). */
export const BatchCacheSchema = z
  .object({
    hits: z
      .number()
      .int()
      .nonnegative()
      .describe('Items that succeeded with a cached verdict (`cache.hit` on their evaluation): no LLM call, $0.'),
    savedUsd: z
      .number()
      .nonnegative()
      .describe('What those cached verdicts had cost when they were judged (USD): saved by this batch.'),
  })
  .strict()
  .meta({ id: 'BatchCache' });
/** What the cache did for a batch's items. */
export type BatchCache = z.infer<typeof BatchCacheSchema>;

/** The cache object of an evaluation from its row's columns (rows older than the cache read as `off`). */
export function cacheViewOf(row: {
  cacheMode: string | null;
  cacheFrom: string | null;
  cacheSavedUsd: number | null;
}): EvaluationCache {
  const mode =
    row.cacheMode === 'use' || row.cacheMode === 'refresh' || row.cacheMode === 'bypass' ? row.cacheMode : 'off';
  return {
    mode,
    hit: row.cacheFrom !== null,
    from: row.cacheFrom,
    savedUsd: row.cacheFrom !== null ? (row.cacheSavedUsd ?? 0) : 0,
  };
}
