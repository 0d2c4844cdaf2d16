/**
 * Setup file of the worker project, run before each test file. The files of one runner share its workerd
 * (tests/vitest.worker.config.ts), so each file starts on empty storage, as it would in a runtime of its
 * own: `reset()` deletes every Durable Object of the previous file (evaluations, rate limiters, provider
 * gates: their storage, alarms and running instances) and everything in D1, then the empty control
 * database (DB) gets the schema of migrations/ (./d1-migrate.ts: the migrations in a runtime's first file,
 * their schema replayed in the later ones). The objects emptied stay listed by `listDurableObjectIds`, so
 * `drainAlarms` is told to skip them (in a hook: listing needs a test run, not `vitest list`). After the file's last
 * test, the alarms its traces, lanes, coordinators and gates left armed are deleted.
 *
 * Only DB in the worker project: it runs with `D1_SHARDS` 0, where DB holds everything and no code reaches a shard's
 * binding. Migrating the four shards too took most of each file's setup (4 of 5 databases, 18 migrations
 * each: 0.1-1.5 s a file under load); the files that turn the shards on migrate them themselves
 * (tests/worker/d1-shards.test.ts, tests/worker-shards/shards-on.ts).
 */
import { reset } from 'cloudflare:test';
import { afterAll, beforeAll } from 'vitest';
import { migrate } from './d1-migrate.js';
import { clearFileAlarms, forgetEarlierFiles } from './helpers.js';

await reset();
await migrate(['DB']);
beforeAll(forgetEarlierFiles);
// No alarm of this file's objects outlives it into the next file's reset (./helpers.ts says why).
afterAll(clearFileAlarms);
