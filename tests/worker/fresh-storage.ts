/**
 * Setup file of the worker project, run before each test file. The files of one runner share its workerd
 * (tests/vitest.worker.config.ts), so each file starts on empty storage, as it would in a runtime of its
 * own: `reset()` deletes every Durable Object of the previous file (evaluations, rate limiters, provider
 * gates: their storage, alarms and running instances) and everything in D1, then the migrations are
 * applied to the empty database. The objects emptied stay listed by `listDurableObjectIds`, so
 * `drainAlarms` is told to skip them (in a hook: listing needs a test run, not `vitest list`).
 */
import { applyD1Migrations, reset } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll } from 'vitest';
import { forgetEarlierFiles } from './helpers.js';

await reset();
// Every D1 database gets the same migrations: the control database and each shard (src/config/d1-shards.ts).
for (const binding of Object.keys(env).filter((k) => /^DB(_\d{2})?$/.test(k))) {
  await applyD1Migrations(
    (env as unknown as Record<string, D1Database>)[binding] as D1Database,
    (env as unknown as { TEST_MIGRATIONS: Parameters<typeof applyD1Migrations>[1] }).TEST_MIGRATIONS,
  );
}
beforeAll(forgetEarlierFiles);
