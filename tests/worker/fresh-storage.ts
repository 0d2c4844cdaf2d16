/**
 * Setup file of the worker project, run before each test file. The files of one runner share its workerd
 * (tests/vitest.worker.config.ts), so each file starts on empty storage, as it would in a runtime of its
 * own: `reset()` deletes every Durable Object of the previous file (evaluations, rate limiters, provider
 * gates: their storage, alarms and running instances) and everything in D1, then the empty control
 * database (DB) gets the schema of migrations/ (./d1-migrate.ts: the migrations in a runtime's first file,
 * their schema replayed in the later ones). The objects emptied stay listed by `listDurableObjectIds`, so
 * `drainAlarms` is told to skip them (in a hook: listing needs a test run, not `vitest list`).
 *
 * Only DB in the worker project: it runs with `D1_SHARDS` 0, where DB holds everything and no code reaches a shard's
 * binding. Migrating the four shards too took most of each file's setup (4 of 5 databases, 18 migrations
 * each: 0.1-1.5 s a file under load); the one file that turns the shards on migrates them itself
 * (tests/worker/d1-shards.test.ts).
 */
import { reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll } from 'vitest';
import { migrate } from './d1-migrate.js';
import { forgetEarlierFiles } from './helpers.js';

await reset();
// The worker-shards project (tests/vitest.worker-shards.config.ts) runs everything with the shards on: there
// every D1 binding is migrated.
const sharded = (env as unknown as { D1_SHARDS?: string }).D1_SHARDS !== '0';
await migrate(sharded ? Object.keys(env).filter((k) => /^DB(_\d{2})?$/.test(k)) : ['DB']);
beforeAll(forgetEarlierFiles);
