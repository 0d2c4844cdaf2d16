/**
 * @module
 * Worker entry of the `worker` test project (tests/vitest.worker.config.ts `main`): the production
 * Worker unchanged, plus test-only Durable Object classes. The config binds `EVALUATION` to
 * {@link TestEvaluationDO}, so the API, the queue consumers and the sweeper all reach the subclass,
 * which behaves exactly like `EvaluationDO` until a test uses one of its hooks.
 */
export {
  default,
  EvaluationDO,
  ProviderGateDO,
  RateLimiterDO,
  TraceDO,
  WaveCoordinatorDO,
  WebhookLaneDO,
} from '../../src/index.js';
export { TestEvaluationDO } from './test-evaluation-do.js';
export { TestWaveCoordinatorDO } from './test-wave-coordinator.js';
