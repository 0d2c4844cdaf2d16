import { shardsSchedule } from './support/groups.js';
import { workerProject } from './vitest.worker.config.js';

/**
 * The worker project with the D1 shards on for everything in workerd: the API, the Durable Objects and the
 * queue consumers all read `D1_SHARDS` 4 (the worker project keeps 0, so its suites read a tenant's rows at
 * `env.DB`). One runtime: its files run the whole pipeline across tenants in different shards. In a run with the
 * e2e project it runs in e2e's group, beside its longest files (tests/support/groups.ts).
 */
export default workerProject({
  name: 'worker-shards',
  include: ['tests/worker-shards/**/*.test.ts'],
  d1Shards: '4',
  schedule: shardsSchedule(),
});
