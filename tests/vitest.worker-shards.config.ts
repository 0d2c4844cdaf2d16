import { workerProject } from './vitest.worker.config.js';

/**
 * The worker project with the D1 shards on for everything in workerd: the API, the Durable Objects and the
 * queue consumers all read `D1_SHARDS` 4 (the worker project keeps 0, so its suites read a tenant's rows at
 * `env.DB`). One runtime: its files run the whole pipeline across tenants in different shards.
 */
export default workerProject({
  name: 'worker-shards',
  include: ['tests/worker-shards/**/*.test.ts'],
  d1Shards: '4',
  // In the e2e project's group, not the worker project's: its one file (~2 s, and ~7 s to start its runtime) ran
  // alone after the worker files, on one core; here it runs in a slot the e2e files leave, at their end (vitest
  // queues a group's files by project name). One group shares one pool: e2e's maxWorkers.
  maxWorkers: 2,
  groupOrder: 2,
});
