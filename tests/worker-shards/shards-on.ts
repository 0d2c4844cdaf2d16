/**
 * @module
 * The D1 shards on for one file of the worker project (tests/worker/d1-shards-override.ts): the files here run
 * the whole pipeline (the API, the queue consumers, the objects, the crons) with `D1_SHARDS` 4, in the worker
 * project's runtimes, where every other file runs with 0.
 */
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll } from 'vitest';
import type { Bindings } from '../../src/config/bindings.js';
import { shardBindingNames } from '../../src/config/d1-buckets.js';
import { migrate } from '../worker/d1-migrate.js';
import { setD1Override } from '../worker/d1-shards-override.js';

/** The shards these files run with: 4. */
export const SHARDS = 4;

/**
 * Turns the shards on for the calling file: from its beforeAll (which also migrates the shard databases: the
 * setup migrates DB alone) to its afterAll. Returns workerd's bindings with `D1_SHARDS` at {@link SHARDS}, for the
 * file's own calls into src/ (the sweeps, the copies, `configOf`).
 */
export function useD1Shards(): Bindings {
  beforeAll(async () => {
    setD1Override(String(SHARDS));
    await migrate(shardBindingNames(SHARDS));
  });
  afterAll(() => {
    setD1Override(undefined);
  });
  return { ...(env as unknown as Bindings), D1_SHARDS: String(SHARDS) };
}
