/**
 * @module
 * The Worker entry: the HTTP API (`fetch`), the job, batches, webhook and dead-letter queue consumers
 * (`queue`, routed by queue name), the cron (`scheduled`: the sweeps' fan-out, a message per shard), and the Durable Object classes: `EvaluationDO`,
 * `RateLimiterDO` (per-tenant request rates), `ProviderGateDO` (per-provider adaptive concurrency),
 * `WebhookLaneDO` (one webhook receiver's deliveries), `WaveCoordinatorDO` (the batch tier's waves) and `TraceDO`
 * (one ingested trace's spans).
 */
import { routeQueue } from '../queues/router.js';
import { RESTART_SWEEP_CRON } from '../queues/sweeper.js';
import { fanOutMaintenance } from '../queues/maintenance.js';
import { app } from './app.js';
import type { Bindings } from './config/bindings.js';
import { applyLogLevel } from './config/vars.js';
import { log, messageOf } from './log/log.js';

export { EvaluationDO } from '../durable-objects/evaluation/index.js';
export { ProviderGateDO } from '../durable-objects/provider-gate/index.js';
export { RateLimiterDO } from '../durable-objects/rate-limiter/index.js';
export { WebhookLaneDO } from '../durable-objects/webhook-lane/index.js';
export { WaveCoordinatorDO } from '../durable-objects/wave-coordinator/index.js';
export { TraceDO } from '../durable-objects/trace/index.js';

export default {
  fetch(request, env, ctx) {
    applyLogLevel(env);
    return app.fetch(request, env, ctx);
  },
  queue(batch, env, _ctx) {
    applyLogLevel(env);
    return routeQueue(batch, env);
  },
  scheduled(controller, env, ctx): Promise<void> {
    applyLogLevel(env);
    // The local stack's sweep after a restart (queues/sweeper.ts): what the gone runtime left is due now.
    const restartedAt = controller.cron === RESTART_SWEEP_CRON ? controller.scheduledTime : undefined;
    // The sweeps, a message per shard (queues/maintenance.ts): the cron itself reads no row. A failed send is
    // logged; the next minute's run sends again.
    ctx.waitUntil(
      fanOutMaintenance(env, Date.now(), restartedAt).catch((e: unknown) => {
        log('error', 'maintenance.fan_out_failed', { error: messageOf(e) });
      }),
    );
    return Promise.resolve();
  },
} satisfies ExportedHandler<Bindings>;
