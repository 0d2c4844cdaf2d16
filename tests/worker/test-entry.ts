/**
 * @module
 * Worker entry of the `worker` test project (tests/vitest.worker.config.ts `main`): the production
 * Worker, plus test-only Durable Object classes. The config binds `EVALUATION` to
 * {@link TestEvaluationDO}, so the API, the queue consumers and the sweeper all reach the subclass,
 * which behaves exactly like `EvaluationDO` until a test uses one of its hooks.
 *
 * Every handler and object gets workerd's bindings through `withD1Override` (./d1-shards-override.ts): the
 * bindings themselves, unless the running file turned the D1 shards on (tests/worker-shards/), when
 * `D1_SHARDS` is that file's count for the API, the queue consumers, the cron and the objects alike.
 */
import type { Bindings } from '../../src/config/bindings.js';
import * as production from '../../src/index.js';
import { withD1Override } from './d1-shards-override.js';
import * as evaluation from './test-evaluation-do.js';
import * as waves from './test-wave-coordinator.js';

const worker = production.default;

/** The production handlers, each given the bindings with the running file's `D1_SHARDS` override. */
export default {
  fetch: (request, env, ctx) => worker.fetch(request, withD1Override(env), ctx),
  queue: (batch, env, ctx) => worker.queue(batch, withD1Override(env), ctx),
  scheduled: (controller, env, ctx) => worker.scheduled(controller, withD1Override(env), ctx),
} satisfies ExportedHandler<Bindings>;

/** A Durable Object class as workerd constructs it. */
type ObjectClass = new (ctx: DurableObjectState, env: Bindings) => object;

/** `Base` with a constructor that hands it the bindings with the running file's `D1_SHARDS` override. */
function onOverriddenBindings<C extends ObjectClass>(Base: C): C {
  const base: ObjectClass = Base;
  return class extends base {
    constructor(ctx: DurableObjectState, env: Bindings) {
      super(ctx, withD1Override(env));
    }
  } as unknown as C;
}

/** The production objects, each on the overridden bindings. */
export const EvaluationDO = onOverriddenBindings(production.EvaluationDO);
export const ProviderGateDO = onOverriddenBindings(production.ProviderGateDO);
export const RateLimiterDO = onOverriddenBindings(production.RateLimiterDO);
export const TraceDO = onOverriddenBindings(production.TraceDO);
export const WaveCoordinatorDO = onOverriddenBindings(production.WaveCoordinatorDO);
export const WebhookLaneDO = onOverriddenBindings(production.WebhookLaneDO);

/** The test subclass with hooks (./test-evaluation-do.ts), on the overridden bindings. */
export const TestEvaluationDO = onOverriddenBindings(evaluation.TestEvaluationDO);

/** The test subclass with a crash hook (./test-wave-coordinator.ts), on the overridden bindings. */
export const TestWaveCoordinatorDO = onOverriddenBindings(waves.TestWaveCoordinatorDO);
